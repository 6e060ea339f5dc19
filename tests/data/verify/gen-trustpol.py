#!/usr/bin/env python3
"""Makes the trust-policy fixtures of tests/test_verify.c (issue 27: purposes,
anchors that must be roots, validity at signingTime, signer names).

A root, three intermediates under it and leaves under those, all P-256
(python3-cryptography); each message is a detached SHA-256 signature of
../pkcs7/content.bin carrying the signer's certificate and its
intermediate, with signed attributes (contentType, messageDigest,
signingTime at the time this ran) unless said otherwise.

    tp-root.pem         self-signed root, cA, keyCertSign cRLSign
    tp-int.pem          intermediate, cA, no EKU
    tp-int-server.pem   intermediate, cA, EKU serverAuth
    tp-int-late.pem     intermediate, cA, valid from 2090-01-01 only
    tp-code.der         leaf "tp code signer" under tp-int: KU
                        digitalSignature, EKU codeSigning
    tp-code-noattr.der  the same signer, no signed attributes (no signingTime)
    tp-noeku.der        leaf under tp-int: KU digitalSignature, no EKU
    tp-crit-server.der  leaf under tp-int: critical EKU serverAuth
    tp-crit-email.der   leaf under tp-int: critical EKU emailProtection
    tp-crit-any.der     leaf under tp-int: critical EKU serverAuth and
                        anyExtendedKeyUsage
    tp-server-ca.der    leaf with EKU codeSigning under tp-int-server
    tp-late.der         leaf with EKU codeSigning under tp-int-late (the
                        leaf valid from now, its issuer only from 2090)
    tp-two-cn.der       leaf under tp-int, EKU codeSigning, subject with two
                        CNs: "tp code signer" and "tp other"

The outputs are committed; the tests never run this. Run from anywhere:

    python3 tests/data/verify/gen-trustpol.py
"""
import datetime
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
START = NOW - datetime.timedelta(days=1)
END = datetime.datetime(2100, 1, 1, tzinfo=datetime.timezone.utc)
LATE = datetime.datetime(2090, 1, 1, tzinfo=datetime.timezone.utc)


def name(*cns):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn) for cn in cns])


def cert(subject, key, issuer, issuer_key, ca, ku=None, eku=None, eku_critical=False,
         not_before=START):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(not_before).not_valid_after(END)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                        critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
             issuer_key.public_key()), critical=False))
    if ca:
        ku = dict(key_cert_sign=True, crl_sign=True)
    if ku is not None:
        bits = dict(digital_signature=False, content_commitment=False,
                    key_encipherment=False, data_encipherment=False, key_agreement=False,
                    key_cert_sign=False, crl_sign=False, encipher_only=False,
                    decipher_only=False)
        bits.update(ku)
        b = b.add_extension(x509.KeyUsage(**bits), critical=True)
    if eku is not None:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=eku_critical)
    return b.sign(issuer_key, hashes.SHA256())


def write_pem(fname, c):
    with open(os.path.join(HERE, fname), "wb") as f:
        f.write(c.public_bytes(serialization.Encoding.PEM))


def sign(fname, leaf, leaf_key, inter, attrs=True):
    with open(os.path.join(HERE, "../pkcs7/content.bin"), "rb") as f:
        content = f.read()
    opts = [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.Binary,
            pkcs7.PKCS7Options.NoCapabilities if attrs else pkcs7.PKCS7Options.NoAttributes]
    der = (pkcs7.PKCS7SignatureBuilder().set_data(content)
           .add_signer(leaf, leaf_key, hashes.SHA256()).add_certificate(inter)
           .sign(serialization.Encoding.DER, opts))
    with open(os.path.join(HERE, fname), "wb") as f:
        f.write(der)


def key():
    return ec.generate_private_key(ec.SECP256R1())


def main():
    root_key = key()
    root = cert(name("tp root"), root_key, name("tp root"), root_key, True)
    write_pem("tp-root.pem", root)
    inters = {}
    for fname, cn, eku, nb in (("tp-int.pem", "tp int", None, START),
                               ("tp-int-server.pem", "tp int server",
                                [ExtendedKeyUsageOID.SERVER_AUTH], START),
                               ("tp-int-late.pem", "tp int late", None, LATE)):
        k = key()
        c = cert(name(cn), k, root.subject, root_key, True, eku=eku, not_before=nb)
        write_pem(fname, c)
        inters[fname] = (c, k)

    sig = dict(digital_signature=True)
    code = [ExtendedKeyUsageOID.CODE_SIGNING]
    leaves = (
        ("tp-code.der", ("tp code signer",), "tp-int.pem", sig, code, False),
        ("tp-noeku.der", ("tp no eku",), "tp-int.pem", sig, None, False),
        ("tp-crit-server.der", ("tp critical server",), "tp-int.pem", sig,
         [ExtendedKeyUsageOID.SERVER_AUTH], True),
        ("tp-crit-email.der", ("tp critical email",), "tp-int.pem", sig,
         [ExtendedKeyUsageOID.EMAIL_PROTECTION], True),
        ("tp-crit-any.der", ("tp critical any",), "tp-int.pem", sig,
         [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE], True),
        ("tp-server-ca.der", ("tp under server ca",), "tp-int-server.pem", sig, code, False),
        ("tp-late.der", ("tp under late ca",), "tp-int-late.pem", sig, code, False),
        ("tp-two-cn.der", ("tp code signer", "tp other"), "tp-int.pem", sig, code, False),
    )
    for fname, cns, parent, ku, eku, crit in leaves:
        inter, inter_key = inters[parent]
        k = key()
        c = cert(name(*cns), k, inter.subject, inter_key, False, ku=ku, eku=eku,
                 eku_critical=crit)
        sign(fname, c, k, inter)
        if fname == "tp-code.der":
            sign("tp-code-noattr.der", c, k, inter, attrs=False)


if __name__ == "__main__":
    main()
