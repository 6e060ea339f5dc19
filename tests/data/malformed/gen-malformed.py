#!/usr/bin/env python3
"""Makes the malformed corpus of tests/test_malformed.c and its table.

Each input is the smallest change of a committed valid fixture
(tests/data/pkcs7, tests/data/keys) that triggers one class of
docs/malformed.md: its rows (rNN files, REF rowN) and checklist (nNN, REF NN).
The DER fixtures are parsed into a tree, one node is changed, and the
tree is re-encoded with minimal lengths, so a change never breaks the
lengths around it unless breaking them is the point; BER inputs are
byte patches of stream.ber. Stdlib only and deterministic: running it
again rewrites the same bytes. The outputs are committed; the tests
never run this. Run from anywhere:

    python3 tests/data/malformed/gen-malformed.py

It writes tests/data/malformed/*.{der,ber,bin} and tests/cases/malformed.txt
(file, parser, expected code, docs/malformed.md reference, description).
"""
import base64
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
TABLE = os.path.join(os.path.dirname(DATA), "cases", "malformed.txt")


# ---- A minimal DER tree ----

def enc_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


class Node:
    """One element: identifier octets, then content bytes or children.

    length, when set, is emitted instead of the minimal length octets
    (for the non-minimal and lying lengths under test)."""

    def __init__(self, tag, content=b"", kids=None, length=None):
        self.tag, self.content, self.kids, self.length = tag, content, kids, length

    def body(self):
        if self.kids is None:
            return self.content
        return b"".join(k.enc() for k in self.kids)

    def enc(self):
        body = self.body()
        return self.tag + (self.length if self.length is not None else enc_len(len(body))) + body

    def __getitem__(self, i):
        return self.kids[i]

    def __setitem__(self, i, v):
        self.kids[i] = v


def parse_one(data, pos):
    """The element at data[pos:] (definite lengths only) and its end."""
    start = pos
    pos += 1
    if data[start] & 0x1F == 0x1F:
        while data[pos] & 0x80:
            pos += 1
        pos += 1
    tag = data[start:pos]
    first = data[pos]
    pos += 1
    if first < 0x80:
        n = first
    else:
        k = first & 0x7F
        n = int.from_bytes(data[pos:pos + k], "big")
        pos += k
    end = pos + n
    if tag[0] & 0x20:
        kids = []
        while pos < end:
            kid, pos = parse_one(data, pos)
            kids.append(kid)
        return Node(tag, kids=kids), end
    return Node(tag, data[pos:end]), end


def parse(data):
    node, end = parse_one(data, 0)
    assert end == len(data)
    return node


def tlv(tag, content=b""):
    return Node(bytes([tag]), content)


def cons(tag, *kids):
    return Node(bytes([tag]), kids=list(kids))


def seq(*kids):
    return cons(0x30, *kids)


def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray()
    for v in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
        group = [v & 0x7F]
        v >>= 7
        while v:
            group.append(0x80 | (v & 0x7F))
            v >>= 7
        out += bytes(reversed(group))
    return tlv(0x06, bytes(out))


def integer(v):
    n = max(1, (v.bit_length() + 8) // 8) if v >= 0 else ((~v).bit_length() + 8) // 8
    return tlv(0x02, v.to_bytes(n, "big", signed=True))


def raw(data):
    """Bytes taken as an element, unparsed."""
    return Node(b"", data, length=b"")


NULL = tlv(0x05)
OID_DATA = "1.2.840.113549.1.7.1"
OID_SIGNED_DATA = "1.2.840.113549.1.7.2"
OID_ENVELOPED_DATA = "1.2.840.113549.1.7.3"
OID_SHA256 = "2.16.840.1.101.3.4.2.1"
OID_SHA256_RSA = "1.2.840.113549.1.1.11"
OID_SHA384_RSA = "1.2.840.113549.1.1.12"
OID_PSS = "1.2.840.113549.1.1.10"
OID_MGF1 = "1.2.840.113549.1.1.8"
OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2"
OID_CONTENT_TYPE = "1.2.840.113549.1.9.3"
OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
OID_SIGNING_TIME = "1.2.840.113549.1.9.5"


def nested(levels, inner):
    """levels SEQUENCEs around inner."""
    for _ in range(levels):
        inner = seq(inner)
    return inner


# ---- The valid fixtures ----

def read(*path):
    with open(os.path.join(DATA, *path), "rb") as f:
        return f.read()


def pem_der(*path):
    text = read(*path).decode()
    body = text.split("-----")[2]
    return base64.b64decode("".join(body.split()))


RSA_CERT = pem_der("pkcs7", "signer.pem")
EC_CERT = pem_der("pkcs7", "ec-signer.pem")
NOATTR = read("pkcs7", "noattr.der")
DETACHED = read("pkcs7", "detached.der")
TWO_SIGNERS = read("pkcs7", "two-signers.der")
STREAM = read("pkcs7", "stream.ber")
RSAPSS_SPKI = read("keys", "rsapss.pub.der")
EC256_SPKI = read("keys", "ec256.pub.der")
RSA2048_SPKI = read("keys", "rsa2048.pub.der")


def tree(data):
    return copy.deepcopy(parse(data))


# Paths into the trees: Certificate, ContentInfo/SignedData/SignerInfo.
TBS, ALG, SIG = 0, 1, 2
T_VERSION, T_SERIAL, T_ALG, T_ISSUER, T_VALIDITY, T_SUBJECT, T_SPKI, T_EXT = range(8)


def sd_of(ci):
    return ci[1][0]


def signer_of(ci, i=0):
    return sd_of(ci).kids[-1][i]


def attrs_of(si):
    return si[3]       # the [0] signedAttrs of a signer that has them


# ---- The corpus ----

CASES = []


def case(name, parser, expected, ref, desc, data):
    if isinstance(data, Node):
        data = data.enc()
    CASES.append((name, parser, expected, ref, desc, data))


def also(name, parser, expected, ref, desc):
    """Another parser's verdict on an input already listed."""
    CASES.append((name, parser, expected, ref, desc, None))


def cert_case(name, expected, ref, desc, edit, base=RSA_CERT):
    c = tree(base)
    edit(c)
    case(name, "x509", expected, ref, desc, c)


def p7_case(name, expected, ref, desc, edit, base=NOATTR):
    m = tree(base)
    edit(m)
    case(name, "pkcs7", expected, ref, desc, m)


def controls():
    case("ok-rsa-cert.der", "x509", "0", "control",
         "the RSA signer certificate (pkcs7/signer.pem as DER)", RSA_CERT)
    case("ok-ec-cert.der", "x509", "0", "control",
         "the P-256 signer certificate (pkcs7/ec-signer.pem as DER)", EC_CERT)
    also("ok-rsa-cert.der", "pkcs7", "EBADMSG", "N1", "a certificate is not a ContentInfo")


def row1_length_overflow():
    # stream.ber's first chunk header 04 82 10 00 at 52; every ancestor is
    # indefinite, so a longer header needs no other length changed.
    first_chunk = 52
    assert STREAM[first_chunk:first_chunk + 4] == b"\x04\x82\x10\x00"
    case("r01-indef-chunk-length-wrap.ber", "pkcs7", "EBADMSG", "row1",
         "CVE-2016-0758: inside indefinite layers, a chunk of length 0xfffffff0 (84 ff ff ff f0)",
         STREAM[:first_chunk] + b"\x04\x84\xff\xff\xff\xf0" + STREAM[first_chunk + 4:])
    case("r01-nested-indef-huge.ber", "pkcs7", "EBADMSG", "row1",
         "nested indefinite ContentInfo/[0]/SignedData holding an INTEGER of length 0x7fffffff",
         bytes.fromhex("3080" "06092a864886f70d010702" "a080" "3080" "02847fffffff01"
                       "0000" "0000" "0000"))

    def tbs_wrap(c):
        c[TBS].length = b"\x84\xff\xff\xff\xff"
    cert_case("r01-cert-tbs-length-wrap.der", "EBADMSG", "row1",
              "tbsCertificate declares 0xffffffff bytes: offset + length wraps 32 bits", tbs_wrap)


def row2_missing_fields():
    def drop(i):
        return lambda c: c[TBS].kids.pop(i)
    cert_case("r02-cert-no-spki.der", "EBADMSG", "row2",
              "CVE-2016-2053: no subjectPublicKeyInfo, so no key", drop(T_SPKI))
    cert_case("r02-cert-no-serial.der", "EBADMSG", "row2", "no serialNumber", drop(T_SERIAL))
    cert_case("r02-cert-no-validity.der", "EBADMSG", "row2", "no validity", drop(T_VALIDITY))
    cert_case("r02-cert-no-subject.der", "EBADMSG", "row2", "no subject Name", drop(T_SUBJECT))
    cert_case("r02-cert-no-signature.der", "EBADMSG", "row2",
              "Certificate without signatureValue", lambda c: c.kids.pop(SIG))

    def empty_key(c):
        c[TBS][T_SPKI][1] = tlv(0x03, b"\x00")
    cert_case("r02-cert-empty-key.der", "EBADMSG", "row2",
              "subjectPublicKey is an empty BIT STRING: no RSAPublicKey", empty_key)

    def key_not_rsa(c):
        c[TBS][T_SPKI][1] = tlv(0x03, b"\x00" + integer(65537).enc())
    cert_case("r02-cert-key-not-rsapublickey.der", "EBADMSG", "row2",
              "rsaEncryption whose key is a bare INTEGER, not RSAPublicKey", key_not_rsa)

    def p7_cert_no_key(m):
        sd_of(m)[3][0][TBS].kids.pop(T_SPKI)
    p7_case("r02-pkcs7-cert-no-spki.der", "EBADMSG", "row2",
            "the embedded certificate has no key: the message does not parse", p7_cert_no_key)


def row3_truncated_headers():
    case("r03-3030.der", "x509", "EBADMSG", "row3",
         "the kernel's 2-byte 30 30: a header claiming 48 bytes of 0", bytes.fromhex("3030"))
    also("r03-3030.der", "pkcs7", "EBADMSG", "row3", "the same for the PKCS#7 reader")
    also("r03-3030.der", "spki", "EBADMSG", "row3", "the same for the key reader")
    case("r03-one-byte.der", "x509", "EBADMSG", "row3", "a lone identifier octet", b"\x30")
    also("r03-one-byte.der", "sigalg", "EBADMSG", "row3", "the same for AlgorithmIdentifier")
    case("r03-longform-cut.der", "pkcs7", "EBADMSG", "row3",
         "long-form length cut after its first octet (30 82 01)", bytes.fromhex("308201"))
    also("r03-longform-cut.der", "x509", "EBADMSG", "row3", "the same for certificates")
    case("r03-cert-last-byte-cut.der", "x509", "EBADMSG", "row3",
         "the certificate without its last byte", RSA_CERT[:-1])

    def sig_header_cut(c):
        c[SIG] = raw(b"\x03")
    cert_case("r03-cert-inner-header-cut.der", "EBADMSG", "row3",
              "the signature's header is one byte, at the very end of the input", sig_header_cut)
    case("r03-stream-cut-in-length.ber", "pkcs7", "EBADMSG", "row3",
         "stream.ber cut between a chunk's long-form length octets", STREAM[:55])


def row4_end_of_structure():
    def v1_with_ext(c):
        c[TBS].kids.pop(T_VERSION)
    cert_case("r04-cert-v1-with-extensions.der", "EBADMSG", "row4",
              "version absent (v1) but extensions present", v1_with_ext)

    def v2_with_ext(c):
        c[TBS][T_VERSION][0] = integer(1)
    cert_case("r04-cert-v2-with-extensions.der", "EBADMSG", "row4",
              "version v2 with extensions (v3 only)", v2_with_ext)

    def v1_with_uid(c):
        c[TBS].kids.pop(T_EXT)
        c[TBS].kids.pop(T_VERSION)
        c[TBS].kids.append(tlv(0x81, b"\x00\xaa"))
    cert_case("r04-cert-v1-with-unique-id.der", "EBADMSG", "row4",
              "v1 certificate carrying issuerUniqueID (v2 and later)", v1_with_uid)

    def version4(c):
        c[TBS][T_VERSION][0] = integer(3)
    cert_case("r04-cert-version-4.der", "EBADMSG", "row4", "version 4 (INTEGER 3)", version4)

    def dup_ext(c):
        exts = c[TBS][T_EXT][0]
        exts.kids.append(copy.deepcopy(exts[2]))
    cert_case("r04-cert-duplicate-extension.der", "EBADMSG", "row4",
              "basicConstraints twice (RFC 5280 §4.2)", dup_ext)


def row5_no_content_no_signers():
    case("r05-contentinfo-no-content.der", "pkcs7", "EBADMSG", "row5 N2",
         "ContentInfo{signedData} with content absent", seq(oid(OID_SIGNED_DATA)))
    p7_case("r05-signerinfos-empty.der", "0", "row5 N3",
            "signerInfos is an empty SET: parses (certificates only); the verifier must refuse",
            lambda m: setattr(sd_of(m)[-1], "kids", []))
    p7_case("r05-signerinfos-missing.der", "EBADMSG", "row5",
            "SignedData without its signerInfos field", lambda m: sd_of(m).kids.pop())


def row10_absent_content():
    p7_case("r10-econtent-explicit-empty.der", "EBADMSG", "row10",
            "eContent [0] present but holding nothing (a0 00)",
            lambda m: sd_of(m)[2].kids.append(cons(0xA0)))
    p7_case("r10-encap-empty.der", "EBADMSG", "row10",
            "encapContentInfo is an empty SEQUENCE: no eContentType",
            lambda m: setattr(sd_of(m)[2], "kids", []))
    case("r10-enveloped-no-content.der", "pkcs7", "ENOPKG", "row10 N1",
         "envelopedData without its content: not SignedData", seq(oid(OID_ENVELOPED_DATA)))
    p7_case("r10-detached-no-certs.der", "0", "row10 row22",
            "detached, no certificates: absent OPTIONALs parse (the verifier: keyring)",
            lambda m: sd_of(m).kids.pop(3))


def row15_choices():
    def sid_wrong_arm(m):
        si = signer_of(m)
        si[1] = tlv(0x81, bytes(20))
    p7_case("r15-sid-wrong-choice.der", "EBADMSG", "row15",
            "CVE-2016-7053: SignerIdentifier as [1], an arm that does not exist", sid_wrong_arm)

    def sid_integer(m):
        signer_of(m)[1] = integer(1)
    p7_case("r15-sid-integer.der", "EBADMSG", "row15",
            "SignerIdentifier is an INTEGER", sid_integer)

    def time_wrong_arm(c):
        c[TBS][T_VALIDITY][0].tag = b"\x13"
    cert_case("r15-time-printablestring.der", "EBADMSG", "row15",
              "notBefore as PrintableString: not a Time arm", time_wrong_arm)

    def time_no_z(c):
        c[TBS][T_VALIDITY][0] = tlv(0x17, b"261203144835+0000")
    cert_case("r15-time-offset.der", "EBADMSG", "row15",
              "UTCTime with +0000 instead of Z (RFC 5280 §4.1.2.5.1)", time_no_z)

    def other_cert(m):
        sd_of(m)[3].kids.append(cons(0xA1))
    p7_case("r15-certchoice-attr-cert.der", "0", "row15",
            "an extra [1] CertificateChoice (v1 attribute cert): counted and skipped", other_cert)


def row2_name_structure():
    # Names are ANY in the grammar (libtasn1 builds no node per attribute);
    # x509.c checks their structure: every element at its place and tag.
    def issuer(edit):
        return lambda c: edit(c[TBS][T_ISSUER])

    def retag(node, tag):
        node.tag = bytes([tag])

    def octets(c):
        c[TBS][T_SUBJECT] = tlv(0x04, c[TBS][T_SUBJECT].enc())
    cert_case("r02-cert-issuer-set.der", "EBADMSG", "row2",
              "the issuer Name tagged SET instead of SEQUENCE", issuer(lambda n: retag(n, 0x31)))
    cert_case("r02-cert-subject-octets.der", "EBADMSG", "row2",
              "the subject Name wrapped in an OCTET STRING", octets)
    cert_case("r02-cert-rdn-sequence.der", "EBADMSG", "row2",
              "an issuer RelativeDistinguishedName tagged SEQUENCE instead of SET",
              issuer(lambda n: retag(n[0], 0x30)))
    cert_case("r02-cert-rdn-empty.der", "EBADMSG", "row2",
              "an empty issuer RelativeDistinguishedName (SET SIZE (1..MAX))",
              issuer(lambda n: n.kids.insert(0, cons(0x31))))
    cert_case("r02-cert-atv-set.der", "EBADMSG", "row2",
              "an issuer AttributeTypeAndValue tagged SET instead of SEQUENCE",
              issuer(lambda n: retag(n[0][0], 0x31)))
    cert_case("r02-cert-atv-three.der", "EBADMSG", "row2",
              "an issuer AttributeTypeAndValue with a third element",
              issuer(lambda n: n[0][0].kids.append(tlv(0x0c, b"x"))))
    cert_case("r02-cert-atv-type-integer.der", "EBADMSG", "row2",
              "an issuer attribute type that is an INTEGER, not an OID",
              issuer(lambda n: n[0][0].__setitem__(0, integer(3))))


def row16_depth():
    # The canonical walk counts the Certificate as level 1; a Name value
    # is level 6 (Certificate, TBS, Name, RDN, ATV, value) and the cap is 16.
    def name_value(levels):
        def edit(c):
            c[TBS][T_ISSUER][0][0][1] = nested(levels - 1, seq())
        return edit
    cert_case("r16-cert-depth-16.der", "EBADMSG", "row16",
              "nesting at the cap in an issuer value: name values must be primitive strings "
              "(the cap itself: test_der.c)", name_value(11))
    cert_case("r16-cert-depth-17.der", "EBADMSG", "row16",
              "CVE-2018-0739: one level past the cap, in an issuer value", name_value(12))

    def deep_attr(m):
        attrs_of(signer_of(m)).kids.append(seq(oid("1.2.3.4"), cons(0x31, nested(20, NULL))))
    p7_case("r16-signed-attr-deep.der", "EBADMSG", "row16",
            "a signed attribute whose value nests 20 SEQUENCEs", deep_attr, base=DETACHED)

    def pkcs7_in_pkcs7(m):
        inner = tree(NOATTR)
        for _ in range(40):
            sd = seq(integer(1), cons(0x31), seq(oid(OID_SIGNED_DATA), cons(0xA0, inner)),
                     cons(0x31))
            inner = seq(oid(OID_SIGNED_DATA), cons(0xA0, sd))
        sd_of(m)[2] = seq(oid(OID_SIGNED_DATA), cons(0xA0, inner))
    p7_case("r16-pkcs7-in-pkcs7-40.der", "EBADMSG", "row16",
            "CVE-2018-0739: eContent a SignedData in a SignedData ... 40 deep: past the BER walk's "
            "nesting cap (VOUCH_DER_MAX_BER_DEPTH), before libtasn1 sees it",
            pkcs7_in_pkcs7)
    indef = b"\x30\x80" * 40 + b"\x00\x00" * 40
    case("r16-econtent-indef-40.ber", "pkcs7", "EBADMSG", "row16",
         "eContent: 40 nested indefinite SEQUENCEs (a non-OCTET STRING eContent must be definite)",
         bytes.fromhex("3080" "06092a864886f70d010702" "a080" "3080" "020101" "3100"
                       "3080" "06092a864886f70d010701" "a080") + indef +
         bytes.fromhex("0000" "0000" "3100" "0000" "0000" "0000"))


def row17_tags_and_integers():
    def hightag_value(c):
        c[TBS][T_ISSUER][0][0][1] = raw(bytes.fromhex("1f810001" "00"))
    cert_case("r17-cert-hightag-universal.der", "EBADMSG", "row17",
              "CVE-2016-2108: an ANY (issuer value) with universal tag number 128", hightag_value)

    def lowtag_in_high_form(c):
        c[TBS][T_ISSUER][0][0][1] = raw(bytes.fromhex("1f0c01" "41"))
    cert_case("r17-cert-tag-not-minimal.der", "EBADMSG", "row17",
              "UTF8String (12) written in the high-tag-number form", lowtag_in_high_form)

    def serial_padded(c):
        c[TBS][T_SERIAL] = tlv(0x02, b"\x00" + c[TBS][T_SERIAL].content)
    cert_case("r17-serial-not-minimal.der", "EBADMSG", "row17 N28",
              "serial with a redundant leading 00", serial_padded)

    def negzero(c):
        c[TBS][T_SERIAL] = tlv(0x02, b"\xff\x80")
    cert_case("r17-serial-negative-not-minimal.der", "EBADMSG", "row17",
              "serial ff 80: a redundant sign octet", negzero)

    def hightag_attr(m):
        attrs_of(signer_of(m)).kids.append(seq(oid("1.2.3.4"), cons(0x31, raw(b"\x1f\x81\x00\x00"))))
    p7_case("r17-signed-attr-hightag.der", "EBADMSG", "row17",
            "a signed attribute value with universal tag 128", hightag_attr, base=DETACHED)


def row18_huge_lengths():
    case("r18-short-huge-length.der", "pkcs7", "EBADMSG", "row18",
         "CVE-2016-2109: 9 bytes declaring 2 GiB (30 84 7f ff ff ff)",
         bytes.fromhex("30847fffffff020100"))
    also("r18-short-huge-length.der", "x509", "EBADMSG", "row18", "the same for certificates")
    also("r18-short-huge-length.der", "spki", "EBADMSG", "row18", "the same for keys")
    # Over the default max_input (16 MiB) is tested in tests/test_pkcs7.c
    # with a buffer made at run time, not a 16 MiB file here.
    # 65537 empty chunks: one more piece than max_fragments.
    chunks = b"\x04\x00" * 65537
    case("r18-fragments-65537.ber", "pkcs7", "EBADMSG", "row18 N30",
         "chunked content in 65537 pieces: over max_fragments",
         STREAM[:52] + chunks + STREAM[STREAM.index(b"\x00\x00\x00\x00\x00\x00", 52):])


def row19_malleability():
    def outer_alg(c):
        c[ALG] = seq(oid(OID_SHA384_RSA), NULL)
    cert_case("r19-outer-alg-differs.der", "EBADMSG", "row19",
              "CVE-2014-8275: signatureAlgorithm sha384WithRSA, TBS says sha256WithRSA", outer_alg)

    def outer_params(c):
        c[ALG].kids.pop()
    cert_case("r19-outer-params-differ.der", "EBADMSG", "row19",
              "same OID, outer parameters absent and inner NULL: not the same bytes", outer_params)

    def unused_bits(c):
        sig = bytearray(c[SIG].content)
        sig[0] = 1
        sig[-1] &= 0xFE
        c[SIG].content = bytes(sig)
    cert_case("r19-sig-unused-bits.der", "EBADMSG", "row19",
              "signature BIT STRING declaring 1 unused bit (zero, so canonical)", unused_bits)

    def garbage_inside(c):
        c.kids.append(NULL)
    cert_case("r19-garbage-after-sig.der", "EBADMSG", "row19",
              "a NULL after the signature, inside the Certificate", garbage_inside)
    case("r19-trailing-after-cert.der", "x509", "EBADMSG", "row19",
         "a byte after the Certificate", RSA_CERT + b"\x00")

    def ecdsa_ber(c):
        sig = parse(c[SIG].content[1:])
        sig[0].content = b"\x00" + sig[0].content
        c[SIG].content = b"\x00" + sig.enc()
    cert_case("r19-ecdsa-sig-not-minimal.der", "0", "row19 N24",
              "ECDSA r with a redundant 00: opaque here; the verifier must refuse",
              ecdsa_ber, base=EC_CERT)

    def ecdsa_trailing(c):
        c[SIG].content += b"\x00"
    cert_case("r19-ecdsa-sig-trailing.der", "0", "row19 N24",
              "a byte after ECDSA-Sig-Value in the BIT STRING; the verifier must refuse",
              ecdsa_trailing, base=EC_CERT)
    case("r19-sigalg-ecdsa-null-params.der", "sigalg", "EBADMSG", "row19",
         "ecdsa-with-SHA256 with NULL parameters (RFC 5758 §3.2: MUST omit)",
         seq(oid(OID_ECDSA_SHA256), NULL))


def pss(*fields):
    return seq(oid(OID_PSS), seq(*fields))


def hash_alg(o=OID_SHA256):
    return cons(0xA0, seq(oid(o), NULL))


def mgf1(h=OID_SHA256, name=OID_MGF1):
    return cons(0xA1, seq(oid(name), seq(oid(h), NULL)))


def rows12_13_pss():
    case("r12-sigalg-pss-no-params.der", "sigalg", "EBADMSG", "row12 N23",
         "CVE-2015-0208: RSASSA-PSS with parameters absent", seq(oid(OID_PSS)))
    case("r13-sigalg-pss-mgf1-no-hash.der", "sigalg", "EBADMSG", "row13 N23",
         "CVE-2015-3194: MGF1 without its hash parameter",
         pss(hash_alg(), cons(0xA1, seq(oid(OID_MGF1)))))
    case("n23-sigalg-pss-unknown-hash.der", "sigalg", "ENOPKG", "N23",
         "PSS with hash 1.2.3.4", pss(hash_alg("1.2.3.4"), mgf1()))
    case("n23-sigalg-pss-unknown-mgf.der", "sigalg", "ENOPKG", "N23",
         "PSS with a mask generation function other than MGF1",
         pss(hash_alg(), mgf1(name="1.2.840.113549.1.1.9")))
    case("n23-sigalg-pss-salt-negative.der", "sigalg", "EBADMSG", "N23",
         "saltLength -1", pss(hash_alg(), mgf1(), cons(0xA2, integer(-1))))
    case("n23-sigalg-pss-salt-2e31.der", "sigalg", "EBADMSG", "N23",
         "saltLength 2^31", pss(hash_alg(), mgf1(), cons(0xA2, integer(1 << 31))))
    case("n23-sigalg-pss-trailer-2.der", "sigalg", "EBADMSG", "N23",
         "trailerField 2", pss(hash_alg(), mgf1(), cons(0xA2, integer(32)),
                               cons(0xA3, integer(2))))

    def spki_mgf1_no_hash(s):
        s[0][1][1] = cons(0xA1, seq(oid(OID_MGF1)))
    s = tree(RSAPSS_SPKI)
    spki_mgf1_no_hash(s)
    case("r13-spki-pss-mgf1-no-hash.der", "spki", "EBADMSG", "row13",
         "an id-RSASSA-PSS key whose MGF1 names no hash", s)
    s = tree(RSAPSS_SPKI)
    s[0][1][0] = cons(0xA0, seq(oid(OID_SHA256), tlv(0x04)))
    case("r12-spki-pss-hash-params.der", "spki", "EBADMSG", "row12",
         "a PSS key whose hash AlgorithmIdentifier has OCTET STRING parameters", s)

    def cert_pss_key(c):
        bad = tree(RSAPSS_SPKI)
        spki_mgf1_no_hash(bad)
        c[TBS][T_SPKI] = bad
    cert_case("r13-cert-pss-key-mgf1-no-hash.der", "EBADMSG", "row13",
              "the same key inside a certificate: the certificate does not parse", cert_pss_key)

    def cert_pss_alg(c):
        c[TBS][T_ALG] = seq(oid(OID_PSS))
        c[ALG] = seq(oid(OID_PSS))
    cert_case("r12-cert-sigalg-pss-no-params.der", "0", "row12",
              "both signature algorithms PSS without parameters: parses; the verifier refuses "
              "(sigalg -EBADMSG)", cert_pss_alg)


def n20_algorithms():
    case("n20-sigalg-md5-rsa.der", "sigalg", "ENOPKG", "N20",
         "md5WithRSAEncryption: never implemented", seq(oid("1.2.840.113549.1.1.4"), NULL))
    case("n20-sigalg-unknown.der", "sigalg", "ENOPKG", "N20",
         "signature OID 1.2.3.4", seq(oid("1.2.3.4")))
    case("n20-sigalg-rsaencryption.der", "sigalg", "ENOPKG", "N20",
         "rsaEncryption (what CMS SignerInfos carry) is a key OID, not a signature one",
         seq(oid("1.2.840.113549.1.1.1"), NULL))
    case("n20-sigalg-rsa-bad-params.der", "sigalg", "EBADMSG", "N20",
         "sha256WithRSAEncryption with OCTET STRING parameters", seq(oid(OID_SHA256_RSA), tlv(0x04)))

    def unknown_digest(m):
        signer_of(m)[2] = seq(oid("1.2.3.4"))
    p7_case("n20-signer-unknown-digest.der", "0", "N20 row11",
            "SignerInfo digestAlgorithm 1.2.3.4: parses; the verifier: -ENOPKG", unknown_digest)


def sha3_and_ed25519():
    """SHA-3 and Ed25519 identifiers and keys: parameters the algorithm's
    RFC forbids, keys of the wrong length or encoding, Ed448."""
    sha3_256, ed25519, ed448 = "2.16.840.1.101.3.4.2.8", "1.3.101.112", "1.3.101.113"
    case("n20-sigalg-ecdsa-sha3-null.der", "sigalg", "EBADMSG", "N20",
         "id-ecdsa-with-sha3-256 with NULL parameters (they must be absent)",
         seq(oid("2.16.840.1.101.3.4.3.10"), NULL))
    case("n20-sigalg-rsa-sha3-integer.der", "sigalg", "EBADMSG", "N20",
         "id-rsassa-pkcs1-v1_5-with-sha3-256 with INTEGER parameters",
         seq(oid("2.16.840.1.101.3.4.3.14"), integer(0)))
    case("n20-sigalg-ed25519-null.der", "sigalg", "EBADMSG", "N20",
         "id-Ed25519 with NULL parameters (RFC 8410: absent)", seq(oid(ed25519), NULL))
    case("n20-sigalg-ed448.der", "sigalg", "ENOPKG", "N20",
         "id-Ed448: not implemented", seq(oid(ed448)))
    case("r12-sigalg-pss-sha3-octets.der", "sigalg", "EBADMSG", "row12",
         "RSASSA-PSS whose SHA3-256 hash has OCTET STRING parameters",
         pss(cons(0xa0, seq(oid(sha3_256), tlv(0x04)))))
    key = bytes(32)

    def ed_spki(alg, bits):
        return seq(alg, tlv(0x03, bits))
    case("n20-spki-ed25519-null.der", "spki", "EBADMSG", "N20",
         "id-Ed25519 key with NULL parameters", ed_spki(seq(oid(ed25519), NULL), b"\0" + key))
    case("n34-spki-ed25519-31.der", "spki", "EBADMSG", "N34",
         "an Ed25519 key of 31 bytes", ed_spki(seq(oid(ed25519)), b"\0" + key[:31]))
    case("n34-spki-ed25519-33.der", "spki", "EBADMSG", "N34",
         "an Ed25519 key of 33 bytes", ed_spki(seq(oid(ed25519)), b"\0" + key + b"\0"))
    case("n34-spki-ed25519-y-p.der", "spki", "EBADMSG", "N34",
         "an Ed25519 key whose y is p (not canonical, RFC 8032 5.1.3)",
         ed_spki(seq(oid(ed25519)), b"\0" + bytes([0xed]) + b"\xff" * 30 + b"\x7f"))
    case("n34-spki-ed25519-small-order.der", "spki", "EBADMSG", "N34",
         "an Ed25519 key of small order (the neutral element, y = 1)",
         ed_spki(seq(oid(ed25519)), b"\0\x01" + bytes(31)))
    case("n20-spki-ed448.der", "spki", "ENOPKG", "N20",
         "an Ed448 key: not implemented", ed_spki(seq(oid(ed448)), b"\0" + bytes(57)))


def mldsa():
    """ML-DSA (RFC 9881): parameters must be absent everywhere; a key is
    exactly its set's length; HashML-DSA is not implemented."""
    mldsa65, hash_mldsa65 = "2.16.840.1.101.3.4.3.18", "2.16.840.1.101.3.4.3.33"
    case("n20-sigalg-mldsa-null.der", "sigalg", "EBADMSG", "N20",
         "id-ml-dsa-65 with NULL parameters (RFC 9881: absent)", seq(oid(mldsa65), NULL))
    case("n20-sigalg-hash-mldsa.der", "sigalg", "ENOPKG", "N20",
         "id-hash-ml-dsa-65-with-sha512 (HashML-DSA): not implemented", seq(oid(hash_mldsa65)))

    def spki(params, key):
        return seq(seq(oid(mldsa65), *params), tlv(0x03, b"\0" + key))
    case("n20-spki-mldsa-null.der", "spki", "EBADMSG", "N20",
         "an ML-DSA-65 key with NULL parameters", spki([NULL], bytes(1952)))
    case("n35-spki-mldsa-short.der", "spki", "EBADMSG", "N35",
         "an ML-DSA-65 key of 1951 bytes", spki([], bytes(1951)))
    case("n35-spki-mldsa-trailing.der", "spki", "EBADMSG", "N35",
         "an ML-DSA-65 key with a trailing byte (1953 bytes)", spki([], bytes(1953)))
    case("n35-spki-mldsa-44-length.der", "spki", "EBADMSG", "N35",
         "an id-ml-dsa-65 key of ML-DSA-44's length (1312 bytes)", spki([], bytes(1312)))
    case("n35-spki-mldsa-ok.der", "spki", "0", "N35",
         "control: an ML-DSA-65 key of 1952 bytes (any bytes decode)", spki([], bytes(1952)))


def row22_optional():
    def crls(m):
        sd_of(m).kids.insert(4, cons(0xA1, seq(integer(1))))
    p7_case("r22-crls-present.der", "0", "row22",
            "a crls [1] field (not read, tolerated)", crls)
    case("r22-contentinfo-content-empty.der", "pkcs7", "EBADMSG", "row22",
         "ContentInfo content [0] present but empty", seq(oid(OID_SIGNED_DATA), cons(0xA0)))
    case("r22-data-no-content.der", "pkcs7", "ENOPKG", "row22 N1",
         "CVE-2024-0727's shape: id-data with its content absent", seq(oid(OID_DATA)))


def row23_n25_oids():
    long_oid = "1.2." + ".".join(["16383"] * 31) + ".1"   # 1 + 62 + 1 = 64 bytes
    assert len(oid(long_oid).content) == 64

    def name_type(o):
        def edit(c):
            c[TBS][T_ISSUER][0][0][0] = o
        return edit
    cert_case("r23-oid-64-bytes.der", "0", "row23",
              "an issuer attribute type of 64 content bytes: at the cap", name_type(oid(long_oid)))
    cert_case("r23-oid-65-bytes.der", "EBADMSG", "row23",
              "CVE-2023-2650: the same with one more byte, past VOUCH_DER_MAX_OID",
              name_type(oid(long_oid + ".1")))
    case("r23-sigalg-oid-1000-bytes.der", "sigalg", "EBADMSG", "row23",
         "a 1000-byte signature algorithm OID of huge arcs",
         seq(tlv(0x06, b"\x2a" + b"\xff" * 998 + b"\x7f")))
    case("n25-oid-empty.der", "sigalg", "EBADMSG", "N25", "a zero-length OID", seq(tlv(0x06)))
    case("n25-oid-unterminated.der", "sigalg", "EBADMSG", "N25",
         "an OID ending in a continuation byte (2a 86)", seq(tlv(0x06, b"\x2a\x86")))
    case("n25-oid-padded-arc.der", "sigalg", "EBADMSG", "N25",
         "an arc with a leading 0x80 group (2a 80 01)", seq(tlv(0x06, b"\x2a\x80\x01")))
    arc64 = oid("1.2.%d" % (1 << 64))
    case("n25-oid-arc-2e64.der", "sigalg", "EBADMSG", "N25",
         "an arc of 2^64 (10 bytes): past libtasn1's unsigned long", seq(arc64))
    case("n25-oid-arc-2e64-1.der", "sigalg", "ENOPKG", "N25",
         "an arc of 2^64 - 1: well formed and unknown", seq(oid("1.2.%d" % ((1 << 64) - 1))))
    cert_case("n25-cert-oid-arc-2e64.der", "EBADMSG", "N25",
              "the 2^64 arc as an issuer attribute type", name_type(arc64))

    def content_type_empty(m):
        sd_of(m)[2][0] = tlv(0x06)
    p7_case("n25-econtenttype-empty.der", "EBADMSG", "N25",
            "eContentType a zero-length OID (BER layer)", content_type_empty)


def many_signers(n, signer):
    def edit(m):
        sd_of(m)[-1].kids = [copy.deepcopy(signer) for _ in range(n)]
    return edit


def n30_counts():
    def certs(n):
        def edit(m):
            sd_of(m)[3].kids = [parse(EC_CERT) for _ in range(n)]
        return edit
    p7_case("n30-certs-32.der", "0", "N30 row25", "32 certificates: at max_certs", certs(32))
    p7_case("n30-certs-33.der", "EBADMSG", "N30 row25",
            "33 certificates: one over max_certs (GnuTLS's > 16 chain, CVE-2024-28835)", certs(33))

    def others(m):
        sd_of(m)[3].kids = [cons(0xA1) for _ in range(10000)]
    p7_case("n30-other-certs-10000.der", "EBADMSG", "N30",
            "10 000 empty [1] CertificateChoices: more than max_certs to loop over", others)
    signer = signer_of(tree(NOATTR))
    p7_case("n30-signers-17.der", "EBADMSG", "N30", "17 SignerInfos: one over max_signers",
            many_signers(17, signer))
    tiny = seq(integer(1), seq(seq(), integer(1)), seq(oid(OID_SHA256)),
               seq(oid("1.2.840.113549.1.1.1")), tlv(0x04))
    p7_case("n30-signers-1000.der", "EBADMSG", "N30", "1000 minimal SignerInfos",
            many_signers(1000, tiny))

    def digest_algs(m):
        sd_of(m)[1].kids = [seq(oid(OID_SHA256)) for _ in range(17)]
    p7_case("n30-digest-algs-17.der", "EBADMSG", "N30",
            "17 digestAlgorithms: over VOUCH_PKCS7_MAX_DIGEST_ALGS", digest_algs)

    def signed_attrs(n):
        def edit(m):
            attrs = attrs_of(signer_of(m))
            attrs.kids += [seq(oid("1.2.3.%d" % i), cons(0x31, NULL)) for i in range(n - 3)]
            attrs.kids.sort(key=lambda a: a.enc())
        return edit
    p7_case("n30-signed-attrs-32.der", "0", "N30",
            "32 signed attributes: at max_attrs; the verifier: the signature no longer matches",
            signed_attrs(32), base=DETACHED)
    p7_case("n30-signed-attrs-33.der", "EBADMSG", "N30", "33 signed attributes: over max_attrs",
            signed_attrs(33), base=DETACHED)

    def unsigned_attrs(m):
        signer_of(m).kids.append(Node(b"\xa1", kids=[seq(oid("1.2"), cons(0x31))] * 10000))
    p7_case("n30-unsigned-attrs-10000.der", "EBADMSG", "N30",
            "10 000 unsigned attributes", unsigned_attrs)


def n1_outer():
    case("n01-data.der", "pkcs7", "ENOPKG", "N1",
         "ContentInfo of type data", seq(oid(OID_DATA), cons(0xA0, tlv(0x04, b"hello"))))
    case("n01-enveloped.der", "pkcs7", "ENOPKG", "N1",
         "ContentInfo of type envelopedData", seq(oid(OID_ENVELOPED_DATA), cons(0xA0, seq())))
    case("n01-not-contentinfo.der", "pkcs7", "EBADMSG", "N1", "an INTEGER", integer(0))
    case("n01-type-not-oid.der", "pkcs7", "EBADMSG", "N1",
         "contentType is an OCTET STRING", seq(tlv(0x04, oid(OID_SIGNED_DATA).content)))


def n4_versions():
    versions = [("0", integer(0)), ("2", integer(2)), ("4", integer(4)), ("5", integer(5)),
                ("256", integer(256)), ("negative", integer(-1)),
                ("not-minimal", tlv(0x02, b"\x00\x01"))]
    for label, v in versions:
        def edit(m, v=v):
            sd_of(m)[0] = v
        p7_case("n04-sd-version-%s.der" % label, "EBADMSG", "N4",
                "SignedData version %s" % label, edit)

    def signer_version(m):
        signer_of(m)[0] = integer(2)
    p7_case("n04-signer-version-2.der", "EBADMSG", "N4", "SignerInfo version 2", signer_version)


def with_skid(m, sd_version, si_version):
    skid = sd_of(m)[3][0][TBS][T_EXT][0][0][1].content[2:]   # the SKID extension's octets
    sd_of(m)[0] = integer(sd_version)
    si = signer_of(m)
    si[0] = integer(si_version)
    si[1] = tlv(0x80, skid)


def n5_sid_versions():
    p7_case("n05-skid-v3.der", "0", "N5",
            "subjectKeyIdentifier sid, SignerInfo v3, SignedData v3: the valid form",
            lambda m: with_skid(m, 3, 3))
    p7_case("n05-v1-with-skid.der", "EBADMSG", "N5",
            "SignerInfo v1 with a subjectKeyIdentifier sid", lambda m: with_skid(m, 3, 1))
    p7_case("n05-v3-in-sd-v1.der", "EBADMSG", "N5",
            "SignerInfo v3 inside SignedData v1", lambda m: with_skid(m, 1, 3))

    def v3_issuer_serial(m):
        sd_of(m)[0] = integer(3)
        signer_of(m)[0] = integer(3)
    p7_case("n05-v3-with-issuer-serial.der", "EBADMSG", "N5",
            "SignerInfo v3 with an issuerAndSerialNumber sid", v3_issuer_serial)


def attr(o, *values):
    return seq(oid(o), cons(0x31, *values))


def signed_attr_cases():
    def edit_attrs(fn):
        def edit(m):
            fn(attrs_of(signer_of(m)))
        return edit

    def set_attrs(a, kids):
        a.kids = kids

    CT, ST, MD = 0, 1, 2       # detached.der's order: contentType, signingTime, messageDigest
    p7_case("n14-signed-attrs-empty.der", "EBADMSG", "N14",
            "signedAttrs [0] {}: SET SIZE (1..MAX)", edit_attrs(lambda a: set_attrs(a, [])),
            base=DETACHED)

    def nonminimal(a):
        a.length = b"\x81" + bytes([len(a.body())])
    p7_case("n16-signed-attrs-long-length.der", "EBADMSG", "N16",
            "signedAttrs length in long form (81 69): not DER", edit_attrs(nonminimal),
            base=DETACHED)

    def attr_nonminimal(a):
        a[CT].length = b"\x81" + bytes([len(a[CT].body())])
    p7_case("n16-signed-attr-long-length.der", "EBADMSG", "N16",
            "one attribute's length in long form", edit_attrs(attr_nonminimal), base=DETACHED)

    def indefinite(m):
        si = signer_of(m)
        si[3] = raw(b"\xa0\x80" + si[3].body() + b"\x00\x00")
    p7_case("n16-signed-attrs-indefinite.der", "EBADMSG", "N16",
            "signedAttrs with indefinite length", indefinite, base=DETACHED)

    def unsorted(a):
        a.kids.reverse()
    p7_case("n15-signed-attrs-unsorted.der", "0", "N15",
            "signedAttrs not in SET OF order: parses by default (-EBADMSG with "
            "VOUCH_PKCS7_STRICT_SET_ORDER); the verifier decides", edit_attrs(unsorted), base=DETACHED)

    def bad_time(a):
        a[ST][1][0].content = b"261303144835Z"
    p7_case("n13-signing-time-month-13.der", "EBADMSG", "N13 row21",
            "signingTime in month 13 (bad_signtime_attr.cms)", edit_attrs(bad_time), base=DETACHED)

    def digest_integer(a):
        a[MD][1][0] = integer(1)
    p7_case("n12-digest-not-octets.der", "EBADMSG", "N12 row21",
            "messageDigest value is an INTEGER", edit_attrs(digest_integer), base=DETACHED)

    def ct_not_oid(a):
        a[CT][1][0] = tlv(0x04, b"\x2a")
    p7_case("n11-content-type-not-oid.der", "EBADMSG", "row21",
            "contentType value is an OCTET STRING", edit_attrs(ct_not_oid), base=DETACHED)

    def ct_no_values(a):
        a[CT][1].kids = []
    p7_case("n09-content-type-no-values.der", "EBADMSG", "row21",
            "contentType with an empty attrValues SET", edit_attrs(ct_no_values), base=DETACHED)

    def digest_short(a):
        a[MD][1][0].content = a[MD][1][0].content[:31]
    p7_case("n12-digest-31-bytes.der", "0", "N12",
            "messageDigest of 31 bytes: parses; the verifier refuses", edit_attrs(digest_short),
            base=DETACHED)

    def ct_mismatch(a):
        a[CT][1][0] = oid(OID_SIGNED_DATA)
    p7_case("n11-content-type-mismatch.der", "0", "N11",
            "contentType attribute signedData, eContentType data; the verifier refuses",
            edit_attrs(ct_mismatch), base=DETACHED)

    def two_ct(a):
        a.kids.insert(1, copy.deepcopy(a[CT]))
    p7_case("n10-content-type-twice.der", "0", "N10",
            "two contentType attributes (ct_multiple_attr.cms): counted; the verifier refuses",
            edit_attrs(two_ct), base=DETACHED)

    def md_two_values(a):
        a[MD][1].kids.append(copy.deepcopy(a[MD][1][0]))
    p7_case("n10-digest-two-values.der", "0", "N10",
            "messageDigest with two values: counted; the verifier refuses",
            edit_attrs(md_two_values), base=DETACHED)

    def no_md(a):
        a.kids.pop(MD)
    p7_case("n09-no-message-digest.der", "0", "N9",
            "signedAttrs without messageDigest (no_md_attr.cms); the verifier decides",
            edit_attrs(no_md), base=DETACHED)


def row27_extensions():
    def ext_field(node):
        def edit(c):
            c[TBS][T_EXT] = node
        return edit
    cert_case("r27-extensions-empty-seq.der", "EBADMSG", "row27",
              "mbedTLS 2.13.0: extensions [3] { SEQUENCE {} }", ext_field(cons(0xA3, seq())))
    cert_case("r27-extensions-explicit-empty.der", "EBADMSG", "row27",
              "extensions [3] with nothing inside", ext_field(cons(0xA3)))

    # The list is ANY in the grammar: x509.c checks each element's place and tag.
    def ext_edit(edit):
        return lambda c: edit(c[TBS][T_EXT][0])

    def retag(node, tag):
        node.tag = bytes([tag])
    cert_case("r27-extensions-set.der", "EBADMSG", "row27,row2",
              "the Extensions list tagged SET instead of SEQUENCE", ext_edit(lambda l: retag(l, 0x31)))
    cert_case("r27-extension-set.der", "EBADMSG", "row27,row2",
              "an Extension tagged SET instead of SEQUENCE", ext_edit(lambda l: retag(l[0], 0x31)))
    cert_case("r27-extension-id-integer.der", "EBADMSG", "row27,row2",
              "an extnID that is an INTEGER, not an OID", ext_edit(lambda l: l[0].__setitem__(0, integer(5))))
    cert_case("r27-extension-value-bits.der", "EBADMSG", "row27,row2",
              "an extnValue that is a BIT STRING, not an OCTET STRING",
              ext_edit(lambda l: l[0].__setitem__(-1, tlv(0x03, b"\x00" + l[0][-1].content))))
    cert_case("r27-extension-four.der", "EBADMSG", "row27,row2",
              "an Extension with a fourth element",
              ext_edit(lambda l: l[0].kids.append(tlv(0x04, b"x"))))

    def ext_value(i, value):
        def edit(c):
            c[TBS][T_EXT][0][i].kids[-1] = tlv(0x04, value)
        return edit
    cert_case("r27-basic-constraints-overrun.der", "EBADMSG", "row27",
              "basicConstraints value 30 05 01 01 ff: inner length past its OCTET STRING",
              ext_value(2, bytes.fromhex("30050101ff")))
    cert_case("r27-key-usage-overrun.der", "EBADMSG", "row27",
              "keyUsage value 03 05 07 80: inner length past its OCTET STRING",
              ext_value(3, bytes.fromhex("03050780")))
    cert_case("r27-akid-overrun.der", "EBADMSG", "row27",
              "authorityKeyIdentifier keyIdentifier longer than the extension",
              ext_value(1, bytes.fromhex("3016802a") + bytes(20)))

    def akid_serial(content):
        def edit(c):
            issuer = copy.deepcopy(c[TBS][T_ISSUER])
            c[TBS][T_EXT][0][1].kids[-1] = tlv(0x04, seq(
                tlv(0x80, bytes(20)), cons(0xA1, cons(0xA4, issuer)), tlv(0x82, content)).enc())
        return edit
    cert_case("r27-akid-issuer-serial.der", "0", "row27",
              "authorityKeyIdentifier with authorityCertIssuer and serial 1", akid_serial(b"\x01"))
    cert_case("r27-akid-serial-empty.der", "EBADMSG", "row27 N28",
              "authorityCertSerialNumber [2] of zero length (it would read as absent)",
              akid_serial(b""))
    cert_case("r27-akid-serial-not-minimal.der", "EBADMSG", "row27 N28",
              "authorityCertSerialNumber [2] 00 01: a redundant octet", akid_serial(b"\x00\x01"))

    def sct(c):
        c[TBS][T_EXT][0].kids.append(seq(oid("1.3.6.1.4.1.11129.2.4.2"),
                                         tlv(0x04, bytes.fromhex("0481f000ff0012") + bytes(8))))
    cert_case("r27-sct-inconsistent.der", "0", "row27",
              "CVE-2025-32989: an SCT list with inconsistent inner lengths: not read, so parses", sct)

    def unknown_critical(c):
        c[TBS][T_EXT][0].kids.append(seq(oid("1.2.3.4"), tlv(0x01, b"\xff"), tlv(0x04, b"\x05\x00")))
    cert_case("r27-unknown-critical.der", "0", "row27",
              "an unknown critical extension: counted; the verifier must refuse", unknown_critical)


def row27_crl_dp():
    """cRLDistributionPoints (RFC 5280 4.2.1.13), read by x509.c: strict
    grammar, at most 8 DistributionPoints (VOUCH_X509_MAX_CRL_DP), at most
    16 names per GeneralNames (VOUCH_X509_MAX_GENERAL_NAMES)."""
    uri = tlv(0x86, b"http://crl.example/ca.crl")

    def full(*names):
        return cons(0xA0, cons(0xA0, *names))

    def dp_ext(value):
        def edit(c):
            c[TBS][T_EXT][0].kids.append(seq(oid("2.5.29.31"), tlv(0x04, value.enc())))
        return edit

    def dps(*points):
        return dp_ext(seq(*points))

    def dirname(c):
        return cons(0xA4, copy.deepcopy(c[TBS][T_ISSUER]))

    def with_dirname(c):
        dp_ext(seq(seq(full(dirname(c), uri)), seq(cons(0xA2, dirname(c)))))(c)
    cert_case("r27-crl-dp-ok.der", "0", "row27",
              "cRLDistributionPoints: a fullName (DirName + URI), and a point with only a cRLIssuer",
              with_dirname)
    cert_case("r27-crl-dp-indirect.der", "0", "row27",
              "cRLDistributionPoints: one point with a fullName (URI) and a cRLIssuer",
              lambda c: dp_ext(seq(seq(full(uri), cons(0xA2, dirname(c)))))(c))
    cert_case("r27-crl-dp-eight.der", "0", "row27",
              "eight DistributionPoints: the most vouch keeps",
              dps(*[seq(full(uri)) for _ in range(8)]))
    cert_case("r27-crl-dp-nine.der", "EBADMSG", "row27,N30",
              "nine DistributionPoints: past VOUCH_X509_MAX_CRL_DP",
              dps(*[seq(full(uri)) for _ in range(9)]))
    cert_case("r27-crl-dp-names-sixteen.der", "0", "row27",
              "a fullName of sixteen GeneralNames: the most vouch reads",
              dps(seq(full(*[uri] * 16))))
    cert_case("r27-crl-dp-names-seventeen.der", "EBADMSG", "row27,N30",
              "a fullName of seventeen GeneralNames: past VOUCH_X509_MAX_GENERAL_NAMES",
              dps(seq(full(*[uri] * 17))))
    cert_case("r27-crl-dp-empty.der", "EBADMSG", "row27",
              "cRLDistributionPoints is an empty SEQUENCE (SIZE (1..MAX))", dps())
    cert_case("r27-crl-dp-point-empty.der", "EBADMSG", "row27",
              "a DistributionPoint with none of its fields", dps(seq()))
    cert_case("r27-crl-dp-reasons-only.der", "EBADMSG", "row27",
              "a DistributionPoint with only reasons (no distributionPoint, no cRLIssuer)",
              dps(seq(tlv(0x81, b"\x07\x80"))))
    cert_case("r27-crl-dp-set.der", "EBADMSG", "row27,row2",
              "cRLDistributionPoints tagged SET instead of SEQUENCE",
              dp_ext(cons(0x31, seq(full(uri)))))
    cert_case("r27-crl-dp-point-set.der", "EBADMSG", "row27,row2",
              "a DistributionPoint tagged SET instead of SEQUENCE", dps(cons(0x31, full(uri))))
    cert_case("r27-crl-dp-fullname-empty.der", "EBADMSG", "row27",
              "a fullName with no GeneralName (SIZE (1..MAX))", dps(seq(full())))
    cert_case("r27-crl-dp-name-empty.der", "EBADMSG", "row27",
              "a distributionPoint [0] holding nothing", dps(seq(cons(0xA0))))
    cert_case("r27-crl-dp-name-two.der", "EBADMSG", "row27",
              "a distributionPoint [0] holding both CHOICE arms",
              dps(seq(cons(0xA0, cons(0xA0, uri), cons(0xA1, seq(oid("2.5.4.3"), tlv(0x0C, b"x")))))))
    cert_case("r27-crl-dp-name-arm-2.der", "EBADMSG", "row27,row15",
              "a DistributionPointName of arm [2], which does not exist",
              dps(seq(cons(0xA0, cons(0xA2, uri)))))
    cert_case("r27-crl-dp-general-name-9.der", "EBADMSG", "row27,row15",
              "a GeneralName of arm [9], which does not exist", dps(seq(full(tlv(0x89, b"x")))))
    cert_case("r27-crl-dp-uri-constructed.der", "EBADMSG", "row27",
              "a uniformResourceIdentifier in the constructed form (a6)",
              dps(seq(full(cons(0xA6, tlv(0x16, b"x"))))))
    cert_case("r27-crl-dp-dirname-not-name.der", "EBADMSG", "row27,row2",
              "a directoryName whose Name is a SET, not an RDNSequence",
              dps(seq(full(cons(0xA4, cons(0x31))))))
    cert_case("r27-crl-dp-dirname-two.der", "EBADMSG", "row27",
              "a directoryName [4] holding two Names",
              dps(seq(full(cons(0xA4, seq(), seq())))))
    cert_case("r27-crl-dp-issuer-empty.der", "EBADMSG", "row27",
              "a cRLIssuer with no GeneralName", dps(seq(full(uri), cons(0xA2))))
    cert_case("r27-crl-dp-out-of-order.der", "EBADMSG", "row27",
              "cRLIssuer before distributionPoint", dps(seq(cons(0xA2, uri), full(uri))))
    cert_case("r27-crl-dp-reasons-padded.der", "EBADMSG", "row27",
              "reasons with a set bit among its unused bits (not DER)",
              dps(seq(full(uri), tlv(0x81, b"\x07\x81"))))

    def long_length(c):
        dps(seq(full(uri)))(c)
        ext = c[TBS][T_EXT][0][-1]
        value = parse(ext[-1].content)
        value.length = b"\x81" + bytes([len(value.body())])
        ext[-1] = tlv(0x04, value.enc())
    cert_case("r27-crl-dp-long-length.der", "EBADMSG", "row27,N26",
              "cRLDistributionPoints with a long-form length under 128 (not DER)", long_length)


def row28_later_signer():
    def second(fn):
        def edit(m):
            fn(signer_of(m, 1))
        return edit
    p7_case("r28-second-signer-version-2.der", "EBADMSG", "row28",
            "OSS-Fuzz 53798: the second SignerInfo has version 2",
            second(lambda s: s.kids.__setitem__(0, integer(2))), base=TWO_SIGNERS)
    p7_case("r28-second-signer-attrs-not-der.der", "EBADMSG", "row28",
            "the second SignerInfo's signedAttrs with a long-form length",
            second(lambda s: setattr(s[3], "length", b"\x81" + bytes([len(s[3].body())]))),
            base=TWO_SIGNERS)
    p7_case("r28-second-signer-no-signature.der", "EBADMSG", "row28",
            "the second SignerInfo without its signature value",
            second(lambda s: s.kids.pop(5)), base=TWO_SIGNERS)


def row29_curves():
    def curve(s, o):
        s[0][1] = o
    s = tree(EC256_SPKI)
    curve(s, oid("1.3.132.0.32"))
    case("r29-spki-secp224k1.der", "spki", "ENOPKG", "row29",
         "CVE-2017-2784: a secp224k1 key", s)
    s = tree(EC256_SPKI)
    curve(s, NULL)
    case("r29-spki-implicit-curve.der", "spki", "ENOPKG", "row29",
         "implicitCurve (NULL) parameters", s)
    s = tree(EC256_SPKI)
    s[0].kids.pop()
    case("r29-spki-ec-no-params.der", "spki", "EBADMSG", "row29",
         "id-ecPublicKey without parameters (RFC 5480: MUST be present)", s)
    s = tree(EC256_SPKI)
    point = bytearray(s[1].content)
    point[-1] ^= 1
    s[1].content = bytes(point)
    case("r29-spki-point-off-curve.der", "spki", "EBADMSG", "row29",
         "a P-256 point with y changed in its last bit: not on the curve", s)
    s = tree(EC256_SPKI)
    s[1].content = b"\x00\x00"
    case("r29-spki-point-infinity.der", "spki", "EBADMSG", "row29",
         "the point at infinity (SEC 1 octet 00)", s)
    s = tree(RSA2048_SPKI)
    key = parse(s[1].content[1:])
    key[1] = integer(2)
    s[1].content = b"\x00" + key.enc()
    case("r29-spki-rsa-even-exponent.der", "spki", "EBADMSG", "row29",
         "an RSA key with e = 2", s)

    def cert_curve(c):
        curve(c[TBS][T_SPKI], oid("1.3.132.0.32"))
    cert_case("r29-cert-secp224k1.der", "0", "row29",
              "a certificate with a secp224k1 key: listed (the SPKI span); the verifier refuses "
              "(the key loads -ENOPKG)", cert_curve, base=EC_CERT)


def n26_lengths():
    def serial_long_form(c):
        c[TBS][T_SERIAL].length = b"\x81" + bytes([len(c[TBS][T_SERIAL].content)])
    cert_case("n26-cert-length-long-form.der", "EBADMSG", "N26",
              "serial length 20 written as 81 14", serial_long_form)

    def leading_zero(c):
        c.length = b"\x83\x00" + len(c.body()).to_bytes(2, "big")
    cert_case("n26-cert-length-leading-zero.der", "EBADMSG", "N26",
              "the Certificate's length with a leading zero octet (83 00 ..)", leading_zero)

    def past_parent(c):
        issuer = c[TBS][T_ISSUER]
        issuer.length = bytes([len(issuer.body()) + 1])
    cert_case("n26-cert-length-past-parent.der", "EBADMSG", "N26",
              "the issuer Name's length one past its content (into validity)", past_parent)
    case("n26-length-84ffffffff.der", "pkcs7", "EBADMSG", "N26",
         "a SEQUENCE of length 84 ff ff ff ff", bytes.fromhex("3084ffffffff020100"))
    also("n26-length-84ffffffff.der", "x509", "EBADMSG", "N26", "the same for certificates")
    case("n26-length-8-octets.der", "pkcs7", "EBADMSG", "N26",
         "a length in 8 octets", bytes.fromhex("30880000000000000003020100"))
    also("n26-length-8-octets.der", "x509", "EBADMSG", "N26", "the same for certificates")

    def ber_outer(m):
        m.length = b"\x84" + len(m.body()).to_bytes(4, "big")
    p7_case("n26-pkcs7-ber-long-form-ok.der", "0", "N26",
            "the ContentInfo length in 4 octets: BER allows it in the outer layers", ber_outer)

    def cert_in_ber(m):
        cert = sd_of(m)[3][0]
        cert.length = b"\x84" + len(cert.body()).to_bytes(4, "big")
    p7_case("n26-pkcs7-cert-long-form.der", "EBADMSG", "N26",
            "the embedded certificate's length in 4 octets: a certificate must be DER", cert_in_ber)

    def sig_constructed(m):
        si = signer_of(m)
        si[-1] = raw(b"\x24\x80" + tlv(0x04, si[-1].content).enc() + b"\x00\x00")
    p7_case("n16-signature-constructed.der", "EBADMSG", "N16",
            "the signature value as a chunked (constructed, indefinite) OCTET STRING",
            sig_constructed)


def n27_trailing():
    case("n27-trailing-after-contentinfo.der", "pkcs7", "EBADMSG", "N27",
         "a byte after the ContentInfo", NOATTR + b"\x00")

    def after_sd(m):
        m[1].kids.append(NULL)
    p7_case("n27-trailing-after-signeddata.der", "EBADMSG", "N27",
            "a NULL after SignedData inside [0]", after_sd)
    case("n27-trailing-after-eoc.ber", "pkcs7", "EBADMSG", "N27",
         "stream.ber with 00 00 after its last end-of-contents", STREAM + b"\x00\x00")


def n28_serials():
    def serial(content):
        def edit(c):
            c[TBS][T_SERIAL] = tlv(0x02, content)
        return edit
    cert_case("n28-serial-negative.der", "0", "N28", "serial -1: flagged, parses",
              serial(b"\xff"))
    cert_case("n28-serial-zero.der", "0", "N28", "serial 0: flagged, parses", serial(b"\x00"))
    cert_case("n28-serial-21-octets.der", "0", "N28", "a 21-octet serial: flagged, parses",
              serial(b"\x01" + bytes(20)))
    cert_case("n28-serial-empty.der", "EBADMSG", "N28", "a zero-length serial INTEGER",
              serial(b""))

    def sid_serial(content):
        def edit(m):
            signer_of(m)[1][1] = tlv(0x02, content)
        return edit
    p7_case("n28-sid-serial-negative.der", "0", "N28",
            "a signer naming serial -1: parses; the verifier matches bytes", sid_serial(b"\xff"))
    p7_case("n28-sid-serial-empty.der", "EBADMSG", "N28",
            "a signer naming a zero-length serial", sid_serial(b""))
    p7_case("n28-sid-serial-not-minimal.der", "EBADMSG", "N28",
            "a signer naming a serial with a redundant 00 (X.690 §8.3.2 holds for BER too)",
            sid_serial(b"\x00\x01"))


MODULE_BODY = b"vouch malformed corpus: a module body\n" * 2
MARKER = b"~Module signature appended~\n"


def module(sig=NOATTR, id_type=2, sig_len=None, pad=b"\x00\x00\x00", algo=0, marker=MARKER,
           body=MODULE_BODY):
    n = len(sig) if sig_len is None else sig_len
    trailer = bytes([algo, 0, id_type, 0, 0]) + pad + n.to_bytes(4, "big")
    return body + sig + trailer + marker


def n33_modules():
    case("n33-module-ok.bin", "modsig", "0", "N33",
         "body || noattr.der || module_signature || marker", module())
    case("n33-no-marker.bin", "modsig", "ENODATA", "N33", "an unsigned module",
         MODULE_BODY)
    case("n33-marker-damaged.bin", "modsig", "ENODATA", "N33",
         "the marker's last character changed", module(marker=MARKER[:-2] + b"!\n"))
    case("n33-sig-len-past-file.bin", "modsig", "EBADMSG", "N33",
         "sig_len larger than the file", module(sig_len=1 << 24))
    case("n33-sig-len-whole-body.bin", "modsig", "EBADMSG", "N33",
         "sig_len covering everything before the trailer: no content",
         module(body=b""))
    case("n33-sig-len-zero.bin", "modsig", "EBADMSG", "N33", "sig_len 0", module(sig_len=0))
    case("n33-id-type-1.bin", "modsig", "ENOPKG", "N33",
         "id_type 1 (PKEY_ID_X509), not PKCS#7", module(id_type=1))
    case("n33-pad-nonzero.bin", "modsig", "EBADMSG", "N33", "a non-zero pad byte",
         module(pad=b"\x00\x01\x00"))
    case("n33-algo-nonzero.bin", "modsig", "EBADMSG", "N33",
         "algo set (unused with PKCS#7)", module(algo=1))
    case("n33-trailer-short.bin", "modsig", "EBADMSG", "N33",
         "the marker after fewer than 12 bytes", b"\x00" * 11 + MARKER)


def verify_level():
    def flip_sig(c):
        sig = bytearray(c[SIG].content)
        sig[100] ^= 0x01
        c[SIG].content = bytes(sig)
    cert_case("r06-cert-sig-corrupted.der", "0", "row6",
              "one bit of the signature flipped: parses; the verifier must refuse", flip_sig)

    def n19(m):
        sd_of(m)[1].kids = [seq(oid("2.16.840.1.101.3.4.2.2"))]
    p7_case("n19-digest-not-listed.der", "0", "N19",
            "the signer's digest (sha256) not among digestAlgorithms (sha384); the verifier decides", n19)


def n30_exponents():
    """Issue 22 item 3: RSA keys whose exponent would make each check cost up
    to 2 multiplications per bit of it (about 180 ms with an 8192-bit key):
    past vouch's bound, e < 2^33 (VOUCH_RSA_MAX_E_BITS), they are
    unsupported, like a key size."""
    def spki_with_e(e_of):
        s = tree(RSA2048_SPKI)
        key = parse(s[1].content[1:])         # the BIT STRING's RSAPublicKey
        n = int.from_bytes(key[0].content, "big")
        key[1] = integer(e_of(n))
        s[1] = tlv(0x03, b"\x00" + key.enc())
        return s
    case("n30-spki-rsa-e-n-minus-2.der", "spki", "ENOPKG", "N30",
         "RSA-2048 with e = n - 2, the largest odd e below n (accepted before the exponent bound)",
         spki_with_e(lambda n: n - 2))
    case("n30-spki-rsa-e-2-33-plus-1.der", "spki", "ENOPKG", "N30",
         "RSA-2048 with e = 2^33 + 1, the smallest odd e past the bound",
         spki_with_e(lambda n: 2**33 + 1))
    case("n30-spki-rsa-e-2-33-minus-1.der", "spki", "0", "N30",
         "control: RSA-2048 with e = 2^33 - 1, the largest e within the bound",
         spki_with_e(lambda n: 2**33 - 1))
# ---- Issue 22 item 6: attributes that must be signed, in the unsigned set ----

OID_COUNTERSIGNATURE = "1.2.840.113549.1.9.6"


def unsigned_attr_cases():
    """RFC 5652 §11.1-11.3: contentType, messageDigest and signingTime MUST
    be signed attributes; §11.4: a countersignature MUST NOT be. The
    unsigned ones are added to a validly signed message, so the signature
    still verifies: only their type says that nothing vouches for them.
    OpenSSL's test/recipes/80-test_cms_data/bad_signtime_attr.cms is of
    this kind (a signingTime outside the signed set)."""
    def unsigned(*attrs):
        def edit(m):
            signer_of(m).kids.append(cons(0xA1, *attrs))
        return edit

    later = tlv(0x17, b"490101000000Z")                   # UTCTime 2049-01-01
    p7_case("i22-unsigned-signing-time.der", "EBADMSG", "N13 i22.6",
            "signingTime as an unsigned attribute (as bad_signtime_attr.cms), signed set intact",
            unsigned(attr(OID_SIGNING_TIME, later)), base=DETACHED)
    p7_case("i22-unsigned-content-type.der", "EBADMSG", "i22.6",
            "contentType as an unsigned attribute, signed set intact",
            unsigned(attr(OID_CONTENT_TYPE, oid(OID_DATA))), base=DETACHED)
    p7_case("i22-unsigned-message-digest.der", "EBADMSG", "i22.6",
            "messageDigest as an unsigned attribute, signed set intact",
            unsigned(attr(OID_MESSAGE_DIGEST, tlv(0x04, bytes(32)))), base=DETACHED)
    p7_case("i22-unsigned-digest-no-signed.der", "EBADMSG", "i22.6",
            "contentType and messageDigest unsigned, on a signer without signedAttrs",
            unsigned(attr(OID_CONTENT_TYPE, oid(OID_DATA)),
                     attr(OID_MESSAGE_DIGEST, tlv(0x04, bytes(32)))))

    def ber_unsigned(m):
        inner = attr(OID_SIGNING_TIME, later)
        body = b"\x30\x80" + b"".join(k.enc() for k in inner.kids) + b"\x00\x00"
        signer_of(m).kids.append(raw(b"\xa1\x80" + body + b"\x00\x00"))
    p7_case("i22-unsigned-signing-time-indef.der", "EBADMSG", "i22.6",
            "the same in BER: indefinite-length unsignedAttrs and Attribute",
            ber_unsigned, base=DETACHED)
    p7_case("i22-unsigned-countersignature.der", "0", "i22.6",
            "an unsigned countersignature (where it belongs): parses, signature intact",
            unsigned(attr(OID_COUNTERSIGNATURE, seq())), base=DETACHED)
    p7_case("i22-unsigned-empty.der", "EBADMSG", "i22.6",
            "unsignedAttrs [1] {}: SET SIZE (1..MAX)", unsigned(), base=DETACHED)
    p7_case("i22-unsigned-not-attribute.der", "EBADMSG", "i22.6",
            "an unsigned attribute that is an INTEGER, not an Attribute",
            unsigned(integer(1)), base=DETACHED)

    def signed_countersignature(m):
        attrs_of(signer_of(m)).kids.append(attr(OID_COUNTERSIGNATURE, seq()))
    p7_case("i22-signed-countersignature.der", "EBADMSG", "i22.6",
            "a countersignature among the signed attributes (RFC 5652 §11.4)",
            signed_countersignature, base=DETACHED)


def write():
    seen = {}
    for name, _, _, _, _, data in CASES:
        if data is None:
            continue
        assert name not in seen, name
        seen[name] = data
    for name in os.listdir(HERE):
        if name != os.path.basename(__file__) and name not in seen:
            os.remove(os.path.join(HERE, name))
    for name, data in seen.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    width = max(len(c[0]) for c in CASES)
    lines = [
        "# The malformed corpus: tests/data/malformed/FILE through PARSER must return",
        "# EXPECTED (0 or the errno's name). REF is the row (rowN) or checklist case (NN)",
        "# of docs/malformed.md. Written by tests/data/malformed/gen-malformed.py;",
        "# read by tests/test_malformed.c. Rows naming \"the verifier\" are inputs the",
        "# parser accepts and the verifier must refuse.",
        "#",
        "# %-*s  %-6s  %-7s  %-10s  %s" % (width - 2, "file", "parser", "expect", "ref",
                                          "description"),
    ]
    for name, parser, expected, ref, desc, _ in CASES:
        lines.append("%-*s  %-6s  %-7s  %-10s  %s" % (width, name, parser, expected,
                                                     ref.replace(" ", ","), desc))
    with open(TABLE, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d files, %d rows" % (len(seen), len(CASES)), file=sys.stderr)


def main():
    controls()
    row1_length_overflow()
    row2_missing_fields()
    row2_name_structure()
    row3_truncated_headers()
    row4_end_of_structure()
    row5_no_content_no_signers()
    row10_absent_content()
    rows12_13_pss()
    row15_choices()
    row16_depth()
    row17_tags_and_integers()
    row18_huge_lengths()
    row19_malleability()
    n20_algorithms()
    sha3_and_ed25519()
    mldsa()
    row22_optional()
    row23_n25_oids()
    row27_extensions()
    row27_crl_dp()
    row28_later_signer()
    row29_curves()
    n1_outer()
    n4_versions()
    n5_sid_versions()
    signed_attr_cases()
    n26_lengths()
    n27_trailing()
    n28_serials()
    n30_counts()
    n33_modules()
    verify_level()
    n30_exponents()
    unsigned_attr_cases()
    write()


if __name__ == "__main__":
    main()
