"""What the test scripts that compare vouch with oracles share.

skip(): a missing tool or data skips the test (exit 77), except under
CI=true, where it fails it (exit 1): CI installs everything a test needs.
verdict(): a command's exit code as the word the scripts count by.
report(): the failures found, one line each, and their count.
"""
import os

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
