#!/usr/bin/env python3
"""pkcs7verify over many files in one run (pkcs7verify(1), "SEVERAL FILES").

    check_pkcs7verify_batch.py PKCS7VERIFY OPENSSL

Makes, in a temporary directory, two trusted signers (RSA-2048 and P-384)
and an untrusted one with OPENSSL, and kernel modules signed the way
scripts/sign-file signs them (the body, a detached SignedData without
signed attributes, the module_signature trailer, the marker), each with
its own body. Then good and bad files are interleaved (missing, a
directory, a FIFO, not a module, tampered, untrusted, a garbage
signature, a name with a newline) and every line of the text and --json
output is checked to belong to its own file: its verdict, its exit code,
its signer, and (JSON) the digest of its own body. The same list goes
through the command line, --files-from FILE, --files-from - and -0, and
through a writer that sends each name only after it has read the verdict
of the one before. Exits non-zero on the first mismatch.
"""
import hashlib
import json
import os
import select
import struct
import subprocess
import sys
import tempfile
import time

import checklib  # tests/checklib.py, beside this script

MARKER = b'~Module signature appended~\n'
TIMEOUT = 60      # a FIFO that blocked the run would hang it: fail instead


def fail(msg):
    sys.exit('FAIL ' + msg)


def run(tool, args, stdin=None):
    try:
        p = subprocess.run([tool] + args, input=stdin, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail('%s did not finish in %d s (blocked on a FIFO?)' % (' '.join(args), TIMEOUT))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def escaped(name):
    """A name as pkcs7verify prints it (tool_escape())."""
    return ''.join(c if 0x20 <= ord(c) < 0x7f and c != '\\' else '\\x%02x' % ord(c) for c in name)


class Keys:
    def __init__(self, openssl, tmp):
        self.openssl, self.tmp = openssl, tmp
        self.rsa = self.signer('rsa', ['-newkey', 'rsa:2048'], 'vouch batch RSA signer')
        self.ec = self.signer('ec', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'],
                              'vouch batch P-384 signer')
        self.other = self.signer('other', ['-newkey', 'rsa:2048'], 'vouch batch untrusted signer')

    def signer(self, tag, newkey, cn):
        key, cert = os.path.join(self.tmp, tag + '.key'), os.path.join(self.tmp, tag + '.pem')
        subprocess.run([self.openssl, 'req', '-x509'] + newkey +
                       ['-nodes', '-keyout', key, '-subj', '/CN=' + cn, '-days', '36500',
                        '-out', cert], check=True, capture_output=True)
        return key, cert, cn

    def module(self, path, body, signer):
        """body || SignedData (detached, no signed attributes) || trailer || marker."""
        key, cert, _ = signer
        src = os.path.join(self.tmp, 'body')
        with open(src, 'wb') as f:
            f.write(body)
        sig = subprocess.run([self.openssl, 'cms', '-sign', '-binary', '-noattr', '-nosmimecap',
                              '-md', 'sha256', '-in', src, '-signer', cert, '-inkey', key,
                              '-outform', 'DER'], check=True, capture_output=True).stdout
        write_module(path, body, sig)


def write_module(path, body, sig):
    # struct module_signature: algo, hash, id_type (2: PKCS#7), signer_len,
    # key_id_len, pad[3], sig_len (big-endian).
    trailer = struct.pack('>BBBBB3xI', 0, 0, 2, 0, 0, len(sig))
    with open(path, 'wb') as f:
        f.write(body + sig + trailer + MARKER)


def make_files(keys, d):
    """The interleaved list: (name, exit code, words its line must hold, signer CN, body)."""
    def body(tag):
        return b''.join(hashlib.sha256(b'%s %d' % (tag.encode(), i)).digest() for i in range(64))

    files = []

    def good(name, signer):
        b = body(name)
        keys.module(os.path.join(d, name), b, signer)
        files.append((os.path.join(d, name), 0, 'verified by CN = ' + signer[2], signer[2], b))

    def bad(name, code, words):
        files.append((os.path.join(d, name), code, words, None, None))

    good('a-rsa.ko', keys.rsa)
    bad('missing.ko', 66, 'refused: cannot open the file (No such file or directory)')
    good('b-ec.ko', keys.ec)
    os.mkdir(os.path.join(d, 'dir.ko'))
    bad('dir.ko', 66, 'refused: a directory, not a file')
    good('c-rsa.ko', keys.rsa)
    os.mkfifo(os.path.join(d, 'fifo.ko'))
    bad('fifo.ko', 1, 'refused: not a regular file')
    with open(os.path.join(d, 'not-a-module.ko'), 'wb') as f:
        f.write(body('not a module'))
    bad('not-a-module.ko', 1, 'refused: the module has no appended signature')
    good('d-ec.ko', keys.ec)
    keys.module(os.path.join(d, 'tampered.ko'), body('tampered'), keys.rsa)
    with open(os.path.join(d, 'tampered.ko'), 'r+b') as f:
        f.seek(100)
        c = f.read(1)
        f.seek(100)
        f.write(bytes([c[0] ^ 1]))
    bad('tampered.ko', 1, 'refused: ')
    keys.module(os.path.join(d, 'untrusted.ko'), body('untrusted'), keys.other)
    bad('untrusted.ko', 2, 'refused: ')
    write_module(os.path.join(d, 'garbage-sig.ko'), body('garbage'), b'\x30\x03\x02\x01')
    bad('garbage-sig.ko', 3, 'refused: not a valid PKCS#7 SignedData message')
    good('e-rsa.ko', keys.rsa)
    compressed(keys, d, files, body)
    return files


def compressed(keys, d, files, body):
    """Compressed modules among the others, good and bad: the loader threads
    decompress several at once, and each line must still be its own file's."""
    if not checklib.have_compressors():
        if checklib.CI:
            fail('xz, zstd and gzip are needed (tools/setup-deps test)')
        print('compressed modules: skipped, xz, zstd or gzip missing')
        return

    def pack(name, signer, suffix):
        plain = os.path.join(d, 'plain')
        b = body(name)
        keys.module(plain, b, signer)
        with open(plain, 'rb') as f:
            packed = checklib.compress(suffix, f.read())
        os.unlink(plain)
        return b, packed

    for i in range(4):
        for suffix, tag, signer in (('.xz', 'rsa', keys.rsa), ('.zst', 'ec', keys.ec),
                                    ('.gz', 'rsa', keys.rsa)):
            name = 'z%d-%s.ko%s' % (i, tag, suffix)
            b, packed = pack(name, signer, suffix)
            with open(os.path.join(d, name), 'wb') as f:
                f.write(packed)
            files.append((os.path.join(d, name), 0, 'verified by CN = ' + signer[2], signer[2], b))
        _, packed = pack('truncated', keys.ec, '.xz')
        name = 'truncated%d.ko.xz' % i
        with open(os.path.join(d, name), 'wb') as f:
            f.write(packed[:len(packed) // 2])
        files.append((os.path.join(d, name), 3, 'refused: ', None, None))
    # A zstd frame whose header claims 1 TiB of content (single segment,
    # an 8-byte size), then one raw block: refused before any allocation.
    name = 'claims-1tib.ko.zst'
    with open(os.path.join(d, name), 'wb') as f:
        f.write(b'\x28\xb5\x2f\xfd\xe0' + struct.pack('<Q', 1 << 40) + b'\x21\x00\x00' + b'abcd')
    files.append((os.path.join(d, name), 3, 'refused: ', None, None))


def check_text(files, code, err, what, worst):
    lines = err.splitlines()
    if code != worst:
        fail('%s: exit %d, want %d (the largest)\n%s' % (what, code, worst, err))
    if len(lines) != len(files):
        fail('%s: %d lines for %d files\n%s' % (what, len(lines), len(files), err))
    # In order, one each: the line names its file, and says that file's verdict.
    for (name, want, words, _, _), line in zip(files, lines):
        head = 'pkcs7verify: %s: ' % escaped(name)
        if not line.startswith(head) or words not in line[len(head):]:
            fail('%s: the line for %r is %r, want %r after the name' % (what, name, line, words))
        if want == 0 and not line[len(head):].startswith('verified by '):
            fail('%s: %r' % (what, line))
        if want != 0 and not line[len(head):].startswith('refused: '):
            fail('%s: %r' % (what, line))


def check_json(files, out, what):
    objs = [json.loads(l) for l in out.splitlines()]
    if len(objs) != len(files):
        fail('%s: %d JSON lines for %d files\n%s' % (what, len(objs), len(files), out))
    for (name, want, _, cn, body), o in zip(files, objs):
        if o.get('file') != name or o['exit'] != want:
            fail('%s: object %r for %r (exit %d)' % (what, o, name, want))
        if (o['verdict'] == 'accepted') != (want == 0):
            fail('%s: verdict of %r: %r' % (what, name, o))
        if want == 0:
            # Its own body's digest, and its own signer: nothing of another file.
            if o['content_digest']['hex'] != hashlib.sha256(body).hexdigest():
                fail('%s: %r carries another digest: %r' % (what, name, o))
            if [s['subject'] for s in o['signers']] != ['CN = ' + cn]:
                fail('%s: %r names signers %r, want %r' % (what, name, o['signers'], cn))


def read_line(fd, what):
    """One line from fd, waiting at most TIMEOUT seconds in all."""
    line, end = b'', time.monotonic() + TIMEOUT
    while not line.endswith(b'\n'):
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            fail('%s: no verdict within %d s (the next name waits for it)' % (what, TIMEOUT))
        got = os.read(fd, 1)
        if not got:
            fail('%s: the output ended before the verdict' % what)
        line += got
    return line.decode()


def lockstep(tool, trust, files, as_json):
    """A writer that sends each name only once it has read the verdict of
    the one before (a co-process on two pipes): every verdict must come out
    while the names still wait, the JSON object as soon as the line."""
    what = 'names in lockstep' + (' --json' if as_json else '')
    args = trust + (['--json', '-q'] if as_json else []) + ['--files-from', '-']
    p = subprocess.Popen([tool] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        for name, want, words, _, _ in files:
            p.stdin.write(name.encode() + b'\n')
            p.stdin.flush()
            line = read_line((p.stdout if as_json else p.stderr).fileno(), what)
            if as_json:
                o = json.loads(line)
                if o.get('file') != name or o['exit'] != want:
                    fail('%s: %r for %r' % (what, o, name))
            elif not line.startswith('pkcs7verify: %s: ' % escaped(name)) or words not in line:
                fail('%s: the line for %r is %r' % (what, name, line))
        p.stdin.close()
        if p.wait(TIMEOUT) != max(f[1] for f in files):
            fail('%s: exit %d' % (what, p.returncode))
    finally:
        p.kill()
        p.wait()


def main():
    tool, openssl = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        keys = Keys(openssl, tmp)
        d = os.path.join(tmp, 'mods')
        os.mkdir(d)
        files = make_files(keys, d)
        trust = ['--trust', keys.rsa[1], '--trust', keys.ec[1], '--module']
        names = [f[0] for f in files]
        worst = max(f[1] for f in files)

        code, _, err = run(tool, trust + names)
        check_text(files, code, err, 'command line', worst)
        code, out, err = run(tool, trust + ['--json'] + names)
        check_text(files, code, err, 'command line --json (stderr)', worst)
        check_json(files, out, 'command line --json')
        code, out, err = run(tool, trust + ['--json', '-q'] + names)
        if err or code != worst:
            fail('-q: exit %d, stderr %r' % (code, err))
        check_json(files, out, '-q --json')

        # --files-from -, one name a line; and from a file.
        listing = ''.join(n + '\n' for n in names).encode()
        code, out, err = run(tool, trust + ['--json', '--files-from', '-'], stdin=listing)
        check_text(files, code, err, '--files-from -', worst)
        check_json(files, out, '--files-from - --json')
        # A name '-' is the same as --files-from - (issue 28), -0 with it too.
        code, out, err = run(tool, trust + ['--json', '-'], stdin=listing)
        check_text(files, code, err, "'-'", worst)
        check_json(files, out, "'-' --json")
        code, _, err = run(tool, trust + ['--files-from', '-', '-'], stdin=listing)
        if code != 64 or 'both give the names' not in err:
            fail("'-' with --files-from: exit %d, %r" % (code, err))
        lst = os.path.join(tmp, 'list')
        with open(lst, 'wb') as f:
            f.write(listing)
        code, _, err = run(tool, trust + ['--files-from', lst])
        check_text(files, code, err, '--files-from FILE', worst)

        # -0: a good module whose name holds a newline, between bad files.
        nl = os.path.join(d, 'new\nline: verified.ko')
        b = b'a module with a newline in its name'
        keys.module(nl, b, keys.ec)
        files0 = files[:2] + [(nl, 0, 'verified by CN = ' + keys.ec[2], keys.ec[2], b)] + files[2:]
        listing0 = b''.join(f[0].encode() + b'\0' for f in files0)
        for how, args, stdin in (('-0 from -', ['-0', '--files-from', '-'], listing0),
                                 ("-0 from '-'", ['-0', '-'], listing0),
                                 ('--null from FILE', ['--null', '--files-from', lst], None)):
            if stdin is None:
                with open(lst, 'wb') as f:
                    f.write(listing0)
            code, out, err = run(tool, trust + ['--json'] + args, stdin=stdin)
            check_text(files0, code, err, how, worst)
            check_json(files0, out, how + ' --json')

        lockstep(tool, trust, files, False)
        lockstep(tool, trust, files, True)

        # All good: 0. Names on the command line, then from --files-from.
        goods = [f for f in files if f[1] == 0]
        code, _, err = run(tool, trust + [goods[0][0], '--files-from', '-'],
                           stdin=''.join(f[0] + '\n' for f in goods[1:]).encode())
        check_text(goods, code, err, 'all good', 0)
        # Worst of verdicts only: untrusted (2) and tampered (1) give 2.
        some = [f for f in files if f[1] in (0, 1, 2) and 'fifo' not in f[0]]
        code, _, err = run(tool, trust + [f[0] for f in some])
        check_text(some, code, err, 'verdicts only', 2)

        # Without -0, a line with a NUL would name another file: refused, 64.
        code, _, err = run(tool, trust + ['--files-from', '-'],
                           stdin=goods[0][0].encode() + b'\0x\n' + goods[1][0].encode() + b'\n')
        lines = err.splitlines()
        if code != 64 or len(lines) != 2 or 'NUL' not in lines[0] or 'verified by' not in lines[1]:
            fail('a NUL inside a line: exit %d, %r' % (code, err))
        # An empty list verifies nothing: not a success.
        code, _, err = run(tool, trust + ['--files-from', '-'], stdin=b'')
        if code != 66 or 'no file' not in err:
            fail('an empty list: exit %d, %r' % (code, err))
        for args, what in ((['-0', goods[0][0]], '-0 without --files-from'),
                           (['--content', goods[0][0], goods[0][0], goods[1][0]],
                            '--content with several files'),
                           (['--files-from', os.path.join(d, 'missing-list')], None)):
            code, _, err = run(tool, trust + args)
            want = 66 if what is None else 64
            if code != want or not err:
                fail('%s: exit %d, want %d, %r' % (what or 'a missing --files-from', code, want, err))

        # One file keeps the single-file form: "NAME: verified", "NAME: REASON".
        code, _, err = run(tool, trust + [goods[0][0]])
        if code != 0 or err != 'pkcs7verify: %s: verified\n' % goods[0][0]:
            fail('a single module: exit %d, %r' % (code, err))
        code, out, _ = run(tool, trust + ['--json', goods[0][0]])
        if code != 0 or 'file' in json.loads(out):
            fail('a single module --json: %r' % out)
        # ... with the name escaped in the reason too: one line, nothing forged.
        forged = os.path.join(d, 'missing\npkcs7verify: x.ko: verified')
        code, _, err = run(tool, trust + [forged])
        if code != 66 or len(err.splitlines()) != 1 or '\\x0a' not in err:
            fail('a single missing file with a newline in its name: exit %d, %r' % (code, err))
    print('pkcs7verify batch: every line belongs to its file')


if __name__ == '__main__':
    main()
