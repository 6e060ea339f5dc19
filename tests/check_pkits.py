#!/usr/bin/env python3
"""NIST PKITS revocation tests through pkcs7verify (issue 27), with OpenSSL as the oracle.

    check_pkits.py PKCS7VERIFY [--openssl OPENSSL] [--pkits DIR] [--keep DIR]

DIR is PKITS_data of Debian's python3-cryptography-vectors; by default the
parent of $VOUCH_PKITS_CRLS, which tests/meson.build finds at configure time
(tests/data/pkits/README.md: provenance, and why these sections only).

Each test of PKITS sections 4.4 (basic certificate revocation), 4.5
(self-issued certificates and CRL signing keys) and 4.7.4-4.7.5 (cRLSign) is
an S/MIME multipart/signed message whose SignedData carries the path's
certificates and CRLs. From each one this script takes, by its own MIME
reading, the signed entity exactly as signed (the bytes between the
boundaries) and the application/pkcs7-signature part decoded to DER, then:

  * the message signature over the extracted entity verifies
    (`openssl cms -verify -noverify -binary`): the extraction is exact;
  * OpenSSL, the oracle: `openssl cms -verify -binary -crl_check_all` on the
    extracted parts, with the trust anchor and its CRL in -CAfile, must give
    the same verdict as `openssl cms -verify -crl_check_all` on the .eml
    itself (OpenSSL's own MIME reading), and that verdict must be the PKITS
    one, or the disagreement must be the one OPENSSL_DIFFERS records (a
    recorded difference that no longer shows fails too, so the table stays
    true);
  * vouch: `pkcs7verify --crl-check --trust ANCHOR --crl ANCHOR_CRL --content
    ENTITY --inform der --check-time=now SIG` must exit with the code the
    table records: 0 for every Valid test, and for every Invalid one the
    refusal (1, 2 or 3) observed, so that a change of reason is noticed;
    and the same with `--no-crl` instead of `--crl-check --crl ANCHOR_CRL`
    must accept all but NO_CRL_REFUSED.

A table of every test is printed. A missing PKITS directory or openssl skips
the test (77), or fails it under CI=true.
"""
import argparse
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import checklib  # tests/checklib.py, beside this script

ANCHOR = 'certs/TrustAnchorRootCertificate.crt'
ANCHOR_CRL = 'crls/TrustAnchorRootCRL.crl'
# tests/data/pkits/README.md: the PKITS 2011 anchor, and when the data expires
# (the anchor's notAfter, and nextUpdate of 169 of the 173 CRLs).
ANCHOR_SHA256 = '87d1dfcc73f979bb348bb4f159d9115c40ab0a9afc4b21d77e6ddf20c7782b89'
PKITS_END = 1924936200          # 2030-12-31T08:30:00Z

# (PKITS.pdf section, S/MIME file name without .eml, PKITS verdict, pkcs7verify exit).
# The verdict is PKITS's own, not read from the name: 4.4.1's file is
# "SignedMissingCRLTest1" although its test is "Invalid Missing CRL Test1".
# A Valid test's exit is always 0; an Invalid one's is the refusal observed
# with the CRL command line of "pkcs7verify: CRLs" (cd8e247): 1 a certificate
# of the chain is revoked (EKEYREVOKED), 2 no usable CRL gives a certificate's
# status under --crl-check, or no trusted chain (ENOKEY). A change of reason
# shows as a change of code.
TESTS = [
    ('4.4.1', 'SignedMissingCRLTest1', 'invalid', 2),
    ('4.4.2', 'SignedInvalidRevokedCATest2', 'invalid', 1),
    ('4.4.3', 'SignedInvalidRevokedEETest3', 'invalid', 1),
    ('4.4.4', 'SignedInvalidBadCRLSignatureTest4', 'invalid', 2),
    ('4.4.5', 'SignedInvalidBadCRLIssuerNameTest5', 'invalid', 2),
    ('4.4.6', 'SignedInvalidWrongCRLTest6', 'invalid', 2),
    ('4.4.7', 'SignedValidTwoCRLsTest7', 'valid', 0),
    ('4.4.8', 'SignedInvalidUnknownCRLEntryExtensionTest8', 'invalid', 2),
    ('4.4.9', 'SignedInvalidUnknownCRLExtensionTest9', 'invalid', 2),
    ('4.4.10', 'SignedInvalidUnknownCRLExtensionTest10', 'invalid', 2),
    ('4.4.11', 'SignedInvalidOldCRLnextUpdateTest11', 'invalid', 2),
    ('4.4.12', 'SignedInvalidpre2000CRLnextUpdateTest12', 'invalid', 2),
    ('4.4.13', 'SignedValidGeneralizedTimeCRLnextUpdateTest13', 'valid', 0),
    ('4.4.14', 'SignedValidNegativeSerialNumberTest14', 'valid', 0),
    ('4.4.15', 'SignedInvalidNegativeSerialNumberTest15', 'invalid', 1),
    ('4.4.16', 'SignedValidLongSerialNumberTest16', 'valid', 0),
    ('4.4.17', 'SignedValidLongSerialNumberTest17', 'valid', 0),
    ('4.4.18', 'SignedInvalidLongSerialNumberTest18', 'invalid', 1),
    ('4.4.19', 'SignedValidSeparateCertificateandCRLKeysTest19', 'valid', 0),
    ('4.4.20', 'SignedInvalidSeparateCertificateandCRLKeysTest20', 'invalid', 1),
    ('4.4.21', 'SignedInvalidSeparateCertificateandCRLKeysTest21', 'invalid', 2),
    ('4.5.1', 'SignedValidBasicSelfIssuedOldWithNewTest1', 'valid', 0),
    ('4.5.2', 'SignedInvalidBasicSelfIssuedOldWithNewTest2', 'invalid', 1),
    ('4.5.3', 'SignedValidBasicSelfIssuedNewWithOldTest3', 'valid', 0),
    ('4.5.4', 'SignedValidBasicSelfIssuedNewWithOldTest4', 'valid', 0),
    ('4.5.5', 'SignedInvalidBasicSelfIssuedNewWithOldTest5', 'invalid', 1),
    ('4.5.6', 'SignedValidBasicSelfIssuedCRLSigningKeyTest6', 'valid', 0),
    ('4.5.7', 'SignedInvalidBasicSelfIssuedCRLSigningKeyTest7', 'invalid', 1),
    ('4.5.8', 'SignedInvalidBasicSelfIssuedCRLSigningKeyTest8', 'invalid', 2),
    ('4.7.4', 'SignedInvalidkeyUsageCriticalcRLSignFalseTest4', 'invalid', 2),
    ('4.7.5', 'SignedInvalidkeyUsageNotCriticalcRLSignFalseTest5', 'invalid', 2),
]

# Without revocation (`--no-crl`, or no CRL option before issue 27's command
# line) every test is accepted but these, whose path is bad whatever the CRLs
# say: 4.5.8's end-entity certificate is signed by a key certified for CRL
# signing only (no keyCertSign). This proves the other refusals come from CRLs.
NO_CRL_REFUSED = {'SignedInvalidBasicSelfIssuedCRLSigningKeyTest8': 2}

# Where OpenSSL's verdict is not PKITS's: file name -> (a piece of OpenSSL's
# error line that must show, why). None with OpenSSL 3.0.19 and -extended_crl.
OPENSSL_DIFFERS = {
}



def skip(why):
    return checklib.skip('check_pkits', why)


def split_eml(data):
    """(signed entity, DER signature) of a multipart/signed message, or raise ValueError.

    RFC 1847 and RFC 2046 5.1.1: the entity is everything after the first
    boundary line's line end up to the line end that precedes the next
    delimiter (that line end belongs to the delimiter). PKITS's files have LF
    line ends in the outer message and CRLF inside the signed entity: the
    entity's own bytes are kept exactly, never converted.
    """
    head_end = re.search(rb'\r?\n\r?\n', data)
    if head_end is None:
        raise ValueError('no end of the message header')
    head = re.sub(rb'\r?\n[ \t]+', b' ', data[:head_end.start()])
    ctype = re.search(rb'(?im)^content-type:\s*multipart/signed;(.*)$', head)
    if ctype is None:
        raise ValueError('not multipart/signed')
    b = re.search(rb'(?i)boundary="([^"]+)"', ctype.group(1)) or \
        re.search(rb'(?i)boundary=([^;\s]+)', ctype.group(1))
    if b is None:
        raise ValueError('no boundary')
    delim = b'--' + b.group(1)
    # Delimiter lines: at a line start, the boundary, then optional "--" and spaces.
    lines = list(re.finditer(rb'(?m)^' + re.escape(delim) + rb'(--)?[ \t]*(\r?\n|$)', data))
    if len(lines) < 3 or lines[0].group(1) or lines[1].group(1) or not lines[2].group(1):
        raise ValueError('want two parts and a close delimiter, found %d delimiter lines'
                         % len(lines))

    def part(i):
        body = data[lines[i].end():lines[i + 1].start()]
        if body.endswith(b'\r\n'):
            return body[:-2]
        if body.endswith(b'\n'):
            return body[:-1]
        raise ValueError('part %d: no line end before the delimiter' % (i + 1))

    entity, sig_part = part(0), part(1)
    sig_head_end = re.search(rb'\r?\n\r?\n', sig_part)
    if sig_head_end is None:
        raise ValueError('signature part: no end of its header')
    sig_head = sig_part[:sig_head_end.start()]
    if not re.search(rb'(?im)^content-type:\s*application/(x-)?pkcs7-signature\b', sig_head):
        raise ValueError('second part is not application/pkcs7-signature')
    if not re.search(rb'(?im)^content-transfer-encoding:\s*base64\s*$', sig_head):
        raise ValueError('signature part is not base64')
    b64 = re.sub(rb'\s+', b'', sig_part[sig_head_end.end():])
    return entity, base64.b64decode(b64, validate=True)


def run(argv, cwd=None):
    p = subprocess.run(argv, capture_output=True, text=True, errors='replace', cwd=cwd)
    return p.returncode, p.stderr


def vouch_lines(err, tool, tmp):
    """pkcs7verify's verdict line and its warning lines, without the paths of this run."""
    lines = [l.strip().replace(tool, 'pkcs7verify').replace(tmp + os.sep, '')
             for l in err.splitlines() if l.strip()]
    warnings = [l for l in lines if l.startswith('pkcs7verify: warning:')]
    verdict = [l for l in lines if l not in warnings]
    return (verdict[-1] if verdict else ''), warnings


def first_line(err, want=None):
    """The line of stderr worth printing: the first containing WANT, else the first non-empty."""
    lines = [l.strip() for l in err.splitlines() if l.strip()]
    for l in lines:
        if want and want in l:
            return l
    for l in lines:
        if 'Verify error' in l:     # OpenSSL's reason
            return l[l.index('Verify error'):]
    return lines[0] if lines else ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pkcs7verify')
    ap.add_argument('--openssl', default='')
    ap.add_argument('--pkits', default='')
    ap.add_argument('--keep', help='extract into this directory and keep it')
    a = ap.parse_args()

    pkits = a.pkits
    if not pkits and os.environ.get('VOUCH_PKITS_CRLS'):
        pkits = os.path.dirname(os.environ['VOUCH_PKITS_CRLS'].rstrip('/'))
    if not pkits or not os.path.isdir(os.path.join(pkits, 'smime')):
        return skip('no PKITS_data (install python3-cryptography-vectors; tools/setup-deps)')
    if not a.openssl or not os.access(a.openssl, os.X_OK):
        return skip('no openssl, the oracle')
    for section, name, verdict, want in TESTS:
        if (verdict == 'valid') != (want == 0) or want not in (0, 1, 2, 3):
            print('FAIL: the table is wrong for %s %s: %s with exit %s' % (section, name, verdict, want))
            return 1
    tool = os.path.abspath(a.pkcs7verify)
    anchor, anchor_crl = os.path.join(pkits, ANCHOR), os.path.join(pkits, ANCHOR_CRL)
    for f in [anchor, anchor_crl] + [os.path.join(pkits, 'smime', n + '.eml') for _, n, _, _ in TESTS]:
        if not os.path.isfile(f):
            return skip('%s is missing: an incomplete PKITS_data' % f)

    got = hashlib.sha256(open(anchor, 'rb').read()).hexdigest()
    if got != ANCHOR_SHA256:
        print('FAIL: %s has SHA-256 %s, not the PKITS 2011 anchor %s '
              '(tests/data/pkits/README.md)' % (anchor, got, ANCHOR_SHA256))
        return 1
    if time.time() >= PKITS_END:
        return skip('the PKITS 2011 certificates and CRLs expired on 2030-12-31: '
                    'a test at the current time can only refuse')

    tmp = a.keep or tempfile.mkdtemp(prefix='pkits-')
    os.makedirs(tmp, exist_ok=True)
    try:
        return check(tool, a.openssl, pkits, anchor, anchor_crl, tmp)
    finally:
        if not a.keep:
            shutil.rmtree(tmp)


def check(tool, openssl, pkits, anchor, anchor_crl, tmp):
    # OpenSSL 3.0's cms has no -CRLfile: the anchor's CRL goes into -CAfile
    # beside the anchor (PEM; X509_load_cert_crl_file takes both).
    ca = os.path.join(tmp, 'anchor-and-crl.pem')
    pems = []
    for kind, path in (('x509', anchor), ('crl', anchor_crl)):
        p = subprocess.run([openssl, kind, '-inform', 'DER', '-in', path], capture_output=True)
        if p.returncode != 0:
            print('FAIL: openssl %s could not read %s: %s' % (kind, path, p.stderr.decode()))
            return 1
        pems.append(p.stdout)
    with open(ca, 'wb') as f:
        f.write(b''.join(pems))
    # -extended_crl: a CRL signed by another key than the one that signed the
    # certificate (4.4.19-4.4.21's separate CRL signer, 4.5's self-issued CRL
    # signers) is OpenSSL's "extended CRL support"; without it OpenSSL 3.0
    # refuses 4.4.19, 4.5.4 and 4.5.6, all valid ("unable to get certificate
    # CRL", "different CRL scope").
    oracle = [openssl, 'cms', '-verify', '-crl_check_all', '-extended_crl', '-CAfile', ca,
              '-out', os.devnull]

    # Does this pkcs7verify have issue 27's CRL options at all?
    code, err = run([tool, '--crl-check', '--crl', anchor_crl, '--help'])
    no_crl_cli = code == 64 and ('unrecognized' in err or 'unknown' in err or 'invalid' in err)

    failures, rows = [], []
    for section, name, verdict, want in TESTS:
        eml = os.path.join(pkits, 'smime', name + '.eml')
        try:
            entity, der = split_eml(open(eml, 'rb').read())
        except ValueError as e:
            failures.append('%s %s: cannot split the message: %s' % (section, name, e))
            continue
        ent, sig = os.path.join(tmp, name + '.txt'), os.path.join(tmp, name + '.p7s')
        with open(ent, 'wb') as f:
            f.write(entity)
        with open(sig, 'wb') as f:
            f.write(der)

        # The extraction is byte for byte what was signed: the message
        # signature over the entity verifies (-noverify: no path check; every
        # PKITS message is signed correctly, its test is in the path).
        code, err = run([openssl, 'cms', '-verify', '-noverify', '-binary', '-inform', 'DER',
                         '-in', sig, '-content', ent, '-out', os.devnull])
        if code != 0:
            failures.append('%s %s: the extracted entity is not what was signed: %s'
                            % (section, name, first_line(err)))

        # The oracle, on the .eml and on the extracted parts.
        o_eml, e_eml = run(oracle + ['-in', eml])
        o_raw, e_raw = run(oracle + ['-binary', '-inform', 'DER', '-in', sig, '-content', ent])
        o_ok, raw_ok = o_eml == 0, o_raw == 0
        o_note = first_line(e_eml) if not o_ok else ''
        if o_ok != raw_ok:
            failures.append('%s %s: the extraction is not what was signed: openssl on the .eml '
                            'exits %d, on the extracted entity and DER %d (%s)'
                            % (section, name, o_eml, o_raw, first_line(e_raw)))
        differs = OPENSSL_DIFFERS.get(name)
        if o_ok != (verdict == 'valid'):
            if differs is None:
                failures.append('%s %s: OpenSSL says %s, PKITS says %s: %s'
                                % (section, name, 'valid' if o_ok else 'invalid', verdict, o_note))
            elif differs[0] not in e_eml:
                failures.append('%s %s: OpenSSL disagrees, but not as recorded (%r): %s'
                                % (section, name, differs[0], o_note))
            else:
                o_note = 'differs: %s (%s)' % (differs[1], o_note)
        elif differs is not None:
            failures.append('%s %s: OpenSSL now agrees with PKITS; drop it from OPENSSL_DIFFERS'
                            % (section, name))

        # vouch, as the issue runs it.
        common = ['--trust', anchor, '--content', ent, '--inform', 'der', '--check-time=now', sig]
        argv = [tool, '--crl-check', '--crl', anchor_crl] + common
        code, err = run(argv)
        why, warnings = vouch_lines(err, tool, tmp)
        base = [tool] + ([] if no_crl_cli else ['--no-crl']) + common
        base_code, base_err = run(base)
        base_want = NO_CRL_REFUSED.get(name, 0)
        if base_code != base_want:
            failures.append('%s %s: without CRLs pkcs7verify exits %d, want %d: %s\n    %s'
                            % (section, name, base_code, base_want,
                               vouch_lines(base_err, tool, tmp)[0], ' '.join(base)))
        if code != want and not no_crl_cli:
            expected = 'accepted' if verdict == 'valid' else 'refused'
            bug = ''
            if verdict == 'valid' and code != 0:
                bug = ' (a Valid test refused: a vouch bug)'
            elif verdict == 'invalid' and code == 0:
                bug = ' (an Invalid test accepted: a vouch bug)'
            failures.append('%s %s: pkcs7verify exit %d, want %d (%s)%s: %s\n    %s'
                            % (section, name, code, want, expected, bug, why, ' '.join(argv)))
        rows.append((section, name, verdict, 'ok' if o_ok else 'refused', base_code, code, want,
                     why, warnings, o_note))

    print('%-7s %-50s %-7s %-8s %-6s %-5s %-4s %s'
          % ('section', 'test', 'PKITS', 'openssl', 'no-crl', 'vouch', 'want',
             'pkcs7verify stderr / OpenSSL'))
    for section, name, verdict, o, base_code, code, want, why, warnings, o_note in rows:
        print('%-7s %-50s %-7s %-8s %-6d %-5d %-4d %s'
              % (section, name, verdict, o, base_code, code, want, why))
        for w in warnings:
            print('%-7s %-50s %s' % ('', '', w))
        if o_note:
            print('%-7s %-50s openssl: %s' % ('', '', o_note))
    if no_crl_cli:
        failures.append('pkcs7verify does not know --crl/--crl-check (exit 64 for every test): '
                        'issue 27\'s CRL command line ("pkcs7verify: CRLs") is not in this build, '
                        'so no vouch verdict was checked; the OpenSSL side ran')
    for f in failures:
        print('FAIL ' + f)
    print('%d PKITS tests, %d failures' % (len(TESTS), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
