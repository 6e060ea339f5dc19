#!/bin/sh
# Makes the PE fixtures of the firmware checker's `signature pe` rules
# (tests/test_fw.c, tests/check_fwcheck.py) with python3, the OpenSSL CLI,
# sbsign/sbattach (sbsigntool) and osslsigncode, all test-only; the outputs
# are committed. Run from this directory. The keys are thrown away.
#
#   pe-signer.pem      RSA-2048 signer, keyUsage digitalSignature, EKU codeSigning
#   pe-ec-signer.pem   P-256 signer, EKU codeSigning
#   pe-unsigned.efi    a small EFI application (PE32+, x86-64, three
#                      sections of 0x200 bytes from file offset 0x200), made
#                      by tests/interop/pe/gen-pe.py; no certificate table
#   pe-signed.efi      pe-unsigned.efi signed by pe-signer.pem with sbsign
#                      (Authenticode SHA-256, RSA PKCS#1 v1.5)
#   pe-mixed.efi       pe-signed.efi with a second certificate-table entry:
#                      the same image signed by pe-ec-signer.pem (ECDSA,
#                      SHA-256) with osslsigncode, attached with sbattach
set -eu
umask 022
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cert() {  # name key-options extensions...
	name=$1 keyopt=$2; shift 2
	openssl req -x509 $keyopt -nodes -keyout "$tmp/$name.key" -subj "/CN=vouch fw $name" \
		-days 36500 "$@" -out "$name.pem" 2>/dev/null
}

cert pe-signer "-newkey rsa:2048" -addext "keyUsage=critical,digitalSignature" \
	-addext "extendedKeyUsage=codeSigning"
cert pe-ec-signer "-newkey ec -pkeyopt ec_paramgen_curve:P-256" \
	-addext "extendedKeyUsage=codeSigning"

# The image: tests/interop/pe/gen-pe.py's EFI application (PE32+, x86-64,
# .text, .data and .reloc of 0x200 bytes each after 0x200 bytes of headers).
python3 ../../interop/pe/gen-pe.py pe-unsigned.efi

sbsign --key "$tmp/pe-signer.key" --cert pe-signer.pem --output pe-signed.efi \
	pe-unsigned.efi 2>/dev/null
osslsigncode sign -certs pe-ec-signer.pem -key "$tmp/pe-ec-signer.key" -h sha256 \
	-in pe-unsigned.efi -out "$tmp/ec.efi" >/dev/null
osslsigncode extract-signature -in "$tmp/ec.efi" -out "$tmp/ec.p7" >/dev/null
cp pe-signed.efi pe-mixed.efi
sbattach --attach "$tmp/ec.p7" pe-mixed.efi >/dev/null 2>&1
