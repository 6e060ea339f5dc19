#!/bin/sh
# Makes the public-key fixtures of tests/test_pubkey.c with the OpenSSL
# CLI (test-only). Run from this directory; the outputs are committed, so
# the tests never need OpenSSL. Private keys are thrown away.
#
#   NAME.pub.pem / NAME.pub.der  the SubjectPublicKeyInfo
#   NAME.sig                     a signature over msg.txt (see below)
set -eu
umask 077
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'vouch public-key fixture message\n' > msg.txt

key() {  # name, genpkey arguments...
	name=$1; shift
	openssl genpkey -quiet "$@" -out "$tmp/$name.key"
	openssl pkey -in "$tmp/$name.key" -pubout -out "$name.pub.pem"
	openssl pkey -in "$tmp/$name.key" -pubout -outform DER -out "$name.pub.der"
}

sign() {  # name, digest, extra pkeyutl options...
	name=$1 md=$2; shift 2
	openssl dgst "-$md" -binary msg.txt > "$tmp/digest"
	openssl pkeyutl -sign -inkey "$tmp/$name.key" -in "$tmp/digest" \
		-pkeyopt "digest:$md" "$@" -out "$name.sig"
}

key rsa2048 -algorithm RSA -pkeyopt rsa_keygen_bits:2048
sign rsa2048 sha256                                   # PKCS#1 v1.5, SHA-256

key rsa1024 -algorithm RSA -pkeyopt rsa_keygen_bits:1024
sign rsa1024 sha256                                   # legacy size

# An id-RSASSA-PSS key restricted to SHA-256, MGF1-SHA-256, salt >= 32.
key rsapss -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 \
	-pkeyopt rsa_pss_keygen_md:sha256 -pkeyopt rsa_pss_keygen_mgf1_md:sha256 \
	-pkeyopt rsa_pss_keygen_saltlen:32
sign rsapss sha256 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:32

key ec256 -algorithm EC -pkeyopt ec_paramgen_curve:P-256
sign ec256 sha256                                     # DER ECDSA-Sig-Value

key ec384 -algorithm EC -pkeyopt ec_paramgen_curve:P-384
sign ec384 sha384

# A curve vouch does not implement, and one with explicit parameters.
key secp256k1 -algorithm EC -pkeyopt ec_paramgen_curve:secp256k1
key ec256explicit -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
	-pkeyopt ec_param_enc:explicit

# Pure Ed25519 (RFC 8032): the signature is over the message itself.
key ed25519 -algorithm ED25519
openssl pkeyutl -sign -rawin -inkey "$tmp/ed25519.key" -in msg.txt -out ed25519.sig
