#!/usr/bin/env python3
"""Make CMS/PKCS#7 SignedData cases with the OpenSSL and GnuTLS CLIs, and their manifest.

    gen-cms.py [--seed N] [--subset all|committed] OUTDIR

Into OUTDIR: a small PKI (root CA, intermediate CA, signers; fresh random
keys on every run, thrown away afterwards), the signed messages, their
corruptions, and manifest.tsv, one case a line:

    name  kind  corruption  expect  pkcs7verify-args  oracle-args  oracle

Arguments are space-separated, paths relative to OUTDIR. The oracle is the
other verifier a verdict is compared with: `openssl`, whose arguments follow
`openssl cms -verify -binary -purpose any -partial_chain -no_check_time`
(`@sig:FILE` and `@body:FILE` stand for the PKCS#7 and the body of a
module-style FILE, split by the reader, tests/check_cms.py); or `gnutls`,
whose arguments follow `certtool --p7-verify`. OpenSSL 3.0's CMS neither
signs nor verifies Ed25519 (RFC 8419) and does not sign ECDSA over SHA-3:
those messages are signed, and the Ed25519 ones checked, by GnuTLS's
certtool. expect is a verdict category of pkcs7verify (CATEGORY_EXIT in
check_cms.py).

The structure is fixed; Python's choices (the content, which bytes are
corrupted) come from --seed, so a seed and fresh keys reproduce a run up to
the key material. `committed` is the subset kept in tests/data/cms: every
kind and every corruption once.
"""
import argparse
import base64
import calendar
import hashlib
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

CNF = """\
[req]
distinguished_name = dn
[dn]
[ca]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""

# name, key, issuer (None: self-signed), extensions, x509 signing options.
PKI = [
    ('root', 'rsa:2048', None, 'ca', []),
    ('int', 'ec:P-384', 'root', 'ca', []),
    ('rsa2048', 'rsa:2048', 'int', 'leaf', ['-sha384']),
    ('rsa3072', 'rsa:3072', 'int', 'leaf', ['-sha384']),
    ('rsa4096', 'rsa:4096', 'int', 'leaf', ['-sha384']),
    ('p256', 'ec:P-256', 'int', 'leaf', ['-sha384']),
    ('p384', 'ec:P-384', 'int', 'leaf', ['-sha384']),
    ('leaf2', 'rsa:2048', 'root', 'leaf', []),
    ('leaf2pss', 'ec:P-256', 'root', 'leaf',
     ['-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:32']),
    # Chains mixing algorithms: an Ed25519 signer under the RSA root, an
    # Ed25519 CA signing a P-256 leaf; certificates signed over SHA-3.
    ('ed', 'ed25519', 'root', 'leaf', []),
    ('edca', 'ed25519', 'root', 'ca', []),
    ('p256ed', 'ec:P-256', 'edca', 'leaf', []),
    ('rsa2048s3', 'rsa:2048', 'root', 'leaf', ['-sha3-256']),
    ('p256s3', 'ec:P-256', 'int', 'leaf', ['-sha3-384']),
    ('self', 'ec:P-256', None, 'leaf', []),
    ('selfrsa', 'rsa:2048', None, 'leaf', []),
    ('other', 'ec:P-256', None, 'ca', []),
]
CHAIN3 = ('rsa2048', 'rsa3072', 'rsa4096', 'p256', 'p384')

MODULE_MARKER = b'~Module signature appended~\n'
SIGNING_TIME_OID = bytes.fromhex('06092a864886f70d010905')


def run_tool(tool, *args):
    p = subprocess.run((tool,) + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode:
        raise RuntimeError('%s %s: %s' % (tool, ' '.join(args), p.stderr.strip()))


def openssl(*args):
    run_tool('openssl', *args)


def make_pki(out, keys):
    """Keys in parallel (RSA-4096 is the slow one), then the certificates in order."""
    def genkey(entry):
        name, spec = entry[0], entry[1]
        alg, _, param = spec.partition(':')
        opt = ['-pkeyopt', 'rsa_keygen_bits:' + param] if alg == 'rsa' \
            else ['-pkeyopt', 'ec_paramgen_curve:' + param] if alg == 'ec' else []
        openssl('genpkey', '-algorithm', alg.upper(), *opt,
                '-out', os.path.join(keys, name + '.key'))
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        list(pool.map(genkey, PKI))
    cnf = os.path.join(keys, 'x509.cnf')
    with open(cnf, 'w') as f:
        f.write(CNF)
    for serial, (name, _, issuer, ext, sigopts) in enumerate(PKI, 1):
        key, cert = os.path.join(keys, name + '.key'), os.path.join(out, name + '.pem')
        subj = '/O=vouch interop/CN=%s' % name
        common = ['-days', '3650', '-set_serial', str(serial), '-out', cert]
        if issuer is None:
            openssl('req', '-new', '-x509', '-key', key, '-subj', subj, '-config', cnf,
                    '-extensions', ext, *common)
            continue
        csr = os.path.join(keys, name + '.csr')
        openssl('req', '-new', '-key', key, '-subj', subj, '-config', cnf, '-out', csr)
        openssl('x509', '-req', '-in', csr, '-CA', os.path.join(out, issuer + '.pem'),
                '-CAkey', os.path.join(keys, issuer + '.key'), '-extfile', cnf,
                '-extensions', ext, *sigopts, *common)
    # Files of several certificates for --certs / -certfile: a signer and
    # its intermediate; the intermediate and the root (the whole chain in a message).
    bundles = [('chain-%s.pem' % name, (name, 'int')) for name in ('rsa2048', 'p256')]
    bundles.append(('chain-p256ed.pem', ('p256ed', 'edca')))
    for bundle, parts in bundles + [('int-root.pem', ('int', 'root'))]:
        with open(os.path.join(out, bundle), 'w') as f:
            for part in parts:
                f.write(open(os.path.join(out, part + '.pem')).read())


# ---- The cases ----

class Case:
    """One message to sign: who signs, how, and what a verifier is given."""

    def __init__(self, name, kind, signers, md='sha256', flags=(), trust='root',
                 certs=None, form='DER', detached=True, content='content.bin',
                 module=False, expect='accepted', vouch_extra=(), tool='openssl',
                 oracle='openssl', chunked=False):
        self.name, self.kind, self.signers, self.md = name, kind, signers, md
        # Who signs (openssl cms -sign or certtool --p7-sign) and who checks.
        self.tool, self.oracle = tool, oracle
        # Attached content re-encoded as BER chunks after signing (chunk_content).
        self.chunked = chunked
        self.flags, self.trust, self.certs, self.form = list(flags), trust, certs, form
        self.detached, self.content, self.module = detached and not module, content, module
        self.expect, self.vouch_extra = expect, list(vouch_extra)
        # OpenSSL finds signer certificates only in the message and -certfile,
        # never in -CAfile: a trusted signer left out of the message is given
        # to it as -certfile as well (vouch, as the kernel, looks in the keyring).
        self.openssl_certs = certs or (trust + '.pem' if '-nocerts' in self.flags else None)

    @property
    def signer_certs_in_message(self):
        return '-nocerts' not in self.flags

    @property
    def has_attrs(self):
        if self.tool == 'gnutls':
            return '-p7-time' in self.flags
        return not self.module and '-noattr' not in self.flags

    @property
    def ext(self):
        return '.ko' if self.module else '.pem' if self.form == 'PEM' else '.der'


def signer(name, pss=False, saltlen=None):
    opts = ['-keyopt', 'rsa_padding_mode:pss'] if pss else []
    if saltlen is not None:
        opts += ['-keyopt', 'rsa_pss_saltlen:%d' % saltlen]
    return (name, opts)


def all_cases():
    cases = []
    # Every signer key and digest: chains of 3, detached DER with attributes.
    for key in CHAIN3:
        pss_variants = (False, True) if key.startswith('rsa') else (False,)
        for pss in pss_variants:
            for md in ('sha256', 'sha384', 'sha512'):
                tag = key + ('-pss' if pss else '')
                cases.append(Case('alg-%s-%s' % (tag, md), 'alg', [signer(key, pss)], md=md,
                                  flags=['-certfile', 'int.pem']))
            cases.append(Case('noattr-%s' % tag, 'noattr', [signer(key, pss)],
                              flags=['-noattr', '-certfile', 'int.pem']))
    cases.append(Case('alg-rsa2048-pss32-sha256', 'alg', [signer('rsa2048', True, 32)],
                      flags=['-certfile', 'int.pem']))
    cases += sha3_cases() + ed25519_cases()
    for key in ('rsa2048', 'p256'):
        cases += [
            Case('keyid-' + key, 'keyid', [signer(key)], flags=['-keyid', '-certfile', 'int.pem']),
            Case('keyid-noattr-' + key, 'keyid', [signer(key)],
                 flags=['-keyid', '-noattr', '-certfile', 'int.pem']),
            # The signer certificate given apart, the intermediate in the message;
            # and both apart.
            Case('nocerts-' + key, 'nocerts', [signer(key)], flags=['-nocerts', '-certfile', 'int.pem'],
                 certs=key + '.pem'),
            Case('nocerts-chain-' + key, 'nocerts', [signer(key)], flags=['-nocerts'],
                 certs='chain-%s.pem' % key),
            Case('attached-der-' + key, 'attached', [signer(key)], detached=False,
                 flags=['-certfile', 'int.pem']),
            Case('attached-pem-' + key, 'attached', [signer(key)], detached=False, form='PEM',
                 flags=['-certfile', 'int.pem']),
            Case('detached-pem-' + key, 'pem', [signer(key)], form='PEM',
                 flags=['-certfile', 'int.pem']),
            Case('stream-ber-' + key, 'stream', [signer(key)], detached=False,
                 content='big.bin', flags=['-stream', '-certfile', 'int.pem']),
            Case('stream-pem-' + key, 'stream', [signer(key)], detached=False, form='PEM',
                 content='big.bin', flags=['-stream', '-certfile', 'int.pem']),
            Case('untrusted-' + key, 'untrusted', [signer(key)], trust='other',
                 flags=['-certfile', 'int.pem'], expect='no-trusted-key'),
            Case('trust-int-' + key, 'partial', [signer(key)], trust='int',
                 flags=['-certfile', 'int.pem']),
        ]
    for key in ('self', 'selfrsa'):
        cases += [
            Case('chain1-' + key, 'chain1', [signer(key)], trust=key),
            Case('chain1-nocerts-' + key, 'chain1', [signer(key)], trust=key,
                 flags=['-nocerts']),
        ]
    cases += [
        Case('chain2-leaf2', 'chain2', [signer('leaf2')]),
        Case('chain2-pss-cert', 'chain2', [signer('leaf2pss')]),
        Case('chain3-attached-p384', 'chain3', [signer('p384')], detached=False, md='sha384',
             flags=['-certfile', 'int-root.pem']),
        Case('two-signers', 'two-signers', [signer('rsa2048'), signer('p256')],
             flags=['-certfile', 'int.pem']),
        Case('two-signers-one-untrusted', 'one-untrusted', [signer('p256'), signer('self')],
             flags=['-certfile', 'int.pem']),
        Case('sha1-p256', 'sha1', [signer('p256')], md='sha1', flags=['-certfile', 'int.pem'],
             expect='unsupported'),
        Case('sha1-allowed-p256', 'sha1', [signer('p256')], md='sha1',
             flags=['-certfile', 'int.pem'], vouch_extra=['--allow-sha1']),
        Case('module-leaf2', 'module', [signer('leaf2')], module=True),
        Case('module-nocerts-self', 'module', [signer('self')], module=True, trust='self',
             flags=['-nocerts']),
        Case('module-rsa4096', 'module', [signer('rsa4096')], module=True,
             flags=['-certfile', 'int.pem']),
    ]
    return cases


def sha3_cases():
    """SHA-3 digests (FIPS 202) with every signer kind: PKCS#1 v1.5 by
    OpenSSL (it writes rsaEncryption as the signature algorithm), ECDSA by
    GnuTLS (id-ecdsa-with-sha3-*: OpenSSL 3.0's CMS cannot sign it, but
    verifies it); modules signed as scripts/sign-file does with a SHA-3
    hash; signers whose certificates are signed over SHA-3."""
    cases = []
    for md in ('sha3-256', 'sha3-384', 'sha3-512'):
        for key in ('rsa2048', 'rsa3072'):
            cases.append(Case('sha3-%s-%s' % (key, md), 'sha3', [signer(key)], md=md,
                              flags=['-certfile', 'int.pem']))
        for key in ('p256', 'p384'):
            cases.append(Case('sha3-%s-%s' % (key, md), 'sha3', [signer(key)], md=md,
                              tool='gnutls', flags=['-p7-time'], trust='int'))
        cases.append(Case('module-sha3-%s' % md, 'module', [signer('leaf2')], md=md,
                          module=True))
    cases += [
        Case('sha3-noattr-rsa2048', 'sha3', [signer('rsa2048')], md='sha3-256',
             flags=['-noattr', '-certfile', 'int.pem']),
        Case('sha3-noattr-p256', 'sha3', [signer('p256')], md='sha3-384', tool='gnutls',
             trust='int'),
        Case('sha3-cert-rsa', 'sha3-cert', [signer('rsa2048s3')], md='sha3-512'),
        # OpenSSL 3.0 does not match an ecdsa-with-SHA3 certificate to its
        # issuer (its signature algorithm has no key type there): GnuTLS judges.
        Case('sha3-cert-p256', 'sha3-cert', [signer('p256s3')], flags=['-certfile', 'int.pem'],
             oracle='gnutls'),
    ]
    return cases


def ed25519_cases():
    """Ed25519 signers (RFC 8419), by GnuTLS: with signed attributes (the
    signature over their DER, SHA-512 the digest) and without (over the
    content), detached and attached; and an Ed25519 CA in an OpenSSL
    message's chain."""
    cases = []
    for attrs in (True, False):
        tag = 'attr' if attrs else 'noattr'
        flags = ['-p7-time'] if attrs else []
        for detached in (True, False):
            cases.append(Case('ed25519-%s-%s' % (tag, 'detached' if detached else 'attached'),
                              'ed25519', [signer('ed')], md='sha512', tool='gnutls',
                              oracle='gnutls', flags=flags, detached=detached))
    cases += [
        Case('ed25519-big-attached', 'ed25519', [signer('ed')], md='sha512', tool='gnutls',
             oracle='gnutls', detached=False, content='big.bin'),
        # The content in BER chunks: an Ed25519 signature over the content
        # itself must see the chunks' bytes joined, in order.
        Case('ed25519-noattr-chunked', 'ed25519', [signer('ed')], md='sha512', tool='gnutls',
             oracle='gnutls', detached=False, content='big.bin', chunked=True),
        Case('ed25519-ca-p256', 'ed25519-ca', [signer('p256ed')],
             flags=['-certfile', 'edca.pem']),
        Case('ed25519-untrusted', 'ed25519', [signer('ed')], md='sha512', tool='gnutls',
             oracle='gnutls', trust='other', expect='no-trusted-key', flags=['-p7-time']),
    ]
    return cases


# ---- Signing ----

def sign_gnutls(case, out, keys, path):
    """certtool --p7-sign: signed attributes only with -p7-time (signingTime)."""
    (name, _), = case.signers
    args = ['--p7-detached-sign' if case.detached else '--p7-sign', '--outder',
            '--load-privkey', os.path.join(keys, name + '.key'),
            '--load-certificate', os.path.join(out, name + '.pem'),
            '--infile', os.path.join(out, case.content), '--outfile', path]
    if case.md != 'sha512' or not name.startswith('ed'):
        args += ['--hash', case.md.upper()]
    if '-p7-time' in case.flags:
        args.append('--p7-time')
    run_tool('certtool', *args)
    if case.chunked:
        with open(path, 'rb') as f:
            der = f.read()
        with open(path, 'wb') as f:
            f.write(chunk_content(der))


def sign(case, out, keys, path):
    if case.tool == 'gnutls':
        return sign_gnutls(case, out, keys, path)
    args = ['cms', '-sign', '-binary', '-nosmimecap', '-md', case.md,
            '-in', os.path.join(out, case.content), '-out', path]
    for name, opts in case.signers:
        args += ['-signer', os.path.join(out, name + '.pem'),
                 '-inkey', os.path.join(keys, name + '.key')] + opts
    flags = [os.path.join(out, f) if f.endswith('.pem') else f for f in case.flags]
    if case.module:
        # scripts/sign-file: DER, no signed attributes, content detached.
        args += ['-noattr', '-outform', 'DER'] + [f for f in flags if f != '-noattr']
    else:
        args += ['-outform', case.form] + flags + ([] if case.detached else ['-nodetach'])
    openssl(*args)
    if case.module:
        sig = open(path, 'rb').read()
        body = open(os.path.join(out, case.content), 'rb').read()
        with open(path, 'wb') as f:
            f.write(body + sig + module_trailer(len(sig)))


def module_trailer(sig_len):
    # struct module_signature: algo, hash, id_type=PKEY_ID_PKCS7, signer_len,
    # key_id_len, pad[3], be32 sig_len; then the marker.
    return struct.pack('>BBBBB3xI', 0, 0, 2, 0, 0, sig_len) + MODULE_MARKER


# ---- Reading what was signed: enough BER to find the bytes to corrupt ----

def tlv(buf, off):
    """(content offset, end offset) of the element at off; BER indefinite lengths too."""
    n = buf[off + 1]
    hdr = off + 2
    if n == 0x80:
        pos = hdr
        while buf[pos:pos + 2] != b'\0\0':
            pos = tlv(buf, pos)[1]
        return hdr, pos + 2
    if n < 0x80:
        return hdr, hdr + n
    k = n & 0x7f
    return hdr + k, hdr + k + int.from_bytes(buf[hdr:hdr + k], 'big')


def children(buf, off):
    start, end = tlv(buf, off)
    if buf[off + 1] == 0x80:
        end -= 2
    out = []
    while start < end:
        out.append(start)
        start = tlv(buf, start)[1]
    return out


def signed_data(der):
    return children(der, children(der, children(der, 0)[1])[0])


def first_signer_info(der):
    return children(der, signed_data(der)[-1])[0]


def signature_value(der):
    """(start, end) of the first signer's signature octets."""
    for c in children(der, first_signer_info(der))[3:]:
        if der[c] == 0x04:
            return tlv(der, c)
    raise ValueError('no signature')


def content_octets(der):
    """(start, end) of the first primitive chunk of the attached content."""
    encap = children(der, signed_data(der)[2])
    pos = children(der, encap[1])[0]
    while der[pos] & 0x20:          # constructed OCTET STRING: its first chunk
        pos = children(der, pos)[0]
    return tlv(der, pos)


def signing_time_digit(der):
    """The offset of the last seconds digit of signingTime."""
    attrs = children(der, first_signer_info(der))[3]
    start, end = tlv(der, attrs)
    at = der.index(SIGNING_TIME_OID, start, end)
    time = children(der, children(der, at - 2)[1])[0]    # SEQ { OID, SET { Time } }
    return tlv(der, time)[1] - 2                          # ...ssZ


def chunk_content(der, size=1000):
    """The same message with its attached content as a constructed OCTET
    STRING of size-byte chunks, every element on the way to it of
    indefinite length (BER, as `cms -stream` writes): the signed bytes are
    unchanged."""
    def indefinite(off, index, replacement):
        """The element at off, of indefinite length, its child index replaced."""
        kids = [replacement if i == index else der[c:tlv(der, c)[1]]
                for i, c in enumerate(children(der, off))]
        return bytes([der[off]]) + b'\x80' + b''.join(kids) + b'\0\0'
    # ContentInfo > [0] > SignedData > encapContentInfo > [0] > OCTET STRING
    offs = [0]
    for index in (1, 0, 2, 1, 0):
        offs.append(children(der, offs[-1])[index])
    start, end = tlv(der, offs[-1])
    body = der[start:end]
    element = b'\x24\x80' + b''.join(
        b'\x04\x82' + len(body[i:i + size]).to_bytes(2, 'big') + body[i:i + size]
        for i in range(0, len(body), size)) + b'\0\0'
    for off, index in zip(reversed(offs[:-1]), (0, 1, 2, 0, 1)):
        element = indefinite(off, index, element)
    return element


# ---- Corruptions ----

def pem_decode(data):
    lines = data.decode().split('\n')
    return lines[0], base64.b64decode(''.join(lines[1:-2]))


def pem_encode(label, der):
    b64 = base64.encodebytes(der).decode()
    return ('%s\n%s%s\n' % (label, b64, label.replace('BEGIN', 'END'))).encode()


def split_module(data):
    sig_len = struct.unpack('>I', data[-len(MODULE_MARKER) - 4:-len(MODULE_MARKER)])[0]
    end = len(data) - len(MODULE_MARKER) - 12
    return data[:end - sig_len], data[end - sig_len:end]


def flip(data, pos, mask=1):
    return data[:pos] + bytes([data[pos] ^ mask]) + data[pos + 1:]


def corruptions(case, out, rng):
    """(corruption, expected category, function of the message's DER -> corrupted,
    [extra pkcs7verify arguments])."""
    def middle(span):
        return rng.randrange(span[0], span[1])
    found = []
    if not case.detached:
        found.append(('content', 'rejected-signature', lambda d: flip(d, middle(content_octets(d)))))
    # A bit of the last 16 bytes: inside the value of an RSA signature, inside
    # s of an ECDSA one (a flip of its DER structure would be 'malformed').
    found.append(('sig', 'rejected-signature',
                  lambda d: flip(d, signature_value(d)[1] - 1 - rng.randrange(16),
                                 1 << rng.randrange(8))))
    if case.has_attrs:
        found.append(('attr', 'rejected-signature', lambda d: flip(d, signing_time_digit(d))))
    if case.signer_certs_in_message:
        cert = pem_decode(open(os.path.join(out, case.signers[0][0] + '.pem'), 'rb').read())[1]
        # The certificate's last byte: its signatureValue. A trusted signer is
        # trusted by its key: vouch, as the kernel, never checks its signature.
        expect = 'accepted' if case.kind == 'chain1' else 'rejected-signature'
        found.append(('cert', expect, lambda d: flip(d, d.index(cert) + len(cert) - 1)))
        if case.kind == 'chain1':
            found += trusted_copy_corruptions(case, out, cert)
    found.append(('trunc', 'malformed', lambda d: d[:rng.randrange(len(d) // 4, len(d) * 3 // 4)]))
    return found


def cert_fields(cert):
    """Offsets of a certificate's TBS and of its notBefore and notAfter."""
    tbs = children(cert, 0)[0]
    fields = children(cert, tbs)
    validity = fields[4] if cert[fields[0]] == 0xa0 else fields[3]
    return tbs, children(cert, validity)


def utc_time(cert, at):
    start, end = tlv(cert, at)
    assert cert[at] == 0x17, 'UTCTime expected'
    return calendar.timegm(time.strptime(cert[start:end].decode(), '%y%m%d%H%M%SZ'))


def trusted_copy_corruptions(case, out, cert):
    """A key-trusted signer's certificate is judged by the keyring's copy.

    The message's copy is changed where its unchecked signature would let
    anyone change it: a notAfter digit (its TBS hash is then no longer the
    deny list's) and the notBefore decade (valid ten years earlier)."""
    tbs, (not_before, not_after) = cert_fields(cert)
    end = tlv(cert, tbs)[1]
    deny = 'deny-%s.txt' % case.signers[0][0]
    with open(os.path.join(out, deny), 'w') as f:
        f.write('tbs:%s\n' % hashlib.sha256(cert[tbs:end]).hexdigest())

    def edit(pos, value):
        def how(d):             # the byte at pos of the message's copy
            at = d.index(cert) + pos
            return d[:at] + bytes([value]) + d[at + 1:]
        return how
    year_tens = tlv(cert, not_before)[0]
    assert cert[year_tens] > ord('0'), 'notBefore in the 2000s expected'
    seconds = tlv(cert, not_after)[1] - 2
    before = utc_time(cert, not_before) - 2 * 365 * 86400
    return [('cert-deny', 'rejected-denied', edit(seconds, cert[seconds] ^ 1), ['--deny=' + deny]),
            ('cert-time', 'rejected-expired', edit(year_tens, cert[year_tens] - 1),
             ['--check-time=@%d' % before])]


def corrupt_file(case, data, how):
    """Apply how to the DER inside a signature file of the case's form."""
    if case.module:
        body, sig = split_module(data)
        return body + how(sig) + module_trailer(len(sig))
    if case.form == 'PEM':
        label, der = pem_decode(data)
        return pem_encode(label, how(der))
    return how(data)


def module_corruptions(rng):
    """Corruptions of the module file itself (body, trailer)."""
    def body(d):
        b, s = split_module(d)
        return flip(b, rng.randrange(len(b))) + s + module_trailer(len(s))

    def sig_len(d):
        b, s = split_module(d)
        return b + s + module_trailer(len(s) + 1)
    return [('content', 'rejected-signature', body),
            # the marker gone: an unsigned module, refused by policy
            ('trunc-marker', 'rejected-policy', lambda d: d[:-1]),
            ('sig-len', 'malformed', sig_len)]


# ---- The manifest ----

def gnutls_args(case, sig, content):
    o = ['--p7-verify', '--inder', '--infile', sig, '--load-ca-certificate', case.trust + '.pem']
    if case.detached:
        o += ['--load-data', content]
    return o


def verifier_args(case, sig, content, extra):
    v = ['--trust=%s.pem' % case.trust] + case.vouch_extra + extra
    o = ['-CAfile', case.trust + '.pem']
    if case.oracle == 'gnutls':
        v += ['--content=' + content] if case.detached else []
        return v + [sig], gnutls_args(case, sig, content)
    if case.certs:
        v.append('--certs=' + case.certs)
    if case.openssl_certs:
        o += ['-certfile', case.openssl_certs]
    if case.module:
        v += ['--module', sig]
        o += ['-inform', 'DER', '-in', '@sig:' + sig, '-content', '@body:' + sig]
        return v, o
    if case.detached:
        v.append('--content=' + content)
        o += ['-content', content]
    v.append(sig)
    o += ['-inform', 'PEM' if case.form == 'PEM' else 'DER', '-in', sig]
    return v, o


def row(case, corruption, expect, sig, content, extra=()):
    v, o = verifier_args(case, sig, content, list(extra))
    return '\t'.join([case.name + ('' if corruption == 'none' else '.' + corruption),
                      case.kind, corruption, expect, ' '.join(v), ' '.join(o), case.oracle])


def build(case, out, keys, rng, subset):
    """Sign one case, write its corruptions; the manifest rows."""
    sig = case.name + case.ext
    sign(case, out, keys, os.path.join(out, sig))
    rows = [row(case, 'none', case.expect, sig, case.content)]
    if case.expect != 'accepted':
        return rows             # corrupted, they would say the same or less
    data = open(os.path.join(out, sig), 'rb').read()
    todo = [(c, e, lambda d, how=how: corrupt_file(case, d, how), *extra)
            for c, e, how, *extra in corruptions(case, out, rng)]
    if case.module:
        todo = [t for t in todo if t[0] not in ('content', 'trunc')] + module_corruptions(rng)
    for corruption, expect, how, *extra in todo:
        name = '%s.%s' % (case.name, corruption)
        if subset is not None and name not in subset:
            continue
        with open(os.path.join(out, name + case.ext), 'wb') as f:
            f.write(how(data))
        rows.append(row(case, corruption, expect, name + case.ext, case.content, *extra))
    if case.detached and (subset is None or case.name + '.content' in subset):
        # Detached: the content the verifier is given, one byte changed.
        body = open(os.path.join(out, case.content), 'rb').read()
        bad = case.name + '.content.bin'
        with open(os.path.join(out, bad), 'wb') as f:
            f.write(flip(body, rng.randrange(len(body))))
        rows.append(row(case, 'content', 'rejected-signature', sig, bad))
    return rows


# The committed subset: every kind uncorrupted, each corruption of a few
# representative messages (tests/data/cms stays small).
COMMITTED = {
    'alg-rsa2048-sha256', 'alg-rsa3072-pss-sha384', 'alg-rsa4096-sha512', 'alg-p256-sha256',
    'alg-p384-sha384', 'alg-p384-sha512', 'alg-rsa2048-pss32-sha256', 'noattr-rsa2048-pss',
    'noattr-p256', 'keyid-p256', 'keyid-noattr-rsa2048', 'nocerts-p256', 'attached-der-rsa2048',
    'attached-pem-p256', 'detached-pem-rsa2048', 'stream-ber-rsa2048', 'stream-pem-p256',
    'untrusted-p256', 'trust-int-rsa2048', 'chain1-self', 'chain1-nocerts-selfrsa',
    'chain2-leaf2', 'chain2-pss-cert', 'chain3-attached-p384', 'two-signers',
    'two-signers-one-untrusted', 'nocerts-chain-p256', 'sha1-p256', 'sha1-allowed-p256', 'module-leaf2',
    'module-nocerts-self',
    'sha3-rsa2048-sha3-256', 'sha3-p256-sha3-256', 'sha3-p384-sha3-512', 'sha3-noattr-p256',
    'sha3-cert-rsa', 'sha3-cert-p256', 'module-sha3-sha3-384', 'ed25519-attr-detached',
    'ed25519-noattr-attached', 'ed25519-noattr-detached', 'ed25519-noattr-chunked',
    'ed25519-ca-p256', 'ed25519-untrusted',
    # corruptions
    'alg-p256-sha256.sig', 'alg-rsa2048-pss32-sha256.sig', 'alg-rsa2048-sha256.attr',
    'alg-p256-sha256.cert', 'alg-p256-sha256.content', 'alg-rsa2048-sha256.trunc',
    'noattr-p256.sig', 'attached-der-rsa2048.content', 'attached-pem-p256.cert',
    'stream-ber-rsa2048.content', 'stream-ber-rsa2048.trunc', 'stream-ber-rsa2048.attr',
    'detached-pem-rsa2048.trunc', 'chain1-self.cert', 'two-signers.cert',
    'chain1-self.cert-deny', 'chain1-self.cert-time',
    'module-leaf2.content', 'module-leaf2.sig', 'module-leaf2.cert',
    'module-leaf2.trunc-marker', 'module-leaf2.sig-len',
    'sha3-p256-sha3-256.sig', 'sha3-rsa2048-sha3-256.attr', 'ed25519-attr-detached.sig',
    'ed25519-attr-detached.attr', 'ed25519-attr-detached.content', 'ed25519-noattr-attached.sig',
    'ed25519-noattr-attached.content', 'ed25519-noattr-chunked.content', 'ed25519-ca-p256.cert',
    'sha3-cert-p256.cert',
}


def write_contents(out, rng):
    # content.bin for most cases; big.bin more than 4096 bytes, which
    # `cms -sign -stream` sends in chunks.
    for name, size in (('content.bin', 1000 + rng.randrange(1000)),
                       ('big.bin', 5000 + rng.randrange(4000))):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(bytes(rng.randrange(256) for _ in range(size)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--subset', choices=('all', 'committed'), default='all')
    ap.add_argument('out')
    opt = ap.parse_args()
    seed = opt.seed if opt.seed is not None else random.SystemRandom().randrange(1 << 32)
    os.makedirs(opt.out, exist_ok=True)
    cases = all_cases()
    subset = COMMITTED if opt.subset == 'committed' else None
    if subset is not None:
        cases = [c for c in cases if c.name in subset]
    rng = random.Random(seed)
    write_contents(opt.out, rng)
    # One generator per case, seeded in order: the same seed picks the same
    # bytes whatever order the threads finish in.
    rngs = [random.Random(rng.getrandbits(64)) for _ in cases]
    with tempfile.TemporaryDirectory() as keys:
        make_pki(opt.out, keys)
        with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            rows = list(pool.map(lambda c, r: build(c, opt.out, keys, r, subset), cases, rngs))
    with open(os.path.join(opt.out, 'manifest.tsv'), 'w') as f:
        f.write('# gen-cms.py --seed %d --subset %s (tests/interop/gen-cms.py)\n'
                % (seed, opt.subset))
        f.write('# name\tkind\tcorruption\texpect\tpkcs7verify-args\toracle-args\toracle\n')
        for r in rows:
            f.write('\n'.join(r) + '\n')
    print('gen-cms: %d cases in %s (seed %d)' % (sum(map(len, rows)), opt.out, seed))


if __name__ == '__main__':
    sys.exit(main())
