#!/usr/bin/env python3
"""Authenticode on real images: Debian's signed shim, GRUB and kernel.

    check_debian_pe.py PKCS7VERIFY [--dir DIR] [--sbverify PATH]

DIR (default: $VOUCH_DEBIAN_EFI_DIR, else ~/.cache/vouch/debian-efi) is
what tools/fetch-debian-efi leaves: shimx64.efi.signed, grubx64.efi.signed,
vmlinuz-*, the anchors ms-uefi-ca-2011.pem, ms-uefi-ca-2023.pem and
debian-secure-boot-ca.pem, and VERSIONS (tests/data/debian-efi/README.md).
An empty or incomplete DIR skips the test (77), or fails it under CI=true.

Each case runs `pkcs7verify --pe --trust CA IMAGE` and checks its exit code
(DESIGN.md's: 0 accepted, 1 refused, 2 no chain to the keyring), and
`sbverify --cert CA IMAGE` (sbsigntool) on the same pair, whose
accept/refuse must agree. sbverify accepts Debian's shim whatever --cert
names; where that matters the test shows sbverify also accepts with an
unrelated certificate made here, and takes no verdict from it. With
--json, the entries of shim's two signatures are checked, and every
entry's image digest against one computed here from the file (the whole
file but the checksum, the certificate table's directory entry and the
table). The anchors' fingerprints must be those the README records.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import checklib

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(HERE, 'data', 'debian-efi', 'README.md')
MS2011 = 'ms-uefi-ca-2011.pem'
MS2023 = 'ms-uefi-ca-2023.pem'
DEBIAN = 'debian-secure-boot-ca.pem'

failures = []


def check(ok, what):
    print('%s: %s' % ('ok' if ok else 'FAIL', what))
    if not ok:
        failures.append(what)


def missing(d):
    """Why DIR cannot be used, or None."""
    if not os.path.isfile(os.path.join(d, 'VERSIONS')):
        return ('%s holds no Debian images (run tools/fetch-debian-efi %s; it needs apt and '
                'the network)' % (d, d))
    for n in ('shimx64.efi.signed', 'grubx64.efi.signed', MS2011, MS2023, DEBIAN):
        if not os.path.isfile(os.path.join(d, n)):
            return '%s: %s is missing (run tools/fetch-debian-efi %s again)' % (d, n, d)
    if not kernel_image(d):
        return '%s: no vmlinuz-* (run tools/fetch-debian-efi %s again)' % (d, d)
    return None


def kernel_image(d):
    found = sorted(n for n in os.listdir(d) if n.startswith('vmlinuz-'))
    return os.path.join(d, found[0]) if len(found) == 1 else None


# --- the image, read here independently of libvouch ------------------------

def pe_layout(data):
    """(checksum offset, cert directory entry offset, cert table (off, size), {section: (ptr, size)})."""
    pe, = struct.unpack_from('<I', data, 0x3c)
    assert data[pe:pe + 4] == b'PE\0\0'
    nsec, = struct.unpack_from('<H', data, pe + 6)
    optsz, = struct.unpack_from('<H', data, pe + 20)
    opt = pe + 24
    magic, = struct.unpack_from('<H', data, opt)
    dirs = opt + (96 if magic == 0x10b else 112)
    cert_dir = dirs + 4 * 8
    sections = {}
    for i in range(nsec):
        h = opt + optsz + 40 * i
        size, ptr = struct.unpack_from('<II', data, h + 16)
        sections[data[h:h + 8].rstrip(b'\0').decode('ascii', 'replace')] = (ptr, size)
    return opt + 64, cert_dir, struct.unpack_from('<II', data, cert_dir), sections


def entry_offsets(data):
    _, _, (off, size), _ = pe_layout(data)
    offsets = []
    pos = off
    while pos + 8 <= off + size:
        length, = struct.unpack_from('<I', data, pos)
        offsets.append(pos)
        pos += (length + 7) & ~7
    return offsets


def image_digest(data):
    """SHA-256 Authenticode digest of an image whose sections leave no gap."""
    checksum, cert_dir, (off, size), _ = pe_layout(data)
    h = hashlib.sha256()
    h.update(data[:checksum])
    h.update(data[checksum + 4:cert_dir])
    h.update(data[cert_dir + 8:off] if off else data[cert_dir + 8:])
    if off:
        h.update(data[off + size:])
    return h.hexdigest()


def flipped(src, dst):
    """A copy of src with one bit of the middle byte of .text flipped."""
    data = bytearray(open(src, 'rb').read())
    ptr, size = pe_layout(data)[3]['.text']
    data[ptr + size // 2] ^= 0x01
    with open(dst, 'wb') as f:
        f.write(data)
    return dst


def unsigned(src, dst):
    """A copy of src without its certificate table (and its directory entry zeroed)."""
    data = bytearray(open(src, 'rb').read())
    _, cert_dir, (off, size), _ = pe_layout(data)
    assert off + size == len(data)
    struct.pack_into('<II', data, cert_dir, 0, 0)
    with open(dst, 'wb') as f:
        f.write(data[:off])
    return dst


# --- the anchors -----------------------------------------------------------

def recorded_fingerprints():
    """{anchor file: SHA-256} from the README's table."""
    with open(README) as f:
        text = f.read()
    return dict(re.findall(r'^\| `([a-z0-9.-]+\.pem)` \|.*\| `([0-9a-f]{64})` \|$', text, re.M))


def fingerprint(pem_path):
    r = subprocess.run(['openssl', 'x509', '-in', pem_path, '-outform', 'DER'], capture_output=True)
    return hashlib.sha256(r.stdout).hexdigest() if r.returncode == 0 and r.stdout else None


def unrelated_cert(tmp):
    """A fresh self-signed certificate no Debian image chains to."""
    key, cert = os.path.join(tmp, 'unrelated.key'), os.path.join(tmp, 'unrelated.pem')
    subprocess.run(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key,
                    '-subj', '/CN=vouch unrelated test CA', '-days', '2', '-out', cert],
                   check=True, capture_output=True)
    return cert


# --- the verifiers ---------------------------------------------------------

def pkcs7verify(exe, image, anchors, extra=()):
    args = [exe, '--pe']
    for a in anchors:
        args += ['--trust', a]
    args += list(extra) + [image]
    r = subprocess.run(args, capture_output=True, text=True)
    err = r.stderr.strip().splitlines()
    return r.returncode, r.stdout, err[0] if err else ''


def sbverify(exe, image, anchor):
    r = subprocess.run([exe, '--cert', anchor, image], capture_output=True, text=True)
    return r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pkcs7verify')
    ap.add_argument('--dir', default=checklib.debian_efi_dir())
    ap.add_argument('--sbverify', default=shutil.which('sbverify'))
    args = ap.parse_args()

    why = missing(args.dir)
    if not why and not args.sbverify:
        why = 'sbverify not found (Debian package sbsigntool: tools/setup-deps test)'
    if why:
        return checklib.skip('check_debian_pe', why)
    with open(os.path.join(args.dir, 'VERSIONS')) as f:
        print('check_debian_pe: %s: %s' % (args.dir, ', '.join(f.read().split('\n')[:-1])))

    d = args.dir
    shim = os.path.join(d, 'shimx64.efi.signed')
    grub = os.path.join(d, 'grubx64.efi.signed')
    kernel = kernel_image(d)
    ms2011, ms2023, debian = (os.path.join(d, n) for n in (MS2011, MS2023, DEBIAN))

    want = recorded_fingerprints()
    for n in (MS2011, MS2023, DEBIAN):
        have = fingerprint(os.path.join(d, n))
        check(want.get(n) == have, '%s SHA-256 %s, the README records %s' % (n, have, want.get(n)))

    with tempfile.TemporaryDirectory(prefix='check-debian-pe-') as tmp:
        kernel_flip = flipped(kernel, os.path.join(tmp, 'vmlinuz-text-flipped'))
        shim_flip = flipped(shim, os.path.join(tmp, 'shim-text-flipped'))
        kernel_unsigned = unsigned(kernel, os.path.join(tmp, 'vmlinuz-unsigned'))
        other = unrelated_cert(tmp)

        # (image, anchors, extra arguments, pkcs7verify's exit code, sbverify's:
        #  0 or 1, None when not asked, 'blind' when it accepts whatever the anchor)
        cases = [
            (shim, [ms2011], [], 0, 0),
            (shim, [ms2023], [], 0, 0),
            (shim, [ms2011], ['--purpose', 'codesign'], 0, None),
            (grub, [debian], [], 0, 0),
            (grub, [debian], ['--purpose', 'codesign'], 0, None),
            (kernel, [debian], [], 0, 0),
            (kernel, [debian], ['--purpose', 'codesign'], 0, None),
            (shim, [debian, ms2011], [], 0, None),
            (grub, [ms2011], [], 2, 1),
            (grub, [ms2023], [], 2, 1),
            (kernel, [ms2011], [], 2, 1),
            (shim, [debian], [], 2, 'blind'),
            (shim, [other], [], 2, 'blind'),
            # the kernel's rule (kernels since 2023): the first entry decides, the
            # others are not examined; shim's first chains to the 2011 CA only
            (kernel, [debian], ['--pe-first-only'], 0, None),
            (grub, [ms2011], ['--pe-first-only'], 2, None),
            (shim, [ms2011], ['--pe-first-only'], 0, None),
            (shim, [ms2023], ['--pe-first-only'], 2, None),
            (kernel_flip, [debian], [], 1, 1),
            (shim_flip, [ms2011], [], 1, 1),
            (kernel_unsigned, [debian], [], 1, 1),
        ]
        for image, anchors, extra, code, sb in cases:
            what = 'pkcs7verify --pe %s%s%s' % (
                ''.join('--trust %s ' % os.path.basename(a) for a in anchors),
                ''.join(e + ' ' for e in extra), os.path.basename(image))
            rc, _, err = pkcs7verify(args.pkcs7verify, image, anchors, extra)
            check(rc == code, '%s: exit %d, want %d (%s)' % (what, rc, code, err or 'no message'))
            if code != 0:
                check(bool(err), '%s: says why on stderr' % what)
            if sb is None:
                continue
            sbrc = sbverify(args.sbverify, image, anchors[0])
            if sb == 'blind':
                blind = sbverify(args.sbverify, image, other)
                check(sbrc == 0 and blind == 0,
                      'sbverify --cert %s %s: exit %d, and %d with an unrelated certificate: '
                      'sbverify accepts this image whatever the anchor, no verdict taken from it'
                      % (os.path.basename(anchors[0]), os.path.basename(image), sbrc, blind))
                continue
            check((sbrc == 0) == (rc == 0) and sbrc == sb,
                  'sbverify --cert %s %s: exit %d, pkcs7verify %d: same verdict'
                  % (os.path.basename(anchors[0]), os.path.basename(image), sbrc, rc))

        # --json: one object, an entry per WIN_CERTIFICATE (its file offset),
        # each with its errno name ("0" when it verified) and the image
        # digest computed here.
        def json_case(image, anchors, verdict, code, errno, entries, extra=()):
            data = open(image, 'rb').read()
            digest = image_digest(data)
            offsets = entry_offsets(data)[:len(entries)]
            rc, out, err = pkcs7verify(args.pkcs7verify, image, anchors, ['--json'] + list(extra))
            what = 'pkcs7verify --pe --json %s%s' % (''.join(e + ' ' for e in extra),
                                                     os.path.basename(image))
            try:
                obj = json.loads(out)
            except ValueError:
                check(False, '%s: stdout is one JSON object (exit %d, %s)' % (what, rc, err))
                return
            check(obj.get('verdict') == verdict and obj.get('errno') == errno
                  and obj.get('exit') == code == rc,
                  '%s: verdict %r errno %r exit %r (process %d), want %r %r %d'
                  % (what, obj.get('verdict'), obj.get('errno'), obj.get('exit'), rc,
                     verdict, errno, code))
            check(bool(obj.get('reason')), '%s: gives a reason' % what)
            got = obj.get('entries') or []
            check(len(got) == len(entries) == len(offsets), '%s: %d entries, want %d'
                  % (what, len(got), len(entries)))
            for i, (e, eerrno) in enumerate(zip(got, entries)):
                ew = '%s: entry %d' % (what, i)
                check(e.get('index') == i and e.get('offset') == offsets[i],
                      '%s: index %r offset %r, want %d at %d'
                      % (ew, e.get('index'), e.get('offset'), i, offsets[i]))
                check(e.get('errno') == eerrno, '%s: errno %r, want %r'
                      % (ew, e.get('errno'), eerrno))
                dg = e.get('image_digest') or {}
                check(dg.get('alg') == 'sha256' and dg.get('hex') == digest,
                      '%s: image digest %s %s, computed here sha256 %s'
                      % (ew, dg.get('alg'), dg.get('hex'), digest))
                signers = e.get('signers') if isinstance(e.get('signers'), list) else []
                check(len(signers) >= 1, '%s: lists its signer' % ew)
                if eerrno == '0':
                    check(any(sg.get('trusted') is True for sg in signers),
                          '%s: a signer chains to the keyring' % ew)

        json_case(shim, [ms2011], 'accepted', 0, '0', ['0', 'ENOKEY'])
        json_case(shim, [ms2023], 'accepted', 0, '0', ['ENOKEY', '0'])
        json_case(kernel, [debian], 'accepted', 0, '0', ['0'])
        json_case(shim, [ms2023], 'refused', 2, 'ENOKEY', ['ENOKEY'], ['--pe-first-only'])
        json_case(grub, [ms2011], 'refused', 2, 'ENOKEY', ['ENOKEY'])
        json_case(kernel_flip, [debian], 'refused', 1, 'EKEYREJECTED', ['EKEYREJECTED'])

    if failures:
        print('check_debian_pe: %d failures' % len(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
