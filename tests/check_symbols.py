#!/usr/bin/env python3
"""The shared library exports exactly the VOUCH_EXPORT declarations of the
public headers, all in the vouch_ namespace, each with a version node of
libvouch.map, and carries a SONAME.

usage: check_symbols.py LIBVOUCH.so INCLUDE_DIR [LIBVOUCH.map]
(the map defaults to INCLUDE_DIR/../../libvouch.map, the source tree's)

With --seams, the libraries that are installed hold no test seam:

usage: check_symbols.py --seams LIBVOUCH-TEST.a LIB...

fails if any LIB (the installed libvouch.a, libvouch.so, as built or as
installed, or an installed program that embeds the library's objects)
defines or refers to a name of TEST_ONLY (nm, every symbol,
local ones too: the hidden functions of a .so are local there); and, so
that the list stays true, if LIBVOUCH-TEST.a (the test build,
-DVOUCH_TEST_SEAMS) lacks one of them, or defines a global symbol that
the first LIB does not and that is not listed.
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


# What only the test build of the library has: the seams that
# switch a check off or replace a source, and what tests observe through.
TEST_ONLY = {
    'vouch_seed_set_ops': 'rng/getrandom.c: replaces the seed source',
    'vouch_health_reset': 'rng/health.c: clears a latched health-test failure',
    'vouch_random_set_hooks': 'rng/global.c: the RNG clock, reseed limits, wipe-on-fork',
    'vouch_random_thread_reset': 'rng/global.c (observer)',
    'vouch_random_thread_seeds': 'rng/global.c (observer)',
    'vouch_random_thread_wipe_on_fork': 'rng/global.c (observer)',
    'vouch_random_live_states': 'rng/global.c (observer)',
    'vouch_random_last_dropped': 'rng/global.c (observer)',
    'vouch_drbg_selftest_inject_failure': 'rng/selftest.c: fails the DRBG self-test',
    'vouch_hash_set_count': 'crypto/hash/md.c: sets a hash\'s byte count',
    'vouch_sandbox_set_fault': 'asn1/sandbox.c: asks the worker for a fault',
    'vouch_sandbox_last_syscall': 'asn1/sandbox.c: the trap mode\'s report',
    'vouch_fw_no_openat2': 'crypto/fw/request.c: forces the path walk without openat2(2)',
}
# Names the test build refers to but does not define (the test worker's
# fault hooks, asn1/parse-worker-faults.c): an installed library must not
# even refer to them, or a program defining one would fill the hook.
TEST_ONLY_REFS = {
    'vouch_sbw_fault_inject': 'asn1/sandbox_worker.c: the worker\'s fault hook',
}


def nm_symbols(lib):
    """{name: set of nm type letters} of every symbol of lib, local ones too."""
    out = subprocess.run(['nm', '-A', lib], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        # FILE[:MEMBER]:[VALUE] TYPE NAME
        parts = line.rsplit(None, 2)
        if len(parts) == 3 and len(parts[1]) == 1:
            syms.setdefault(parts[2], set()).add(parts[1])
    return syms


def check_seams(test_lib, libs):
    failures = []
    checks = 0
    test_syms = nm_symbols(test_lib)
    listed = set(TEST_ONLY) | set(TEST_ONLY_REFS)
    for lib in libs:
        syms = nm_symbols(lib)
        checks += 1
        found = sorted(n for n in listed if n in syms)
        if found:
            failures.append('%s has test seams: %s' % (lib, ', '.join(
                '%s (%s, nm %s)' % (n, {**TEST_ONLY, **TEST_ONLY_REFS}[n],
                                    ''.join(sorted(syms[n]))) for n in found)))
    checks += 1
    missing = sorted(n for n in TEST_ONLY
                     if not test_syms.get(n, set()) & set('TDBR'))
    missing += sorted(n for n in TEST_ONLY_REFS if n not in test_syms)
    if missing:
        failures.append('%s lacks the listed seams (renamed? update TEST_ONLY): %s'
                        % (test_lib, ', '.join(missing)))
    checks += 1
    installed = nm_symbols(libs[0])

    # Global in the archive; hidden functions are local (t, d, ...) in a .so.
    test_defs = {n for n, t in test_syms.items() if t & set('TDBRVW')}
    installed_defs = {n for n, t in installed.items() if t & set('TtDdBbRrVW')}
    extra = sorted(test_defs - installed_defs - listed)
    if extra:
        failures.append('%s defines what %s does not, unlisted (a new seam? add it to '
                        'TEST_ONLY): %s' % (test_lib, libs[0], ', '.join(extra)))
    for f in failures:
        print('FAIL:', f)
    print('%d test-only names, none in: %s' % (len(listed), ', '.join(libs))
          if not failures else '%d test-only names' % len(listed))
    print('%d passed, %d failed' % (checks - len(failures), len(failures)))
    return 1 if failures else 0


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
    if len(sys.argv) > 1 and sys.argv[1] == '--seams':
        if len(sys.argv) < 4:
            print(__doc__, file=sys.stderr)
            return 64
        return check_seams(sys.argv[2], sys.argv[3:])
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
