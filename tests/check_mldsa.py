#!/usr/bin/env python3
"""ML-DSA interop: pkcs7verify and libvouch against @noble/post-quantum.

    check_mldsa.py PKCS7VERIFY [--seed N] [--keep DIR]
    check_mldsa.py --raw PROGRAM [--seed N] [--keep DIR]

tests/interop/mldsa/gen-mldsa.mjs (node) makes, in a temporary directory,
ML-DSA certificates and CMS messages with fresh keys and their corruptions,
each with the verdict of its oracle: noble's ML-DSA verify over the bytes
the signature covers, node's hashes for messageDigest, and every
certificate signature of the chain (tests/interop/mldsa/gen-mldsa.mjs). The
first form checks that every oracle verdict is its row's expected category
(the generator and noble agree), then runs pkcs7verify on every row through
tests/check_cms.py, oracle `noble`: its exit code must be the category's
and its verdict the oracle's. --raw: PROGRAM (tests/interop/test_interop_mldsa.c)
reads the generator's raw tuples and compares vouch_mldsa_verify with noble
on each.

The node modules (@noble/post-quantum, pinned by
tests/interop/mldsa/package-lock.json) are in $VOUCH_NOBLE_DIR/node_modules,
else in the cache directory tools/test installs them into,
~/.cache/vouch/noble-<first 16 hex digits of the lock file's SHA-256>.
Without node >= 20.19 or the modules the test skips (77), unless CI=true.
"""
import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_cms  # noqa: E402  (beside this file)

MLDSA_DIR = os.path.join(HERE, 'interop', 'mldsa')
GEN = os.path.join(MLDSA_DIR, 'gen-mldsa.mjs')
NODE_MIN = (20, 19)


def noble_dir():
    """Where tools/test installs the modules (tools/test computes the same)."""
    if os.environ.get('VOUCH_NOBLE_DIR'):
        return os.environ['VOUCH_NOBLE_DIR']
    with open(os.path.join(MLDSA_DIR, 'package-lock.json'), 'rb') as f:
        lock = hashlib.sha256(f.read()).hexdigest()[:16]
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(cache, 'vouch', 'noble-' + lock)


def missing():
    """Why the oracle cannot run here, or None."""
    node = shutil.which('node')
    if not node:
        return 'node not found (Debian package nodejs: tools/setup-deps test)'
    version = subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()
    try:
        have = tuple(int(x) for x in version.lstrip('v').split('.')[:2])
    except ValueError:
        have = (0, 0)
    if have < NODE_MIN:
        return 'node %s is older than the %d.%d @noble/post-quantum needs' % ((version,) + NODE_MIN)
    d = noble_dir()
    if not os.path.isfile(os.path.join(d, 'node_modules', '@noble', 'post-quantum', 'ml-dsa.js')):
        return ('@noble/post-quantum not installed in %s; tools/test installs it, or by hand: '
                'mkdir -p %s && cp %s/package.json %s/package-lock.json %s && '
                'npm ci --prefix %s --ignore-scripts' % (d, d, MLDSA_DIR, MLDSA_DIR, d, d))
    return None


def generate(d, seed, raw_only):
    args = ['node', GEN, '--seed', str(seed), '--raw-only' if raw_only else '--no-raw', d]
    env = dict(os.environ, VOUCH_NOBLE_DIR=noble_dir())
    subprocess.run(args, check=True, env=env)


def oracle_self_check(d):
    """Every row's oracle verdict is its expected category's: a generator
    that made something else than it meant, or a noble that disagrees
    with the construction, shows here before pkcs7verify runs."""
    fails = []
    for name, expect, _, oracle_args, oracle in check_cms.rows_of(d):
        verdict = oracle_args[0] if oracle_args else ''
        known, _ = check_cms.deliberate(name)
        if known is not None and known[1] == ('accepted' if verdict == 'accepted' else 'refused'):
            continue            # vouch and the oracle differ on purpose (check_cms.DELIBERATE)
        if oracle != 'noble' or (verdict == 'accepted') != (expect == 'accepted'):
            fails.append('FAIL %s: oracle %s says %s, the row expects %s'
                         % (name, oracle, verdict, expect))
    for f in fails:
        print(f)
    return fails


def not_wired(tool, d):
    """True if pkcs7verify refuses every message noble accepts as not
    implemented (exit 4): a build without ML-DSA in pkcs7verify."""
    codes = [check_cms.run_vouch(tool, d, args) for name, expect, args, _, _ in check_cms.rows_of(d)
             if expect == 'accepted']
    return bool(codes) and all(c == check_cms.CATEGORY_EXIT['unsupported'] for c in codes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('program', help='pkcs7verify, or with --raw the raw differential program')
    ap.add_argument('--raw', action='store_true')
    ap.add_argument('--seed', type=int)
    ap.add_argument('--keep', help='make the set here and keep it')
    opt = ap.parse_args()
    ci = os.environ.get('CI') == 'true'
    why = missing()
    if why:
        print('check_mldsa: %s: %s' % ('FAIL (CI=true)' if ci else 'skipped', why))
        return 1 if ci else 77
    seed = opt.seed if opt.seed is not None else random.SystemRandom().randrange(1 << 32)
    d = opt.keep or tempfile.mkdtemp(prefix='vouch-mldsa-')
    try:
        generate(d, seed, opt.raw)
        if opt.raw:
            rc = subprocess.run([os.path.abspath(opt.program), os.path.join(d, 'raw.txt')]).returncode
        elif oracle_self_check(d):
            rc = 1
        elif not_wired(opt.program, d):
            print('check_mldsa: %s: pkcs7verify refuses every ML-DSA message noble accepts '
                  'as not implemented (exit 4): this build has no ML-DSA in pkcs7verify'
                  % ('FAIL (CI=true)' if ci else 'skipped'))
            rc = 1 if ci else 77
        else:
            rc = check_cms.check_dir(opt.program, 'noble', d)
        if rc not in (0, 77):
            print('check_mldsa: reproduce with --seed %d%s' % (
                seed, '' if opt.raw else ' (the RSA root\'s key is new each run)'))
        return rc
    finally:
        if not opt.keep:
            shutil.rmtree(d)


if __name__ == '__main__':
    sys.exit(main())
