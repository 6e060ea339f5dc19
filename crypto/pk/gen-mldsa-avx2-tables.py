#!/usr/bin/env python3
"""Print the tables of crypto/pk/mldsa_avx2.c: the twiddles of the last three NTT
layers (and the inverse's first three), in the order the transposed
8 x 8 blocks use them: lane k of group g is the block of coefficients
8 (8 g + k) .. 8 (8 g + k) + 7. Values are zeta^brv8(m) 2^32 mod q as in
vouch_mldsa_zetas (FIPS 204 Appendix B), negated mod q for the inverse.
Then the rejection sampler's table of accepted-lane indices.
Run: python3 crypto/pk/gen-mldsa-avx2-tables.py"""
q = 8380417


def zeta(m):
    return pow(1753, int(f'{m:08b}'[::-1], 2), q) * 2**32 % q


def fwd(g):
    blocks = range(8 * g, 8 * g + 8)
    out = [zeta(32 + b) for b in blocks]                      # len 4
    for half in range(2):                                     # len 2
        out += [zeta(64 + 2 * b + half) for b in blocks]
    for k in range(4):                                        # len 1
        out += [zeta(128 + 4 * b + k) for b in blocks]
    return out


def inv(g):
    blocks = range(8 * g, 8 * g + 8)
    out = []
    for k in range(4):                                        # len 1
        out += [(q - zeta(255 - 4 * b - k)) % q for b in blocks]
    for half in range(2):                                     # len 2
        out += [(q - zeta(127 - 2 * b - half)) % q for b in blocks]
    out += [(q - zeta(63 - b)) % q for b in blocks]           # len 4
    return out


for name, f in (('fwd', fwd), ('inv', inv)):
    print(f'static const uint32_t zetas_{name}[4][56] = {{')
    for g in range(4):
        v = f(g)
        print('\t{')
        for i in range(0, 56, 8):
            print('\t\t' + ', '.join(str(x) for x in v[i:i + 8]) + ',')
        print('\t},')
    print('};')

# Rejection sampling (mldsa_avx2.c's rej_uniform_avx2): for each 8-bit
# mask of accepted candidates, the indices of the accepted lanes in
# order, then zeros.
print('static const uint8_t rej_idx[256][8] = {')
for m in range(256):
    idx = [i for i in range(8) if m >> i & 1]
    idx += [0] * (8 - len(idx))
    print('\t{ ' + ', '.join(str(i) for i in idx) + ' },')
print('};')
