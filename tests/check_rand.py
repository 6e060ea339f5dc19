#!/usr/bin/env python3
"""vouch-rand as a user runs it: exact sizes and suffixes, the hex and
base64 formats (base64 laid out as `openssl rand -base64` lays it out),
-o FILE, every --mech and --pr, fresh output on every run, docs/contracts.md's
usage exit code (64), and a quiet end when the reader closes the pipe.
The statistics of the bytes are check_rand_stats.py's.

usage: check_rand.py VOUCH_RAND
"""
import base64
import os
import pty
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

results = []


def check(name, ok, detail=''):
    results.append(ok)
    print('%s: %s%s' % ('ok' if ok else 'FAIL', name, (' (' + detail + ')') if detail and not ok else ''))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=60, **kw)


def line_lengths(text):
    return [len(line) for line in text.split(b'\n')]


def main():
    rand = sys.argv[1]
    openssl = shutil.which('openssl')

    sizes = {'0': 0, '1': 1, '1000': 1000, '4K': 4096, '4k': 4096, '4KiB': 4096,
             '1M': 1 << 20, '1m': 1 << 20, '1MiB': 1 << 20, '65536': 65536,
             '65537': 65537, '131073': 131073, '0K': 0, '007': 7}
    for arg, n in sizes.items():
        out = run([rand, arg])
        check('raw %s: exactly %d bytes' % (arg, n), out.returncode == 0 and
              len(out.stdout) == n and out.stderr == b'', '%d, rc %d' % (len(out.stdout), out.returncode))

    for n in (0, 1, 32, 65536, 65537):
        out = run([rand, '-x', str(n)])
        want = rb'[0-9a-f]{%d}\n' % (2 * n) if n else rb''
        check('--hex %d: %d hex digits and a newline' % (n, 2 * n),
              out.returncode == 0 and re.fullmatch(want, out.stdout) is not None)
    out = run([rand, '--hex', '16'])
    check('--hex long form', out.returncode == 0 and len(out.stdout) == 33)

    for n in (0, 1, 2, 3, 47, 48, 49, 96, 65520, 65521, 65537, 200000):
        out = run([rand, '-b', str(n)])
        text = out.stdout
        body = text.replace(b'\n', b'')
        try:
            decoded = base64.b64decode(body, validate=True)
        except ValueError:
            decoded = None
        lines = line_lengths(text)
        layout = n == 0 and text == b'' or (
            text.endswith(b'\n') and lines[-1] == 0 and
            all(length == 64 for length in lines[:-2]) and 0 < lines[-2] <= 64)
        check('--base64 %d: decodes to %d bytes' % (n, n),
              out.returncode == 0 and decoded is not None and len(decoded) == n)
        check('--base64 %d: lines of 64 characters, a final newline' % n, layout, repr(lines[-3:]))
        if openssl and n > 0:
            ref = run([openssl, 'rand', '-base64', str(n)])
            check('--base64 %d: the layout of openssl rand -base64' % n,
                  ref.returncode == 0 and line_lengths(ref.stdout) == lines)
    out = run([rand, '--base64', '3'])
    check('--base64 long form', out.returncode == 0 and len(out.stdout) == 5)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'out.bin')
        out = run([rand, '-o', path, '65537'])
        check('-o FILE: the bytes go to FILE, nothing to stdout',
              out.returncode == 0 and out.stdout == b'' and os.path.getsize(path) == 65537)
        check('-o FILE: a new FILE has mode 0600',
              stat.S_IMODE(os.stat(path).st_mode) == 0o600, oct(os.stat(path).st_mode))
        old = os.path.join(tmp, 'old.txt')
        with open(old, 'wb') as f:
            f.write(b'x' * 5000)
        os.chmod(old, 0o644)
        out = run([rand, '-x', '--out', old, '10'])
        check('-o FILE: an existing FILE is truncated and keeps its mode',
              out.returncode == 0 and os.path.getsize(old) == 21 and
              stat.S_IMODE(os.stat(old).st_mode) == 0o644)
        out = run([rand, '-o', os.path.join(tmp, 'no', 'such', 'dir'), '10'])
        check('-o into a missing directory: exit 66, one line',
              out.returncode == 66 and out.stderr.count(b'\n') == 1, repr(out))
        out = run([rand, '-o', tmp, '10'])
        check('-o a directory: exit 66', out.returncode == 66)
    if os.path.exists('/dev/full'):
        out = run([rand, '-o', '/dev/full', '10'])
        check('a full device: exit 70, one line',
              out.returncode == 70 and out.stderr.count(b'\n') == 1, repr(out))

    mechs = run([rand, '--list']).stdout.decode().split()
    check('--list names 20 mechanisms', len(mechs) == 20, ' '.join(mechs))
    for mech in mechs:
        out = run([rand, '--mech', mech, '70000'])
        check('--mech %s: 70000 bytes' % mech, out.returncode == 0 and len(out.stdout) == 70000,
              out.stderr.decode())
        again = run([rand, '--mech', mech, '70000'])
        check('--mech %s: two runs differ' % mech, again.stdout != out.stdout)
        out = run([rand, '--mech', mech, '--pr', '70000'])
        check('--mech %s --pr: 70000 bytes' % mech, out.returncode == 0 and len(out.stdout) == 70000,
              out.stderr.decode())
    one, two = run([rand, '65537']).stdout, run([rand, '65537']).stdout
    check('process RNG: two runs differ', one != two)
    out = run([rand, '--pr', '200000'])
    check('process RNG --pr: 200000 bytes', out.returncode == 0 and len(out.stdout) == 200000)

    for bad in ('', '-5', '+5', ' 5', '5 ', '5x', '1KB', '1.5M', '0x10', '1e3', '1Ki', '1MiBx',
                '18446744073709551616', '16777216T', '17179869184G'):
        out = run([rand, '--', bad])
        check('bad size %r: exit 64, one line' % bad,
              out.returncode == 64 and out.stdout == b'' and out.stderr.count(b'\n') == 1,
              repr(out))
    out = run([rand, '-x', '-b', '3'])
    check('-x and -b together: exit 64', out.returncode == 64 and out.stdout == b'')
    out = run([rand, '--mech', 'hash-md5', '3'])
    check('unknown --mech: exit 64, one line listing the valid forms',
          out.returncode == 64 and out.stderr.count(b'\n') == 1 and b'ctr-aes256' in out.stderr)
    out = run([rand, '--mech', 'ctr-aes256-df', '3'])
    check('malformed --mech: exit 64', out.returncode == 64)
    out = run([rand])
    check('missing NBYTES: exit 64', out.returncode == 64 and out.stdout == b'')
    out = run([rand, '1', '2'])
    check('two NBYTES: exit 64', out.returncode == 64 and out.stdout == b'')
    out = run([rand, '--bogus', '3'])
    check('unknown option: exit 64', out.returncode == 64)
    out = run([rand, '--help'])
    check('--help: usage on stdout, exit 0',
          out.returncode == 0 and out.stdout.startswith(b'usage: ') and out.stderr == b'')

    # A reader that stops early: the writer must end at once, by SIGPIPE,
    # without a message, also when it was started with SIGPIPE ignored.
    for ignored in (False, True):
        pre = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if ignored else None
        p = subprocess.Popen([rand, '1T'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=pre)
        got = len(p.stdout.read(100000))
        p.stdout.close()
        try:
            rc = p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = 'hung'
        err = p.stderr.read()
        p.stderr.close()
        check('closed pipe%s: ends by SIGPIPE, silently' % (' (SIGPIPE ignored)' if ignored else ''),
              got == 100000 and rc == -signal.SIGPIPE and err == b'', '%r %r' % (rc, err))

    out = run([rand, '--progress', '5M'])
    check('--progress, stderr not a terminal: silent',
          out.returncode == 0 and out.stderr == b'' and len(out.stdout) == 5 << 20)
    for size, shown in (('5M', True), ('4M', False)):
        master, slave = pty.openpty()
        p = subprocess.run([rand, '--progress', size], stdout=subprocess.DEVNULL, stderr=slave,
                           timeout=60)
        os.close(slave)
        err = b''
        try:
            while True:
                chunk = os.read(master, 4096)
                if not chunk:
                    break
                err += chunk
        except OSError:
            pass
        os.close(master)
        if shown:
            ok = (p.returncode == 0 and err.startswith(b'\r') and
                  err.endswith(b'5.0 MiB / 5.0 MiB  100%\r\n'))
        else:
            ok = p.returncode == 0 and err == b''
        check('--progress on a terminal, %s: %s' % (size, 'a line' if shown else 'silent (<= 4 MiB)'),
              ok, repr(err[-80:]))

    failed = results.count(False)
    print('%d passed, %d failed' % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
