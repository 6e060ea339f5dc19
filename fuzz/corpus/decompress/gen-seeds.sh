#!/bin/sh
# The seeds of fuzz_decompress: one byte choosing the format (0 xz, 1 zstd,
# 2 gzip; fuzz/fuzz_decompress.c), then a stream made by the xz, zstd and
# gzip CLIs (Debian xz-utils, zstd, gzip) from a small module-like text.
# Run from this directory: sh gen-seeds.sh
set -eu
body() { printf 'module_init vouch %.0s' $(seq 1 200); printf '~Module signature appended~\n'; }
seed() { printf "\\$(printf %03o "$1")" > "$2"; cat >> "$2"; }
body | xz -c --check=crc32 --lzma2=dict=1MiB | seed 0 module.xz
body | xz -c --check=crc64 | seed 0 crc64.xz
printf '' | xz -c | seed 0 empty.xz
body | zstd -q -c --check | seed 1 module.zst
body | zstd -q -c --no-check -19 | seed 1 nocheck.zst
printf '' | zstd -q -c | seed 1 empty.zst
body | gzip -n -c | seed 2 module.gz
printf '' | gzip -n -c | seed 2 empty.gz
# A zstd frame header claiming 1 TiB (single segment), and a 1 MiB zero bomb each.
printf '\001\050\265\057\375\340\000\000\000\000\000\001\000\000\201\000\000AAAAAAAAAAAAAAAA' > zstd-1tib.zst
head -c 1048576 /dev/zero | xz -c | seed 0 zeros.xz
head -c 1048576 /dev/zero | zstd -q -c | seed 1 zeros.zst
head -c 1048576 /dev/zero | gzip -n -c | seed 2 zeros.gz
