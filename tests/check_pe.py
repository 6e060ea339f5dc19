#!/usr/bin/env python3
"""pkcs7verify --pe against sbverify and osslsigncode on images they signed.

    check_pe.py PKCS7VERIFY DIR [--osslsigncode PATH] [--sbverify PATH]

Makes a fresh set of signed PE images, their tampered and broken copies and
their manifest in DIR (emptied first) with tests/interop/pe/gen-pe-fixtures,
then runs, for every case (an image and a trust anchor):

    pkcs7verify --pe -q --trust ANCHOR [ARGS] IMAGE
    sbverify --cert ANCHOR IMAGE
    osslsigncode verify -CAfile ANCHOR -in IMAGE

pkcs7verify's exit code must be the manifest's, and its verdict (accepted:
exit 0) must be each oracle's, unless the case documents that oracle's verdict
and why: then the oracle must give that verdict (a documented difference that
no longer shows fails too; a documented None may be either; a difference that
names versions of the oracle stands for those only). A table of every
disagreement is printed. `pkcs7verify --pe --json` is checked on a few
images (JSON_CASES): its verdict, errno and accepted_entry, and one entry per
WIN_CERTIFICATE, at its offset, with its errno, its signers, its count of
nested signatures and its image digest, computed here independently.

The unsigned images must be read by `objdump -x` as pei-x86-64 / pei-i386.
osslsigncode 2.5 (Debian 12) and 2.9 (bookworm-backports) take the same
arguments; the version seen is printed. Without sbsigntool, osslsigncode,
openssl or objdump the test skips (77), unless CI=true.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import checklib  # tests/checklib.py, beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, 'interop', 'pe', 'gen-pe-fixtures')
_spec = importlib.util.spec_from_file_location('gen_pe', os.path.join(HERE, 'interop', 'pe',
                                                                        'gen-pe.py'))
gen_pe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_pe)

ORACLES = ('sbverify', 'osslsigncode')


def skip(why):
    return checklib.skip('check_pe', why)


def run(args, cwd):
    try:
        p = subprocess.run(args, cwd=cwd, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return -999, b'timed out'
    return p.returncode, p.stdout + p.stderr


def oracle_args(tools, name, c):
    if name == 'sbverify':
        return [tools['sbverify'], '--cert', c['anchor'], c['image']]
    return [tools['osslsigncode'], 'verify', '-CAfile', c['anchor'], '-in', c['image']]


def vouch_args(tool, c, json_out=False):
    return [tool, '--pe', '--json' if json_out else '-q', '--trust', c['anchor']] + \
        c['vouch_args'] + [c['image']]


def check_case(tool, tools, versions, d, c):
    """(failures, disagreements, {verifier: code}) for one case."""
    # Without a pkcs7verify --pe, the manifest's exit code stands for its
    # verdict: the oracle half runs alone.
    codes = {'vouch': run(vouch_args(tool, c), d)[0] if tool else c['expect']}
    for o in ORACLES:
        codes[o] = run(oracle_args(tools, o, c), d)[0]
    fails, rows = [], []
    cmd = ' '.join(['pkcs7verify'] + vouch_args(tool, c)[1:])
    if codes['vouch'] != c['expect']:
        fails.append('%s: pkcs7verify exit %d, want %d (%s)\n  %s'
                     % (c['name'], codes['vouch'], c['expect'], c['why'], cmd))
    mine = checklib.verdict(codes['vouch'])
    for o in ORACLES:
        theirs = checklib.verdict(codes[o])
        doc = c['oracles'].get(o)
        if doc is not None and 'versions' in doc and versions[o] not in doc['versions']:
            doc = None          # a difference of other versions of the oracle
        if doc is not None:
            if doc['verdict'] is not None and doc['verdict'] != theirs:
                fails.append('%s: documented %s verdict %s not seen: %s %s (exit %d)\n  %s'
                             % (c['name'], o, doc['verdict'], o, theirs, codes[o],
                                ' '.join(oracle_args(tools, o, c))))
            if theirs != mine:
                rows.append((c['name'], o, mine, theirs, doc['why']))
        elif theirs != mine:
            rows.append((c['name'], o, mine, theirs, None))
            fails.append('%s: unexplained disagreement: pkcs7verify %s (exit %d), %s %s '
                         '(exit %d)\n  %s\n  %s' % (c['name'], mine, codes['vouch'], o, theirs,
                                                     codes[o], cmd,
                                                     ' '.join(oracle_args(tools, o, c))))
    return fails, rows, codes


# ---- An Authenticode image digest and the entries, read here, not by vouch ----

def cert_table(data):
    lay = gen_pe.layout(data)
    return lay, struct.unpack_from('<II', data, lay['certdir'])


def image_digest(data, algorithm):
    """The whole file but CheckSum, the security directory entry and the table."""
    lay, (off, size) = cert_table(data)
    h = hashlib.new(algorithm)
    h.update(data[:lay['checksum']])
    h.update(data[lay['checksum'] + 4:lay['certdir']])
    h.update(data[lay['certdir'] + 8:off if size else len(data)])
    return h.hexdigest()


def entries_of(data):
    _, (off, size) = cert_table(data)
    out, at = [], off
    while size and at + 8 <= off + size:
        length = struct.unpack_from('<I', data, at)[0]
        if length < 8:
            break
        out.append(at)
        at += (length + 7) // 8 * 8
    return out


def norm_alg(name):
    return re.sub(r'[^a-z0-9]', '', str(name).lower())


def check_json(tool, d, c):
    """Failures of pkcs7verify --pe --json on one case (and the count of checks made)."""
    p = subprocess.run(vouch_args(tool, c, json_out=True), cwd=d, capture_output=True,
                       timeout=60)
    code, name = p.returncode, c['name']
    try:
        j = json.loads(p.stdout)
    except ValueError as e:
        return ['%s: --json output is not one JSON object (%s): %r'
                % (name, e, p.stdout[:200])], 0
    fails = []
    want = {'verdict', 'errno', 'exit', 'reason', 'entries'}
    if not isinstance(j, dict) or want - set(j):
        return ['%s: --json lacks %s' % (name, sorted(want - set(j or {})))], 0
    if j['verdict'] != ('accepted' if code == 0 else 'refused') or j['exit'] != code:
        fails.append('%s: --json verdict %r exit %r with exit %d'
                     % (name, j['verdict'], j['exit'], code))
    if j['errno'] != c['json_errno']:
        fails.append('%s: --json errno %r, want %r' % (name, j['errno'], c['json_errno']))
    data = open(os.path.join(d, c['image']), 'rb').read()
    offsets = entries_of(data)
    want_n = len(c['json_entries'])
    if len(j['entries']) != want_n or len(offsets) != want_n or \
            c['entries'] not in (None, want_n):
        fails.append('%s: --json has %d entries, the image %d, the manifest %r, want %d'
                     % (name, len(j['entries']), len(offsets), c['entries'], want_n))
        return fails, 1
    keys = {'index', 'offset', 'errno', 'rule', 'image_digest', 'signers', 'nested_signatures'}
    for i, (e, off, (want_errno, nested)) in enumerate(zip(j['entries'], offsets,
                                                         c['json_entries'])):
        if keys - set(e):
            fails.append('%s: entry %d lacks %s' % (name, i, sorted(keys - set(e))))
            continue
        if e['index'] != i or e['offset'] != off:
            fails.append('%s: entry %d says index %r offset %r, want %d, %d'
                         % (name, i, e['index'], e['offset'], i, off))
        if e['errno'] != want_errno or e['nested_signatures'] != nested:
            fails.append('%s: entry %d errno %r (%s), %r nested signatures; want %r, %d'
                         % (name, i, e['errno'], e['rule'], e['nested_signatures'],
                            want_errno, nested))
        if not e['signers'] or not all('subject' in s for s in e['signers']):
            fails.append('%s: entry %d names no signer: %r' % (name, i, e['signers']))
        alg = norm_alg(e['image_digest'].get('alg'))
        if alg not in ('sha256', 'sha384', 'sha512', 'sha1'):
            fails.append('%s: entry %d image digest algorithm %r'
                         % (name, i, e['image_digest'].get('alg')))
        elif e['image_digest'].get('hex', '').lower() != image_digest(data, alg):
            fails.append('%s: entry %d image digest %s is not the file\'s %s'
                         % (name, i, e['image_digest'].get('hex'), alg))
    accepted = [i for i, e in enumerate(j['entries']) if e.get('errno') == '0']
    if (j['verdict'] == 'accepted') != bool(accepted) or \
            j.get('accepted_entry') != (accepted[0] if accepted else -1):
        fails.append('%s: verdict %r, accepted_entry %r, but entries %s verified'
                     % (name, j['verdict'], j.get('accepted_entry'), accepted))
    return fails, 1


# The images whose --json is checked: the top errno, and each entry's errno
# and number of nested signatures.
JSON_CASES = {
    'unsigned-x64': ('EPERM', []),
    'sb-rsa2048-x64': ('0', [('0', 0)]),
    'os-sha384-p256-x64': ('0', [('0', 0)]),
    'os-nest-x64': ('0', [('0', 1)]),
    'os-nest-mixed-x64': ('ENOKEY', [('ENOKEY', 1)]),
    'sb-two-x64': ('0', [('0', 0), ('0', 0)]),
    'sb-two-mixed-x64@root': ('0', [('0', 0), ('ENOKEY', 0)]),
    'sb-two-mixed-x64@root2': ('0', [('ENOKEY', 0), ('0', 0)]),
    'sb-rsa2048-x64@root2': ('ENOKEY', [('ENOKEY', 0)]),
    'sb-rsa2048-tr4k.text': ('EKEYREJECTED', [('EKEYREJECTED', 0)]),
}


def version(args):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=10)
        return ((p.stdout + p.stderr).strip().splitlines() or ['?'])[0].split(',')[0]
    except OSError as e:
        return str(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('tool')
    ap.add_argument('dir')
    ap.add_argument('--osslsigncode', default=os.environ.get('VOUCH_OSSLSIGNCODE'))
    ap.add_argument('--sbverify', default=os.environ.get('VOUCH_SBVERIFY'))
    opt = ap.parse_args()
    tools = {t: shutil.which(t) for t in ('sbsign', 'sbattach', 'openssl', 'objdump')}
    tools['sbverify'] = opt.sbverify or shutil.which('sbverify')
    tools['osslsigncode'] = opt.osslsigncode or shutil.which('osslsigncode')
    missing = [t for t, p in tools.items() if not p]
    if missing:
        return skip('%s not found (Debian: sbsigntool osslsigncode openssl binutils)'
                    % ' '.join(missing))
    tool = os.path.abspath(opt.tool)
    usage = subprocess.run([tool, '--help'], capture_output=True, text=True)
    if '--pe' not in usage.stdout + usage.stderr:
        print('check_pe: %s has no --pe option: the oracles against the manifest only'
              % opt.tool)
        tool = None
    seen = {o: version([tools[o], '--version']) for o in ORACLES}
    print('check_pe: sbverify: %s; osslsigncode: %s' % (seen['sbverify'], seen['osslsigncode']))
    # 'osslsigncode 2.9' -> '2.9', the form of a case's versions
    versions = {o: ' '.join(v.split()[1:2]) for o, v in seen.items()}

    d = os.path.abspath(opt.dir)
    shutil.rmtree(d, ignore_errors=True)
    g = subprocess.run([sys.executable, GEN, d])
    if g.returncode:
        print('check_pe: FAIL: gen-pe-fixtures exited %d' % g.returncode)
        return 1
    manifest = json.load(open(os.path.join(d, 'manifest.json')))
    cases = manifest['cases']
    fails = []

    # The images are PE that binutils reads.
    for f in sorted(os.listdir(d)):
        if f.startswith('img-'):
            code, out = run([tools['objdump'], '-x', f], d)
            fmt = 'pei-i386' if 'ia32' in f else 'pei-x86-64'
            if code or ('file format ' + fmt).encode() not in out:
                fails.append('%s: objdump -x exit %d, not read as %s' % (f, code, fmt))

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: check_case(tool, tools, versions, d, c), cases))
    rows = []
    counts = {v: {'accepted': 0, 'refused': 0, 'crashed': 0} for v in ('vouch',) + ORACLES}
    for f, r, codes in results:
        fails += f
        rows += r
        for v, code in codes.items():
            counts[v][checklib.verdict(code)] += 1

    njson = 0 if tool else len(JSON_CASES)
    by_name = {c['name']: c for c in cases}
    for name, (top, ents) in JSON_CASES.items():
        c = by_name.get(name)
        if tool is None:
            break
        if c is None:
            fails.append('%s: not in the manifest' % name)
            continue
        f, n = check_json(tool, d, dict(c, json_errno=top, json_entries=ents))
        fails += f
        njson += n

    print('\nDisagreements of pkcs7verify --pe with an oracle (%d):' % len(rows))
    print('%-38s %-12s %-9s %-9s %s' % ('case', 'oracle', 'vouch', 'oracle', 'why'))
    for name, o, mine, theirs, why in rows:
        print('%-38s %-12s %-9s %-9s %s' % (name, o, mine, theirs, why or 'UNEXPLAINED'))
    unexplained = sum(1 for r in rows if r[4] is None)
    print('\ncheck_pe: %d cases, %d --json checks; verdicts %s; %d disagreements, '
          '%d unexplained; notes %s'
          % (len(cases), njson, json.dumps(counts), len(rows), unexplained,
             json.dumps(manifest['notes'])))

    # Real counts: the set is what it should be and every verifier judged it.
    expects = {c['expect'] for c in cases}
    if len(cases) < 70 or expects != {0, 1, 2, 3, 4}:
        fails.append('the manifest has %d cases with exit codes %s: fewer than 70, or not '
                     'every one of 0-4' % (len(cases), sorted(expects)))
    for v in ORACLES:
        if counts[v]['accepted'] < 10 or counts[v]['refused'] < 20:
            fails.append('%s accepted %d and refused %d cases: it is not working'
                         % (v, counts[v]['accepted'], counts[v]['refused']))
    if counts['vouch']['crashed']:
        fails.append('pkcs7verify died of a signal %d times' % counts['vouch']['crashed'])
    if njson != len(JSON_CASES):
        fails.append('%d of %d --json checks made' % (njson, len(JSON_CASES)))
    if checklib.report('check_pe', fails):
        return 1
    return 0 if tool else skip('the oracles agree with the manifest, but %s has no --pe'
                               % opt.tool)


if __name__ == '__main__':
    sys.exit(main())
