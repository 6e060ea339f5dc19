#!/usr/bin/env python3
"""Makes the revocation fixtures of tests/test_revocation.c (issue 27: CRLs).

A root, an intermediate under it, a leaf under that, and a separate CRL
signer (the intermediate's name, another key, keyUsage cRLSign only,
issued by the root), all P-256 (python3-cryptography). The message is a
detached SHA-256 signature of ../pkcs7/content.bin by the leaf, carrying
the leaf and the intermediate.

    rv-root.pem          self-signed root, cA, keyCertSign cRLSign
    rv-int.pem           intermediate, cA, keyCertSign cRLSign
    rv-int-nocrl.pem     the same intermediate's key and name with keyUsage
                         keyCertSign only (no cRLSign), issued by the root
    rv-signer.pem        the separate CRL signer
    rv-leaf.der          the signed message
    rv-leaf-crls.der     the same message with rv-root.crl and rv-int.crl in
                         its crls field, and a SEQUENCE that is no CRL
    rv-leaf-revoked-in-msg.der  the message with rv-root.crl and
                         rv-int-revokes-leaf.crl in its crls
    rv-int2.pem          the intermediate's key rolled over: a self-issued
                         certificate ("rv int" by "rv int") of a new key,
                         signed with the old one, cA, keyCertSign cRLSign
    rv-leaf2.der         a message signed by "rv leaf2", issued with the new
                         key, carrying the leaf, rv-int2.pem and rv-int.pem
    rv-int2.crl          by the new key, nothing revoked: it can give the
                         status of rv-leaf2's certificate, but not of
                         rv-int2.pem's own (it would vouch for itself)
    rv-root.crl          by the root, nothing revoked
    rv-root-revokes-int.crl     by the root, the intermediate revoked (cACompromise)
    rv-root-revokes-signer.crl  by the root, the CRL signer revoked (keyCompromise)
    rv-int.crl           by the intermediate, nothing revoked
    rv-int-revokes-leaf.crl     by the intermediate, the leaf revoked (keyCompromise)
    rv-int-expired.crl   by the intermediate, thisUpdate to nextUpdate a year ago
    rv-int-future.crl    by the intermediate, thisUpdate in 2090
    rv-int-wrong-key.crl the intermediate's name and AKID, signed by another
                         key, the leaf listed
    rv-int-critical.crl  by the intermediate, an unknown critical extension
                         (1.2.3.4), the leaf listed
    rv-int-by-signer.crl by the CRL signer, the leaf listed (AKID: its key)
    rv-int-by-signer-clean.crl  by the CRL signer, nothing revoked

Every CRL is current (thisUpdate an hour ago, nextUpdate in 2100) unless
said otherwise. The outputs are committed; the tests never run this. Run
from anywhere:

    python3 tests/data/verify/gen-revocation.py
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


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def key():
    return ec.generate_private_key(ec.SECP256R1())


def ku_ext(**on):
    bits = dict(digital_signature=False, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=False,
                crl_sign=False, encipher_only=False, decipher_only=False)
    bits.update(on)
    return x509.KeyUsage(**bits)


def cert(subject, k, issuer, issuer_key, ca, ku, eku=None, serial=None):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
         .public_key(k.public_key()).serial_number(serial or x509.random_serial_number())
         .not_valid_before(START).not_valid_after(END)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(k.public_key()),
                        critical=False)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
             issuer_key.public_key()), critical=False)
         .add_extension(ku, critical=True))
    if eku:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
    return b.sign(issuer_key, hashes.SHA256())


def crl(issuer, signing_key, revoked=(), this=None, nxt=END, critical=False):
    this = this or NOW - datetime.timedelta(hours=1)
    b = (x509.CertificateRevocationListBuilder().issuer_name(issuer)
         .last_update(this).next_update(nxt)
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
             signing_key.public_key()), critical=False)
         .add_extension(x509.CRLNumber(1), critical=False))
    if critical:
        b = b.add_extension(x509.UnrecognizedExtension(
            x509.ObjectIdentifier("1.2.3.4"), b"\x05\x00"), critical=True)
    for serial, reason in revoked:
        e = (x509.RevokedCertificateBuilder().serial_number(serial)
             .revocation_date(NOW - datetime.timedelta(hours=2))
             .add_extension(x509.CRLReason(reason), critical=False).build())
        b = b.add_revoked_certificate(e)
    return b.sign(signing_key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)


# ---- DER surgery: put CRLs into a SignedData's crls field ----

def tlv(data, pos):
    """(tag, header length, content length) of the element at pos."""
    tag, n = data[pos], data[pos + 1]
    if n < 0x80:
        return tag, 2, n
    k = n & 0x7f
    return tag, 2 + k, int.from_bytes(data[pos + 2:pos + 2 + k], "big")


def encode(tag, content):
    n = len(content)
    if n < 0x80:
        head = bytes([tag, n])
    else:
        size = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([tag, 0x80 | len(size)]) + size
    return head + content


def children(data, start, end):
    out, pos = [], start
    while pos < end:
        tag, h, n = tlv(data, pos)
        out.append(data[pos:pos + h + n])
        pos += h + n
    return out


def with_crls(message, crls):
    """The message with [1] IMPLICIT SET OF crls before its signerInfos."""
    _, h, n = tlv(message, 0)                       # ContentInfo
    oid, explicit = children(message, h, h + n)
    _, eh, en = tlv(explicit, 0)                    # [0] EXPLICIT
    sd = explicit[eh:eh + en]
    _, sh, sn = tlv(sd, 0)                          # SignedData
    kids = children(sd, sh, sh + sn)
    kids.insert(len(kids) - 1, encode(0xa1, b"".join(crls)))
    return encode(0x30, oid + encode(0xa0, encode(0x30, b"".join(kids))))


def write(fname, data):
    with open(os.path.join(HERE, fname), "wb") as f:
        f.write(data)


def main():
    root_key, int_key, leaf_key, signer_key, other_key = key(), key(), key(), key(), key()
    root = cert(name("rv root"), root_key, name("rv root"), root_key, True,
                ku_ext(key_cert_sign=True, crl_sign=True))
    inter = cert(name("rv int"), int_key, root.subject, root_key, True,
                 ku_ext(key_cert_sign=True, crl_sign=True))
    inter_nocrl = cert(name("rv int"), int_key, root.subject, root_key, True,
                       ku_ext(key_cert_sign=True))
    signer = cert(name("rv int"), signer_key, root.subject, root_key, False,
                  ku_ext(crl_sign=True))
    int2_key, leaf2_key = key(), key()
    inter2 = cert(name("rv int"), int2_key, inter.subject, int_key, True,
                  ku_ext(key_cert_sign=True, crl_sign=True))
    leaf2 = cert(name("rv leaf2"), leaf2_key, inter2.subject, int2_key, False,
                 ku_ext(digital_signature=True), [ExtendedKeyUsageOID.CODE_SIGNING])
    leaf = cert(name("rv leaf"), leaf_key, inter.subject, int_key, False,
                ku_ext(digital_signature=True), [ExtendedKeyUsageOID.CODE_SIGNING])
    for fname, c in (("rv-root.pem", root), ("rv-int.pem", inter),
                     ("rv-int-nocrl.pem", inter_nocrl), ("rv-signer.pem", signer),
                     ("rv-int2.pem", inter2)):
        write(fname, c.public_bytes(serialization.Encoding.PEM))

    with open(os.path.join(HERE, "../pkcs7/content.bin"), "rb") as f:
        content = f.read()
    opts = [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.Binary,
            pkcs7.PKCS7Options.NoCapabilities]
    message = (pkcs7.PKCS7SignatureBuilder().set_data(content)
               .add_signer(leaf, leaf_key, hashes.SHA256()).add_certificate(inter)
               .sign(serialization.Encoding.DER, opts))
    write("rv-leaf.der", message)
    write("rv-leaf2.der", pkcs7.PKCS7SignatureBuilder().set_data(content)
          .add_signer(leaf2, leaf2_key, hashes.SHA256()).add_certificate(inter2)
          .add_certificate(inter).sign(serialization.Encoding.DER, opts))

    flags = x509.ReasonFlags
    year_ago = NOW - datetime.timedelta(days=365)
    crls = {
        "rv-root.crl": crl(root.subject, root_key),
        "rv-root-revokes-int.crl": crl(root.subject, root_key,
                                       [(inter.serial_number, flags.ca_compromise)]),
        "rv-root-revokes-signer.crl": crl(root.subject, root_key,
                                          [(signer.serial_number, flags.key_compromise)]),
        "rv-int.crl": crl(inter.subject, int_key),
        "rv-int-revokes-leaf.crl": crl(inter.subject, int_key,
                                       [(leaf.serial_number, flags.key_compromise)]),
        "rv-int-expired.crl": crl(inter.subject, int_key, this=year_ago,
                                  nxt=year_ago + datetime.timedelta(days=30)),
        "rv-int-future.crl": crl(inter.subject, int_key,
                                 this=datetime.datetime(2090, 1, 1, tzinfo=datetime.timezone.utc)),
        "rv-int-critical.crl": crl(inter.subject, int_key,
                                   [(leaf.serial_number, flags.key_compromise)], critical=True),
        "rv-int-by-signer.crl": crl(inter.subject, signer_key,
                                    [(leaf.serial_number, flags.key_compromise)]),
        "rv-int-by-signer-clean.crl": crl(inter.subject, signer_key),
        "rv-int2.crl": crl(inter.subject, int2_key),
    }
    # The intermediate's name and key identifier, another key's signature.
    wrong = crl(inter.subject, other_key, [(leaf.serial_number, flags.key_compromise)])
    good_akid = crl(inter.subject, int_key)
    akid = x509.load_der_x509_crl(good_akid).extensions.get_extension_for_class(
        x509.AuthorityKeyIdentifier).value
    wrong_crl = (x509.CertificateRevocationListBuilder().issuer_name(inter.subject)
                 .last_update(NOW - datetime.timedelta(hours=1)).next_update(END)
                 .add_extension(akid, critical=False)
                 .add_revoked_certificate(x509.load_der_x509_crl(wrong)[0])
                 .sign(other_key, hashes.SHA256()))
    crls["rv-int-wrong-key.crl"] = wrong_crl.public_bytes(serialization.Encoding.DER)
    for fname, der in crls.items():
        write(fname, der)

    junk = encode(0x30, encode(0x02, b"\x01"))
    write("rv-leaf-crls.der", with_crls(message, [crls["rv-root.crl"], crls["rv-int.crl"], junk]))
    write("rv-leaf-revoked-in-msg.der",
          with_crls(message, [crls["rv-root.crl"], crls["rv-int-revokes-leaf.crl"]]))


if __name__ == "__main__":
    main()
