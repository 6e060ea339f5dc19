#!/bin/sh
# Makes the parse-benchmark inputs of vouch-bench (x509-parse,
# pkcs7-parse) with the OpenSSL CLI; the outputs are committed, and
# tools/embed-data.py turns them into C arrays at build time.
#
#   leaf.der     an RSA-2048 leaf certificate issued by an intermediate CA
#   pkcs7-2.der  SignedData (RSA-2048, SHA-256, signed attributes) with 2
#                certificates: the leaf and the intermediate
#   pkcs7-3.der  the same with the 3-certificate chain: leaf, intermediate, root
#   root.der     the root, for the verification figures' keyring
#   verify-{rsa2048,p256}-{4096,1048576}.der
#               detached SignedData over SIZE bytes of tools/bench_content.h's
#               content (byte i = (i * 131 + 7) mod 256), signed attributes,
#               SHA-256, by an RSA-2048 or a P-256 leaf whose certificate (issued
#               by the intermediate) and the intermediate's are in the message
#   root-mldsa65.der, verify-mldsa65-{4096,1048576}.der
#               the ML-DSA-65 counterparts, which OpenSSL 3.0 cannot make: made
#               by tests/interop/mldsa/gen-mldsa.mjs --bench --seed 1 (node and
#               @noble/post-quantum, see that file), not by this script
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$(dirname "$0")"

cat > "$tmp/ca.ext" <<'X'
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
X
cat > "$tmp/leaf.ext" <<'X'
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = codeSigning
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
X
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/root.key" -subj "/O=vouch/CN=bench root" \
	-days 36500 -out "$tmp/root.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$tmp/int.key" -subj "/O=vouch/CN=bench intermediate" \
	-out "$tmp/int.csr" 2>/dev/null
openssl x509 -req -in "$tmp/int.csr" -CA "$tmp/root.pem" -CAkey "$tmp/root.key" -set_serial 2 \
	-days 36500 -extfile "$tmp/ca.ext" -out "$tmp/int.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$tmp/leaf.key" -subj "/O=vouch/CN=bench signer" \
	-out "$tmp/leaf.csr" 2>/dev/null
openssl x509 -req -in "$tmp/leaf.csr" -CA "$tmp/int.pem" -CAkey "$tmp/int.key" -set_serial 3 \
	-days 36500 -extfile "$tmp/leaf.ext" -out "$tmp/leaf.pem" 2>/dev/null
openssl x509 -in "$tmp/leaf.pem" -outform DER -out leaf.der
openssl x509 -in "$tmp/root.pem" -outform DER -out root.der
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/ec.key" \
	-subj "/O=vouch/CN=bench EC signer" -out "$tmp/ec.csr" 2>/dev/null
openssl x509 -req -in "$tmp/ec.csr" -CA "$tmp/int.pem" -CAkey "$tmp/int.key" -set_serial 4 \
	-days 36500 -extfile "$tmp/leaf.ext" -out "$tmp/ec.pem" 2>/dev/null

printf 'vouch parse benchmark content\n' > "$tmp/content"
openssl cms -sign -binary -in "$tmp/content" -signer "$tmp/leaf.pem" -inkey "$tmp/leaf.key" \
	-certfile "$tmp/int.pem" -md sha256 -nosmimecap -outform DER -out pkcs7-2.der
cat "$tmp/int.pem" "$tmp/root.pem" > "$tmp/chain.pem"
openssl cms -sign -binary -in "$tmp/content" -signer "$tmp/leaf.pem" -inkey "$tmp/leaf.key" \
	-certfile "$tmp/chain.pem" -md sha256 -nosmimecap -outform DER -out pkcs7-3.der

for size in 4096 1048576; do
	python3 -c 'import sys; n = int(sys.argv[1]); sys.stdout.buffer.write(bytes((i * 131 + 7) % 256 for i in range(n)))' \
		"$size" > "$tmp/content-$size"
	for kind in rsa2048 p256; do
		if [ "$kind" = rsa2048 ]; then cert=leaf key=leaf; else cert=ec key=ec; fi
		openssl cms -sign -binary -in "$tmp/content-$size" -signer "$tmp/$cert.pem" \
			-inkey "$tmp/$key.key" -certfile "$tmp/int.pem" -md sha256 -nosmimecap \
			-outform DER -out "verify-$kind-$size.der"
	done
done
