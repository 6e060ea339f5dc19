#!/usr/bin/env python3
"""Every command the README shows works as written.

The convention (docs/testing.md repeats it for the README's writers):

- Only fenced blocks marked ```console are read.
- In them a line that starts with "$ " is a command; a command line that
  ends with a backslash goes on to the next line, as in the shell.
- A command may end with the comment "# exit N": it must exit with N.
  Without it, it must exit with 0.
- The line after a command (or its last continuation line), if it is not
  another command, is the first line the command prints, stdout and stderr
  together as a terminal shows them; "..." in it stands for any text.
  Further output lines are shown for the reader and not compared. A
  command followed by no output line must print nothing.
- A block whose opening fence comes right after the line
  "<!-- check_readme: skip -->" (blank lines allowed between) is listed
  and not run: for commands that need root, apt-get or the network, or
  that set up, build or install a tree (tools/demo, tools/test, meson
  setup, meson install).

The commands run one after the other with `sh -c`, in a directory that
stands for the source root: a link to each of the source root's entries,
and `build` a link to the build directory the test runs in (so that the
README's build/... is this build, whatever its name). Files a command
writes there are seen by the commands after it; the directory is removed
at the end. VOUCH_PARSE_WORKER is removed from the environment: the tools
must find what they need by themselves, as they do for a reader.

usage: check_readme.py --source SRC --build BUILD [README]
Prints one line per command (ok, FAIL or skip) and exits 1 if any failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP_MARK = '<!-- check_readme: skip -->'
EXIT_RE = re.compile(r'\s+#\s*exit\s+(\d+)\s*$')


def commands(text):
    """[(line number, command, expected exit, expected first line or None, skipped)]"""
    out = []
    lines = text.splitlines()
    i, skip_next = 0, False
    while i < len(lines):
        line = lines[i]
        if line.strip() == SKIP_MARK:
            skip_next = True
        elif line.startswith('```'):
            lang = line[3:].strip()
            skipped, skip_next = skip_next, False
            i += 1
            block = []
            while i < len(lines) and not lines[i].startswith('```'):
                block.append((i + 1, lines[i]))
                i += 1
            if lang == 'console':
                out += block_commands(block, skipped)
        elif line.strip():
            skip_next = False
        i += 1
    return out


def block_commands(block, skipped):
    out = []
    j = 0
    while j < len(block):
        lineno, line = block[j]
        if not line.startswith('$ '):
            j += 1
            continue
        cmd = line[2:]
        while cmd.endswith('\\') and j + 1 < len(block):
            j += 1
            cmd = cmd[:-1].rstrip() + ' ' + block[j][1].strip()
        code = 0
        m = EXIT_RE.search(cmd)
        if m:
            code = int(m.group(1))
            cmd = cmd[:m.start()]
        first = None
        if j + 1 < len(block) and not block[j + 1][1].startswith('$ '):
            first = block[j + 1][1]
        out.append((lineno, cmd.strip(), code, first, skipped))
        j += 1
    return out


def matches(want, got):
    if want is None:
        return got == ''
    pattern = '.*'.join(re.escape(part) for part in want.split('...'))
    return re.fullmatch(pattern, got.rstrip()) is not None


def source_view(src, build, tmp):
    """A directory that stands for the source root, with build/ -> BUILD."""
    view = os.path.join(tmp, 'src')
    os.mkdir(view)
    for name in os.listdir(src):
        if name != 'build':
            os.symlink(os.path.join(src, name), os.path.join(view, name))
    os.symlink(build, os.path.join(view, 'build'))
    return view


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('readme', nargs='?')
    args = ap.parse_args()
    src = os.path.abspath(args.source)
    build = os.path.abspath(args.build)
    readme = args.readme or os.path.join(src, 'README.md')
    cmds = commands(open(readme).read())
    env = dict(os.environ)
    env.pop('VOUCH_PARSE_WORKER', None)
    failed = ran = 0
    tmp = tempfile.mkdtemp(prefix='vouch-readme.')
    try:
        view = source_view(src, build, tmp)
        env['PWD'] = view
        for lineno, cmd, code, first, skipped in cmds:
            where = 'README.md:%d' % lineno
            if skipped:
                print('skip: %s: %s (marked not to run)' % (where, cmd))
                continue
            ran += 1
            try:
                p = subprocess.run(['sh', '-c', cmd], cwd=view, env=env, timeout=120,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            except subprocess.TimeoutExpired:
                print('FAIL: %s: %s: timed out' % (where, cmd))
                failed += 1
                continue
            output = p.stdout.decode('utf-8', 'replace')
            got = output.splitlines()[0] if output else ''
            problems = []
            if p.returncode != code:
                problems.append('exit %d, README says %d' % (p.returncode, code))
            if not matches(first, got):
                problems.append('first line %r, README says %r'
                                % (got, first if first is not None else ''))
            if problems:
                failed += 1
                print('FAIL: %s: %s: %s' % (where, cmd, '; '.join(problems)))
                if output:
                    print('  output:\n    ' + '\n    '.join(output.splitlines()[:10]))
            else:
                print('ok: %s: %s' % (where, cmd))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if ran == 0:
        print('FAIL: no command found in %s (```console blocks, "$ " lines)' % readme)
        return 1
    print('%d commands run, %d failed' % (ran, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
