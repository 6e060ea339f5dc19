#!/bin/sh
# Makes the trust-anchor fixtures of tests/test_verify.c
# with the OpenSSL CLI; the outputs are committed. Run from this directory.
#
# Debian's Secure Boot CA carries a critical Netscape Cert Type extension
# (2.16.840.1.113730.1.1), which vouch does not implement. These stand in
# for it:
#
#   nscert-ca.pem   a self-signed CA with a critical nsCertType (objCA)
#   nscert.der      content.bin signed (attached) by a leaf that
#                   nscert-ca.pem issued, the leaf inside: trusted with
#                   nscert-ca.pem as the anchor, it must verify
#   plain-ca.pem    a self-signed CA without the extension
#   nscert-int.der  content.bin signed (attached) by a leaf below an
#                   intermediate CA that plain-ca.pem issued and that
#                   carries the critical nsCertType; leaf and intermediate
#                   inside. With plain-ca.pem as the anchor the extension
#                   is on the path: refused. With the intermediate as the
#                   anchor (nscert-int-ca.pem) it is not: verified.
#   nscert-int-ca.pem  that intermediate
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
content=../pkcs7/content.bin

# ca NAME SUBJECT [EXTRA -addext...]: a self-signed CA, key in $tmp.
ca() {
	name=$1 subj=$2
	shift 2
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/$name.key" -subj "$subj" \
		-days 36500 -addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign" "$@" -out "$name.pem" 2>/dev/null
	cp "$name.pem" "$tmp/$name.pem"
}

# issue NAME SUBJECT ISSUER EXT-SECTION OUT: a certificate that ISSUER
# ($tmp/ISSUER.pem, key $tmp/ISSUER.key) signs, its key in $tmp.
issue() {
	openssl req -new -newkey rsa:2048 -nodes -keyout "$tmp/$1.key" -subj "$2" \
		-out "$tmp/$1.csr" 2>/dev/null
	openssl x509 -req -in "$tmp/$1.csr" -CA "$tmp/$3.pem" -CAkey "$tmp/$3.key" \
		-CAcreateserial -CAserial "$tmp/serial" -days 36500 \
		-extfile "$tmp/ext.cnf" -extensions "$4" -out "$5" 2>/dev/null
}

cat > "$tmp/ext.cnf" <<'CNF'
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
[nsca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign
nsCertType = critical, objCA
CNF

ca nscert-ca "/CN=vouch nsCertType CA" -addext "nsCertType=critical,objCA"
issue leaf "/CN=vouch nsCertType leaf" nscert-ca leaf "$tmp/leaf.pem"
openssl cms -sign -binary -nodetach -in "$content" -signer "$tmp/leaf.pem" \
	-inkey "$tmp/leaf.key" -md sha256 -nosmimecap -outform DER -out nscert.der

ca plain-ca "/CN=vouch plain CA"
issue int "/CN=vouch nsCertType intermediate" plain-ca nsca nscert-int-ca.pem
cp nscert-int-ca.pem "$tmp/int.pem"
issue leaf2 "/CN=vouch leaf below nsCertType" int leaf "$tmp/leaf2.pem"
openssl cms -sign -binary -nodetach -in "$content" -signer "$tmp/leaf2.pem" \
	-inkey "$tmp/leaf2.key" -certfile nscert-int-ca.pem -md sha256 -nosmimecap \
	-outform DER -out nscert-int.der
