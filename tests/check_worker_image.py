#!/usr/bin/env python3
"""The parse worker carries the parsers only.

The worker (tools/meson.build) links the asn1 and base layers through an
archive, so that the linker takes only the objects it calls: a smaller
image is a cheaper start for each one-shot request (docs/performance.md).
This fails if the worker defines any global symbol of a layer it does not
need (the archives given: primitives, rng, verify, front, fw) or any of
the decompressors' (liblzma's lzma_*, libzstd's ZSTD_*, zlib's inflate*),
which is what linking every library object used to bring in.

usage: check_worker_image.py WORKER LAYER_ARCHIVE...
"""
import re
import subprocess
import sys

DECOMPRESSORS = re.compile(r'(lzma_|ZSTD_|inflate)')


def nm(path, *flags):
    """The names path defines (nm --defined-only with flags)."""
    out = subprocess.run(['nm', '--defined-only'] + list(flags) + [path], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # value type name; an archive's member headers and blank lines have fewer
        if len(parts) == 3:
            names.add(parts[2])
    return names


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 64
    worker, archives = sys.argv[1], sys.argv[2:]
    defined = nm(worker)
    if not any(n.startswith('vouch_sbw_') for n in defined):
        print('FAIL: %s defines no vouch_sbw_* function: not the parse worker, '
              'or stripped' % worker)
        return 1
    failed = 0
    for archive in archives:
        extra = sorted(defined & nm(archive, '--extern-only'))
        if extra:
            print('FAIL: %s holds %d function(s) or object(s) of %s, which it does not '
                  'need: %s' % (worker, len(extra), archive, ' '.join(extra[:10])))
            failed += 1
        else:
            print('ok: nothing of %s' % archive)
    extra = sorted(n for n in defined if DECOMPRESSORS.match(n))
    if extra:
        print('FAIL: %s holds %d decompressor symbol(s): %s'
              % (worker, len(extra), ' '.join(extra[:10])))
        failed += 1
    else:
        print('ok: no decompressor')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
