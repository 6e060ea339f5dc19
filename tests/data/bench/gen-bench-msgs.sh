#!/bin/sh
# Makes the parse-benchmark inputs of vouch-bench (x509-parse,
# pkcs7-parse) with the OpenSSL CLI; the outputs are committed, and
# tools/embed-data.py turns them into C arrays at build time.
#
#   leaf.der     an RSA-2048 leaf certificate issued by an intermediate CA
#   pkcs7-2.der  SignedData (RSA-2048, SHA-256, signed attributes) with 2
#                certificates: the leaf and the intermediate
#   pkcs7-3.der  the same with the 3-certificate chain: leaf, intermediate, root
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

printf 'vouch parse benchmark content\n' > "$tmp/content"
openssl cms -sign -binary -in "$tmp/content" -signer "$tmp/leaf.pem" -inkey "$tmp/leaf.key" \
	-certfile "$tmp/int.pem" -md sha256 -nosmimecap -outform DER -out pkcs7-2.der
cat "$tmp/int.pem" "$tmp/root.pem" > "$tmp/chain.pem"
openssl cms -sign -binary -in "$tmp/content" -signer "$tmp/leaf.pem" -inkey "$tmp/leaf.key" \
	-certfile "$tmp/chain.pem" -md sha256 -nosmimecap -outform DER -out pkcs7-3.der
