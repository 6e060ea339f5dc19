"""What the test scripts that compare vouch with oracles share.

skip(): a missing tool or data skips the test (exit 77), except under
CI=true, where it fails it (exit 1): CI installs everything a test needs.
verdict(): a command's exit code as the word the scripts count by.
report(): the failures found, one line each, and their count.
COMPRESSORS, compress(), have_compressors(): compressed kernel modules.
debian_efi_dir(): where tools/fetch-debian-efi keeps Debian's images and modules.
"""
import os
import shutil
import subprocess

CI = os.environ.get('CI') == 'true'


def skip(prog, why):
    """Say why prog cannot run its check; the exit code for it."""
    print('%s: %s: %s' % (prog, 'FAIL (CI=true)' if CI else 'skipped', why))
    return 1 if CI else 77


def verdict(code):
    """'accepted' (0), 'crashed' (a signal or sanitizer abort: below 0) or 'refused'."""
    return 'accepted' if code == 0 else 'crashed' if code < 0 else 'refused'


def report(prog, fails):
    """Print each failure and their count; True if there was any."""
    for f in fails:
        print('FAIL ' + f)
    print('%s: %d failures' % (prog, len(fails)))
    return bool(fails)


# The module compressors as the kernel's `make modules_install` runs them.
COMPRESSORS = {'.xz': ['xz', '-c', '--check=crc32', '--lzma2=dict=1MiB'],
               '.zst': ['zstd', '-q', '-c', '-T0'], '.gz': ['gzip', '-n', '-c']}


def have_compressors():
    """True if xz, zstd and gzip are all installed."""
    return all(shutil.which(c[0]) for c in COMPRESSORS.values())


def compress(suffix, data):
    """data compressed as a module NAME.ko + suffix is."""
    return subprocess.run(COMPRESSORS[suffix], input=data, capture_output=True,
                          check=True).stdout


def debian_efi_dir():
    """tools/fetch-debian-efi's directory: $VOUCH_DEBIAN_EFI_DIR, else
    vouch/debian-efi in $XDG_CACHE_HOME or ~/.cache (as tools/test says)."""
    if os.environ.get('VOUCH_DEBIAN_EFI_DIR'):
        return os.environ['VOUCH_DEBIAN_EFI_DIR']
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(cache, 'vouch', 'debian-efi')
