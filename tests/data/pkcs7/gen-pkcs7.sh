#!/bin/sh
# Makes the PKCS#7 fixtures of tests/test_pkcs7.c with the OpenSSL CLI
# (test-only); the outputs are committed. Run from this directory.
#
#   signer.pem            a self-signed RSA-2048 signer certificate (key thrown away)
#   ec-signer.pem         the same for P-256
#   content.bin           the signed content (20 KiB, so -stream chunks it)
#   attached.der          DER, content attached, signedAttrs
#   detached.der          DER, content detached
#   stream.ber            BER from `cms -sign -stream`: indefinite lengths, chunked content
#   skid.der              signer identified by subjectKeyIdentifier (SignedData v3)
#   noattr.der            no signedAttrs (`-noattr`), as kernel module signatures
#   two-signers.der       RSA and ECDSA signers
#   certs-only.der        a degenerate SignedData: certificates, no signers
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 -c 'import hashlib, sys; sys.stdout.buffer.write(b"".join(hashlib.sha256(b"vouch pkcs7 %d" % i).digest() for i in range(640)))' > content.bin

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/rsa.key" -subj "/CN=vouch test signer" \
	-days 36500 -addext "keyUsage=digitalSignature" -out signer.pem 2>/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/ec.key" \
	-subj "/CN=vouch test EC signer" -days 36500 -out ec-signer.pem 2>/dev/null

sign() {  # output, extra options...
	out=$1; shift
	openssl cms -sign -binary -in content.bin -signer signer.pem -inkey "$tmp/rsa.key" \
		-md sha256 -nosmimecap "$@" -out "$out"
}

sign attached.der -nodetach -outform DER
sign detached.der -outform DER
sign stream.ber -nodetach -stream -outform DER
sign skid.der -nodetach -keyid -outform DER
sign noattr.der -noattr -outform DER
openssl cms -sign -binary -in content.bin -signer signer.pem -inkey "$tmp/rsa.key" \
	-signer ec-signer.pem -inkey "$tmp/ec.key" -md sha256 -nosmimecap -outform DER \
	-out two-signers.der
openssl crl2pkcs7 -nocrl -certfile signer.pem -certfile ec-signer.pem -outform DER -out certs-only.der
