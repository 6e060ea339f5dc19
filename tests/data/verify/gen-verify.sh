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

# narrow.pem    a self-signed certificate trusted in the tests: keyCertSign
#               only, extendedKeyUsage serverAuth, valid for one day
# doctored.der  content.bin signed (attached) by narrow.pem's key, carrying a
#               doctored copy of narrow.pem: same subject, serial and key, but
#               digitalSignature, codeSigning and a century of validity. Only
#               the keyring's copy may decide purpose, deny list and time.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/narrow.key" \
	-subj "/CN=vouch narrow signer" -set_serial 0x4e4152524f57 -days 1 \
	-addext "keyUsage=critical,keyCertSign" -addext "extendedKeyUsage=serverAuth" \
	-out narrow.pem 2>/dev/null
openssl req -x509 -new -key "$tmp/narrow.key" -subj "/CN=vouch narrow signer" \
	-set_serial 0x4e4152524f57 -days 36500 -addext "keyUsage=critical,digitalSignature" \
	-addext "extendedKeyUsage=codeSigning" -out "$tmp/doctored.pem"
openssl cms -sign -binary -nodetach -in ../pkcs7/content.bin -signer "$tmp/doctored.pem" \
	-inkey "$tmp/narrow.key" -md sha256 -nosmimecap -outform DER -out doctored.der
