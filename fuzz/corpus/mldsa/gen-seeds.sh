#!/bin/sh
# Make the seeds of fuzz_mldsa from the Wycheproof ML-DSA vectors
# (C2SP/wycheproof at commit dac1dd4729fd, Apache-2.0), laid out as
# fuzz/fuzz_mldsa.c reads them: set, context length, key, signature,
# context, message. Run from anywhere:
#
#     fuzz/corpus/mldsa/gen-seeds.sh [VECTORS_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
vectors=${1:-${VOUCH_VECTORS:-$here/../../../../shared/vectors}}
python3 - "$vectors" "$here" <<'PY'
import json, os, sys
vectors, out = sys.argv[1], sys.argv[2]
for n, s in ((1, '44'), (2, '65'), (3, '87')):
    with open(os.path.join(vectors, 'wycheproof', 'testvectors_v1',
                           'mldsa_%s_verify_test.json' % s)) as f:
        group = json.load(f)['testGroups'][0]
    for t in group['tests']:
        if t['tcId'] not in (1, 3, 15, 17):
            continue
        ctx = bytes.fromhex(t.get('ctx', ''))
        seed = (bytes([n, len(ctx)]) + bytes.fromhex(group['publicKey']) +
                bytes.fromhex(t['sig']) + ctx + bytes.fromhex(t['msg']))
        with open(os.path.join(out, 'wp%s-tc%d' % (s, t['tcId'])), 'wb') as f:
            f.write(seed)
PY
