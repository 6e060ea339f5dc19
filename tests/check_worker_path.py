#!/usr/bin/env python3
"""Where the tools find their parse worker, as a user runs them.

    check_worker_path.py PKCS7VERIFY FWCHECK FWLOAD VOUCH_BENCH WORKER DATA_DIR

From the build tree, without $VOUCH_PARSE_WORKER, every tool that parses in
the sandbox runs the worker built beside it. $VOUCH_PARSE_WORKER wins when
set; a worker that cannot be run is named as that (exit 70), never as one
that died. A worker beside the tool that others may write is not used. A
figure of vouch-bench that needs no worker never fails for the lack of one.
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

results = []


def check(name, ok, detail=''):
    results.append(ok)
    print('%s: %s%s' % ('ok' if ok else 'FAIL', name, ('\n  ' + detail) if detail and not ok else ''))


def run(cmd, worker=None):
    env = dict(os.environ)
    env.pop('VOUCH_PARSE_WORKER', None)
    if worker is not None:
        env['VOUCH_PARSE_WORKER'] = worker
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def main():
    pkcs7verify, fwcheck, fwload, bench, worker, data = sys.argv[1:7]
    fmt = os.path.join(data, 'format')
    verify = [pkcs7verify, '--trust', os.path.join(fmt, 'trusted.pem'), os.path.join(fmt, 'quoted.pem')]
    fw = os.path.join(data, 'fw')
    check_fw = [fwcheck, '--policy', os.path.join(fw, 'demo.policy'), '--root',
                os.path.join(fw, 'tree'), 'vouch/signed.bin']
    load = [fwload, os.path.join(fw, 'demo.policy'), os.path.abspath(os.path.join(fw, 'tree')),
            'vouch/signed.bin']
    figure = [bench, 'fw-check', '1048576']
    for name, cmd in (('pkcs7verify', verify), ('fwcheck', check_fw), ('fwload', load),
                      ('vouch-bench fw-check', figure)):
        p = run(cmd)
        check('%s from the build tree, no $VOUCH_PARSE_WORKER' % name, p.returncode == 0, p.stderr)
        p = run(cmd, '/nonexistent/vouch-parse-worker')
        check('%s: a missing worker is named, exit 70' % name,
              p.returncode == (1 if name == 'fwload' else 70) and
              '/nonexistent/vouch-parse-worker ($VOUCH_PARSE_WORKER) cannot be run: '
              'No such file or directory' in p.stderr and 'died' not in p.stderr.split('(sandbox')[0],
              p.stderr)
        p = run(cmd, worker)
        check('%s: $VOUCH_PARSE_WORKER is used' % name, p.returncode == 0, p.stderr)
    p = run([bench, 'sha256', '64'], '/nonexistent/vouch-parse-worker')
    check('vouch-bench sha256 needs no worker', p.returncode == 0 and p.stdout.startswith('sha256 64 '),
          p.stderr)

    # A copy of pkcs7verify (static: it carries the library) with a worker
    # beside it: used when only its owner may write it, not otherwise.
    with tempfile.TemporaryDirectory() as tmp:
        tool = os.path.join(tmp, 'pkcs7verify')
        shutil.copy(pkcs7verify, tool)
        beside = os.path.join(tmp, 'vouch-parse-worker')
        shutil.copy(worker, beside)
        os.chmod(beside, 0o755)
        p = run([tool] + verify[1:])
        check('a worker beside a copied tool is used', p.returncode == 0, p.stderr)
        os.chmod(beside, 0o757)
        p = run([tool] + verify[1:])
        check('a worker others may write is not used',
              p.returncode == 70 and 'the installed one' in p.stderr, p.stderr)
        os.chmod(beside, 0o775)
        p = run([tool] + verify[1:])
        check('a worker its group may write is not used',
              p.returncode == 70 and 'the installed one' in p.stderr, p.stderr)

    failed = results.count(False)
    print('%d passed, %d failed' % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
