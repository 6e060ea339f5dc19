#!/usr/bin/env python3
"""The shared library exports exactly the VOUCH_EXPORT declarations of the
public headers, all in the vouch_ namespace, each with a version node of
libvouch.map, and carries a SONAME.

usage: check_symbols.py LIBVOUCH.so INCLUDE_DIR [LIBVOUCH.map]
(the map defaults to INCLUDE_DIR/../../libvouch.map, the source tree's)
"""
import os
import re
import subprocess
import sys


def exported(lib):
    """{name: version node} of the symbols the library defines."""
    out = subprocess.run(['readelf', '--dyn-syms', '--wide', lib], check=True,
                         capture_output=True, text=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) != 8 or parts[6] == 'UND' or parts[4] not in ('GLOBAL', 'WEAK'):
            continue
        name, _, version = parts[7].partition('@')
        names[name] = version.lstrip('@')
    return names


def map_nodes(map_file):
    """The version nodes libvouch.map defines."""
    text = re.sub(r'/\*.*?\*/', ' ', open(map_file).read(), flags=re.S)
    return re.findall(r'^\s*([A-Za-z_][\w.]*)\s*\{', text, flags=re.M)


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
    map_file = sys.argv[3] if len(sys.argv) > 3 else \
        os.path.join(include_dir, '..', '..', 'libvouch.map')
    nodes = map_nodes(map_file)
    versions, decl = exported(lib), declared(include_dir)
    # Each version node shows up as an absolute symbol of its own name.
    for node in nodes:
        versions.pop(node, None)
    exp = set(versions)
    failures = []
    checks = 0

    checks += 1
    outside = sorted(n for n in exp if not n.startswith('vouch_'))
    if outside:
        failures.append('exported outside the vouch_ namespace: ' + ', '.join(outside))
    checks += 1
    if exp - decl:
        failures.append('exported but not declared VOUCH_EXPORT: ' + ', '.join(sorted(exp - decl)))
    checks += 1
    if decl - exp:
        failures.append('declared VOUCH_EXPORT but not exported: ' + ', '.join(sorted(decl - exp)))
    checks += 1
    if not nodes:
        failures.append('%s defines no version node' % map_file)
    checks += 1
    unversioned = sorted(n for n, v in versions.items() if v not in nodes)
    if unversioned:
        failures.append('exported without a version node of %s: %s'
                        % (os.path.basename(map_file), ', '.join(
                            '%s@%s' % (n, versions[n] or '(none)') for n in unversioned)))
    checks += 1
    dyn = subprocess.run(['readelf', '-d', lib], check=True, capture_output=True, text=True).stdout
    if not re.search(r'\(SONAME\).*\[libvouch\.so\.\d+\]', dyn):
        failures.append('no SONAME libvouch.so.N')
    for f in failures:
        print('FAIL:', f)
    print('%d symbols exported, %d declared, version nodes: %s'
          % (len(exp), len(decl), ', '.join(nodes)))
    print('%d passed, %d failed' % (checks - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
