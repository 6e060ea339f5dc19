#!/usr/bin/env python3
"""The library's man pages (include/man/*.3) say what the headers say.

For each page: every prototype and structure in SYNOPSIS is the header's
declaration, word for word once whitespace is set aside; every vouch_*()
the page names exists; a page that documents a header (other than
vouch/vouch.h) lists every function of that header in SYNOPSIS and in
NAME; the page renders with `man --warnings` and no warning; its EXAMPLES
compile with -Wall -Wextra -Werror against the headers.

usage: check_man.py --include DIR [--cc CC...] PAGE...
       check_man.py --names PAGE     (the names of NAME, one a line, for
                                      the links include/man/meson.build
                                      installs)
Exit 77 (skipped) when man(1) is missing, unless CI=true.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def unroff(line):
    """A roff source line as the text it shows (fonts and quotes gone)."""
    line = line.replace('\\-', '-').replace('\\e', '\\')
    line = re.sub(r'\\f[BIRP]', '', line)
    line = line.replace('\\ ', ' ').replace('\\c', '').replace('\\&', '')
    m = re.match(r'\.(B|I|BI|BR|IR|IB|RB|RI)\s+(.*)$', line)
    if m:
        # .B and .I set all their words in one font; the others alternate
        # two fonts between words, with no space between them.
        sep = ' ' if m.group(1) in ('B', 'I') else ''
        return sep.join(shlex.split(m.group(2), posix=True))
    if line.startswith('.') or line.startswith("'"):
        return ''
    return line


def sections(text):
    """{SECTION NAME: [source lines]}"""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r'\.SH\s+"?([^"]*)"?$', line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def norm(decl):
    """A declaration with comments, attributes and extra blanks removed."""
    decl = re.sub(r'/\*.*?\*/', ' ', decl, flags=re.S)
    decl = re.sub(r'\b(VOUCH_EXPORT|VOUCH_WARN_UNUSED)\b', ' ', decl)
    decl = ' '.join(decl.split())
    decl = re.sub(r'\s*([(),*\[\]])\s*', r'\1', decl)
    return decl.strip()


def header_decls(include_dir):
    """({function name: prototype}, {struct name: set of members}, {header: [names]})"""
    funcs, structs, by_header = {}, {}, {}
    for header in sorted(os.listdir(include_dir)):
        if not header.endswith('.h'):
            continue
        text = open(os.path.join(include_dir, header)).read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'^\s*#.*$', ' ', text, flags=re.M)
        text = re.sub(r'extern\s+"C"\s*\{|^\}\s*$', ' ', text, flags=re.M)
        for m in re.finditer(r'struct\s+(\w+)\s*\{(.*?)\}\s*;', text, flags=re.S):
            structs[m.group(1)] = {norm(d) for d in m.group(2).split(';') if d.strip()}
        names = []
        for stmt in text.split(';'):
            if 'VOUCH_EXPORT' not in stmt or '(' not in stmt:
                continue
            name = re.findall(r'\b\w+\b', stmt.split('(')[0])[-1]
            if name.startswith('vouch_'):
                funcs[name] = norm(stmt)
                names.append(name)
        by_header['vouch/' + header] = names
    return funcs, structs, by_header


def synopsis(lines):
    """(headers included, [prototypes], {struct: [members]})"""
    text = '\n'.join(unroff(l) for l in lines)
    headers = re.findall(r'#include <([^>]+)>', text)
    text = re.sub(r'#include <[^>]+>', ' ', text)
    structs = {}
    for m in re.finditer(r'struct\s+(\w+)\s*\{(.*?)\}\s*;', text, flags=re.S):
        structs[m.group(1)] = [norm(d) for d in m.group(2).split(';') if d.strip()]
    text = re.sub(r'struct\s+\w+\s*\{.*?\}\s*;', ' ', text, flags=re.S)
    protos = [norm(d) for d in text.split(';') if '(' in d]
    return headers, protos, structs


def name_list(lines):
    text = ' '.join(unroff(l) for l in lines)
    return [n.strip() for n in text.split(' - ')[0].split(',') if n.strip()]


def check_render(page):
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8')
    p = subprocess.run(['man', '--warnings', '-l', page], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or p.stderr.strip():
        return ['man --warnings: rc %d: %s' % (p.returncode, p.stderr.strip())]
    return []


def check_examples(lines, cc, include_dir):
    code, inside = [], False
    for line in lines:
        if line.startswith('.EX'):
            inside = True
        elif line.startswith('.EE'):
            inside = False
        elif inside:
            code.append(line.replace('\\-', '-').replace('\\e', '\\'))
    if not code:
        return ['EXAMPLES has no .EX block']
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'example.c')
        open(src, 'w').write('\n'.join(code) + '\n')
        p = subprocess.run(cc + ['-std=c11', '-Wall', '-Wextra', '-Werror', '-fsyntax-only',
                                 '-I', os.path.dirname(include_dir), src],
                           capture_output=True, text=True)
    if p.returncode != 0:
        return ['EXAMPLES does not compile:\n' + p.stderr]
    return []


def check_page(page, funcs, structs, by_header, cc, include_dir, man):
    secs = sections(open(page).read())
    failures = []
    for want in ['NAME', 'LIBRARY', 'SYNOPSIS', 'DESCRIPTION', 'RETURN VALUE', 'ERRORS',
                 'ATTRIBUTES', 'EXAMPLES', 'SEE ALSO']:
        if want not in secs:
            failures.append('no %s section' % want)
    if failures:
        return failures
    headers, protos, shown_structs = synopsis(secs['SYNOPSIS'])
    shown = set()
    for proto in protos:
        name = re.findall(r'\b\w+\b', proto.split('(')[0])[-1]
        shown.add(name)
        if name not in funcs:
            failures.append('SYNOPSIS: %s is not a function of the headers' % name)
        elif funcs[name] != proto:
            failures.append('SYNOPSIS: %s\n    page:   %s\n    header: %s' % (name, proto, funcs[name]))
    for struct, members in shown_structs.items():
        for member in members:
            if member not in structs.get(struct, ()):
                failures.append('SYNOPSIS: struct %s has no member "%s"' % (struct, member))
    body = '\n'.join(unroff(l) for s in secs.values() for l in s)
    for name in sorted(set(re.findall(r'\b(vouch_\w+)\(\)', body))):
        if name not in funcs:
            failures.append('names %s(), which no header declares' % name)
    names = name_list(secs['NAME'])
    for header in headers:
        if header == 'vouch/vouch.h':
            continue
        for name in by_header.get(header, []):
            if name not in shown:
                failures.append('%s declares %s, missing from SYNOPSIS' % (header, name))
            if name not in names:
                failures.append('%s declares %s, missing from NAME' % (header, name))
    if man:
        failures += check_render(page)
    failures += check_examples(secs['EXAMPLES'], cc, include_dir)
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--include')
    ap.add_argument('--cc', nargs='+', default=['cc'])
    ap.add_argument('--names', action='store_true')
    ap.add_argument('pages', nargs='+')
    args = ap.parse_args()
    if args.names:
        for page in args.pages:
            print('\n'.join(name_list(sections(open(page).read())['NAME'])))
        return 0
    man = shutil.which('man') is not None
    if not man and os.environ.get('CI') != 'true':
        print('man(1) not found: skipped (tools/setup-deps test installs man-db)')
        return 77
    funcs, structs, by_header = header_decls(args.include)
    failed = 0
    for page in args.pages:
        failures = check_page(page, funcs, structs, by_header, args.cc, args.include, man)
        for f in failures:
            print('FAIL: %s: %s' % (os.path.basename(page), f))
        failed += bool(failures)
    if not man:
        print('FAIL: man(1) not found and CI=true')
        failed += 1
    print('%d passed, %d failed' % (len(args.pages) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
