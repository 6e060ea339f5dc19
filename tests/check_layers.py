#!/usr/bin/env python3
"""The layers of vouch, enforced: every include and every call runs one way.

    check_layers.py SOURCE_ROOT LIBVOUCH_A [BUILD_ROOT]

  base        crypto/base      errors, memory, CPU features
  primitives  crypto/hash, crypto/cipher, crypto/pk   (use base)
  rng         rng/             (uses primitives)
  asn1        asn1/            reading untrusted bytes: no crypto at all (uses base)
  verify      crypto/verify    (uses primitives and the parsers' public results)
  front       crypto/front     the public DER entry points: asn1's readers composed
                               with verify, the one layer that may use both
  fw          crypto/fw        (uses verify, and what verify may use)
  tools       tools/           the public API only

Two checks, each listed violation a failure:
- includes: a quoted #include names an internal header (a header beside the
  code); it must belong to the same layer or one the layer may use, and
  verify, fw and tools include no header of asn1's at all (asn1's public
  results are in include/vouch); tools include only <vouch/...> headers
  and their own.
- calls: the undefined vouch_* symbols of each object of libvouch.a are
  resolved to the layer that defines them, which must be one the caller
  may use; verify and fw may call asn1 only through the public API (a
  function declared VOUCH_EXPORT in include/vouch), never a DER, PEM or key
  reader. The tools' objects may call only the public API.
Prints "N passed, M failed".
"""
import os
import re
import subprocess
import sys

LAYERS = {
    'crypto/base': 'base', 'crypto/hash': 'primitives', 'crypto/cipher': 'primitives',
    'crypto/pk': 'primitives', 'rng': 'rng', 'asn1': 'asn1', 'crypto/verify': 'verify',
    'crypto/fw': 'fw', 'crypto/front': 'front', 'tools': 'tools',
}
MAY_USE = {
    'base': {'base'},
    'primitives': {'primitives', 'base'},
    'rng': {'rng', 'primitives', 'base'},
    'asn1': {'asn1', 'base'},
    'verify': {'verify', 'primitives', 'base', 'asn1-public'},
    'front': {'front', 'verify', 'asn1', 'primitives', 'base'},
    'fw': {'fw', 'verify', 'primitives', 'base', 'asn1-public'},
    'front': {'front', 'verify', 'asn1', 'primitives', 'base'},
    'tools': {'public'},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)
# A VOUCH_EXPORT declaration's name: a function's, or a variable's
# (the hash descriptors, vouch_sha256_alg, ...).
EXPORT = re.compile(r'VOUCH_EXPORT[^;{]*?\b(vouch_\w+)\s*[(;]', re.S)

problems, checked = [], 0


def layer_of(rel):
    for d, layer in LAYERS.items():
        if rel == d or rel.startswith(d + '/'):
            return layer
    return None


def headers(root):
    """Every internal header's layer, by file name (the include path is flat)."""
    out = {}
    for d in LAYERS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in files:
                if f.endswith('.h'):
                    out.setdefault(f, set()).add(layer_of(os.path.relpath(dirpath, root)))
    return out


def public_api(root):
    names = set()
    inc = os.path.join(root, 'include', 'vouch')
    for f in os.listdir(inc):
        if f.endswith('.h'):
            names |= set(EXPORT.findall(open(os.path.join(inc, f)).read()))
    return names


def check_includes(root, owners):
    global checked
    for d, layer in LAYERS.items():
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                for kind, name in INCLUDE.findall(open(path, errors='replace').read()):
                    checked += 1
                    if kind == '<':
                        continue        # system and public headers
                    base = os.path.basename(name)
                    owner = owners.get(base)
                    if owner is None:
                        continue        # generated (tables, config) or tools-local
                    if layer == 'tools':
                        if owner != {'tools'}:
                            problems.append('%s includes %s, internal to %s' % (rel, name,
                                            '/'.join(sorted(owner))))
                        continue
                    if not owner & MAY_USE[layer]:
                        problems.append('%s (%s) includes %s, internal to %s' % (
                            rel, layer, name, '/'.join(sorted(owner))))


def nm(path):
    out = subprocess.run(['nm', '-A', '--defined-only', path], capture_output=True, text=True).stdout
    und = subprocess.run(['nm', '-A', '-u', path], capture_output=True, text=True).stdout
    return out, und


def member_layer(member):
    # meson names archive members after their sources: crypto_hash_sha256.c.o
    for d, layer in LAYERS.items():
        if member.startswith(d.replace('/', '_') + '_'):
            return layer
    if member.startswith('vouch_asn1_tab') or member.startswith('meson-generated_'):
        return 'asn1'
    return None


def check_calls(lib, tool_objects, api):
    global checked
    defined_out, undefined_out = nm(lib)
    where = {}
    for line in defined_out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-1].startswith('vouch_'):
            member = parts[0].split(':')[1]
            where[parts[-1]] = member_layer(member)
    for line in undefined_out.splitlines():
        parts = line.split()
        if len(parts) < 2 or not parts[-1].startswith('vouch_'):
            continue
        member, sym = parts[0].split(':')[1], parts[-1]
        caller, callee = member_layer(member), where.get(sym)
        checked += 1
        if caller is None or callee is None or callee == caller:
            continue
        allowed = MAY_USE[caller]
        if callee == 'asn1' and 'asn1-public' in allowed:
            if sym not in api:
                problems.append('%s (%s) calls %s, internal to asn1' % (member, caller, sym))
        elif callee not in allowed:
            problems.append('%s (%s) calls %s, of %s' % (member, caller, sym, callee))
    for obj in tool_objects:
        _, und = nm(obj)
        for line in und.splitlines():
            sym = line.split()[-1]
            if sym.startswith('vouch_'):
                checked += 1
                if sym not in api:
                    problems.append('%s calls %s, not in the public API' % (
                        os.path.basename(obj), sym))


def tool_objects(build):
    out = []
    tools = os.path.join(build, 'tools')
    for d in sorted(os.listdir(tools)) if os.path.isdir(tools) else []:
        if d.endswith('.p') and not d.startswith('lib'):
            out += [os.path.join(tools, d, f) for f in sorted(os.listdir(os.path.join(tools, d)))
                    if f.endswith('.o') and 'parse-worker' not in f]
    return out


def main():
    root, lib = sys.argv[1], sys.argv[2]
    tools = tool_objects(sys.argv[3]) if len(sys.argv) > 3 else []
    check_includes(root, headers(root))
    check_calls(lib, tools, public_api(root))
    for p in problems:
        print('FAIL: ' + p)
    print('%d passed, %d failed' % (checked - len(problems), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
