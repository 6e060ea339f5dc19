#!/usr/bin/env python3
"""fwcheck --tree over a tree generated here, checked line by line.

    check_fwcheck_tree.py FWCHECK

The tree (under a temporary root, with a key made by openssl): signed,
tampered and unsigned blobs, blobs signed then compressed (zstd, xz), a
compressed blob beside its uncompressed NAME (checked once), a
decompression bomb, a corrupt .zst, a symbolic link out of the root, one
inside the tree, a FIFO, nested directories. Every --json object must
be its own file's (name, verdict, exit and the digest of that file's
bytes, decompressed), every file that should be checked has exactly one
object and one stderr line, signatures none, and the summary counts them.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    sys.exit('FAIL ' + msg)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def blob(label, size=4096):
    """Distinct deterministic bytes per file."""
    out = b''
    i = 0
    while len(out) < size:
        out += hashlib.sha256(b'%s %d' % (label.encode(), i)).digest()
        i += 1
    return out[:size]


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix='vouch-fwtree-') as tmp:
        root = os.path.join(tmp, 'root')
        fw = os.path.join(root, 'lib', 'firmware')
        key, cert = os.path.join(tmp, 'k.key'), os.path.join(tmp, 'k.pem')
        subprocess.run(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt',
                        'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-subj',
                        '/CN=vouch fwtree', '-days', '2', '-out', cert],
                       check=True, capture_output=True)

        def sign(rel, over=None):
            subprocess.run(['openssl', 'cms', '-sign', '-binary', '-in',
                            os.path.join(fw, over or rel), '-signer', cert, '-inkey', key,
                            '-nosmimecap', '-outform', 'DER', '-out',
                            os.path.join(fw, rel + '.p7s')], check=True)

        def compress(rel, prog):
            # zstd keeps its input unless told, xz removes it: NAME goes in both.
            subprocess.run([prog, '-q', '-f'] + (['--rm'] if prog == 'zstd' else []) +
                           [os.path.join(fw, rel)], check=True)

        # name -> (exit, bytes whose digest the line must report, or None)
        want = {}
        for rel in ['a/good.bin', 'a/b/c/deep.bin', 'top.bin']:
            data = blob(rel)
            write(os.path.join(fw, rel), data)
            sign(rel)
            want[rel] = (0, data)
        write(os.path.join(fw, 'a/bad.bin'), blob('bad'))
        write(os.path.join(fw, 'a/bad.bin.p7s'),
              open(os.path.join(fw, 'a/good.bin.p7s'), 'rb').read())
        want['a/bad.bin'] = (1, blob('bad'))
        write(os.path.join(fw, 'a/unsigned.bin'), blob('unsigned'))
        want['a/unsigned.bin'] = (1, blob('unsigned'))
        # Signed, then compressed (as distributions ship firmware): checked as NAME.
        for rel, prog in [('z/one.bin', 'zstd'), ('z/two.bin', 'xz')]:
            data = blob(rel)
            write(os.path.join(fw, rel), data)
            sign(rel)
            compress(rel, prog)       # removes rel
            want[rel] = (0, data)
        # A signature over the compressed bytes covers nothing.
        data = blob('z/cs.bin')
        write(os.path.join(fw, 'z/cs.bin'), data)
        compress('z/cs.bin', 'zstd')
        sign('z/cs.bin', over='z/cs.bin.zst')
        want['z/cs.bin'] = (1, data)
        # NAME and NAME.xz: the loader takes NAME; checked once, as NAME.
        data = blob('z/both.bin')
        write(os.path.join(fw, 'z/both.bin'), data)
        sign('z/both.bin')
        write(os.path.join(fw, 'z/both.bin.xz'), b'not even xz')
        want['z/both.bin'] = (0, data)
        # A bomb (past max-size) and a corrupt stream.
        write(os.path.join(fw, 'z/bomb.bin'), bytes(3 << 20))
        compress('z/bomb.bin', 'zstd')
        want['z/bomb.bin'] = (3, None)
        write(os.path.join(fw, 'z/corrupt.bin.zst'), b'\x28\xb5\x2f\xfd' + blob('junk', 64))
        want['z/corrupt.bin'] = (3, None)
        # A .gz is not a compressed variant: checked as itself (unsigned).
        write(os.path.join(fw, 'z/other.gz'), b'\x1f\x8b' + blob('gz', 32))
        want['z/other.gz'] = (1, b'\x1f\x8b' + blob('gz', 32))
        # Links: out of the root (resolved inside it: nothing there), to a
        # file of the root outside the tree (refused), inside the tree (followed).
        write(os.path.join(tmp, 'outside.bin'), blob('outside'))
        write(os.path.join(root, 'secret.bin'), blob('secret'))
        os.symlink(os.path.join(tmp, 'outside.bin'), os.path.join(fw, 'abs-out.bin'))
        os.makedirs(os.path.join(fw, 'l'))
        os.symlink('../../../../outside.bin', os.path.join(fw, 'l/rel-out.bin'))
        os.symlink('../../../secret.bin', os.path.join(fw, 'l/secret.bin'))
        os.symlink('../a/good.bin', os.path.join(fw, 'l/good.bin'))
        os.symlink('../a/good.bin.p7s', os.path.join(fw, 'l/good.bin.p7s'))  # beside the name
        os.symlink('../a', os.path.join(fw, 'l/dir'))     # a link to a directory: not walked
        want['abs-out.bin'] = (66, None)
        want['l/rel-out.bin'] = (66, None)
        want['l/secret.bin'] = (1, None)
        want['l/good.bin'] = (0, blob('a/good.bin'))
        want['l/dir'] = (1, None)
        os.mkfifo(os.path.join(fw, 'a/fifo'))
        want['a/fifo'] = (1, None)

        policy = os.path.join(tmp, 'fw.policy')
        with open(policy, 'w') as f:
            f.write('keyring %s\nsignature detached\nmax-size 2M\ncompression zstd xz\n' % cert)
        args = [tool, '--policy', policy, '--root', root, '--tree', '/lib/firmware', '--json']
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        worst = max(code for code, _ in want.values())
        if p.returncode != worst:
            fail('exit %d, want %d\n%s' % (p.returncode, worst, p.stderr))
        objs = [json.loads(line) for line in p.stdout.splitlines()]
        summary = objs.pop()['summary']
        names = [o['name'] for o in objs]
        if sorted(names) != sorted(want):
            fail('names %r, want %r' % (sorted(names), sorted(want)))
        for o in objs:
            code, data = want[o['name']]
            if o['exit'] != code:
                fail('%s: exit %d, want %d (%s)' % (o['name'], o['exit'], code, o['reason']))
            if (o['verdict'] == 'accepted') != (code == 0):
                fail('%s: verdict %s' % (o['name'], o['verdict']))
            if data is not None:
                if o['digest']['hex'] != hashlib.sha256(data).hexdigest() or o['size'] != len(data):
                    fail('%s: the line reports another file\'s bytes: %r' % (o['name'], o))
        comp = {o['name']: o.get('compressed') for o in objs}
        if comp['z/one.bin']['format'] != 'zstd' or not comp['z/one.bin']['file'].endswith('z/one.bin.zst'):
            fail('z/one.bin: compressed %r' % comp['z/one.bin'])
        if comp['z/two.bin']['format'] != 'xz' or comp['z/both.bin'] is not None:
            fail('compressed: %r' % comp)
        if comp['z/bomb.bin']['format'] != 'zstd':
            fail('z/bomb.bin: %r' % comp['z/bomb.bin'])
        # The summary counts them; the signature files are skipped.
        by_exit = {}
        for code, _ in want.values():
            by_exit[str(code)] = by_exit.get(str(code), 0) + 1
        nsig = sum(1 for d, _, fs in os.walk(fw) for n in fs if n.endswith('.p7s'))
        if (summary['checked'] != len(want) or summary['by_exit'] != by_exit or
                summary['accepted'] != by_exit['0'] or summary['exit'] != worst or
                summary['signatures_skipped'] != nsig or summary['tree'] != '/lib/firmware'):
            fail('summary %r, want by_exit %r, %d signatures' % (summary, by_exit, nsig))
        # stderr: one line per file, each naming it, then the summary (no progress:
        # stderr is not a terminal).
        lines = p.stderr.splitlines()
        if '\r' in p.stderr or not lines[-1].startswith('fwcheck: tree /lib/firmware: %d checked' % len(want)):
            fail('stderr summary:\n' + p.stderr)
        for n, (code, _) in want.items():
            mine = [l for l in lines if l.startswith('fwcheck: %s: ' % n)]
            verdicts = [l for l in mine if ': read from ' not in l]
            if len(verdicts) != 1 or (('accepted' in verdicts[0]) != (code == 0)):
                fail('%s: stderr lines %r' % (n, mine))
        # The root itself, and a directory that cannot be: exit 66 and 64.
        p = subprocess.run([tool, '--policy', policy, '--root', root, '--tree', '/', '-q'],
                           capture_output=True, text=True)
        if p.returncode != worst or p.stderr:   # -q: no line, no summary
            fail('--tree /: %d\n%s' % (p.returncode, p.stderr))
        for d, code in [('/nowhere', 66), ('/lib/../..', 64)]:
            p = subprocess.run([tool, '--policy', policy, '--root', root, '--tree', d],
                               capture_output=True, text=True)
            if p.returncode != code:
                fail('--tree %s: exit %d, want %d' % (d, p.returncode, code))
        # Usage: --tree with names or --file.
        for extra in [['x.bin'], ['--file', policy]]:
            p = subprocess.run(args + extra, capture_output=True, text=True)
            if p.returncode != 64:
                fail('usage %r: %d' % (extra, p.returncode))
    print('ok')


main()
