#!/usr/bin/env python3
"""Re-sign a DER CRL without its nextUpdate (gen-crl.sh's no-next.crl.pem):
OpenSSL 3's `ca -gencrl` always writes one. Takes the CRL (DER), the CA key
(PEM) and the output (DER); signs the new tbsCertList with `openssl dgst`
(ECDSA with SHA-256, as the input's signatureAlgorithm says)."""
import subprocess
import sys


def tlv(b, i):
    """(start, content start, end) of the element at b[i]."""
    n = b[i + 1]
    if n < 0x80:
        return i, i + 2, i + 2 + n
    k = n & 0x7f
    ln = int.from_bytes(b[i + 2:i + 2 + k], 'big')
    return i, i + 2 + k, i + 2 + k + ln


def enc(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    ln = n.to_bytes((n.bit_length() + 7) // 8, 'big')
    return bytes([tag, 0x80 | len(ln)]) + ln + content


crl = open(sys.argv[1], 'rb').read()
_, c, _ = tlv(crl, 0)
_, tc, te = tlv(crl, c)                 # tbsCertList
kids, i = [], tc
while i < te:
    s, _, e = tlv(crl, i)
    kids.append(crl[s:e])
    i = e
_, _, ae = tlv(crl, te)                 # signatureAlgorithm
alg = crl[te:ae]
# version, signature, issuer, thisUpdate, nextUpdate, ...: drop the fifth
assert kids[4][0] in (0x17, 0x18)
tbs = enc(0x30, b''.join(kids[:4] + kids[5:]))
sig = subprocess.run(['openssl', 'dgst', '-sha256', '-sign', sys.argv[2]], input=tbs,
                     stdout=subprocess.PIPE, check=True).stdout
open(sys.argv[3], 'wb').write(enc(0x30, tbs + alg + enc(0x03, b'\0' + sig)))
