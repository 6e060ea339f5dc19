#!/usr/bin/env python3
"""Recipe for the Ed25519 constants of tests/test_ed25519.c that are not
RFC 8032's own vectors. Run it and compare with the test's tables:

    python3 tests/data/ed25519/gen-test-data.py

- the encodings of the 8 points of small order (the torsion subgroup),
  found from the curve equation (RFC 8032 §5.1, pure integer arithmetic);
- the first y values (from 2) that are not the y of any point (no square
  root in RFC 8032 §5.1.3 step 3);
- a signature over a long message (1 MiB of bytes (i * 31 + 7) mod 251,
  i from 0) by the key of seed 32 x 0x42, made with Python's
  "cryptography" package (OpenSSL); Ed25519 signing is deterministic, so
  the output is the same on every run.
"""
p = 2**255 - 19
d = -121665 * pow(121666, p - 2, p) % p
sqrtm1 = pow(2, (p - 1) // 4, p)


def recover_x(y, sign):
    x2 = (y * y - 1) * pow(d * y * y + 1, p - 2, p) % p
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (p + 3) // 8, p)
    if (x * x - x2) % p:
        x = x * sqrtm1 % p
    if (x * x - x2) % p:
        return None
    if x & 1 != sign:
        x = p - x
    return x


def add(P, Q):
    x1, y1 = P
    x2, y2 = Q
    t = d * x1 * x2 * y1 * y2 % p
    return ((x1 * y2 + x2 * y1) * pow(1 + t, p - 2, p) % p,
            (y1 * y2 + x1 * x2) * pow(1 - t, p - 2, p) % p)


def enc(P):
    x, y = P
    return (y | ((x & 1) << 255)).to_bytes(32, 'little').hex()


# The torsion points are the multiples of one point of order 8, found as
# [L] Q for the first point Q (smallest y >= 2) whose [L] Q has order 8.
L = 2**252 + 27742317777372353535851937790883648493


def mul(k, P):
    R = (0, 1)
    while k:
        if k & 1:
            R = add(R, P)
        P = add(P, P)
        k >>= 1
    return R


y = 2
while True:
    x = recover_x(y, 0)
    if x is not None:
        T = mul(L, (x, y))
        if mul(4, T) != (0, 1):
            break
    y += 1
torsion = [mul(i, T) for i in range(8)]
print('small order:')
for P in torsion:
    print('  "%s",' % enc(P))

print('no square root (y, little-endian):')
found, y = 0, 2
while found < 2:
    if recover_x(y, 0) is None:
        print('  y = %d: "%s"' % (y, y.to_bytes(32, 'little').hex()))
        found += 1
    y += 1

try:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives import serialization
except ImportError:
    raise SystemExit('the long-message signature needs python3-cryptography')
key = Ed25519PrivateKey.from_private_bytes(b'\x42' * 32)
msg = bytes((i * 31 + 7) % 251 for i in range(1 << 20))
pub = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
print('long message: key "%s"' % pub.hex())
print('  sig "%s"' % key.sign(msg).hex())
