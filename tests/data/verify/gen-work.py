#!/usr/bin/env python3
"""Makes the verification-work fixtures of tests/test_verify.c.

The worst message for the verification budget: its signer certificate names
an issuer of which the message carries as many same-named candidates as it
may (VOUCH_PKCS7_MAX_CERTS = 32 certificates in all), each with the largest
key vouch accepts (8192 bits, e = 2^33 - 1, the most expensive exponent
under VOUCH_RSA_MAX_E_BITS) and no key identifiers, so that chain building
has to try every one with a full RSA check: the signer certificate's own
signature is 1024 bytes, as long as each candidate's modulus, and below it.
None is the real issuer: nothing in the keyring signed anything here.

    work-one.der   content.bin signed (attached) by one signer
    work-many.der  the same with 16 signers (VOUCH_PKCS7_MAX_SIGNERS), the
                   same signer certificate each, so every signer's chain
                   walks the same candidates again

The candidates' moduli are odd numbers with the top byte 0xff, not products
of primes: a verifier never factors, and an RSA check costs the same. The
candidates' and the signer certificate's own signatures are random bytes.
Stdlib and the OpenSSL CLI (the signer's key and the CMS signing); the
outputs are committed, the tests never run this. Run from anywhere:

    python3 tests/data/verify/gen-work.py
"""
import base64
import os
import random
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONTENT = os.path.join(HERE, "..", "pkcs7", "content.bin")
CANDIDATES = 31
SIGNERS = 16
rng = random.Random(22_3)


def tlv(tag, body):
    n = len(body)
    if n < 0x80:
        head = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + head + body


def seq(*kids):
    return tlv(0x30, b"".join(kids))


def integer(v):
    b = v.to_bytes(v.bit_length() // 8 + 1, "big")     # a leading 0 for a set top bit
    return tlv(0x02, b)


def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytes([40 * arcs[0] + arcs[1]])
    for a in arcs[2:]:
        enc = [a & 0x7f]
        a >>= 7
        while a:
            enc.append(0x80 | (a & 0x7f))
            a >>= 7
        out += bytes(reversed(enc))
    return tlv(0x06, out)


def name(cn):
    return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0c, cn.encode()))))


SHA256_RSA = seq(oid("1.2.840.113549.1.1.11"), tlv(0x05, b""))
VALIDITY = seq(tlv(0x17, b"250101000000Z"), tlv(0x17, b"491231235959Z"))
ISSUER = name("vouch work issuer")


def rsa_spki(n, e):
    key = seq(integer(n), integer(e))
    return seq(seq(oid("1.2.840.113549.1.1.1"), tlv(0x05, b"")), tlv(0x03, b"\x00" + key))


def cert(serial, issuer, subject, spki, exts, sig_len):
    tbs = seq(tlv(0xa0, integer(2)), integer(serial), SHA256_RSA, issuer, VALIDITY,
              subject, spki, *( [tlv(0xa3, seq(*exts))] if exts else []))
    sig = bytes([0x7f]) + rng.randbytes(sig_len - 1)    # below any candidate's n
    return seq(tbs, SHA256_RSA, tlv(0x03, b"\x00" + sig))


def pem(der):
    b = base64.encodebytes(der).decode().replace("\n", "")
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def main():
    ca = seq(oid("2.5.29.19"), tlv(0x01, b"\xff"), tlv(0x04, seq(tlv(0x01, b"\xff"))))
    cands = []
    for i in range(CANDIDATES):
        n = (0xff << 8184) | rng.getrandbits(8184) | 1
        cands.append(cert(0x1000 + i, ISSUER, ISSUER, rsa_spki(n, 2**33 - 1), [ca], 1024))
    with tempfile.TemporaryDirectory() as tmp:
        key = os.path.join(tmp, "signer.key")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt",
                        "rsa_keygen_bits:2048", "-out", key], check=True,
                       stderr=subprocess.DEVNULL)
        spki = subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-outform", "DER"],
                              check=True, capture_output=True).stdout
        signer = cert(0x51, ISSUER, name("vouch work signer"), spki, [], 1024)
        with open(os.path.join(tmp, "signer.pem"), "w") as f:
            f.write(pem(signer))
        with open(os.path.join(tmp, "cands.pem"), "w") as f:
            f.write("".join(pem(c) for c in [signer] + cands))
        for out, count in (("work-one.der", 1), ("work-many.der", SIGNERS)):
            # -nocerts, with the signer certificate among -certfile's: OpenSSL
            # would add it once per signer, and refuses to add it twice.
            args = ["openssl", "cms", "-sign", "-binary", "-nodetach", "-in", CONTENT,
                    "-md", "sha256", "-nosmimecap", "-nocerts", "-outform", "DER",
                    "-certfile", os.path.join(tmp, "cands.pem"),
                    "-out", os.path.join(HERE, out)]
            for _ in range(count):
                args += ["-signer", os.path.join(tmp, "signer.pem"), "-inkey", key]
            subprocess.run(args, check=True)


if __name__ == "__main__":
    main()
