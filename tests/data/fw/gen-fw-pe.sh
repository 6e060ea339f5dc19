#!/bin/sh
# Makes the PE fixtures of the firmware checker's `signature pe` rules
# (tests/test_fw.c, tests/check_fwcheck.py) with python3, the OpenSSL CLI,
# sbsign/sbattach (sbsigntool) and osslsigncode, all test-only; the outputs
# are committed. Run from this directory. The keys are thrown away.
#
#   pe-signer.pem      RSA-2048 signer, keyUsage digitalSignature, EKU codeSigning
#   pe-ec-signer.pem   P-256 signer, EKU codeSigning
#   pe-unsigned.efi    a small EFI application (PE32+, x86-64, one .text
#                      section of 1 KiB at file offset 0x200), written below
#                      without a compiler; no certificate table
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

# The smallest layout sbsign and vouch's PE reader take: the MS-DOS header
# (e_lfanew 0x40), "PE\0\0", the COFF header, a PE32+ optional header with
# 16 empty data directories, one section header; headers padded to the
# file alignment (0x200), then the section's raw data.
python3 - pe-unsigned.efi <<'PY'
import struct, sys

FILE_ALIGN, SECT_ALIGN = 0x200, 0x1000
text = bytes((i * 7 + 3) & 255 for i in range(1024))
text += bytes(-len(text) % FILE_ALIGN)
dos = bytearray(64)
dos[0:2] = b'MZ'
struct.pack_into('<I', dos, 0x3c, len(dos))
# Machine x86-64, 1 section, SizeOfOptionalHeader 240, EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE.
coff = struct.pack('<HHIIIHH', 0x8664, 1, 0, 0, 0, 240, 0x0022)
# Magic PE32+, SizeOfCode, AddressOfEntryPoint and BaseOfCode at the section.
opt = struct.pack('<HBBIIIII', 0x20b, 0, 0, len(text), 0, 0, SECT_ALIGN, SECT_ALIGN)
size_of_image = SECT_ALIGN + -(-len(text) // SECT_ALIGN) * SECT_ALIGN
# ImageBase 0, alignments, versions, SizeOfImage, SizeOfHeaders, CheckSum 0,
# Subsystem 10 (EFI application), stack and heap sizes, 16 data directories.
opt += struct.pack('<QIIHHHHHHIIIIHHQQQQII', 0, SECT_ALIGN, FILE_ALIGN, 0, 0, 0, 0, 0, 0, 0,
                   size_of_image, FILE_ALIGN, 0, 10, 0,
                   0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
opt += bytes(16 * 8)
assert len(opt) == 240
# .text: code, execute, read.
section = struct.pack('<8sIIIIIIHHI', b'.text', len(text), SECT_ALIGN, len(text), FILE_ALIGN,
                      0, 0, 0, 0, 0x60000020)
headers = bytes(dos) + b'PE\0\0' + coff + opt + section
headers += bytes(FILE_ALIGN - len(headers))
open(sys.argv[1], 'wb').write(headers + text)
PY

sbsign --key "$tmp/pe-signer.key" --cert pe-signer.pem --output pe-signed.efi \
	pe-unsigned.efi 2>/dev/null
osslsigncode sign -certs pe-ec-signer.pem -key "$tmp/pe-ec-signer.key" -h sha256 \
	-in pe-unsigned.efi -out "$tmp/ec.efi" >/dev/null
osslsigncode extract-signature -in "$tmp/ec.efi" -out "$tmp/ec.p7" >/dev/null
cp pe-signed.efi pe-mixed.efi
sbattach --attach "$tmp/ec.p7" pe-mixed.efi >/dev/null 2>&1
