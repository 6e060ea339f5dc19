#!/bin/sh
# Makes the firmware fixtures of tests/test_fw.c, tests/check_fwcheck.py
# and tools/demo with the OpenSSL CLI (test-only); the outputs are
# committed. Run from this directory. The keys are thrown away.
#
#   signer.pem         RSA-2048 signer, keyUsage digitalSignature, EKU codeSigning
#   ec-signer.pem      P-256 signer, EKU codeSigning
#   server.pem         RSA-2048, EKU serverAuth only (fails purpose codesign)
#   stranger.pem       RSA-2048 signer nobody trusts
#   blob.bin           4 KiB of firmware; blob.bin.p7s its detached signature
#                      (signed attributes, SHA-256, by signer.pem)
#   blob.sha384.p7s    the same with SHA-384;  blob.ec.p7s by ec-signer.pem
#   blob.pem.p7s       blob.bin.p7s as PEM;    blob.server.p7s by server.pem
#   blob.stranger.p7s  by stranger.pem;        other.bin(.p7s) another signed blob
#   blob.attached.p7s  the content attached
#   ed-signer.pem      Ed25519 signer, EKU codeSigning; blob.ed25519.p7s its
#                      detached signature (signed attributes, SHA-512, RFC
#                      8419) made by GnuTLS's certtool, as OpenSSL 3.0's CMS
#                      cannot sign with Ed25519
#   sha3-signer.pem    RSA-2048 signer whose own certificate is signed over
#                      SHA3-256; blob.sha3-256.p7s its signature with SHA3-256
#   module.ko          a module-style blob: content, PKCS#7 without attributes,
#                      struct module_signature, "~Module signature appended~\n"
#   tree/lib/firmware/vouch/  the demo's firmware tree: signed.bin(.p7s),
#                      tampered.bin(.p7s: signed.bin's), unsigned.bin,
#                      allowed.bin, denied.bin(.p7s)
#   demo.policy        the demo's policy (its allow and deny digests)
#   bench-mldsa65.pem, bench-mldsa65-SIZE.p7s (1 MiB, 4 MiB, 64 MiB)
#                      the ML-DSA-65 counterparts without signed attributes
#                      (fw-check-mldsa65, test_fw), which OpenSSL 3.0 cannot
#                      make: tests/interop/mldsa/gen-mldsa.mjs --bench --seed 1
#   bench-SIZE.p7s     vouch-bench's fw-check inputs: detached signatures by
#                      signer.pem over SIZE (1 MiB, 64 MiB) bytes of
#                      tools/bench_content.h's content (byte i = (i * 131 + 7)
#                      mod 256), which the benchmark makes again at run time
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bytes() {  # label count: deterministic bytes
	python3 -c 'import hashlib, sys; sys.stdout.buffer.write(b"".join(hashlib.sha256(b"%s %d" % (sys.argv[1].encode(), i)).digest() for i in range(int(sys.argv[2]))))' "$1" "$2"
}
cert() {  # name key-options extensions...
	name=$1 keyopt=$2; shift 2
	openssl req -x509 $keyopt -nodes -keyout "$tmp/$name.key" -subj "/CN=vouch fw $name" \
		-days 36500 "$@" -out "$name.pem" 2>/dev/null
}
sign() {  # input signer output options...
	in=$1 who=$2 out=$3; shift 3
	openssl cms -sign -binary -in "$in" -signer "$who.pem" -inkey "$tmp/$who.key" \
		-nosmimecap -outform DER -out "$out" "$@"
}

cert signer "-newkey rsa:2048" -addext "keyUsage=critical,digitalSignature" \
	-addext "extendedKeyUsage=codeSigning"
cert ec-signer "-newkey ec -pkeyopt ec_paramgen_curve:P-256" -addext "extendedKeyUsage=codeSigning"
cert server "-newkey rsa:2048" -addext "extendedKeyUsage=serverAuth"
cert stranger "-newkey rsa:2048" -addext "extendedKeyUsage=codeSigning"

bytes "vouch fw blob" 128 > blob.bin
bytes "vouch fw other" 64 > other.bin
sign blob.bin signer blob.bin.p7s -md sha256
sign blob.bin signer blob.sha384.p7s -md sha384
sign blob.bin ec-signer blob.ec.p7s -md sha256
sign blob.bin server blob.server.p7s -md sha256
sign blob.bin stranger blob.stranger.p7s -md sha256
sign blob.bin signer blob.attached.p7s -md sha256 -nodetach
sign other.bin signer other.bin.p7s -md sha256
openssl cms -cmsout -in blob.bin.p7s -inform DER -outform PEM -out blob.pem.p7s

# Ed25519 and SHA-3 signers.
openssl req -x509 -newkey ed25519 -nodes -keyout "$tmp/ed-signer.key" \
	-subj "/CN=vouch fw ed-signer" -days 36500 -addext "extendedKeyUsage=codeSigning" \
	-out ed-signer.pem 2>/dev/null
certtool --p7-detached-sign --p7-time --outder --load-privkey "$tmp/ed-signer.key" \
	--load-certificate ed-signer.pem --infile blob.bin --outfile blob.ed25519.p7s >/dev/null
cert sha3-signer "-newkey rsa:2048" -sha3-256 -addext "extendedKeyUsage=codeSigning"
sign blob.bin sha3-signer blob.sha3-256.p7s -md sha3-256

# A module-style blob, as scripts/sign-file writes it.
bytes "vouch fw module" 96 > "$tmp/module.bin"
sign "$tmp/module.bin" signer "$tmp/module.p7s" -md sha256 -noattr
python3 - "$tmp/module.bin" "$tmp/module.p7s" module.ko <<'PY'
import struct, sys
content = open(sys.argv[1], 'rb').read()
sig = open(sys.argv[2], 'rb').read()
trailer = struct.pack('>BBBBB3xI', 0, 0, 2, 0, 0, len(sig))
open(sys.argv[3], 'wb').write(content + sig + trailer + b'~Module signature appended~\n')
PY

t=tree/lib/firmware/vouch
rm -rf tree
mkdir -p "$t"
bytes "vouch demo signed" 256 > "$t/signed.bin"
sign "$t/signed.bin" signer "$t/signed.bin.p7s" -md sha256
cp "$t/signed.bin" "$t/tampered.bin"
printf 'X' | dd of="$t/tampered.bin" bs=1 seek=1000 conv=notrunc 2>/dev/null
cp "$t/signed.bin.p7s" "$t/tampered.bin.p7s"
bytes "vouch demo unsigned" 256 > "$t/unsigned.bin"
bytes "vouch demo allowed" 256 > "$t/allowed.bin"
bytes "vouch demo denied" 256 > "$t/denied.bin"
sign "$t/denied.bin" signer "$t/denied.bin.p7s" -md sha256

allowed=$(sha256sum "$t/allowed.bin" | cut -d' ' -f1)
denied=$(sha256sum "$t/denied.bin" | cut -d' ' -f1)
cat > demo.policy <<POLICY
# The demo's firmware policy (vouch-fw-policy(5)): signatures by
# signer.pem required, one digest allowed unsigned, one denied.
mode enforce
keyring signer.pem
allow sha256:$allowed vouch/*
deny sha256:$denied
signature detached
max-size 16M
hash sha256 sha384
purpose codesign
POLICY

for size in 1048576 67108864; do
	python3 -c 'import sys; n = int(sys.argv[1]); sys.stdout.buffer.write(bytes((i * 131 + 7) & 255 for i in range(256)) * (n // 256))' "$size" > "$tmp/bench.bin"
	sign "$tmp/bench.bin" signer "bench-$size.p7s" -md sha256
done
