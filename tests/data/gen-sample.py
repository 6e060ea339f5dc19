#!/usr/bin/env python3
"""Make sample-firmware.bin, the demo's stand-in for a firmware blob:
65 536 bytes of SHA-256 in counter mode over a fixed label, so anyone can
regenerate the same bytes.  usage: gen-sample.py > sample-firmware.bin"""
import hashlib
import sys

out = b''.join(hashlib.sha256(b'vouch sample firmware %d' % i).digest() for i in range(2048))
sys.stdout.buffer.write(out)
