#!/bin/sh
# Seeds of fuzz_revocation (see the format at the top of
# fuzz/fuzz_revocation.c): the rv-*.crl fixtures of
# tests/data/verify/gen-revocation.py, alone and in the combinations the
# verifier decides differently, under each flags byte. Run from anywhere
# after the fixtures change:   sh fuzz/corpus/revocation/gen-seeds.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python3 - "$here" "$here/../../../tests/data/verify" <<'PY'
import glob, os, sys

out, data = sys.argv[1], sys.argv[2]
for old in glob.glob(os.path.join(out, "*.bin")):
    os.remove(old)

def crl(name):
    with open(os.path.join(data, name + ".crl"), "rb") as f:
        return f.read()

def seed(fname, flags, names):
    body = bytes([flags])
    for n in names:
        der = crl(n)
        body += len(der).to_bytes(2, "big") + der
    with open(os.path.join(out, fname + ".bin"), "wb") as f:
        f.write(body)

modes = {0: "none", 1: "chain", 2: "leaf"}
singles = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(data, "rv-*.crl")))
for m, word in modes.items():
    for n in singles:
        seed("%s-%s" % (word, n), m, [n])
    combos = {
        "good": ["rv-int", "rv-root"],
        "by-signer": ["rv-int-by-signer-clean", "rv-root"],
        "signer-revoked": ["rv-int-by-signer-clean", "rv-root-revokes-signer"],
        "leaf-revoked": ["rv-int", "rv-int-revokes-leaf", "rv-root"],
        "int-revoked": ["rv-int", "rv-root-revokes-int"],
        "wrong-and-good": ["rv-int-wrong-key", "rv-int-expired", "rv-int", "rv-root"],
    }
    for c, names in combos.items():
        seed("%s-%s" % (word, c), m, names)
PY
