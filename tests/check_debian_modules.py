#!/usr/bin/env python3
"""Every module of Debian's kernel package, against the key its kernel trusts.

    check_debian_modules.py PKCS7VERIFY OPENSSL [--dir DIR]

DIR (default: $VOUCH_DEBIAN_EFI_DIR, else ~/.cache/vouch/debian-efi) is
what tools/fetch-debian-efi leaves (tests/data/debian-efi/README.md): the
kernel vmlinuz-ABI, its modules under modules-ABI/, the certificate
compiled into that kernel for its modules (kernel-module-key.pem) and the
Debian Secure Boot CA. An incomplete DIR skips the test (77), or fails it
under CI=true.

The check a distribution's QA runs on a kernel package (issue 28):
1. The kernel image is Debian's: `pkcs7verify --pe` accepts it against the
   Debian CA, so the key compiled into it is the kernel's own.
2. `find modules-ABI -name '*.ko*' -print0 | pkcs7verify --module --null
   --files-from - --json --trust kernel-module-key.pem`: every module
   accepted, one object each in the order given, each naming its own file,
   the key's subject, and the SHA-256 of that file's module without its
   signature (computed here from the trailer, not by libvouch).
3. The same run with only the Debian CA trusted: every module refused with
   exit code 2 (no trusted key), as the kernel refuses a module whose key
   is not in its keyring: the CA signs images, the build key modules.
4. Copies, interleaved in one run: real modules compressed as `make
   modules_install` does (.ko.xz, .ko.zst, .ko.gz: accepted, with the
   decompressed module's digest), one with a bit of the module flipped
   (1), one without its signature (1), a truncated .ko.xz (3): each line
   its own file's verdict.
5. OpenSSL's `cms -verify` as a second opinion on a sample spread over the
   tree, each module and its flipped copy: the same accept/refuse.
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

import checklib

PROG = 'check_debian_modules'
MARKER = b'~Module signature appended~\n'
KEY = 'kernel-module-key.pem'
DEBIAN_CA = 'debian-secure-boot-ca.pem'
SAMPLE = 12

fails = []


def check(ok, what):
    print('%s: %s' % ('ok' if ok else 'FAIL', what))
    if not ok:
        fails.append(what)


def one(d, prefix):
    found = sorted(n for n in os.listdir(d) if n.startswith(prefix))
    return os.path.join(d, found[0]) if len(found) == 1 else None


def missing(d):
    """Why DIR cannot be used, or None."""
    if not os.path.isdir(d) or not os.path.isfile(os.path.join(d, 'VERSIONS')):
        return ('%s holds no Debian kernel (run tools/fetch-debian-efi %s; it needs apt and '
                'the network)' % (d, d))
    for n in (KEY, DEBIAN_CA):
        if not os.path.isfile(os.path.join(d, n)):
            return '%s: %s is missing (run tools/fetch-debian-efi %s again)' % (d, n, d)
    if not one(d, 'vmlinuz-') or not one(d, 'modules-'):
        return '%s: no vmlinuz-* and modules-* (run tools/fetch-debian-efi %s again)' % (d, d)
    return None


def module_files(tree):
    """Every module under tree, sorted: the order the run is given."""
    return sorted(os.path.join(top, n) for top, _, names in os.walk(tree)
                  for n in names if '.ko' in n)


def split(data):
    """(module, PKCS#7 signature) of a signed module, read from its trailer:
    struct module_signature (12 bytes, the signature's length big-endian in
    the last four) between the signature and the marker."""
    assert data.endswith(MARKER)
    info = data[-len(MARKER) - 12:-len(MARKER)]
    siglen, = struct.unpack('>I', info[8:])
    end = len(data) - len(MARKER) - 12
    return data[:end - siglen], data[end - siglen:end]


def run(args, stdin=None):
    r = subprocess.run(args, input=stdin, capture_output=True)
    return r.returncode, r.stdout.decode(errors='replace'), r.stderr.decode(errors='replace')


def key_subject(openssl, pem):
    """The key's subject as OpenSSL 3 prints it by default ("CN = ..."), as --json does."""
    r = subprocess.run([openssl, 'x509', '-in', pem, '-noout', '-subject'],
                       capture_output=True, text=True, check=True)
    return r.stdout.strip().split('=', 1)[1]


def whole_tree(tool, key, ca, files):
    """Cases 2 and 3: one run over every module, trusting the key, then the CA."""
    names = b''.join(f.encode() + b'\0' for f in files)
    code, out, err = run([tool, '--module', '--null', '--files-from', '-', '--json', '-q',
                          '--trust', key], names)
    objs = [json.loads(l) for l in out.splitlines()]
    check(code == 0 and len(objs) == len(files),
          'all %d modules against the kernel\'s key: exit %d, %d objects %s'
          % (len(files), code, len(objs), err.strip()[:200]))
    wrong = []
    for f, o in zip(files, objs):
        with open(f, 'rb') as fh:
            body, _ = split(fh.read())
        if (o.get('file') != f or o.get('verdict') != 'accepted' or
                o['content_digest']['hex'] != hashlib.sha256(body).hexdigest()):
            wrong.append((f, o))
    check(not wrong, 'each object names its own module and its own digest (%d do not%s)'
          % (len(wrong), ': %r' % (wrong[0],) if wrong else ''))
    subjects = {tuple(s['subject'] for s in o['signers']) for o in objs}
    check(len(subjects) == 1, 'one signer for the whole package: %r' % sorted(subjects)[:3])

    code, out, err = run([tool, '--module', '--null', '--files-from', '-', '--json', '-q',
                          '--trust', ca], names)
    objs = [json.loads(l) for l in out.splitlines()]
    refused = [o for o in objs if o.get('verdict') == 'refused' and o.get('exit') == 2]
    check(code == 2 and len(objs) == len(files) and len(refused) == len(files),
          'all %d modules against the Debian CA alone: exit %d, %d of %d refused with 2'
          % (len(files), code, len(refused), len(objs)))
    return subjects


def sample(files):
    """SAMPLE modules spread over the sorted list."""
    step = max(1, len(files) // SAMPLE)
    return files[::step][:SAMPLE]


def flipped_copy(src, dst):
    """src with one bit flipped in the middle of its module (the signed part)."""
    with open(src, 'rb') as f:
        data = bytearray(f.read())
    body, _ = split(bytes(data))
    data[len(body) // 2] ^= 0x01
    with open(dst, 'wb') as f:
        f.write(data)


def copies(tool, key, files, tmp):
    """Case 4: compressed, tampered, unsigned and truncated copies, interleaved."""
    picked = sample(files)
    cases = []  # (path, exit code, digest of the module when accepted)
    for i, src in enumerate(picked[:6]):
        with open(src, 'rb') as f:
            data = f.read()
        body, _ = split(data)
        suffix = ['.xz', '.zst', '.gz'][i % 3]
        path = os.path.join(tmp, '%02d-%s%s' % (i, os.path.basename(src), suffix))
        with open(path, 'wb') as f:
            f.write(checklib.compress(suffix, data))
        cases.append((path, 0, hashlib.sha256(body).hexdigest()))
        if i == 1:
            bad = os.path.join(tmp, 'flipped-' + os.path.basename(src))
            flipped_copy(src, bad)
            cases.append((bad, 1, None))
        if i == 3:
            bad = os.path.join(tmp, 'unsigned-' + os.path.basename(src))
            with open(bad, 'wb') as f:
                f.write(body)
            cases.append((bad, 1, None))
        if i == 4:
            bad = os.path.join(tmp, 'truncated-' + os.path.basename(src) + '.xz')
            packed = checklib.compress('.xz', data)
            with open(bad, 'wb') as f:
                f.write(packed[:len(packed) // 2])
            cases.append((bad, 3, None))
    names = ''.join(c[0] + '\n' for c in cases).encode()
    code, out, err = run([tool, '--module', '--files-from', '-', '--json', '-q',
                          '--trust', key], names)
    objs = [json.loads(l) for l in out.splitlines()]
    check(len(objs) == len(cases) and code == max(c[1] for c in cases),
          'copies: %d objects for %d files, exit %d' % (len(objs), len(cases), code))
    for (path, want, digest), o in zip(cases, objs):
        ok = o.get('file') == path and o.get('exit') == want
        if digest:
            ok = ok and o['content_digest']['hex'] == digest
        check(ok, '%s: exit %s (want %d)%s' % (os.path.basename(path), o.get('exit'), want,
                                                 '' if ok else ': %r' % o))


def second_opinion(tool, openssl, key, files, tmp):
    """Case 5: OpenSSL and pkcs7verify on each sampled module and its flipped copy."""
    for i, src in enumerate(sample(files)):
        bad = os.path.join(tmp, 'opinion-%02d.ko' % i)
        flipped_copy(src, bad)
        for path, want in ((src, 0), (bad, 1)):
            with open(path, 'rb') as f:
                body, sig = split(f.read())
            content, p7 = os.path.join(tmp, 'content'), os.path.join(tmp, 'sig.p7')
            with open(content, 'wb') as f:
                f.write(body)
            with open(p7, 'wb') as f:
                f.write(sig)
            ossl, _, _ = run([openssl, 'cms', '-verify', '-binary', '-inform', 'DER', '-in', p7,
                              '-content', content, '-certfile', key, '-CAfile', key,
                              '-purpose', 'any', '-out', os.devnull])
            ours, _, err = run([tool, '-q', '--module', '--trust', key, path])
            check(ours == want and (ossl == 0) == (want == 0),
                  '%s%s: pkcs7verify %d, openssl cms -verify %d, want %s'
                  % ('flipped ' if path == bad else '', os.path.relpath(src, os.path.dirname(
                      os.path.dirname(src))), ours, ossl, 'accepted' if want == 0 else 'refused'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pkcs7verify')
    ap.add_argument('openssl')
    ap.add_argument('--dir', default=checklib.debian_efi_dir())
    args = ap.parse_args()
    why = missing(args.dir)
    if not why and not checklib.have_compressors():
        why = 'xz, zstd and gzip are needed (tools/setup-deps test)'
    if why:
        return checklib.skip(PROG, why)
    d, tool = args.dir, args.pkcs7verify
    with open(os.path.join(d, 'VERSIONS')) as f:
        print('%s: %s: %s' % (PROG, d, ', '.join(f.read().split('\n')[:-1])))
    key, ca = os.path.join(d, KEY), os.path.join(d, DEBIAN_CA)
    kernel, tree = one(d, 'vmlinuz-'), one(d, 'modules-')
    files = module_files(tree)
    check(len(files) >= 100, '%s: %d modules' % (os.path.basename(tree), len(files)))

    code, _, err = run([tool, '-q', '--pe', '--trust', ca, kernel])
    check(code == 0, '%s against the Debian CA: exit %d %s'
          % (os.path.basename(kernel), code, err.strip()))
    subjects = whole_tree(tool, key, ca, files)
    want = key_subject(args.openssl, key)
    check(subjects == {(want,)},
          'the signer is the key compiled into the kernel (%s): %r' % (want, sorted(subjects)))
    with tempfile.TemporaryDirectory(prefix='check-debian-modules-') as tmp:
        copies(tool, key, files, tmp)
        second_opinion(tool, args.openssl, key, files, tmp)
    return 1 if checklib.report(PROG, fails) else 0


if __name__ == '__main__':
    sys.exit(main())
