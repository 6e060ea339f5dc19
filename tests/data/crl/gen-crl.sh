#!/bin/sh
# Makes the CRL fixtures of tests/test_crl.c with `openssl ca` (OpenSSL 3):
# a P-256 test CA, three issued certificates, and CRLs:
#   revoked.crl.pem    v2, three entries (keyCompromise + invalidityDate,
#                      superseded, no reason), cRLNumber, AKID; its DER is
#                      revoked.crl.der
#   empty.crl.pem      v2, nothing revoked (no revokedCertificates field)
#   no-next.crl.pem    v2, no nextUpdate: empty.crl re-signed without it
#                      (strip-next-update.py: `openssl ca` always writes one)
#   critical.crl.pem   v2 with a critical extension 1.2.3.4 (via -crlexts)
#   ca.pem             the CA certificate (the CRLs' issuer)
#   leaf1.pem          a certificate the CA issued and revoked.crl lists
# Run it from this directory; keys and the CA database are temporary.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/ca.cnf" <<CNF
[ ca ]
default_ca = test
[ test ]
dir = $tmp
database = $tmp/index.txt
new_certs_dir = $tmp
certificate = $tmp/ca.pem
private_key = $tmp/ca.key
serial = $tmp/serial
crlnumber = $tmp/crlnumber
default_md = sha256
default_days = 3650
policy = any
copy_extensions = none
[ any ]
commonName = supplied
[ crl_ext ]
authorityKeyIdentifier = keyid:always
[ crl_critical ]
authorityKeyIdentifier = keyid:always
1.2.3.4 = critical,ASN1:NULL
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = vouch test CRL CA
[ v3_ca ]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
CNF
: > "$tmp/index.txt"
echo 1000 > "$tmp/serial"
echo 01 > "$tmp/crlnumber"
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/ca.key"
openssl req -new -x509 -config "$tmp/ca.cnf" -extensions v3_ca -key "$tmp/ca.key" \
	-days 3650 -out "$tmp/ca.pem"
for i in 1 2 3; do
	openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/leaf$i.key"
	openssl req -new -key "$tmp/leaf$i.key" -subj "/CN=leaf $i" -out "$tmp/leaf$i.csr"
	openssl ca -batch -config "$tmp/ca.cnf" -in "$tmp/leaf$i.csr" -out "$tmp/leaf$i.pem" \
		2>/dev/null
done
gencrl() {
	openssl ca -config "$tmp/ca.cnf" -gencrl -crldays 30 "$@" 2>/dev/null
}
gencrl -crlexts crl_ext -out empty.crl.pem
openssl crl -in empty.crl.pem -outform DER -out "$tmp/empty.der"
./strip-next-update.py "$tmp/empty.der" "$tmp/ca.key" "$tmp/no-next.der"
openssl crl -inform DER -in "$tmp/no-next.der" -out no-next.crl.pem
openssl ca -config "$tmp/ca.cnf" -revoke "$tmp/leaf1.pem" -crl_compromise 20240102030405Z 2>/dev/null
openssl ca -config "$tmp/ca.cnf" -revoke "$tmp/leaf2.pem" -crl_reason superseded 2>/dev/null
openssl ca -config "$tmp/ca.cnf" -revoke "$tmp/leaf3.pem" 2>/dev/null
gencrl -crlexts crl_ext -out revoked.crl.pem
openssl crl -in revoked.crl.pem -outform DER -out revoked.crl.der
gencrl -crlexts crl_critical -out critical.crl.pem
cp "$tmp/ca.pem" ca.pem
cp "$tmp/leaf1.pem" leaf1.pem
