#!/usr/bin/env python3
"""fwcheck as a user runs it, checked by exit code and output.

    check_fwcheck.py FWCHECK FWLOAD DATA_DIR

On the demo tree of tests/data/fw (signed, tampered, unsigned, allowed,
denied), and the PE images of signature pe rules: each exit code, the
worst over several names, permissive mode
(exit 0, would-be refusals printed), --json, --file with --name, policy
errors with file:line, usage errors, and the example loader.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(tool, args, want, what, stderr_has=None):
    code, out, err = run(tool, args)
    if code != want:
        sys.exit('FAIL %s: exit %d, want %d\n  %s\n  %s' % (what, code, want, ' '.join(args), err))
    if stderr_has and stderr_has not in err:
        sys.exit('FAIL %s: stderr lacks %r:\n%s' % (what, stderr_has, err))
    return out, err


def main():
    tool, loader, data = sys.argv[1], sys.argv[2], os.path.abspath(os.path.join(sys.argv[3], 'fw'))
    policy = os.path.join(data, 'demo.policy')
    tree = os.path.join(data, 'tree')
    base = ['--policy', policy, '--root', tree]

    expect(tool, base + ['vouch/signed.bin'], 0, 'signed', 'accepted: signature verified')
    expect(tool, base + ['vouch/allowed.bin'], 0, 'allowed', 'on the allow list')
    expect(tool, base + ['vouch/tampered.bin'], 1, 'tampered', 'refused')
    expect(tool, base + ['vouch/unsigned.bin'], 1, 'unsigned', 'NAME.p7s) is required')
    expect(tool, base + ['vouch/denied.bin'], 1, 'denied', 'deny list')
    expect(tool, base + ['vouch/missing.bin'], 66, 'missing')
    expect(tool, base + ['../vouch/signed.bin'], 64, 'a name with ..')
    expect(tool, base + ['vouch'], 1, 'a directory', 'not a regular file')
    # Several names: the worst code, one stderr line per refusal.
    _, err = expect(tool, base + ['vouch/signed.bin', 'vouch/missing.bin', 'vouch/denied.bin'],
                    66, 'worst of several')
    if err.count('refused') != 2:
        sys.exit('FAIL worst of several: want 2 refusal lines:\n' + err)
    expect(tool, base + ['-q', 'vouch/tampered.bin'], 1, 'quiet')

    # --json: one object per name with verdict, reason, signer, digest.
    out, _ = expect(tool, base + ['--json', 'vouch/signed.bin', 'vouch/denied.bin'], 1, 'json')
    objs = [json.loads(line) for line in out.splitlines()]
    if len(objs) != 2 or objs[0]['verdict'] != 'accepted' or objs[1]['verdict'] != 'refused':
        sys.exit('FAIL json verdicts: %r' % objs)
    if objs[0]['signers'] != ['CN = vouch fw signer'] or len(objs[0]['digest']['hex']) != 64:
        sys.exit('FAIL json signer/digest: %r' % objs[0])
    if objs[1]['exit'] != 1 or 'demo.policy:' not in objs[1]['rule']:
        sys.exit('FAIL json rule: %r' % objs[1])

    with tempfile.TemporaryDirectory() as tmp:
        # Permissive: exit 0, the would-be refusals printed.
        text = open(policy).read().replace('mode enforce', 'mode permissive')
        keyring = os.path.join(data, 'signer.pem')
        perm = os.path.join(tmp, 'permissive.policy')
        open(perm, 'w').write(text.replace('keyring signer.pem', 'keyring ' + keyring))
        pbase = ['--policy', perm, '--root', tree]
        _, err = expect(tool, pbase + ['vouch/tampered.bin', 'vouch/unsigned.bin'], 0,
                        'permissive', 'would be refused')
        if err.count('would be refused') != 2:
            sys.exit('FAIL permissive lines:\n' + err)
        out, _ = expect(tool, pbase + ['--json', 'vouch/denied.bin'], 0, 'permissive json')
        obj = json.loads(out)
        if obj['verdict'] != 'permissive' or obj['would_exit'] != 1:
            sys.exit('FAIL permissive json: %r' % obj)

        # Policy errors name the file and line; nothing is checked.
        bad = os.path.join(tmp, 'bad.policy')
        open(bad, 'w').write('mode enforce\nsignature maybe\n')
        expect(tool, ['--policy', bad, '--root', tree, 'vouch/signed.bin'], 64, 'bad policy',
               bad + ':2: signature: none, detached, appended or pe')
        expect(tool, ['--policy', os.path.join(tmp, 'none'), 'x'], 66, 'missing policy')

        # --file: the name the rules see.
        blob = os.path.join(tree, 'lib', 'firmware', 'vouch', 'allowed.bin')
        expect(tool, ['--policy', policy, '--root', tree, '--file', blob], 0, '--file in the tree')
        expect(tool, ['--policy', policy, '--file', blob, '--name', 'other/allowed.bin'], 1,
               '--file --name outside the allow glob')
        copy = os.path.join(tmp, 'allowed.bin')
        open(copy, 'wb').write(open(blob, 'rb').read())
        expect(tool, ['--policy', policy, '--file', copy], 1, '--file outside the tree: base name')
        expect(tool, ['--policy', policy, '--file', os.path.join(tmp, 'nope')], 66, '--file missing')

    # Usage errors.
    expect(tool, ['vouch/signed.bin'], 64, 'no policy')
    expect(tool, ['--policy', policy], 64, 'no names')
    expect(tool, ['--policy', policy, '--file', 'x', 'y'], 64, '--file and names')
    expect(tool, ['--policy', policy, '--name', 'x', 'y'], 64, '--name without --file')
    expect(tool, ['--bogus'], 64, 'unknown option')
    expect(tool, base + ['--no-sandbox', 'vouch/signed.bin'], 0, '--no-sandbox')

    # Names are escaped everywhere: a newline cannot forge
    # an 'accepted' line; JSON stays valid and keeps the bytes.
    forged = 'x\nfwcheck: vouch/signed.bin: accepted: signature verified'
    code, out, err = run(tool, base + ['--json', forged])
    if code != 66 or err.count('\n') != 1 or 'accepted' in err.splitlines()[0].split(': ')[1]:
        sys.exit('FAIL forged name: %d\n%r' % (code, err))
    if 'x\\x0afwcheck' not in err or json.loads(out)['name'] != forged:
        sys.exit('FAIL forged name escaping: %r %r' % (err, out))
    code, out, err = run(tool, base + ['--json', 'vouch/\xe9\x1b[2J.bin'])
    if '\x1b' in err or '\\xc3\\xa9\\x1b[2J' not in err or json.loads(out)['verdict'] != 'refused':
        sys.exit('FAIL escapes: %r %r' % (err, out))

    # Long names: a component over 255 bytes cannot exist
    # (usage, 64); a 252-255 byte name loads under 'signature none' although
    # its NAME.p7s could not exist.
    expect(tool, base + ['vouch/' + 'a' * 256], 64, 'component over NAME_MAX', 'too long')
    with tempfile.TemporaryDirectory() as tmp:
        none = os.path.join(tmp, 'none.policy')
        open(none, 'w').write('signature none\n')
        fw = os.path.join(tmp, 'lib', 'firmware')
        os.makedirs(fw)
        for n in (252, 255):
            open(os.path.join(fw, 'b' * n), 'wb').write(b'firmware')
            expect(tool, ['--policy', none, '--root', tmp, 'b' * n], 0, 'name of %d bytes' % n,
                   'accepted: no signature required')
            expect(tool, ['--policy', none, '--file', os.path.join(fw, 'b' * n)], 0,
                   '--file name of %d bytes' % n)

    # The printed digest is the one a deny entry names.
    out, err = expect(tool, base + ['--json', 'vouch/signed.bin'], 0, 'digest printed')
    obj = json.loads(out)
    if obj['digest']['covers'] != 'file' or 'sha256:' + obj['digest']['hex'] not in err:
        sys.exit('FAIL digest printed: %r %r' % (obj, err))

    # A keyring with a certificate vouch cannot use beside the signer's: the
    # signer still verifies, and the skipped one is named.
    with tempfile.TemporaryDirectory() as tmp:
        ring = os.path.join(tmp, 'ring.pem')
        fmt = os.path.join(os.path.dirname(data), 'format')
        open(ring, 'wb').write(open(os.path.join(fmt, 'ed448.pem'), 'rb').read() +
                               open(os.path.join(data, 'signer.pem'), 'rb').read() +
                               open(os.path.join(fmt, 'trust-crl.pem'), 'rb').read())
        pol = os.path.join(tmp, 'ring.policy')
        open(pol, 'w').write('keyring %s\nsignature detached\n' % ring)
        _, err = expect(tool, ['--policy', pol, '--root', tree, 'vouch/signed.bin'], 0,
                        'keyring with an unusable certificate', 'accepted')
        # The CRL block is kept for revocation now (issue 27), without a notice.
        if 'item 1 (CERTIFICATE)' not in err or 'not supported' not in err or 'CRL' in err:
            sys.exit('FAIL keyring notices: %r' % err)

    # signature pe: a PE image's own Authenticode signatures (gen-fw-pe.sh).
    with tempfile.TemporaryDirectory() as tmp:
        pe = lambda n: os.path.join(data, n)
        pol = os.path.join(tmp, 'pe.policy')
        open(pol, 'w').write('keyring %s\nkeyring %s\nsignature pe\n'
                             % (pe('pe-signer.pem'), pe('pe-ec-signer.pem')))
        ecdsa = os.path.join(tmp, 'pe-ecdsa.policy')
        open(ecdsa, 'w').write(open(pol).read() + 'signature-alg ecdsa\n')
        expect(tool, ['--policy', pol, '--file', pe('pe-signed.efi')], 0, 'pe signed',
               'accepted: Authenticode signature verified by CN = vouch fw pe-signer with rsa-pkcs1')
        tampered = os.path.join(tmp, 'tampered.efi')
        image = bytearray(open(pe('pe-signed.efi'), 'rb').read())
        image[0x200 + 100] ^= 1
        open(tampered, 'wb').write(image)
        expect(tool, ['--policy', pol, '--file', tampered], 1, 'pe tampered section',
               'the image digest does not match the signed one')
        expect(tool, ['--policy', pol, '--file', pe('pe-unsigned.efi')], 1, 'pe unsigned',
               "a PE image's Authenticode signature is required")
        expect(tool, ['--policy', pol, '--file', pe('blob.bin')], 3, 'pe: not a PE image')
        expect(tool, ['--policy', ecdsa, '--file', pe('pe-signed.efi')], 4,
               'pe: RSA under signature-alg ecdsa', 'algorithms are accepted by the rule')
        # Two entries: the second, ECDSA, is the one accepted and reported.
        out, err = expect(tool, ['--policy', ecdsa, '--json', '--file', pe('pe-mixed.efi')], 0,
                          'pe mixed, ecdsa', '(certificate-table entry 2 of 2)')
        obj = json.loads(out)
        if (obj['accepted_entry'] != 1 or obj['entries'] != 2 or obj['signature'] != 'ecdsa' or
                obj['signers'] != ['CN = vouch fw pe-ec-signer'] or
                obj['image_digest']['alg'] != 'sha256' or len(obj['image_digest']['hex']) != 64 or
                obj['digest']['covers'] != 'file' or obj['size'] != obj['signed_size']):
            sys.exit('FAIL pe json: %r' % obj)
        out, _ = expect(tool, ['--policy', pol, '--json', '--file', pe('pe-mixed.efi')], 0,
                        'pe mixed')
        obj2 = json.loads(out)
        if obj2['accepted_entry'] != 0 or obj2['signature'] != 'rsa-pkcs1' or \
                obj2['image_digest'] != obj['image_digest']:
            sys.exit('FAIL pe json, first entry: %r' % obj2)
        # The whole file is what a deny entry names, as sha256sum prints it.
        with open(pe('pe-signed.efi'), 'rb') as f:
            whole = hashlib.sha256(f.read()).hexdigest()
        deny = os.path.join(tmp, 'pe-deny.policy')
        open(deny, 'w').write('deny sha256:%s\n' % whole + open(pol).read())
        expect(tool, ['--policy', deny, '--file', pe('pe-signed.efi')], 1, 'pe denied',
               'deny list')
        out, _ = expect(tool, ['--policy', pol, '--json', '--file', pe('pe-unsigned.efi')], 1,
                        'pe unsigned json')
        if 'accepted_entry' in json.loads(out):
            sys.exit('FAIL pe unsigned json: %r' % out)

    # The example loader: accepted blobs loaded, the rest refused.
    code, out, err = run(loader, [policy, os.path.abspath(tree), 'vouch/signed.bin',
                                  'vouch/denied.bin'])
    if code != 1 or 'vouch/signed.bin: loaded 8192 bytes' not in out or 'denied.bin: not loaded' not in err:
        sys.exit('FAIL fwload: %d\n%s\n%s' % (code, out, err))
    print('fwcheck: all cases passed')


if __name__ == '__main__':
    main()
