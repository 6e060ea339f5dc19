#!/bin/sh
# Makes the verification fixtures of tests/test_verify.c with the OpenSSL
# CLI; the outputs are committed. Run from this directory.
#
#   clone.pem  a certificate with the subject, serial and subjectKeyIdentifier
#              of ../pkcs7/signer.pem but another key (self-signed by it)
#   clone.der  content.bin signed (attached) by that key, clone.pem inside:
#              issuer, serial and key identifiers point at the trusted
#              signer.pem, only the key differs
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

signer=../pkcs7/signer.pem
subject=$(openssl x509 -in "$signer" -noout -subject -nameopt compat | sed 's/^subject=//')
serial=$(openssl x509 -in "$signer" -noout -serial | sed 's/^serial=//')
skid=$(openssl x509 -in "$signer" -noout -ext subjectKeyIdentifier | sed -n 2p | tr -d ' :')

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/clone.key" -subj "$subject" \
	-set_serial "0x$serial" -days 36500 -addext "keyUsage=digitalSignature" \
	-addext "subjectKeyIdentifier=$skid" -out clone.pem 2>/dev/null
openssl cms -sign -binary -nodetach -in ../pkcs7/content.bin -signer clone.pem \
	-inkey "$tmp/clone.key" -md sha256 -nosmimecap -outform DER -out clone.der
