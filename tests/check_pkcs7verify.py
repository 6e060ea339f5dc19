#!/usr/bin/env python3
"""pkcs7verify as a user runs it, checked by exit code and output.

    check_pkcs7verify.py PKCS7VERIFY fixtures DATA_DIR
    check_pkcs7verify.py PKCS7VERIFY manifests VECTORS_DIR

fixtures: the committed signatures of tests/data (attached, detached,
streamed, module-style, tampered, untrusted, deny lists, times, JSON).
manifests: every row of ../shared/vectors/pkcs7/*/manifest.tsv with the
exit code the vectors README gives for its verdict. Exits non-zero on the
first mismatch; with CI=true a missing vectors directory is a failure.
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

import checklib  # tests/checklib.py, beside this script

# The vectors README: verdict -> accepted exit codes (and extra options).
VERDICT_EXIT = {
    'ok': {0}, 'bad-sig': {1}, 'expired': {1}, 'untrusted': {2}, 'malformed': {3},
    'unsupported': {4}, 'ok-legacy': {4}, 'refused': {1, 2, 3, 64},
}


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expect(tool, args, want, what):
    code, out, err = run(tool, args)
    ok = code in want if isinstance(want, set) else code == want
    if not ok:
        sys.exit('FAIL %s: exit %d, want %s\n  %s\n  %s' % (what, code, want, ' '.join(args), err))
    if code not in (0, 64) and not err.strip() and '-q' not in args:
        sys.exit('FAIL %s: no reason on stderr' % what)
    return out


def fixtures(tool, data):
    p = os.path.join(data, 'pkcs7')
    signer, content = os.path.join(p, 'signer.pem'), os.path.join(p, 'content.bin')
    t = ['--trust', signer]
    for m in ('attached.der', 'stream.ber', 'skid.der'):
        expect(tool, t + [os.path.join(p, m)], 0, m)
    for m in ('detached.der', 'noattr.der', 'two-signers.der'):
        expect(tool, t + ['--content', content, os.path.join(p, m)], 0, m)
    expect(tool, t + [os.path.join(p, 'detached.der')], 64, 'detached without content')
    expect(tool, t + ['--content', content, os.path.join(p, 'attached.der')], 0,
           'the same content for an attached signature')
    expect(tool, ['--trust', os.path.join(p, 'ec-signer.pem'), '--content', content,
                  os.path.join(p, 'detached.der')], 2, 'untrusted signer')
    expect(tool, t + [os.path.join(data, 'verify', 'clone.der')], 2, 'cloned identifiers')
    expect(tool, t + [os.path.join(p, 'certs-only.der')], 3, 'no signers: malformed')
    expect(tool, t + ['/nonexistent.p7s'], 66, 'missing input')
    # A name it cannot read is printed escaped, whatever the mode (a name
    # from a directory listing is anyone's), with the real errno.
    for mode in ([], ['--pe'], ['--module']):
        code, _, err = run(tool, t + mode + ['/nonexistent/\x1b[31mred'])
        if code != 66 or '\x1b' in err or '\\x1b[31mred' not in err:
            sys.exit('FAIL unreadable name %s: exit %d, %r' % (mode, code, err))
    code, _, err = run(tool, t + ['--pe', p])
    if code != 66 or 'directory' not in err:
        sys.exit('FAIL a directory as the image: exit %d, %r' % (code, err))
    # --pe over several images (issue 28): a line and a JSON object each, in
    # order, the signer of the accepted entry named, the worst exit code.
    pe = os.path.join(data, 'pe')
    images = [os.path.join(pe, n) for n in ('sb-rsa2048-x64.efi', 'img-x64.efi',
                                             'os-sha384-p256-x64.efi')]
    code, out, err = run(tool, ['--pe', '--json', '--trust', os.path.join(pe, 'root.pem')] +
                         images)
    objs = [json.loads(line) for line in out.splitlines()]
    lines = err.splitlines()
    if (code != 1 or [o['file'] for o in objs] != images or
            [o['verdict'] for o in objs] != ['accepted', 'refused', 'accepted'] or
            len(lines) != 3 or 'verified by CN = vouch PE test rsa2048' not in lines[0] or
            'refused' not in lines[1] or 'verified by CN = vouch PE test p256' not in lines[2]):
        sys.exit('FAIL --pe over several images: exit %d\n%s\n%s' % (code, out, err))
    expect(tool, ['--bogus'], 64, 'unknown option')
    # --no-crl ignores every CRL: a --crl file is not even read.
    with tempfile.TemporaryDirectory() as tmp:
        junk = os.path.join(tmp, 'junk.crl')
        with open(junk, 'w') as f:
            f.write('not a CRL\n')
        v = os.path.join(data, 'verify')
        rv = ['--trust', os.path.join(v, 'rv-root.pem'), '--content', content, '--crl', junk,
              os.path.join(v, 'rv-leaf.der')]
        expect(tool, rv, 3, 'a malformed --crl file')
        expect(tool, ['--no-crl'] + rv, 0, '--no-crl reads no --crl file')
        expect(tool, ['--no-crl', '--crl-check'] + rv, 64, '--no-crl with --crl-check')
    expect(tool, t + ['--usage', 'firmware', '--content', content,
                      os.path.join(p, 'noattr.der')], 1, 'firmware usage without attributes')
    expect(tool, t + ['--usage', 'module', os.path.join(p, 'attached.der')], 1,
           'module usage with attributes')
    expect(tool, t + ['--check-time=1990-01-01', os.path.join(p, 'attached.der')], 1, 'not yet valid')
    expect(tool, t + ['--check-time=2100-01-01T00:00:00Z', os.path.join(p, 'attached.der')], 0,
           'valid in 2100 (past 2038)')
    expect(tool, t + ['--check-time=yesterday', os.path.join(p, 'attached.der')], 64, 'bad time')
    with tempfile.TemporaryDirectory() as tmp:
        body = open(content, 'rb').read()
        tampered = os.path.join(tmp, 'tampered.bin')
        open(tampered, 'wb').write(body[:-1] + bytes([body[-1] ^ 1]))
        expect(tool, t + ['--content', tampered, os.path.join(p, 'detached.der')], 1, 'tampered')
        expect(tool, t + ['--content', tampered, os.path.join(p, 'attached.der')], 64,
               'other content for an attached signature')
        deny = os.path.join(tmp, 'deny')
        open(deny, 'w').write('# the content\nbin:%s\n' % hashlib.sha256(body).hexdigest())
        expect(tool, t + ['--deny', deny, os.path.join(p, 'attached.der')], 1, 'denied content')
        open(deny, 'w').write('bin:xyz\n')
        expect(tool, t + ['--deny', deny, os.path.join(p, 'attached.der')], 64, 'bad deny file')
        # A kernel-module-style file: content || PKCS#7 || trailer || marker.
        sig = open(os.path.join(p, 'noattr.der'), 'rb').read()
        trailer = struct.pack('>BBBBB3xI', 0, 0, 2, 0, 0, len(sig))
        module = os.path.join(tmp, 'mod.ko')
        open(module, 'wb').write(body + sig + trailer + b'~Module signature appended~\n')
        expect(tool, t + ['--module', module], 0, 'module')
        open(module, 'wb').write(body[:-1] + b'x' + sig + trailer + b'~Module signature appended~\n')
        expect(tool, t + ['--module', module], 1, 'tampered module')
        open(module, 'wb').write(body)
        expect(tool, t + ['--module', module], 1, 'unsigned module')
        compressed_modules(tool, t, tmp, body + sig + trailer + b'~Module signature appended~\n')
        # PEM input.
        pem = os.path.join(tmp, 'sig.pem')
        b64 = __import__('base64').encodebytes(open(os.path.join(p, 'attached.der'), 'rb').read())
        open(pem, 'wb').write(b'-----BEGIN PKCS7-----\n' + b64 + b'-----END PKCS7-----\n')
        expect(tool, t + [pem], 0, 'PEM input')
    out = expect(tool, t + ['--json', '-q', '--content', content, os.path.join(p, 'two-signers.der')],
                 0, 'json')
    j = json.loads(out)
    if j['verdict'] != 'accepted' or len(j['signers']) != 2 or j['content_digest']['alg'] != 'sha256':
        sys.exit('FAIL json: %s' % out)
    formats(tool, os.path.join(data, 'format'))
    trust_policy(tool, data)
    print('pkcs7verify fixtures: all cases as expected')


def trust_policy(tool, data):
    """Issue 27's options on the fixtures of tests/data/verify/gen-trustpol.py."""
    v = os.path.join(data, 'verify')
    c = ['--content', os.path.join(data, 'pkcs7', 'content.bin')]
    root, inter = ['--trust', os.path.join(v, 'tp-root.pem')], ['--trust', os.path.join(v, 'tp-int.pem')]
    rows = [
        # (options, message, exit)
        (root, 'tp-crit-server.der', 1),                       # the default: a critical EKU counts
        (root + ['--purpose', 'default'], 'tp-crit-server.der', 1),
        (root + ['--purpose', 'any'], 'tp-crit-server.der', 0),
        (root, 'tp-crit-email.der', 0),
        (root + ['--purpose', 'codesign'], 'tp-code.der', 0),
        (root + ['--purpose', 'codesign'], 'tp-noeku.der', 1),
        (root + ['--purpose', 'codesign-lenient'], 'tp-noeku.der', 0),
        (root + ['--purpose', 'codesign'], 'tp-server-ca.der', 1),
        (root + ['--purpose', 'codesign-lenient'], 'tp-server-ca.der', 0),
        (root + ['--purpose', 'email'], 'tp-code.der', 64),
        (inter, 'tp-code.der', 0),                              # partial chains by default
        (inter + ['--no-partial-chain'], 'tp-code.der', 2),
        (inter + root + ['--no-partial-chain'], 'tp-code.der', 0),
        (root + ['--check-time=2200-01-01'], 'tp-code.der', 1),
        (root + ['--check-time=2200-01-01', '--check-time=signing'], 'tp-code.der', 0),
        (root + ['--check-time=signing'], 'tp-late.der', 1),
        (root + ['--check-time=2095-01-01'], 'tp-late.der', 0),
        (root + ['--check-time=signing'], 'tp-code-noattr.der', 1),
        (root + ['--signer-cn', 'tp code signer'], 'tp-code.der', 0),
        (root + ['--signer-cn', 'x', '--signer-cn', 'tp code signer'], 'tp-code.der', 0),
        (root + ['--signer-cn', 'tp int'], 'tp-code.der', 1),   # the signer's name, not the chain's
        (root + ['--signer-cn', 'tp code signer'], 'tp-two-cn.der', 1),
    ]
    for opts, msg, want in rows:
        expect(tool, opts + c + [os.path.join(v, msg)], want, 'trust policy %s' % msg)
    _, _, err = run(tool, root + c + ['--signer-cn', 'nobody', os.path.join(v, 'tp-code.der')])
    if 'allow-list' not in err:
        sys.exit('FAIL --signer-cn: the reason is not said: %r' % err)


def compressed_modules(tool, t, tmp, signed):
    """NAME.ko.xz, .ko.zst, .ko.gz, signed then compressed as `make modules_install`
    does (checklib.COMPRESSORS): decompressed, then the appended signature checked."""
    if not checklib.have_compressors():
        if checklib.CI:
            sys.exit('FAIL: xz, zstd and gzip are needed (tools/setup-deps test)')
        print('compressed modules: skipped, xz, zstd or gzip missing')
        return
    for suffix in checklib.COMPRESSORS:
        packed = checklib.compress(suffix, signed)
        path = os.path.join(tmp, 'mod.ko' + suffix)
        open(path, 'wb').write(packed)
        expect(tool, t + ['--module', path], 0, 'module' + suffix)
        # The same bytes under another name are not decompressed: no signature trailer.
        plain = os.path.join(tmp, 'packed.ko')
        open(plain, 'wb').write(packed)
        expect(tool, t + ['--module', plain], 1, 'module%s not named so' % suffix)
        # Tampered compressed bytes (a bit in the middle of the stream).
        bad = bytearray(packed)
        bad[len(bad) // 2] ^= 0x01
        open(path, 'wb').write(bytes(bad))
        expect(tool, t + ['--module', path], {1, 3}, 'tampered module' + suffix)
        # A module tampered before compression: decompresses, then fails to verify.
        changed = bytearray(signed)
        changed[10] ^= 0x01
        open(path, 'wb').write(checklib.compress(suffix, bytes(changed)))
        expect(tool, t + ['--module', path], 1, 'module changed, then compressed' + suffix)
        open(path, 'wb').write(packed[:len(packed) - 7])
        expect(tool, t + ['--module', path], 3, 'truncated module' + suffix)
        open(path, 'wb').write(packed + b'\0')
        expect(tool, t + ['--module', path], 3, 'bytes after the stream' + suffix)
        open(path, 'wb').write(packed + packed)
        expect(tool, t + ['--module', path], 3, 'two streams' + suffix)
        # Another format's bytes under this suffix: the magic must agree with the name.
        other = '.gz' if suffix != '.gz' else '.xz'
        open(path, 'wb').write(checklib.compress(other, signed))
        expect(tool, t + ['--module', path], 3, '%s bytes named %s' % (other, suffix))
        open(path, 'wb').write(signed)
        expect(tool, t + ['--module', path], 3, 'uncompressed module named ' + suffix)
    # A bomb: 1 GiB of zeros, compressed by streaming (xz -0 and zstd take
    # about a second), refused -E2BIG (exit 3) with bounded memory (the
    # default output bound is 256 MiB) and before all of it is decompressed.
    time_bin = '/usr/bin/time' if os.access('/usr/bin/time', os.X_OK) else None
    for suffix, cmd in (('.zst', ['zstd', '-q', '-c', '-1']), ('.xz', ['xz', '-c', '-0'])):
        path = os.path.join(tmp, 'bomb.ko' + suffix)
        with open(path, 'wb') as f:
            subprocess.run(['sh', '-c', 'head -c 1073741824 /dev/zero | "$@"', 'sh'] + cmd,
                           stdout=f, check=True)
        args = t + ['--module', path]
        # Under AddressSanitizer (its shadow and quarantine) RSS says nothing of the bound.
        sanitized = b'__asan_init' in open(tool, 'rb').read()
        if time_bin and not sanitized:
            rss = os.path.join(tmp, 'rss')
            p = subprocess.run([time_bin, '-o', rss, '-f', '%M', tool] + args,
                               capture_output=True, text=True)
            kib = int(open(rss).read().split()[-1])
            if p.returncode != 3 or 'limit' not in p.stderr:
                sys.exit('FAIL bomb%s: exit %d\n  %s' % (suffix, p.returncode, p.stderr))
            if kib > 320 * 1024:
                sys.exit('FAIL bomb%s: peak RSS %d KiB, past the 256 MiB bound' % (suffix, kib))
            print('bomb%s: %d bytes refused, peak RSS %d KiB' % (suffix, os.path.getsize(path), kib))
        else:
            expect(tool, args, 3, 'bomb' + suffix)
        os.unlink(path)


def formats(tool, f):
    """One format decision per file (tests/data/format).

    A DER message that quotes PEM text is DER: the attacker's forgeries are
    judged as what they are (exit 2 against the trusted key, their own
    content when their own key is trusted); PEM is one block with only white
    space around it; a certificate file's blocks are taken from lines of
    their own, with explanatory text and ignored CRLs said on stderr."""
    t = ['--trust', os.path.join(f, 'trusted.pem')]
    cases = [('quoted.pem', 0), ('forged-content.der', 2), ('forged-unsigned-attr.der', 2),
             ('forged-trailing.der', 3), ('forged-leading.pem', 3), ('two-blocks.pem', 3),
             ('pem-content.der', 0)]
    for name, want in cases:
        expect(tool, t + [os.path.join(f, name)], want, 'format: ' + name)
    expect(tool, t + ['--inform', 'pem', os.path.join(f, 'forged-content.der')], 3,
           'format: DER given as --inform pem')
    out = expect(tool, ['--trust', os.path.join(f, 'attacker.pem'), '--json', '-q',
                        os.path.join(f, 'forged-content.der')], 0, 'format: attacker trusted')
    own = hashlib.sha256(open(os.path.join(f, 'content-attacker.bin'), 'rb').read()).hexdigest()
    if json.loads(out)['content_digest']['hex'] != own:
        sys.exit('FAIL format: the digest is not of the DER message\'s own content: %s' % out)
    quoted = os.path.join(f, 'quoted.pem')
    expect(tool, ['--trust', os.path.join(f, 'trust-text.pem'), quoted], 0,
           'format: a trust file with openssl x509 -text output')
    # A CRL in a trust file is kept for revocation (issue 27); one of an
    # issuer the chain does not have concerns nothing and says nothing.
    code, _, err = run(tool, ['--trust', os.path.join(f, 'trust-crl.pem'), quoted])
    if code != 0 or 'CRL' in err:
        sys.exit('FAIL format: a CRL in a trust file: exit %d, stderr %r' % (code, err))
    expect(tool, ['--trust', os.path.join(f, 'trust-midline.pem'), quoted], 3,
           'format: a BEGIN line inside a line is text, not a block')
    expect(tool, t + ['--certs', os.path.join(f, 'trust-crl.pem'), quoted], 0,
           'format: --certs with a CRL block')
    # Unusable trust certificates are skipped and named, unless --strict-trust.
    mixed = ['--trust', os.path.join(f, 'mixed.pem'), quoted]
    code, _, err = run(tool, mixed)
    if code != 0 or 'not supported' not in err:
        sys.exit('FAIL trust: an unusable certificate beside a good one: exit %d, %r' % (code, err))
    expect(tool, ['--strict-trust'] + mixed, 4, 'trust: --strict-trust')
    expect(tool, ['--trust', os.path.join(f, 'ed448.pem'), quoted], 4, 'trust: nothing usable')
    with tempfile.TemporaryDirectory() as d:
        for name in ('ed448.pem', 'trusted.pem'):
            open(os.path.join(d, name), 'wb').write(open(os.path.join(f, name), 'rb').read())
        expect(tool, ['--trust', d, quoted], 0, 'trust: a directory with an unusable certificate')
        expect(tool, ['--strict-trust', '--trust', d, quoted], 4, 'trust: strict directory')
    # --certs files are parsed in the sandbox, before the signature is read:
    # without a worker they fail there (70, the worker named as one that
    # cannot be run, not one that died), where an in-process parse would
    # have reached the missing signature (66); --no-sandbox parses here.
    env = dict(os.environ, VOUCH_PARSE_WORKER='/nonexistent/vouch-parse-worker')
    certs = t + ['--certs', os.path.join(f, 'attacker.pem')]
    p = subprocess.run([tool] + certs + ['/nonexistent.p7s'], capture_output=True, text=True,
                       env=env)
    if p.returncode != 70 or 'cannot be run: No such file' not in p.stderr:
        sys.exit('FAIL --certs outside the sandbox: exit %d, %r' % (p.returncode, p.stderr))
    p = subprocess.run([tool, '--no-sandbox'] + certs + [quoted], capture_output=True, text=True,
                       env=env)
    if p.returncode != 0:
        sys.exit('FAIL --certs with --no-sandbox: exit %d, %r' % (p.returncode, p.stderr))


# Rows whose verdict has changed since the vectors' manifests were written
# (the vectors are read-only): file -> (verdict, extra arguments, why).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
ROW_OVERRIDES = {
    ('gnutls', 'pkcs7-eddsa-sig.p7s'): (
        'ok', ['--trust', os.path.join(DATA, 'vectors-trust', 'gnutls-eddsa-signer.pem')],
        'Ed25519 signers (RFC 8419) are implemented; the manifest names no trust anchor, so '
        'the certificate the message carries is trusted (tests/data/vectors-trust/README.md); '
        'without it the verdict is "untrusted"'),
}


def manifests(tool, vectors):
    base = os.path.join(vectors, 'pkcs7')
    if not os.path.isdir(base):
        if checklib.CI:
            sys.exit('FAIL: CI=true but the vectors directory %s is missing' % base)
        print('vectors directory %s not found: skipped (set VOUCH_VECTORS)' % base)
        sys.exit(77)
    n = 0
    for project in sorted(os.listdir(base)):
        d = os.path.join(base, project)
        rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(d, 'manifest.tsv'))
                if l.strip() and not l.startswith('#')]
        for row in rows:
            # mbedtls: file content trusted expect note; gnutls adds check-time.
            f, content, trusted = row[0], row[1], row[2]
            check_time, verdict = (row[3], row[4]) if project == 'gnutls' else ('now', row[3])
            if verdict == 'parse-only':
                continue
            args = []
            for t in trusted.split(','):
                if t != '-':
                    args += ['--trust', os.path.join(d, t)]
            if content != '-':
                args += ['--content', os.path.join(d, content)]
            if verdict == 'expired' and check_time != '-':
                args.append('--check-time=' + check_time)
            sig = os.path.join(d, f)
            override = ROW_OVERRIDES.get((project, f))
            if override is not None:
                expect(tool, args + [sig], VERDICT_EXIT['untrusted'],
                       '%s/%s without a trust anchor' % (project, f))
                verdict, extra, _ = override
                args += extra
            if verdict == 'ok-with-sha1':
                expect(tool, args + [sig], 4, '%s/%s without --allow-sha1' % (project, f))
                expect(tool, args + ['--allow-sha1', sig], 0, '%s/%s' % (project, f))
            else:
                expect(tool, args + [sig], VERDICT_EXIT[verdict], '%s/%s (%s)' % (project, f, verdict))
            n += 1
    print('pkcs7verify manifests: %d rows as the vectors README says' % n)


def main():
    tool, mode, path = sys.argv[1:4]
    (fixtures if mode == 'fixtures' else manifests)(tool, path)


if __name__ == '__main__':
    main()
