#!/usr/bin/env python3
"""Write edited copies of a signed PE image (its first certificate-table
entry's SignedData re-encoded, the certificate table rebuilt):

    gen-edited.py dup-statement IN.efi OUT.efi
        the first signer carries its SpcStatementType signed attribute
        (1.3.6.1.4.1.311.2.1.11) twice; the signature no longer matches, and the
        verifier must refuse the repeated attribute first, as the kernel's
        parser does (tests/data/pe: os-sha384-p256-x64.efi -> dup-statement-x64.efi)
    gen-edited.py many-hashes IN.efi OUT.efi
        eight entries, copies of the first, whose SpcIndirectDataContent names
        eight different hashes other than SHA-256, each with a digest of its
        length (signatures broken): the verifier digests the image once per
        hash (os-sha384-p256-x64.efi -> many-hashes-x64.efi)
"""
import struct
import sys

STATEMENT_TYPE = bytes([0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x0b])


def header(b, i):
    """(tag, header length, content length) of the DER element at b[i]."""
    tag, n = b[i], b[i + 1]
    if n < 0x80:
        return tag, 2, n
    k = n & 0x7f
    return tag, 2 + k, int.from_bytes(b[i + 2:i + 2 + k], 'big')


def children(b, i):
    tag, h, n = header(b, i)
    out, j = [], i + h
    while j < i + h + n:
        _, ch, cn = header(b, j)
        out.append(b[j:j + ch + cn])
        j += ch + cn
    return tag, out


def encode(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    body = n.to_bytes((n.bit_length() + 7) // 8, 'big')
    return bytes([tag, 0x80 | len(body)]) + body + content


def rebuild(b, path, edit):
    """Apply edit to the list of children at path (child indices from b's root)."""
    tag, kids = children(b, 0)
    if not path:
        return encode(tag, b''.join(edit(kids)))
    kids[path[0]] = rebuild(kids[path[0]], path[1:], edit)
    return encode(tag, b''.join(kids))


def dup_statement(attrs):
    first = next(a for a in attrs if a[2:2 + len(STATEMENT_TYPE)] == STATEMENT_TYPE)
    return attrs + [first]


# NIST hash OIDs 2.16.840.1.101.3.4.2.n and SHA-1's, with their digest lengths.
HASHES = [(bytes.fromhex('2b0e03021a'), 20)] + [
    (bytes.fromhex('6086480165030402') + bytes([n]), size)
    for n, size in ((4, 28), (2, 48), (3, 64), (5, 28), (6, 32), (7, 28), (9, 48))]


def digest_info(oid, size):
    alg = encode(0x30, encode(0x06, oid) + encode(0x05, b''))
    return lambda kids: [alg, encode(0x04, b'\x5a' * size)]


def main():
    mode, src, dst = sys.argv[1:4]
    img = open(src, 'rb').read()
    pe = struct.unpack_from('<I', img, 0x3c)[0]
    dirent = pe + 24 + 112 + 4 * 8          # PE32+: the certificate table's entry
    off, _ = struct.unpack_from('<II', img, dirent)
    length, rev, typ = struct.unpack_from('<IHH', img, off)
    sig = img[off + 8:off + length]
    der = sig[:sum(header(sig, 0)[1:])]
    _, ci = children(der, 0)
    _, sd = children(ci[1], 0)
    _, signed = children(sd[0], 0)
    if mode == 'dup-statement':
        # ContentInfo[1]=[0] -> SignedData -> signerInfos (last) -> SignerInfo 0 -> [0] attrs (3)
        messages = [rebuild(der, [1, 0, len(signed) - 1, 0, 3], dup_statement)]
    else:
        # ContentInfo[1] -> SignedData -> encapContentInfo (2) -> [0] (1) ->
        # SpcIndirectDataContent -> messageDigest (1)
        messages = [rebuild(der, [1, 0, 2, 1, 0, 1], digest_info(oid, size))
                    for oid, size in HASHES]
    table = b''
    for new in messages:
        entry = struct.pack('<IHH', 8 + len(new), rev, typ) + new
        table += entry + b'\0' * (-len(entry) % 8)
    out = bytearray(img[:off] + table)
    struct.pack_into('<II', out, dirent, off, len(table))
    open(dst, 'wb').write(out)


main()
