#!/usr/bin/env python3
"""The shared library exports exactly the VOUCH_EXPORT declarations of the
public headers, all in the vouch_ namespace, and carries a SONAME.

usage: check_symbols.py LIBVOUCH.so INCLUDE_DIR
"""
import os
import re
import subprocess
import sys


def exported(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDRBVW':
            names.add(parts[2].split('@')[0])
    # The version node of libvouch.map shows up as an absolute symbol.
    names.discard('VOUCH_0')
    return names


def declared(include_dir):
    names = set()
    for header in sorted(os.listdir(include_dir)):
        if not header.endswith('.h'):
            continue
        text = open(os.path.join(include_dir, header)).read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        text = re.sub(r'^\s*#.*$', ' ', text, flags=re.M)
        for stmt in text.split(';'):
            if not re.search(r'\bVOUCH_EXPORT\b', stmt):
                continue
            head = stmt.split('(')[0] if '(' in stmt else stmt
            idents = re.findall(r'\b[A-Za-z_]\w*\b', head)
            names.add(idents[-1])
    return names


def main():
    lib, include_dir = sys.argv[1], sys.argv[2]
    exp, decl = exported(lib), declared(include_dir)
    failures = []
    outside = sorted(n for n in exp if not n.startswith('vouch_'))
    if outside:
        failures.append('exported outside the vouch_ namespace: ' + ', '.join(outside))
    if exp - decl:
        failures.append('exported but not declared VOUCH_EXPORT: ' + ', '.join(sorted(exp - decl)))
    if decl - exp:
        failures.append('declared VOUCH_EXPORT but not exported: ' + ', '.join(sorted(decl - exp)))
    dyn = subprocess.run(['readelf', '-d', lib], check=True, capture_output=True, text=True).stdout
    if not re.search(r'\(SONAME\).*\[libvouch\.so\.\d+\]', dyn):
        failures.append('no SONAME libvouch.so.N')
    for f in failures:
        print('FAIL:', f)
    print('%d symbols exported, %d declared' % (len(exp), len(decl)))
    print('%d passed, %d failed' % (4 - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
