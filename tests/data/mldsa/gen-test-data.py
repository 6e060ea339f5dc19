#!/usr/bin/env python3
# Make tests/data/mldsa/wycheproof_cases.h: valid ML-DSA signatures for
# tests/test_mldsa.c (bit flips, streaming, the 0- and 255-byte contexts),
# copied from the Wycheproof ML-DSA verification vectors (C2SP/wycheproof
# at commit dac1dd4729fd, testvectors_v1/mldsa_{44,65,87}_verify_test.json,
# Apache-2.0; the shared vectors directory's README has the provenance):
# per set, group 0's publicKey and its valid tests tcId 1 ("baseline", no
# context), 3 ("non-empty context", 7 bytes) and 4 ("longest context",
# 255 bytes). The unit suite reads no outside data, hence the copy.
#
#     tests/data/mldsa/gen-test-data.py [VECTORS_DIR] > tests/data/mldsa/wycheproof_cases.h
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
vectors = (sys.argv[1] if len(sys.argv) > 1 else
           os.environ.get('VOUCH_VECTORS') or
           os.path.join(here, '..', '..', '..', '..', 'shared', 'vectors'))
TCIDS = (1, 3, 4)


def carray(name, data):
    out = ['static const uint8_t %s[%d] = {' % (name, max(len(data), 1))]
    for i in range(0, len(data), 12):
        out.append('\t' + ' '.join('0x%02x,' % b for b in data[i:i + 12]))
    if not data:
        out.append('\t0x00,   /* unused: the length is 0 */')
    out.append('};')
    return '\n'.join(out)


print('''/*
 * Valid ML-DSA signatures from Wycheproof (C2SP/wycheproof at commit
 * dac1dd4729fd, testvectors_v1/mldsa_{44,65,87}_verify_test.json,
 * Apache-2.0): group 0's key and tests tcId %s of each set.
 * Made by tests/data/mldsa/gen-test-data.py; do not edit.
 */
#include <stddef.h>
#include <stdint.h>

struct mldsa_case {
	int param;
	int tc_id;
	const uint8_t *pk, *ctx, *msg, *sig;
	size_t pk_len, ctx_len, msg_len, sig_len;
};
''' % ', '.join(map(str, TCIDS)))
rows = []
for s, param in (('44', 'VOUCH_MLDSA_44'), ('65', 'VOUCH_MLDSA_65'), ('87', 'VOUCH_MLDSA_87')):
    path = os.path.join(vectors, 'wycheproof', 'testvectors_v1', 'mldsa_%s_verify_test.json' % s)
    with open(path) as f:
        group = json.load(f)['testGroups'][0]
    pk = bytes.fromhex(group['publicKey'])
    print(carray('mldsa%s_pk' % s, pk))
    for tc in TCIDS:
        t = next(t for t in group['tests'] if t['tcId'] == tc)
        assert t['result'] == 'valid'
        ctx, msg, sig = (bytes.fromhex(t.get(k, '')) for k in ('ctx', 'msg', 'sig'))
        for k, v in (('ctx', ctx), ('msg', msg), ('sig', sig)):
            print(carray('mldsa%s_tc%d_%s' % (s, tc, k), v))
        rows.append('\t{ %s, %d, mldsa%s_pk, mldsa%s_tc%d_ctx, mldsa%s_tc%d_msg, mldsa%s_tc%d_sig,\n'
                    '\t  %d, %d, %d, %d },' % (param, tc, s, s, tc, s, tc, s, tc,
                                              len(pk), len(ctx), len(msg), len(sig)))
print()
print('static const struct mldsa_case mldsa_cases[] = {')
print('\n'.join(rows))
print('};')
