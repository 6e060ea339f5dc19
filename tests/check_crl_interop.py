#!/usr/bin/env python3
"""pkcs7verify's CRL handling against `openssl cms -verify` on CRLs made by `openssl ca`.

    check_crl_interop.py PKCS7VERIFY DIR [--openssl PATH]

Makes a fresh CA hierarchy, its CRLs, signatures and manifest in DIR (emptied
first) with tests/interop/crl/gen-crl-fixtures, then runs, for every case and
every mode (the manifest's `modes`, like with like):

    chain    pkcs7verify --crl-check        openssl cms -verify -crl_check_all
    leaf     pkcs7verify --crl-check=leaf   openssl cms -verify -crl_check
    default  pkcs7verify                    openssl cms -verify
    nocrl    pkcs7verify --no-crl           openssl cms -verify

with pkcs7verify given `--trust TRUST --crl CRL... --content content.bin` and
OpenSSL `-purpose any -CAfile` a file holding TRUST and the same CRLs (PEM)
and `-content content.bin`, plus the case's own arguments (a --check-time=@T
and its -attime T). pkcs7verify's exit code must be the manifest's;
OpenSSL's verdict must be the manifest's, and a refusal must give the
manifest's reason (so the case is what it claims to be);
where the two verdicts differ the manifest says why, and a documented
difference that stops showing fails too. Also: where pkcs7verify exits 1 on a
revoked certificate its stderr says "revoked" and the reason's name; where a
CRL applies but cannot be used, the default mode warns ("pkcs7verify:
warning: CRL") and --no-crl does not; where --crl-check exits 2 it says "no
usable CRL"; the same runs with --json (--crl-check and none) give the same
verdict and exit, errno EKEYREVOKED with the revoked certificate's name and
reason, and a crl_notes entry where the default mode warns. A malformed --crl
file (truncated, trailing bytes, bad base64, a certificate under a CRL label)
must give exit 3 and a message naming it, with and without --crl-check. A
table of every disagreement is printed.

Without a pkcs7verify that knows --crl (before issue 27's CLI), only the
OpenSSL half runs and the test skips (77). Without openssl it skips too,
unless CI=true.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import checklib  # tests/checklib.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, 'interop', 'crl', 'gen-crl-fixtures')
WARNING = 'pkcs7verify: warning: CRL'


def skip(why):
    return checklib.skip('check_crl_interop', why)


# A sanitizer's report (build-asan) counts as a crash, whatever the exit code:
# ASan and UBSan exit 1, the code of a refusal.
SANITIZER = ('ERROR: AddressSanitizer', 'ERROR: LeakSanitizer', 'runtime error:')


def run(args, cwd):
    try:
        p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors='replace',
                           timeout=60)
    except subprocess.TimeoutExpired:
        return -999, 'timed out'
    out = p.stdout + p.stderr
    if any(s in p.stderr for s in SANITIZER):
        return -998, out
    return p.returncode, out


def vouch_args(tool, modes, c, mode):
    args = [tool, '--trust', c['trust'], '--content', c['content']]
    for crl in c['crls']:
        args += ['--crl', crl]
    return args + modes[mode]['vouch'] + c['vouch_args'] + [c['sig']]


def openssl_args(openssl, modes, c, mode):
    return [openssl, 'cms', '-verify', '-binary', '-inform', 'DER', '-in', c['sig'],
            '-content', c['content'], '-purpose', 'any', '-CAfile', 'cafile-' + c['name'],
            '-out', os.devnull] + modes[mode]['openssl'] + c['openssl_args']


def check_case(tool, openssl, modes, d, c):
    """(failures, disagreement rows, {mode: (vouch verdict, openssl verdict)})."""
    with open(os.path.join(d, 'cafile-' + c['name']), 'wb') as f:
        for p in c['cafile']:
            with open(os.path.join(d, p), 'rb') as g:
                f.write(g.read())
    fails, rows, seen = [], [], {}
    for mode in modes:
        ocmd = openssl_args(openssl, modes, c, mode)
        ocode, oout = run(ocmd, d)
        theirs = checklib.verdict(ocode)
        where = '%s [%s]' % (c['name'], mode)
        if theirs != c['openssl'][mode]:
            fails.append('%s: openssl %s (exit %d), the case means %s (%s)\n  %s\n  %s'
                         % (where, theirs, ocode, c['openssl'][mode], c['why'],
                            ' '.join(ocmd), oout.strip().replace('\n', '\n  ')))
        elif theirs == 'refused' and c['openssl_error'] not in oout:
            fails.append('%s: openssl refused, but not with "%s" (%s)\n  %s\n  %s'
                         % (where, c['openssl_error'], c['why'], ' '.join(ocmd),
                            oout.strip().replace('\n', '\n  ')))
        if tool is None:
            seen[mode] = (None, theirs)
            continue
        vcmd = vouch_args(tool, modes, c, mode)
        code, out = run(vcmd, d)
        mine = checklib.verdict(code)
        seen[mode] = (mine, theirs)
        shown = 'pkcs7verify ' + ' '.join(vcmd[1:])
        want = c['expect'][mode]
        if code != want:
            fails.append('%s: pkcs7verify exit %d, want %d (%s)\n  %s\n  %s'
                         % (where, code, want, c['why'], shown,
                            out.strip().replace('\n', '\n  ')))
        elif code == 1 and c['reason'] and \
                ('revoked' not in out or c['reason'].lower() not in out.lower()):
            fails.append('%s: exit 1 but stderr does not say "revoked" and %s\n  %s\n  %s'
                         % (where, c['reason'], shown, out.strip()))
        elif code == 2 and mode in ('chain', 'leaf') and 'no usable CRL' not in out:
            fails.append('%s: exit 2 but stderr does not say "no usable CRL"\n  %s\n  %s'
                         % (where, shown, out.strip()))
        warned = any(line.startswith(WARNING) for line in out.splitlines())
        if mode == 'default' and c['warn'] and not warned:
            fails.append('%s: a CRL applies but cannot be used, and no "%s" line\n  %s\n  %s'
                         % (where, WARNING, shown, out.strip()))
        if mode == 'nocrl' and warned:
            fails.append('%s: --no-crl still speaks of CRLs\n  %s\n  %s'
                         % (where, shown, out.strip()))
        if mode in ('chain', 'default'):
            fails += check_json(vcmd, d, c, mode, code)
        doc = c['diff'].get(mode)
        if mine != theirs:
            rows.append((c['name'], mode, mine, theirs, doc))
            if doc is None:
                fails.append('%s: unexplained disagreement: pkcs7verify %s (exit %d), '
                             'openssl %s (exit %d)\n  %s\n  %s'
                             % (where, mine, code, theirs, ocode, shown, ' '.join(ocmd)))
        elif doc is not None:
            fails.append('%s: documented difference not seen (both %s): %s'
                         % (where, mine, doc))
    return fails, rows, seen


def check_json(vcmd, d, c, mode, code):
    """Failures of the same run with --json: its verdict and exit; the revoked
    certificate's name and reason where one is revoked; a crl_notes entry where
    a CRL applies but cannot be used (the default mode)."""
    where = '%s [%s] --json' % (c['name'], mode)
    p = subprocess.run(vcmd[:1] + ['--json'] + vcmd[1:], cwd=d, capture_output=True,
                       text=True, timeout=60)
    if any(s in p.stderr for s in SANITIZER):
        return ['%s: %s' % (where, p.stderr.strip())]
    try:
        j = json.loads(p.stdout)
        signer = j['signers'][0] if j.get('signers') else {}
    except (ValueError, AttributeError) as e:
        return ['%s: not one JSON object (%s): %r' % (where, e, p.stdout[:200])]
    fails = []
    if p.returncode != code or j.get('exit') != code or \
            j.get('verdict') != ('accepted' if code == 0 else 'refused'):
        fails.append('%s: exit %d, verdict %r exit %r; without --json exit %d'
                     % (where, p.returncode, j.get('verdict'), j.get('exit'), code))
    if code == 1 and c['revoked']:
        rv = signer.get('revoked') or {}
        if j.get('errno') != 'EKEYREVOKED' or rv.get('reason') != c['reason'] or \
                'CN = %s,' % c['revoked'] not in rv.get('subject', '') + ',':
            fails.append('%s: errno %r, revoked %r; want EKEYREVOKED, CN %s, %s'
                         % (where, j.get('errno'), rv, c['revoked'], c['reason']))
    if mode == 'default' and c['warn'] and not j.get('crl_notes'):
        fails.append('%s: a CRL applies but cannot be used, and crl_notes is empty' % where)
    return fails


def check_malformed(tool, d):
    """A malformed --crl file: exit 3, naming the file, in each mode that reads CRLs."""
    der = open(os.path.join(d, 'int.crl.der'), 'rb').read()
    pem = open(os.path.join(d, 'int.crl'), 'rb').read()
    bad = {'crl-truncated.der': der[:len(der) // 2],
           'crl-trailing.der': der + b'\0',
           'crl-bad-base64.pem': pem.replace(b'\n', b'\n*', 3),
           'crl-not-a-crl.pem': open(os.path.join(d, 'int.pem'), 'rb').read().replace(
               b'CERTIFICATE', b'X509 CRL')}
    fails = []
    for name, data in sorted(bad.items()):
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)
        for extra in ([], ['--crl-check'], ['--crl-check=leaf']):
            args = [tool, '--trust', 'root.pem', '--crl', 'root.crl', '--crl', name,
                    '--content', 'content.bin'] + extra + ['sig-leaf.der']
            code, out = run(args, d)
            if code != 3 or name not in out:
                fails.append('malformed --crl %s: exit %d, want 3 and a message naming it\n'
                             '  pkcs7verify %s\n  %s' % (name, code, ' '.join(args[1:]),
                                                         out.strip()))
    return fails, len(bad) * 3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('tool')
    ap.add_argument('dir')
    ap.add_argument('--openssl', default=shutil.which('openssl'))
    opt = ap.parse_args()
    if not opt.openssl:
        return skip('openssl not found')
    tool = os.path.abspath(opt.tool)
    usage = subprocess.run([tool, '--help'], capture_output=True, text=True)
    if '--crl' not in usage.stdout + usage.stderr:
        print('check_crl_interop: %s has no --crl option: OpenSSL against the manifest only'
              % opt.tool)
        tool = None
    print('check_crl_interop: %s' % run([opt.openssl, 'version'], '.')[1].strip())

    d = os.path.abspath(opt.dir)
    shutil.rmtree(d, ignore_errors=True)
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(opt.openssl)) + os.pathsep +
               os.environ.get('PATH', ''))
    g = subprocess.run([sys.executable, GEN, d], env=env)
    if g.returncode:
        print('check_crl_interop: FAIL: gen-crl-fixtures exited %d' % g.returncode)
        return 1
    manifest = json.load(open(os.path.join(d, 'manifest.json')))
    modes, cases = manifest['modes'], manifest['cases']

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: check_case(tool, opt.openssl, modes, d, c), cases))
    fails, rows = [], []
    counts = {who: {m: {'accepted': 0, 'refused': 0, 'crashed': 0} for m in modes}
              for who in ('vouch', 'openssl')}
    nbad = 0
    if tool:
        f, nbad = check_malformed(tool, d)
        fails += f
    for f, r, seen in results:
        fails += f
        rows += r
        for m, (mine, theirs) in seen.items():
            counts['openssl'][m][theirs] += 1
            if mine:
                counts['vouch'][m][mine] += 1

    if tool:
        print('\nDisagreements of pkcs7verify with openssl cms -verify (%d):' % len(rows))
        print('%-24s %-8s %-9s %-9s %s' % ('case', 'mode', 'vouch', 'openssl', 'why'))
        for name, m, mine, theirs, why in rows:
            print('%-24s %-8s %-9s %-9s %s' % (name, m, mine, theirs, why or 'UNEXPLAINED'))
    print('\ncheck_crl_interop: %d cases x %d modes, %d malformed --crl runs; verdicts %s; '
          '%d disagreements' % (len(cases), len(modes), nbad, json.dumps(counts), len(rows)))

    # The set is what it should be, and both verifiers judged it.
    for who in ('openssl', 'vouch') if tool else ('openssl',):
        for m in ('chain', 'leaf'):
            if counts[who][m]['accepted'] < 3 or counts[who][m]['refused'] < 10:
                fails.append('%s in mode %s accepted %d and refused %d cases: too few'
                             % (who, m, counts[who][m]['accepted'], counts[who][m]['refused']))
    codes = {c['expect'][m] for c in cases for m in modes}
    if len(cases) < 20 or codes != {0, 1, 2}:
        fails.append('%d cases, exit codes %s: fewer than 20 or not each of 0, 1, 2'
                     % (len(cases), sorted(codes)))
    if tool and any(counts['vouch'][m]['crashed'] for m in modes):
        fails.append('pkcs7verify crashed (a signal, a sanitizer report or a timeout)')
    if checklib.report('check_crl_interop', fails):
        return 1
    return 0 if tool else skip('OpenSSL agrees with the manifest, but %s has no --crl'
                               % opt.tool)


if __name__ == '__main__':
    sys.exit(main())
