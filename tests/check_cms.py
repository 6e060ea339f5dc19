#!/usr/bin/env python3
"""pkcs7verify on CMS messages made by OpenSSL and GnuTLS, by manifest.

    check_cms.py PKCS7VERIFY DIR
    check_cms.py PKCS7VERIFY --fresh [--openssl OPENSSL] [--seed N] [--keep DIR]

DIR: a set made by tests/interop/gen-cms.py (tests/data/cms is one); every
row's exit code must be its category's. --fresh: a new set with new keys,
made in a temporary directory, checked the same way, and every verdict
compared with its row's oracle: `openssl cms -verify`, or GnuTLS's
`certtool --p7-verify` for what OpenSSL 3.0 cannot verify (Ed25519 signers,
RFC 8419); a disagreement fails unless DELIBERATE
below explains it, and a documented difference that no longer shows fails
too, so the table stays true.
"""
import argparse
import fnmatch
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

CATEGORY_EXIT = {
    'accepted': 0, 'rejected-signature': 1, 'rejected-denied': 1, 'rejected-expired': 1,
    'rejected-policy': 1, 'no-trusted-key': 2,
    'malformed': 3, 'unsupported': 4,
}

OPENSSL_VERIFY = ['cms', '-verify', '-binary', '-purpose', 'any', '-partial_chain',
                  '-no_check_time', '-out', os.devnull]

# Where vouch and OpenSSL differ on purpose: case-name pattern, then the
# verdicts (vouch, openssl; None: either, it depends on OpenSSL's version)
# and why. A pattern without a '.' names uncorrupted messages only.
DELIBERATE = [
    ('nocerts-chain-*', ('accepted', None),
     'OpenSSL 3.0 builds chains only from the message\'s certificates (CMS_verify), '
     '-certfile is searched for signer certificates only; vouch uses --certs for both'),
    ('sha1-p256', ('refused', 'accepted'),
     'vouch refuses SHA-1 unless --allow-sha1 (docs/contracts.md: disabled by policy, exit 4)'),
    ('two-signers-one-untrusted', ('accepted', 'refused'),
     'one signer chaining to the keyring suffices, as in the kernel (pkcs7_validate_trust); '
     'CMS_verify wants every signer verified'),
    ('module-attr-nowaiver-*', ('refused', 'accepted'),
     'an ML-DSA module signature with signed attributes: the kernel refuses it unless built with '
     'CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA, and so does vouch unless '
     '--mldsa-module-attrs; the signature itself is valid, which is all noble checks'),
    ('chain1-*.cert', ('accepted', 'refused'),
     'a signer certificate whose public key is trusted is trusted by that key, its own '
     'signature unchecked, as in the kernel; OpenSSL checks the message copy of it against '
     'the -CAfile certificate with the same name'),
]

MODULE_MARKER = b'~Module signature appended~\n'


def rows_of(d):
    with open(os.path.join(d, 'manifest.tsv')) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                fields = line.rstrip('\n').split('\t')
                name, kind, corruption, expect, vouch, oracle_args = fields[:6]
                oracle = fields[6] if len(fields) > 6 else 'openssl'
                yield name, expect, vouch.split(), oracle_args.split(), oracle


def run_vouch(tool, d, args):
    return subprocess.run([os.path.abspath(tool), '-q'] + args, cwd=d,
                          capture_output=True).returncode


def split_module(data):
    """The body and the PKCS#7 of a module-style file, read independently of vouch."""
    if not data.endswith(MODULE_MARKER) or len(data) < len(MODULE_MARKER) + 12:
        return None
    end = len(data) - len(MODULE_MARKER) - 12
    sig_len = struct.unpack('>I', data[end + 8:end + 12])[0]
    if sig_len == 0 or sig_len >= end:
        return None
    return data[:end - sig_len], data[end - sig_len:end]


def run_openssl(openssl, d, args):
    """0 if `openssl cms -verify` accepts; @sig:/@body: split a module file first."""
    with tempfile.TemporaryDirectory() as tmp:
        out = []
        for a in args:
            kind, _, path = a.partition(':')
            if kind not in ('@sig', '@body'):
                out.append(a)
                continue
            parts = split_module(open(os.path.join(d, path), 'rb').read())
            if parts is None:
                return 1        # no signature to verify
            part = os.path.join(tmp, kind[1:])
            with open(part, 'wb') as f:
                f.write(parts[1] if kind == '@sig' else parts[0])
            out.append(part)
        return subprocess.run([openssl] + OPENSSL_VERIFY + out, cwd=d,
                              capture_output=True).returncode


def run_certtool(d, args):
    """0 if GnuTLS's `certtool --p7-verify` accepts."""
    return subprocess.run([shutil.which('certtool')] + args, cwd=d,
                          capture_output=True).returncode


def run_oracle(openssl, oracle, d, args):
    if oracle == 'noble':       # the verdict itself, by tests/interop/mldsa/gen-mldsa.mjs
        return 0 if args[:1] == ['accepted'] else 1
    return run_certtool(d, args) if oracle == 'gnutls' else run_openssl(openssl, d, args)


def deliberate(name):
    for pattern, verdicts, why in DELIBERATE:
        if fnmatch.fnmatchcase(name, pattern) and ('.' in name) == ('.' in pattern):
            return verdicts, why
    return None, None


def check_row(tool, openssl, d, row):
    """A list of failures for one row (empty if it is as it should be)."""
    name, expect, vouch_args, oracle_args, oracle = row
    code = run_vouch(tool, d, vouch_args)
    fails = []
    if code != CATEGORY_EXIT[expect]:
        fails.append('%s: pkcs7verify exit %d, want %d (%s)\n  pkcs7verify %s'
                     % (name, code, CATEGORY_EXIT[expect], expect, ' '.join(vouch_args)))
    if openssl is None:
        return fails, False
    verdicts = ('accepted' if code == 0 else 'refused',
                'accepted' if run_oracle(openssl, oracle, d, oracle_args) == 0 else 'refused')
    known, why = deliberate(name)
    if known is not None and any(k not in (None, v) for k, v in zip(known, verdicts)):
        fails.append('%s: documented difference (%s) not seen: vouch %s, openssl %s'
                     % (name, why, *verdicts))
    elif known is None and verdicts[0] != verdicts[1]:
        command = {'gnutls': 'certtool', 'noble': 'noble:'}.get(
            oracle, 'openssl ' + ' '.join(OPENSSL_VERIFY))
        fails.append('%s: disagreement: vouch %s (exit %d), %s %s\n  pkcs7verify %s\n'
                     '  %s %s' % (name, verdicts[0], code, oracle, verdicts[1],
                                  ' '.join(vouch_args), command, ' '.join(oracle_args)))
    return fails, known is not None


def check_dir(tool, openssl, d):
    """openssl: the openssl program (tests/check_mldsa.py passes 'noble': its
    rows carry their verdicts), or None for exit codes only."""
    rows = list(rows_of(d))
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda r: check_row(tool, openssl, d, r), rows))
    fails = [f for fs, _ in results for f in fs]
    for f in fails:
        print('FAIL ' + f)
    what = 'verdicts as the oracles\', %d documented differences' % sum(k for _, k in results) \
        if openssl else 'exit codes as their categories'
    print('check_cms: %d cases in %s, %d failures (%s)' % (len(rows), d, len(fails), what))
    return 1 if fails else 0


def fresh(tool, opt):
    openssl = opt.openssl or shutil.which('openssl')
    if not openssl or not shutil.which('certtool'):
        print('openssl or certtool (gnutls-bin) not found: skipped')
        return 77 if os.environ.get('CI') != 'true' else 1
    seed = opt.seed if opt.seed is not None else random.SystemRandom().randrange(1 << 32)
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'interop', 'gen-cms.py')
    d = opt.keep or tempfile.mkdtemp(prefix='vouch-cms-')
    env = dict(os.environ, PATH=os.path.dirname(openssl) + os.pathsep + os.environ['PATH'])
    try:
        subprocess.run([sys.executable, gen, '--seed', str(seed), d], check=True, env=env)
        rc = check_dir(tool, openssl, d)
        if rc:
            print('reproduce the choices with: gen-cms.py --seed %d (keys are new each run)' % seed)
        return rc
    finally:
        if not opt.keep:
            shutil.rmtree(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('tool')
    ap.add_argument('dir', nargs='?')
    ap.add_argument('--fresh', action='store_true')
    ap.add_argument('--openssl')
    ap.add_argument('--seed', type=int)
    ap.add_argument('--keep', help='make the fresh set here and keep it')
    opt = ap.parse_args()
    if opt.fresh:
        return fresh(opt.tool, opt)
    if not opt.dir:
        ap.error('a DIR, or --fresh')
    return check_dir(opt.tool, None, opt.dir)


if __name__ == '__main__':
    sys.exit(main())
