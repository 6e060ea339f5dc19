#!/usr/bin/env python3
"""pkcs7verify on RAUC's test PKI and bundles, against RAUC's own verdicts.

    check_rauc.py PKCS7VERIFY [DIR]

DIR (tests/data/rauc by default) holds files from RAUC's repository and a
README.md whose "## Cases" table gives, per row, the input, the keyring,
the pkcs7verify options that stand for a RAUC configuration, RAUC's
verdict and the exit code pkcs7verify must give (the README says where
RAUC's tests state each verdict). A RAUC bundle is split here, with no
outside tool: the last 8 bytes are the big-endian size of the CMS
signature before them, and the bytes before the signature are the payload.
A detached signature (plain bundle) is verified over the payload; a
signature with content (verity bundle) alone, and its manifest must say
format=verity. A manifest-*.sig is verified over DIR/manifest.

A row whose exit code is not RAUC's verdict must be named under the
README's "Deliberate differences". A row named *revoked* that exits 1
must say "revoked" on stderr, and a row named *-warn must print a
"pkcs7verify: warning: CRL" line (a CRL that applies but cannot be used).
When PKCS7VERIFY has no --crl (before
issue 27's CRL options, it ignores every CRL), the rows that use a CRL
option or whose name says crl or revoked are skipped, unless CI=true,
where that fails.
"""
import os
import struct
import subprocess
import sys
import tempfile

SQUASHFS_MAGIC = b'hsqs'
CRL_OPTIONS = ('--crl', '--crl-check', '--no-crl')
VERDICT_EXIT = {'accepted': (0,), 'refused': (1, 2)}


class SplitError(Exception):
    pass


def split_bundle(data):
    """(payload, signature) of a RAUC bundle; SplitError if the size is impossible."""
    if len(data) < 8:
        raise SplitError('shorter than the 8-byte signature size')
    (size,) = struct.unpack('>Q', data[-8:])
    if size == 0 or size > len(data) - 8:
        raise SplitError('signature size %d does not fit in %d bytes' % (size, len(data)))
    return data[:-8 - size], data[-8 - size:-8]


def der_tlv(buf, off, end):
    """(tag, start of value, end of value) of the DER element at off; definite lengths only."""
    if off + 2 > end:
        raise SplitError('DER element past its end at %d' % off)
    tag, first = buf[off], buf[off + 1]
    off += 2
    if first < 0x80:
        length = first
    else:
        n = first & 0x7f
        if n == 0 or n > 4 or off + n > end:
            raise SplitError('DER length not definite or too long at %d' % off)
        length = int.from_bytes(buf[off:off + n], 'big')
        off += n
    if off + length > end:
        raise SplitError('DER value past its end at %d' % off)
    return tag, off, off + length


def cms_content(sig):
    """The encapsulated content of a CMS SignedData, or None when it is detached."""
    tag, s, e = der_tlv(sig, 0, len(sig))                  # ContentInfo
    if tag != 0x30 or e != len(sig):
        raise SplitError('not a DER SEQUENCE spanning the signature')
    tag, s1, e1 = der_tlv(sig, s, e)                        # contentType
    tag, s2, e2 = der_tlv(sig, e1, e)                       # [0] EXPLICIT
    if tag != 0xa0:
        raise SplitError('ContentInfo without [0] content')
    tag, s3, e3 = der_tlv(sig, s2, e2)                      # SignedData
    tag, s4, e4 = der_tlv(sig, s3, e3)                      # version
    tag, s5, e5 = der_tlv(sig, e4, e3)                      # digestAlgorithms
    tag, s6, e6 = der_tlv(sig, e5, e3)                      # encapContentInfo
    if tag != 0x30:
        raise SplitError('SignedData without encapContentInfo')
    tag, s7, e7 = der_tlv(sig, s6, e6)                      # eContentType
    if e7 == e6:
        return None
    tag, s8, e8 = der_tlv(sig, e7, e6)                      # [0] EXPLICIT eContent
    if tag != 0xa0:
        raise SplitError('encapContentInfo with something other than [0]')
    tag, s9, e9 = der_tlv(sig, s8, e8)
    if tag != 0x04:
        raise SplitError('eContent is not a primitive OCTET STRING')
    return sig[s9:e9]


def self_test():
    """The splitter refuses impossible sizes instead of reading outside the file."""
    bad = [b'', b'\0' * 7, b'payload' + struct.pack('>Q', 0),
           b'x' * 10 + struct.pack('>Q', 11), b'x' * 10 + struct.pack('>Q', 2**64 - 1)]
    for data in bad:
        try:
            split_bundle(data)
        except SplitError:
            continue
        print('FAIL splitter accepted %r' % data[:24])
        return 1
    payload, sig = split_bundle(b'ABC' + b'\x30\x00' + struct.pack('>Q', 2))
    if payload != b'ABC' or sig != b'\x30\x00':
        print('FAIL splitter: %r %r' % (payload, sig))
        return 1
    return 0


def read_cases(readme):
    """The rows of the README's Cases table, and the names it lists as deliberate."""
    rows, deliberate, section = [], set(), None
    with open(readme, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                section = line[3:].strip()
            elif line.startswith('Deliberate differences'):
                section = 'deliberate'
            elif section == 'Cases' and line.startswith('| ') and not line.startswith('| case '):
                cells = [c.strip() for c in line.strip().strip('|').split('|')]
                if len(cells) != 8:
                    raise ValueError('README.md: a Cases row without 8 cells: ' + line)
                name, inp, keyring, options, config, rauc, exit_, where = cells
                rows.append({'name': name, 'input': inp, 'keyring': keyring,
                             'options': options.split(), 'rauc': rauc, 'exit': int(exit_),
                             'where': where})
            elif section == 'deliberate' and line.startswith('- `'):
                deliberate.add(line[3:].split('`', 1)[0])
    return rows, deliberate


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    tool = os.path.abspath(argv[1])
    d = os.path.abspath(argv[2] if len(argv) == 3 else
                        os.path.join(os.path.dirname(__file__), 'data', 'rauc'))
    ci = os.environ.get('CI') == 'true'
    failed = self_test()
    rows, deliberate = read_cases(os.path.join(d, 'README.md'))
    if len(rows) < 20:
        print('FAIL README.md: only %d cases read' % len(rows))
        return 1

    probe = subprocess.run([tool, '--no-crl'], capture_output=True, text=True)
    has_crl = 'unrecognized option' not in probe.stderr
    skipped = []

    with tempfile.TemporaryDirectory(prefix='check_rauc.') as tmp:
        for row in rows:
            name = row['name']
            if row['rauc'] not in VERDICT_EXIT:
                print('FAIL %s: RAUC verdict %r is neither accepted nor refused' % (name, row['rauc']))
                failed = 1
                continue
            differs = row['exit'] not in VERDICT_EXIT[row['rauc']]
            if differs != (name in deliberate):
                print('FAIL %s: exit %d, RAUC %s, %s under Deliberate differences' % (
                    name, row['exit'], row['rauc'], 'not' if differs else 'yet'))
                failed = 1
                continue
            if not has_crl and ('crl' in name or 'revoked' in name or
                                any(o.split('=')[0] in CRL_OPTIONS for o in row['options'])):
                skipped.append(name)
                continue
            args = [tool, '--trust', os.path.join(d, row['keyring'])]
            for o in row['options']:
                # A file operand of an option (--crl FILE) is a name in DIR.
                args.append(os.path.join(d, o) if args[-1] == '--crl' else o)
            inp = os.path.join(d, row['input'])
            with open(inp, 'rb') as f:
                data = f.read()
            if row['input'].endswith('.raucb'):
                try:
                    payload, sig = split_bundle(data)
                    content = cms_content(sig)
                except SplitError as e:
                    print('FAIL %s: %s: %s' % (name, row['input'], e))
                    failed = 1
                    continue
                if not payload.startswith(SQUASHFS_MAGIC):
                    print('FAIL %s: the payload is not a squashfs image' % name)
                    failed = 1
                    continue
                sig_path = os.path.join(tmp, name + '.cms')
                with open(sig_path, 'wb') as f:
                    f.write(sig)
                if content is None:
                    payload_path = os.path.join(tmp, name + '.squashfs')
                    with open(payload_path, 'wb') as f:
                        f.write(payload)
                    args += ['--content', payload_path]
                elif b'\nformat=verity\n' not in content:
                    print('FAIL %s: a signature with content whose manifest is not verity' % name)
                    failed = 1
                    continue
                args.append(sig_path)
            else:
                if cms_content(data) is not None:
                    print('FAIL %s: %s is not a detached signature' % (name, row['input']))
                    failed = 1
                    continue
                args += ['--content', os.path.join(d, 'manifest'), inp]
            r = subprocess.run(args, capture_output=True, text=True)
            why = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '(nothing on stderr)'
            ok = r.returncode == row['exit']
            if ok and row['exit'] == 1 and 'revoked' in name and 'revoked' not in r.stderr:
                ok = False
                why = 'no "revoked" on stderr: ' + why
            if ok and name.endswith('-warn') and 'pkcs7verify: warning: CRL' not in r.stderr:
                ok = False
                why = 'no CRL warning on stderr: ' + why
            print('%s %s: exit %d (want %d; RAUC %s%s): %s' % (
                'ok  ' if ok else 'FAIL', name, r.returncode, row['exit'], row['rauc'],
                ', deliberate difference' if differs else '', why))
            if not ok:
                print('     ' + ' '.join(args[1:]))
                failed = 1
    if skipped:
        print('%s %d rows with CRL options (this pkcs7verify has no --crl): %s' % (
            'FAIL' if ci else 'SKIP', len(skipped), ' '.join(skipped)))
        if ci:
            failed = 1
    return failed


if __name__ == '__main__':
    sys.exit(main(sys.argv))
