#!/usr/bin/env python3
"""The tools as a user runs them: vouch-hash agrees with Python's hashlib
for every algorithm, on files and on standard input, and keeps docs/contracts.md's
exit codes; vouch-bench prints NAME SIZE VALUE UNIT lines.

usage: check_tools.py VOUCH_HASH VOUCH_BENCH
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

results = []


def check(name, ok, detail=''):
    results.append(ok)
    print('%s: %s%s' % ('ok' if ok else 'FAIL', name, (' (' + detail + ')') if detail and not ok else ''))


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True)


def main():
    vouch_hash, vouch_bench = sys.argv[1], sys.argv[2]
    algs = run([vouch_hash, '--list']).stdout.decode().split()
    check('--list names eleven hashes and two XOFs', len(algs) == 13 and
          algs[-2:] == ['shake128', 'shake256'], ' '.join(algs))
    with tempfile.TemporaryDirectory() as tmp:
        sample = os.path.join(tmp, 'sample.bin')
        data = bytes((i * 131 + 7) & 0xff for i in range(100003))
        open(sample, 'wb').write(data)
        for alg in algs:
            if alg.startswith('shake'):
                continue
            want = hashlib.new(alg.replace('-', '_'), data).hexdigest()
            out = run([vouch_hash, '-a', alg, sample])
            check('%s of a file' % alg, out.returncode == 0 and
                  out.stdout.decode() == '%s  %s\n' % (want, sample), out.stdout.decode())
            out = run([vouch_hash, '-a', alg], stdin=data)
            check('%s of stdin' % alg, out.stdout.decode() == '%s  -\n' % want)
        out = run([vouch_hash, '-a', 'SHA3_256', sample])
        check('SHA3_256 names sha3-256',
              out.stdout.decode() == '%s  %s\n' % (hashlib.sha3_256(data).hexdigest(), sample))
        # SHAKE: the default lengths (32, 64), given lengths across the
        # 65536-byte squeeze buffer, from a file and from stdin.
        for alg, default in (('shake128', 32), ('shake256', 64)):
            h = hashlib.new(alg.replace('-', '_'), data)
            out = run([vouch_hash, '-a', alg, sample])
            check('%s of a file, default length' % alg, out.returncode == 0 and
                  out.stdout.decode() == '%s  %s\n' % (h.hexdigest(default), sample),
                  out.stdout.decode())
            for n in (1, 167, 168, 65536, 65537, 200000):
                out = run([vouch_hash, '-a', alg, '-L', str(n)], stdin=data)
                check('%s -L %d of stdin' % (alg, n), out.returncode == 0 and
                      out.stdout.decode() == '%s  -\n' % h.hexdigest(n))
        for bad in (['-a', 'shake128', '-L', '0'], ['-a', 'shake128', '-L', '1073741825'],
                    ['-a', 'shake128', '-L', '12x'], ['-a', 'shake128', '-L', ''],
                    ['-a', 'sha3-256', '-L', '32'], ['-L', '32']):
            out = run([vouch_hash] + bad + [sample])
            check('%s: exit 64, one line on stderr' % ' '.join(bad),
                  out.returncode == 64 and out.stderr.decode().count('\n') == 1 and
                  out.stdout == b'', out.stderr.decode())
        out = run([vouch_hash, os.path.join(tmp, 'missing'), sample])
        check('missing file: exit 66, the other file still hashed',
              out.returncode == 66 and hashlib.sha256(data).hexdigest() in out.stdout.decode())
        check('missing file: one line on stderr', out.stderr.decode().count('\n') == 1)
    out = run([vouch_hash, '-a', 'md5', '/dev/null'])
    check('unknown algorithm: exit 64', out.returncode == 64)
    out = run([vouch_hash, '--bogus'])
    check('unknown option: exit 64', out.returncode == 64)

    out = run([vouch_bench, 'sha256', '64'])
    line = out.stdout.decode()
    check('vouch-bench NAME SIZE prints one figure line',
          out.returncode == 0 and re.fullmatch(r'sha256 64 \d+\.\d MB/s\n', line) is not None, line)
    out = run([vouch_bench, '--list'])
    check('vouch-bench --list', out.returncode == 0 and 'hmac-sha256' in out.stdout.decode().split())
    out = run([vouch_bench, 'nonesuch'])
    check('vouch-bench unknown figure: exit 64', out.returncode == 64)

    failed = results.count(False)
    print('%d passed, %d failed' % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
