#!/usr/bin/env python3
"""The release build's binaries carry the hardening tools/test asks for.

Read from the ELF files with readelf, for libvouch.so and each installed
tool: full RELRO (a GNU_RELRO segment and BIND_NOW), no executable stack,
no text relocations, position independence (a PIE for the tools), the
stack protector (__stack_chk_fail imported) and _FORTIFY_SOURCE (some
__*_chk function imported; for the static PIEs, which import nothing,
called by their own objects or the library's linked into them). For -fcf-protection, the objects of the
library and the tools must carry the x86 IBT and SHSTK properties; the
linked files do not, on Debian 12, because its C runtime start files
(crt1.o, crti.o) lack the property and the linker keeps only what every
input has, so that is not asked of them.

usage: check_hardening.py BUILD
"""
import glob
import os
import re
import subprocess
import sys


def readelf(*args):
    return subprocess.run(['readelf', '--wide'] + list(args), check=True,
                          capture_output=True, text=True).stdout


def undefined_in_objects(objects_dir):
    """The names the objects in objects_dir refer to without defining."""
    names = set()
    for obj in glob.glob(os.path.join(objects_dir, '*.o')):
        out = subprocess.run(['nm', '-u', obj], check=True, capture_output=True, text=True).stdout
        names.update(line.split()[-1] for line in out.splitlines() if line.strip())
    return names


def check_linked(path, is_exe):
    """The failures of one linked file."""
    failures = []
    header, dyn = readelf('-h', path), readelf('-d', path)
    segments, syms = readelf('-l', path), readelf('--dyn-syms', path)
    if 'GNU_RELRO' not in segments:
        failures.append('no GNU_RELRO segment (-Wl,-z,relro)')
    if not re.search(r'\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*\bNOW\b', dyn):
        failures.append('no BIND_NOW (-Wl,-z,now)')
    stack = re.search(r'GNU_STACK.*\s(\S+)\s+0x\S+$', segments, flags=re.M)
    if not stack or 'E' in stack.group(1):
        failures.append('executable or missing GNU_STACK')
    if 'TEXTREL' in dyn:
        failures.append('text relocations')
    if 'DYN' not in header:
        failures.append('not position independent (ELF type is not DYN)')
    if is_exe and not re.search(r'\(FLAGS_1\).*\bPIE\b', dyn):
        failures.append('not a PIE (-fPIE -pie)')
    imported = set(re.findall(r'\sUND\s+(\w+)', syms))
    # A static PIE (no program interpreter: the C library is inside, so
    # it imports nothing) is asked what its own objects call, with the
    # library's objects linked into it.
    if is_exe and 'INTERP' not in segments:
        build = os.path.dirname(os.path.dirname(path))
        imported = undefined_in_objects(os.path.join(os.path.dirname(path),
                                                     os.path.basename(path) + '.p'))
        for layer in glob.glob(os.path.join(build, 'libvouch-*.a.p')):
            imported |= undefined_in_objects(layer)
    if '__stack_chk_fail' not in imported:
        failures.append('no __stack_chk_fail: built without the stack protector')
    if not any(re.fullmatch(r'__\w+_chk', s) for s in imported):
        failures.append('no __*_chk function: built without _FORTIFY_SOURCE')
    return failures


def check_objects(pattern):
    """The object files matching pattern that lack IBT or SHSTK."""
    lacking = []
    objects = sorted(glob.glob(pattern))
    for obj in objects:
        notes = readelf('-n', obj)
        if not re.search(r'x86 feature:.*IBT.*SHSTK|x86 feature:.*SHSTK.*IBT', notes):
            lacking.append(os.path.basename(obj))
    return objects, lacking


def main():
    build = sys.argv[1]
    lib = sorted(p for p in glob.glob(os.path.join(build, 'libvouch.so.*'))
                 if re.search(r'\.so\.\d+\.\d+\.\d+$', p))
    tools = [os.path.join(build, 'tools', t)
             for t in ('pkcs7verify', 'fwcheck', 'vouch-parse-worker', 'vouch-hash',
                       'vouch-rand', 'vouch-bench')]
    failed, checked = 0, 0
    for path, is_exe in [(p, False) for p in lib] + [(t, True) for t in tools]:
        checked += 1
        failures = check_linked(path, is_exe)
        for f in failures:
            print('FAIL: %s: %s' % (os.path.relpath(path, build), f))
        failed += bool(failures)
    # The library's objects are compiled per layer (libvouch-LAYER.a, and
    # the seam files' libvouch-LAYER-seams.a), then linked into libvouch.
    for pattern in ['libvouch-*.a.p/*.o', 'tools/*.p/*.o']:
        checked += 1
        objects, lacking = check_objects(os.path.join(build, pattern))
        if not objects or lacking:
            print('FAIL: %s: without IBT/SHSTK (-fcf-protection): %s'
                  % (pattern, ', '.join(lacking) or 'no objects found'))
            failed += 1
    print('%d passed, %d failed' % (checked - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
