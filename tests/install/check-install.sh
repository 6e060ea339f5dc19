#!/bin/sh
# tests/install/check-install.sh BUILD: install BUILD into a temporary
# directory (meson install --destdir) and check that what lands there is
# a usable package, as a distribution would ship it:
#   - every public header, libvouch.so{,.0,.0.x.y}, libvouch.a, vouch.pc,
#     the tools, and every man page of the source tree (and the links of
#     the library pages) are installed;
#   - no installed binary keeps a run path into the build tree;
#   - the installed libvouch.a and libvouch.so hold no test seam (nm,
#     tests/check_symbols.py --seams), and neither the test build of the
#     library nor the test worker is installed;
#   - tests/install/example.c builds against the installed headers with
#     `pkg-config --cflags --libs vouch` (shared) and with
#     `pkg-config --static --cflags --libs vouch` and -static (libtasn1
#     comes from Requires.private), and both run and verify a signature;
#   - readelf and ldd show the shared one needing libvouch.so.MAJOR from the
#     installed directory, and the static one needing nothing.
# Prints one line per check; exits 1 if any failed. $CC (default cc)
# builds the example. Called by tools/test on the release build.
set -eu
if [ $# -ne 1 ]; then
	echo "usage: tests/install/check-install.sh BUILD" >&2
	exit 64
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
cc=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/vouch-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
dest=$work/dest
failed=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

# Where meson puts things, from the build's own options.
option() {
	meson introspect --buildoptions "$build" | python3 -c '
import json, sys
print({o["name"]: o["value"] for o in json.load(sys.stdin)}[sys.argv[1]])' "$1"
}
prefix=$(option prefix)
libdir=$prefix/$(option libdir)
includedir=$prefix/$(option includedir)
bindir=$prefix/$(option bindir)
mandir=$prefix/$(option mandir)
case $(option libdir) in /*) libdir=$(option libdir) ;; esac

meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; echo "FAIL: meson install"; exit 1; }
pass "meson install --destdir"

# What a package holds.
check_file() {
	if [ -e "$dest$1" ]; then pass "installed $1"; else fail "not installed: $1"; fi
}
for h in "$src"/include/vouch/*.h; do
	check_file "$includedir/vouch/$(basename "$h")"
done
version=$(meson introspect --projectinfo "$build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
# The soname's major: libvouch.so.$major (vouch_soversion in meson.build).
major=$(sed -n "s/^vouch_soversion = '\([0-9]*\)'$/\1/p" "$(dirname "$0")/../../meson.build")
for f in libvouch.so "libvouch.so.$major" "libvouch.so.$version" libvouch.a pkgconfig/vouch.pc; do
	check_file "$libdir/$f"
done
for t in pkcs7verify vouch-hash vouch-rand vouch-bench; do
	check_file "$bindir/$t"
done
for page in "$src"/tools/*.1; do
	check_file "$mandir/man1/$(basename "$page")"
done
for page in "$src"/include/man/*.3; do
	check_file "$mandir/man3/$(basename "$page")"
	for name in $(python3 "$src/tests/check_man.py" --names "$page"); do
		[ "$name.3" = "$(basename "$page")" ] && continue
		if [ "$(readlink -f "$dest$mandir/man3/$name.3")" = "$(readlink -f "$dest$mandir/man3/$(basename "$page")")" ]; then
			pass "man3/$name.3 -> $(basename "$page")"
		else
			fail "man3/$name.3 is not a link to $(basename "$page")"
		fi
	done
done

# An installed binary must not find its library through the build tree.
for f in "$dest$libdir/libvouch.so.$version" "$dest$bindir"/*; do
	if readelf -d "$f" | grep -E '\((RPATH|RUNPATH)\)' | grep -q "$build"; then
		fail "$(basename "$f") has a run path into the build tree"
	else
		pass "$(basename "$f"): no run path into the build tree"
	fi
done

# The test seams stay in the build tree.
for f in "$dest$libdir/libvouch.a" "$dest$libdir/libvouch.so.$version"; do
	if out=$(python3 "$src/tests/check_symbols.py" --seams "$build/libvouch-test.a" "$f" 2>&1); then
		pass "$(basename "$f"): no test seam"
	else
		echo "$out"
		fail "$(basename "$f") holds test seams"
	fi
done
if find "$dest" -name 'libvouch-test*' -o -name 'libvouch-core*' -o -name '*-test' | grep -q .; then
	fail "a test build is installed: $(find "$dest" -name 'libvouch-test*' -o -name 'libvouch-core*' -o -name '*-test' | tr '\n' ' ')"
else
	pass "no test build of the library or the worker installed"
fi

# The example, built as an outside program would be.
# The installed vouch.pc first; libtasn1.pc (Requires.private) from the
# system. The sysroot prefixes the .pc files' paths with the destdir.
export PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$dest$libdir/pkgconfig"
data=$src/tests/data/pkcs7
run_example() {
	out=$("$@" "$data/signer.pem" "$data/detached.der" "$data/content.bin" 2>&1) || {
		echo "$out"
		return 1
	}
	[ "$(echo "$out" | grep -c ': ok$')" -eq 3 ]
}

shared_flags=$(pkg-config --cflags --libs vouch)
# shellcheck disable=SC2086 # the flags are words
if $cc -std=c11 -Wall -Wextra -Werror -o "$work/example-shared" "$src/tests/install/example.c" \
	$shared_flags; then
	pass "shared build: cc example.c $shared_flags"
else
	fail "shared build against the installed package"
fi
if [ -x "$work/example-shared" ]; then
	if LD_LIBRARY_PATH=$dest$libdir run_example "$work/example-shared"; then
		pass "shared example runs (hash, random, verify)"
	else
		fail "shared example"
	fi
	if readelf -d "$work/example-shared" | grep -q "NEEDED.*\[libvouch\.so\.$major\]"; then
		pass "shared example: NEEDED libvouch.so.$major"
	else
		fail "shared example does not need libvouch.so.$major"
	fi
	if LD_LIBRARY_PATH=$dest$libdir ldd "$work/example-shared" | grep -q "libvouch\.so\.$major => $dest$libdir/libvouch\.so\.$major "; then
		pass "shared example: ldd resolves libvouch.so.$major in the installed libdir"
	else
		fail "shared example: ldd does not resolve libvouch.so.$major to $dest$libdir"
	fi
fi

static_flags=$(pkg-config --static --cflags --libs vouch)
# shellcheck disable=SC2086
if $cc -std=c11 -Wall -Wextra -Werror -static -o "$work/example-static" \
	"$src/tests/install/example.c" $static_flags; then
	pass "static build: cc -static example.c $static_flags"
else
	fail "static build against the installed package"
fi
if [ -x "$work/example-static" ]; then
	if run_example "$work/example-static"; then
		pass "static example runs (hash, random, verify)"
	else
		fail "static example"
	fi
	if readelf -d "$work/example-static" 2>&1 | grep -q 'NEEDED'; then
		fail "static example needs shared libraries"
	else
		pass "static example: no NEEDED entry"
	fi
	if ldd "$work/example-static" >/dev/null 2>&1; then
		fail "ldd treats the static example as dynamic"
	else
		pass "static example: ldd says not a dynamic executable"
	fi
fi

[ "$failed" -eq 0 ] && echo "install: all checks passed" || echo "install: FAILED"
exit "$failed"
