#!/usr/bin/env python3
"""Signed kernel modules for the whole-job benchmarks, made the way
scripts/sign-file signs and `make modules_install` compresses.

    gen-modules.py --fixture DIR
    gen-modules.py --tree DIR [--count N] [--size BYTES]

A module is BODY || SignedData || struct module_signature || marker: the
SignedData is detached, SHA-256, without signed attributes and without
certificates (sign-file's CMS_NOCERTS | CMS_BINARY | CMS_DETACHED and
CMS_NOATTR), the signer named by issuer and serial number; the 12-byte
trailer is algo 0, hash 0, id_type 2 (PKCS#7), signer_len 0, key_id_len 0,
3 pad bytes and the big-endian length of the SignedData; the marker is
"~Module signature appended~\\n". A .ko.xz is that file compressed as
modules_install does (`xz --check=crc32 --lzma2=dict=1MiB`: one stream,
CRC-32 check, 1 MiB dictionary; Python's lzma module, i.e. liblzma).

Each module has its own body (BYTES bytes: 16 bytes of SHA-256 of the
module's name and line number, then 48 bytes of fixed text, per 64-byte
line, so that xz compresses it about as much as real code) and its own
signature. Signing uses Python's `cryptography` (its PKCS7SignatureBuilder
with DetachedSignature, NoAttributes, NoCerts, Binary: OpenSSL's PKCS7
underneath) when it is installed, else one `openssl cms -sign` per module.

--fixture DIR writes vouch-bench's modules-batch input, committed in
tests/data/bench and embedded at build time:
    module-signer-rsa2048.der        the RSA-2048 signer's certificate
    module-rsa2048-65536.ko.xz       a 64 KiB module it signed, compressed
--tree DIR writes tools/bench-peers' modules-process tree (cached: nothing
is made again when DIR/done names the same count and size):
    signers.pem                      both signers' certificates (RSA-2048, P-384)
    NNNN.ko or NNNN.ko.xz            N modules (default 1000), the even ones
                                     compressed, signers alternating by pairs
                                     (rsa, rsa, p384, p384, ...) so each signer
                                     has both kinds
    NNNN.p7s                         each module's SignedData alone (what
                                     scripts/extract-module-sig.pl -s gives), for
                                     the `openssl cms -verify` loop, which cannot
                                     read an appended signature
    list                             the modules' names (in DIR), one a line
    bodylen                          BYTES (the signed length of every module)
"""
import argparse
import hashlib
import lzma
import os
import struct
import subprocess
import tempfile

MARKER = b'~Module signature appended~\n'
LINE_TEXT = b'\x48\x89\xe5\x41\x57\x41\x56 module text: mov push call ret nop\x90\x90\x90'[:48]
XZ_FILTERS = [{'id': lzma.FILTER_LZMA2, 'dict_size': 1 << 20}]


def body_of(name, size):
    out = bytearray()
    i = 0
    while len(out) < size:
        out += hashlib.sha256(b'%s %d' % (name.encode(), i)).digest()[:16] + LINE_TEXT
        i += 1
    return bytes(out[:size])


def make_signer(tmp, tag, newkey, cn):
    key, cert = os.path.join(tmp, tag + '.key'), os.path.join(tmp, tag + '.pem')
    subprocess.run(['openssl', 'req', '-x509'] + newkey +
                   ['-nodes', '-keyout', key, '-subj', '/CN=' + cn, '-days', '36500',
                    '-addext', 'keyUsage=digitalSignature', '-out', cert],
                   check=True, capture_output=True)
    return key, cert


class Signer:
    """Detached SignedData as sign-file makes it, from a key and certificate."""

    def __init__(self, key, cert, tmp):
        self.key, self.cert, self.tmp = key, cert, tmp
        try:
            from cryptography import x509
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.serialization import pkcs7
        except ImportError:
            self.builder = None
            return
        with open(cert, 'rb') as f:
            c = x509.load_pem_x509_certificate(f.read())
        with open(key, 'rb') as f:
            k = serialization.load_pem_private_key(f.read(), None)
        opts = [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.NoAttributes,
                pkcs7.PKCS7Options.NoCerts, pkcs7.PKCS7Options.Binary]

        def sign(body):
            return (pkcs7.PKCS7SignatureBuilder().set_data(body)
                    .add_signer(c, k, hashes.SHA256())
                    .sign(serialization.Encoding.DER, opts))
        self.builder = sign

    def sign(self, body):
        if self.builder:
            return self.builder(body)
        src = os.path.join(self.tmp, 'body')
        with open(src, 'wb') as f:
            f.write(body)
        return subprocess.run(['openssl', 'cms', '-sign', '-binary', '-noattr', '-nosmimecap',
                               '-nocerts', '-md', 'sha256', '-in', src, '-signer', self.cert,
                               '-inkey', self.key, '-outform', 'DER'],
                              check=True, capture_output=True).stdout


def module(body, sig):
    # struct module_signature: algo, hash, id_type (2: PKCS#7), signer_len,
    # key_id_len, pad[3], sig_len (big-endian).
    return body + sig + struct.pack('>BBBBB3xI', 0, 0, 2, 0, 0, len(sig)) + MARKER


def xz(data):
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=XZ_FILTERS)


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def fixture(out):
    with tempfile.TemporaryDirectory() as tmp:
        key, cert = make_signer(tmp, 'rsa', ['-newkey', 'rsa:2048'], 'vouch bench module signer')
        body = body_of('module-rsa2048-65536', 65536)
        write(os.path.join(out, 'module-rsa2048-65536.ko.xz'),
              xz(module(body, Signer(key, cert, tmp).sign(body))))
        der = subprocess.run(['openssl', 'x509', '-in', cert, '-outform', 'DER'], check=True,
                             capture_output=True).stdout
        write(os.path.join(out, 'module-signer-rsa2048.der'), der)


def tree(out, count, size):
    stamp = os.path.join(out, 'done')
    want = 'count %d size %d\n' % (count, size)
    try:
        with open(stamp) as f:
            if f.read() == want:
                return
    except OSError:
        pass
    os.makedirs(out, exist_ok=True)
    keys = os.path.join(out, 'keys')
    os.makedirs(keys, exist_ok=True)
    signers = [Signer(*make_signer(keys, 'rsa', ['-newkey', 'rsa:2048'],
                                   'vouch bench RSA-2048 module signer'), keys),
               Signer(*make_signer(keys, 'p384', ['-newkey', 'ec', '-pkeyopt',
                                                  'ec_paramgen_curve:P-384'],
                                   'vouch bench P-384 module signer'), keys)]
    with open(os.path.join(out, 'signers.pem'), 'wb') as f:
        for s in signers:
            with open(s.cert, 'rb') as c:
                f.write(c.read())
    names = []
    for i in range(count):
        name = '%04d.ko' % i
        body = body_of(name, size)
        sig = signers[(i // 2) % 2].sign(body)
        write(os.path.join(out, '%04d.p7s' % i), sig)
        data = module(body, sig)
        if i % 2 == 0:
            name, data = name + '.xz', xz(data)
        write(os.path.join(out, name), data)
        names.append(name)
    write(os.path.join(out, 'list'), ''.join(n + '\n' for n in names).encode())
    write(os.path.join(out, 'bodylen'), b'%d\n' % size)
    write(stamp, want.encode())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--fixture', metavar='DIR')
    g.add_argument('--tree', metavar='DIR')
    ap.add_argument('--count', type=int, default=1000)
    ap.add_argument('--size', type=int, default=65536)
    a = ap.parse_args()
    if a.fixture:
        fixture(a.fixture)
    else:
        tree(a.tree, a.count, a.size)


if __name__ == '__main__':
    main()
