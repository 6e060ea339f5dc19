#!/usr/bin/env python3
"""Statistical tests of vouch-rand's output, for the process RNG and every
DRBG mechanism: rngtest (FIPS 140-2) and ent on SIZE bytes of each source,
and, with --dieharder, the dieharder battery on an unbounded stream.

A statistical test of good data fails now and then by chance. Every rule
below is set so that a perfect source fails it with probability at most
ALPHA = 1e-6 (the false-alarm rate of one check); the run prints each
bound and the rough false-alarm rate of the whole run (ALPHA times the
number of checks, about 1e-4 for 21 sources). A real defect (a stuck
counter, a repeated block, a biased byte) misses these bounds by orders of
magnitude, so they lose little power.

rngtest (rng-tools5) reads the bytes on stdin: the first 32 bits prime
its continuous test, then n = floor((8 SIZE - 32) / 20000) blocks of 20000
bits each pass or fail FIPS 140-2's monobit, poker, runs, long run and
continuous tests. It prints "FIPS 140-2 successes: S" and "failures: F" on
stderr and exits nonzero when F > 0, so the script parses those lines and
ignores the exit code. A perfect block fails with probability about
p = 0.0008 (1 in 1250), so F ~ Binomial(n, p), and the rule is:
    F <= k_max, the smallest k with P(X > k) < ALPHA for X ~ Binomial(n, p),
computed here (k_max = 15 for n = 4194, SIZE = 10 MiB; the mean is 3.4); and S + F = n.

ent -t prints one CSV line: File-bytes, Entropy, Chi-square, Mean,
Monte-Carlo-Pi, Serial-Correlation. With n the byte count and
z = 4.892 (two-sided normal quantile of ALPHA, P(|Z| > z) = 1e-6):
  - File-bytes == SIZE;
  - entropy > 7.9999 bits per byte. 8 - H is about chi2 / (2 n ln 2), so
    failing it takes chi2 > 2e-4 n ln 2 (1454 at 10 MiB) where the
    chi-square bound below is 381: redundant for a perfect source
    (it never fails), it catches gross defects even if the chi-square
    reading went wrong. Hence SIZE >= 10 MB (10^7 bytes) is required;
  - chi-square of the 256 byte counts, 255 degrees of freedom: its p-value
    P(X2 > chi2) in [ALPHA/2, 1 - ALPHA/2] (two-sided: too uniform is as
    suspicious as too lumpy), from the regularized incomplete gamma
    function computed here;
  - mean of the bytes within z sigma of 127.5, sigma = sqrt((256^2 - 1) /
    12 / n) (uniform bytes have variance 5461.25);
  - Monte Carlo pi: ent reads each 6 bytes as a point (x, y) of 24-bit
    coordinates and counts the points in the quarter circle; the count is
    Binomial(m, pi/4) with m = floor(n / 6) (the grid's departure from pi/4
    is about 1e-7, far below the noise), so the rule is
    |pi_est - pi| <= z * 4 sqrt(pi/4 (1 - pi/4) / m);
  - serial correlation (ent's is circular, of each byte with the next):
    for independent bytes about Normal(-1/(n-1), 1/n), so the rule is
    |scc + 1/(n-1)| <= z / sqrt(n).

dieharder (only with --dieharder: it takes tens of minutes per source)
reads raw 32-bit words from stdin (-g 200) fed by `vouch-rand 1T` (which
dies of SIGPIPE when dieharder stops reading). It runs the whole battery,
-a, with -Y 1: a test with a WEAK p-value is rerun with more psamples
until it resolves to PASSED or FAILED (or reaches dieharder's limit); its
rows with the most psamples are its final ones. Rule: no FAILED row; WEAK
rows are allowed (those of the reruns, and any -Y 1 could not resolve),
and counted. diehard_sums, which `dieharder -l` rates "Do Not Use" but -a
runs, is printed and not judged. The sources are DIEHARDER_SOURCES (the
process RNG, which is a CTR_DRBG over AES-256, and Hash_DRBG and
HMAC_DRBG over SHA-256) unless --source is given, run side by side, one
per core; the duration of each run and of the whole is printed. The
thresholds are dieharder's (-W 0.005, -X 1e-6: a p-value below 0.005 or
above 0.995 is WEAK, below 1e-6 or above 1 - 1e-6 FAILED), so a perfect
source fails one result row with probability 2e-6, and one -a run (NROWS
rows) about 2e-4 of the time.

Exit status: 0 all rules hold, 1 a rule failed, 64 usage, 77 (meson's
skip) when rngtest, ent or (with --dieharder) dieharder is missing, unless
CI=true in the environment: there a missing tool is a failure (1).

usage: check_rand_stats.py [--dieharder] [--size N] [--source S]... VOUCH_RAND
       (S: "default" for the process RNG, or a --mech name; by default
       every source: the process RNG and each name of vouch-rand --list)
"""
import argparse
import concurrent.futures
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ALPHA = 1e-6
FIPS_BLOCK_BITS = 20000
FIPS_PRIME_BITS = 32
FIPS_BLOCK_FAIL = 0.0008
ENTROPY_MIN = 7.9999
SIZE_MIN = 10 ** 7
SIZE_DEFAULT = 10 << 20
DIEHARDER_SOURCES = ['default', 'hash-sha256', 'hmac-sha256']


def normal_quantile_two_sided(alpha):
    """z with P(|Z| > z) = alpha, by bisection on erfc."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erfc(mid / math.sqrt(2)) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def binomial_upper_bound(n, p, alpha):
    """The smallest k with P(X > k) < alpha for X ~ Binomial(n, p)."""
    log_q = math.log1p(-p)
    pmf = [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) +
                    k * math.log(p) + (n - k) * log_q) for k in range(n + 1)]
    tail = 0.0  # P(X > k), summed from the top so that small tails stay exact
    tails = [0.0] * (n + 1)
    for k in range(n, -1, -1):
        tails[k] = tail
        tail += pmf[k]
    return next(k for k in range(n + 1) if tails[k] < alpha)


def gamma_p_q(a, x):
    """Regularized incomplete gamma functions (P(a, x), Q(a, x)), each
    computed directly where it is small (series, continued fraction)."""
    if x <= 0:
        return 0.0, 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        while abs(term) > abs(total) * 1e-16:
            ap += 1
            term *= x / ap
            total += term
        p = total * math.exp(log_front)
        return p, 1.0 - p
    # Lentz's continued fraction for Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        i += 1
        if abs(delta - 1) < 1e-16:
            break
    q = math.exp(log_front) * h
    return 1.0 - q, q


class Report:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, name, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print('%s: %s: %s' % ('ok' if ok else 'FAIL', name, detail), flush=True)


def run_rngtest(path, n_expected, k_max):
    """Results of rngtest on the file at @path, as (rule, ok, detail) rows."""
    with open(path, 'rb') as f:
        out = subprocess.run(['rngtest'], stdin=f, capture_output=True, timeout=600)
    text = out.stderr.decode(errors='replace')
    ok_m = re.search(r'FIPS 140-2 successes: (\d+)', text)
    fail_m = re.search(r'FIPS 140-2 failures: (\d+)', text)
    if not ok_m or not fail_m:
        return [('rngtest output', False, 'no success/failure counts: %r' % text[-300:])]
    s, f = int(ok_m.group(1)), int(fail_m.group(1))
    kinds = ' '.join('%s=%s' % (k.replace(' ', ''), v) for k, v in
                     re.findall(r'FIPS 140-2\(2001-10-10\) ([A-Za-z ]+): (\d+)', text))
    return [('rngtest blocks', s + f == n_expected, '%d of %d' % (s + f, n_expected)),
            ('rngtest failures', f <= k_max, '%d <= %d (%s)' % (f, k_max, kinds))]


def run_ent(path, size, z):
    out = subprocess.run(['ent', '-t', path], capture_output=True, timeout=600)
    lines = out.stdout.decode(errors='replace').strip().splitlines()
    fields = lines[-1].split(',') if lines else []
    if out.returncode != 0 or len(fields) != 7 or fields[0] != '1':
        return [('ent output', False, repr(out))]
    n = int(fields[1])
    entropy, chi2, mean, pi_est, scc = (float(v) for v in fields[2:])
    rows = [('ent bytes', n == size, '%d' % n),
            ('ent entropy', entropy > ENTROPY_MIN, '%.6f > %s bits/byte' % (entropy, ENTROPY_MIN))]
    p_lower, p_upper = gamma_p_q(255 / 2, chi2 / 2)
    rows.append(('ent chi-square', min(p_lower, p_upper) >= ALPHA / 2,
                 '%.2f, P(X2 > chi2) = %.3g in [%g, 1 - %g]' % (chi2, p_upper, ALPHA / 2, ALPHA / 2)))
    mean_sd = math.sqrt((256 ** 2 - 1) / 12 / n)
    rows.append(('ent mean', abs(mean - 127.5) <= z * mean_sd,
                 '%.4f, |d| = %.2f sigma <= %.2f' % (mean, abs(mean - 127.5) / mean_sd, z)))
    m = n // 6
    p = math.pi / 4
    pi_sd = 4 * math.sqrt(p * (1 - p) / m)
    rows.append(('ent Monte Carlo pi', abs(pi_est - math.pi) <= z * pi_sd,
                 '%.6f, |d| = %.2f sigma <= %.2f' % (pi_est, abs(pi_est - math.pi) / pi_sd, z)))
    scc_sd = 1 / math.sqrt(n)
    scc_d = abs(scc + 1 / (n - 1))
    rows.append(('ent serial correlation', scc_d <= z * scc_sd,
                 '%.6f, |d| = %.2f sigma <= %.2f' % (scc, scc_d / scc_sd, z)))
    return rows


def mech_args(source):
    return [] if source == 'default' else ['--mech', source]


def test_source(rand, source, size, tmp, n_blocks, k_max, z):
    """Make SIZE bytes of @source and run rngtest and ent on them."""
    path = os.path.join(tmp, source + '.bin')
    start = time.monotonic()
    out = subprocess.run([rand] + mech_args(source) + ['-o', path, str(size)],
                         capture_output=True, timeout=600)
    if out.returncode != 0:
        return [('vouch-rand', False, 'exit %d: %s' % (out.returncode, out.stderr.decode()))], 0.0
    rows = run_rngtest(path, n_blocks, k_max) + run_ent(path, size, z)
    os.unlink(path)
    return rows, time.monotonic() - start


# Tests `dieharder -l` rates "Do Not Use", which -a runs all the same:
# printed, not judged.
DIEHARDER_UNRELIABLE = {'diehard_sums'}


def parse_dieharder(text):
    """Result rows of dieharder's table: (name, ntup, psamples, p, verdict)."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split('|')]
        if len(cells) == 6 and cells[5] in ('PASSED', 'WEAK', 'FAILED'):
            rows.append((cells[0], int(cells[1]), int(cells[3]), float(cells[4]), cells[5]))
    return rows


def run_dieharder(rand, source):
    """dieharder -a -Y 1 on an unbounded stream of @source: (ok, detail,
    the rows worth printing)."""
    start = time.monotonic()
    gen = subprocess.Popen([rand] + mech_args(source) + ['1T'], stdout=subprocess.PIPE)
    out = subprocess.run(['dieharder', '-g', '200', '-a', '-Y', '1'], stdin=gen.stdout,
                         capture_output=True, timeout=6 * 3600)
    gen.stdout.close()
    gen.wait(timeout=60)
    took = time.monotonic() - start
    rows = parse_dieharder(out.stdout.decode(errors='replace'))
    judged = [r for r in rows if r[0] not in DIEHARDER_UNRELIABLE]
    # -Y 1 reruns a test with more psamples: its rows with the most are final.
    most = {}
    for name, ntup, psamples, _, _ in rows:
        most[(name, ntup)] = max(most.get((name, ntup), 0), psamples)
    final = [r for r in rows if r[2] == most[(r[0], r[1])]]
    failed = [r for r in judged if r[4] == 'FAILED']
    weak_left = [r for r in final if r[4] == 'WEAK' and r[0] not in DIEHARDER_UNRELIABLE]
    notes = ['  %-22s ntup %2d psamples %5d p %.8f %s%s'
             % (r + (' (not judged)' if r[0] in DIEHARDER_UNRELIABLE else '',))
             for r in rows if r[4] != 'PASSED' or r[0] in DIEHARDER_UNRELIABLE]
    if out.returncode != 0:
        notes.append(out.stderr.decode(errors='replace')[-500:])
    # vouch-rand must have streamed until dieharder stopped reading.
    ok = (out.returncode == 0 and gen.returncode == -signal.SIGPIPE and
          len(final) > 0 and not failed)
    detail = ('%d (test, ntup) pairs, %d final result rows (%d with the -Y 1 reruns), '
              '%d FAILED, %d WEAK left after -Y 1, vouch-rand status %d, %.0f s'
              % (len(most), len(final), len(rows), len(failed), len(weak_left),
                 gen.returncode, took))
    return ok, detail, notes


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with docs/contracts.md's usage exit code (64) instead of 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, '%s: error: %s\n' % (self.prog, message))


def main():
    ap = ArgumentParser(description='Statistical tests of vouch-rand.')
    ap.add_argument('rand', help='the vouch-rand program')
    ap.add_argument('--size', type=int, default=SIZE_DEFAULT,
                    help='bytes per source for rngtest and ent (default 10 MiB, at least 10^7)')
    ap.add_argument('--source', action='append',
                    help='"default" or a --mech name (repeatable; default: all)')
    ap.add_argument('--dieharder', action='store_true',
                    help='run dieharder -a -Y 1 instead, on %s unless --source is given'
                    % ', '.join(DIEHARDER_SOURCES))
    args = ap.parse_args()
    if args.size < SIZE_MIN:
        ap.error('--size must be at least %d (the entropy rule)' % SIZE_MIN)

    need = ['dieharder'] if args.dieharder else ['rngtest', 'ent']
    missing = [t for t in need if shutil.which(t) is None]
    if missing:
        in_ci = os.environ.get('CI', '').lower() in ('true', '1', 'yes')
        print('%s not found (Debian: rng-tools5, ent, dieharder; tools/setup-deps test)%s'
              % (', '.join(missing), ': a failure in CI' if in_ci else ': skipped'))
        return 1 if in_ci else 77

    report = Report()
    if args.dieharder:
        sources = args.source or DIEHARDER_SOURCES
        start = time.monotonic()
        print('dieharder -g 200 -a -Y 1 on %s, %d at a time'
              % (', '.join(sources), min(len(sources), os.cpu_count() or 1)), flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            jobs = [pool.submit(run_dieharder, args.rand, s) for s in sources]
            for source, job in zip(sources, jobs):
                ok, detail, notes = job.result()
                for note in notes:
                    print(note)
                report.check('dieharder %s' % source, ok, detail)
        print('%d passed, %d failed in %.0f s'
              % (report.passed, report.failed, time.monotonic() - start))
        return 1 if report.failed else 0

    listed = subprocess.run([args.rand, '--list'], capture_output=True, check=True)
    sources = args.source or ['default'] + listed.stdout.decode().split()
    n_blocks = (8 * args.size - FIPS_PRIME_BITS) // FIPS_BLOCK_BITS
    k_max = binomial_upper_bound(n_blocks, FIPS_BLOCK_FAIL, ALPHA)
    z = normal_quantile_two_sided(ALPHA)
    print('%d sources, %d bytes each; per-check false-alarm rate %g' % (len(sources), args.size, ALPHA))
    print('rngtest: %d blocks, failures allowed <= %d (Binomial(%d, %g): P(X > %d) < %g)'
          % (n_blocks, k_max, n_blocks, FIPS_BLOCK_FAIL, k_max, ALPHA))
    print('ent: entropy > %s, chi-square p in [%g, 1 - %g], mean, pi and serial '
          'correlation within %.3f sigma' % (ENTROPY_MIN, ALPHA / 2, ALPHA / 2, z))

    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        jobs = [pool.submit(test_source, args.rand, s, args.size, tmp, n_blocks, k_max, z)
                for s in sources]
        for source, job in zip(sources, jobs):
            rows, took = job.result()
            print('%s (%.1f s)' % (source, took))
            for rule, ok, detail in rows:
                report.check('%s %s' % (source, rule), ok, detail)
    checks = report.passed + report.failed
    print('%d passed, %d failed in %.1f s (false alarm of the whole run at most %.0e)'
          % (report.passed, report.failed, time.monotonic() - start, checks * ALPHA))
    return 1 if report.failed else 0


if __name__ == '__main__':
    sys.exit(main())
