#!/usr/bin/env bash
# The C interface as its users get it: installs libInkHit into a temporary prefix (scripts/install-c.sh) and
# works only from what was installed, found through pkg-config:
#
#   1. the library exports exactly the functions inkhit.h declares (nm), under its soname, with a RUNPATH
#      that finds the Swift runtime;
#   2. examples/c/inkhit_test.c — every function, hostile calls included — compiled with cc -Werror, run;
#   3. the same program under AddressSanitizer + UndefinedBehaviorSanitizer with LeakSanitizer on (after a
#      canary that proves LeakSanitizer reports leaks here): no error, no leak;
#   4. the README's C example and examples/c/hello.c, compiled with the README's command line, answers checked;
#   5. examples/cpp/example.cpp (RAII wrappers, inkhit.hpp) compiled with c++ -std=c++17 -Werror and run,
#      also under AddressSanitizer;
#   6. examples/python/paragraph.py (ctypes) run, and examples/python/test_paragraph.py: its answers against
#      `ink-hit query` (the Swift API) on 3,600 points.
#
# Usage: scripts/c-abi-test.sh [--release]
#   default: from the debug build `./inkhit test` has just made (only the library is linked again);
#   --release: from a release build, exactly as `./inkhit install-c` installs it (CI runs this too).
# Prints one line per step and "C ABI: all N steps passed" at the end; exits 1 at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=--debug
[ "${1:-}" = "--release" ] && mode=""
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
steps=0
step() { steps=$((steps + 1)); echo "C ABI $steps. $*" >&2; }
fail() { echo "C ABI: FAILED: $*" >&2; exit 1; }

step "install ($([ -n "$mode" ] && echo debug || echo release) build) into $prefix"
scripts/install-c.sh $mode "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "install"; }
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
lib="$prefix/lib/libInkHit.so"
header="$prefix/include/inkhit.h"
version=$(pkg-config --modversion inkhit)
[ "$version" = "$(sed -n 's/^#define INKHIT_VERSION_MAJOR \([0-9]*\)$/\1/p' "$header").$(sed -n 's/^#define INKHIT_VERSION_MINOR \([0-9]*\)$/\1/p' "$header").$(sed -n 's/^#define INKHIT_VERSION_PATCH \([0-9]*\)$/\1/p' "$header")" ] \
  || fail "inkhit.pc says version $version, the header another"

step "exported symbols, soname, RUNPATH"
grep -E '^[a-z].*\binkhit_[a-z0-9_]+\(' "$header" | grep -v '^typedef' | sed -E 's/^.*\b(inkhit_[a-z0-9_]+)\(.*$/\1/' | sort > "$work/declared"
nm -D --defined-only "$lib" | awk '{print $3}' | sort > "$work/exported"
[ "$(wc -l < "$work/declared")" -ge 63 ] || fail "found only $(wc -l < "$work/declared") functions in inkhit.h"
if ! diff "$work/declared" "$work/exported" > "$work/symbols.diff"; then
  cat "$work/symbols.diff" >&2
  fail "the exported symbols (>) differ from the functions inkhit.h declares (<)"
fi
readelf -d "$lib" | grep -q 'Library soname: \[libInkHit.so.1\]' || fail "the soname is not libInkHit.so.1"
runtime_dir=$(swift -print-target-info | sed -n '/"runtimeLibraryPaths"/,/]/s/^ *"\(.*\)",\{0,1\}$/\1/p' | head -1)
[ -n "$runtime_dir" ] || fail "no runtimeLibraryPaths in swift -print-target-info"
readelf -d "$lib" | grep -q "runpath: \[.*$runtime_dir" || fail "RUNPATH does not name the Swift runtime ($runtime_dir)"

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -g)
step "examples/c/inkhit_test.c (every function, hostile calls)"
cc "${flags[@]}" examples/c/inkhit_test.c $(pkg-config --cflags --libs inkhit) -lm -lpthread -o "$work/inkhit_test"
"$work/inkhit_test" || fail "inkhit_test"

step "examples/c/inkhit_test.c under AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer"
printf '#include <stdlib.h>\nvoid *volatile keep;\nint main(void) { keep = malloc(33); keep = 0; return 0; }\n' > "$work/canary.c"
cc -fsanitize=address -g "$work/canary.c" -o "$work/canary"
if ASAN_OPTIONS=detect_leaks=1 "$work/canary" > "$work/canary.log" 2>&1 || ! grep -q "detected memory leaks" "$work/canary.log"; then
  cat "$work/canary.log" >&2
  fail "LeakSanitizer does not report a leak here (it needs ptrace; run outside a restricted sandbox)"
fi
cc "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  examples/c/inkhit_test.c $(pkg-config --cflags --libs inkhit) -lm -lpthread -o "$work/inkhit_test_asan"
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$work/inkhit_test_asan" > "$work/asan.log" 2>&1 \
  || { cat "$work/asan.log" >&2; fail "inkhit_test under AddressSanitizer"; }
grep -q "ERROR: \(Address\|Leak\)Sanitizer" "$work/asan.log" && { cat "$work/asan.log" >&2; fail "sanitizer report"; }
tail -1 "$work/asan.log" >&2

step "the README's C example and examples/c/hello.c, compiled with the README's command line"
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on { print }' README.md > "$work/app.c"
[ -s "$work/app.c" ] || fail "no \`\`\`c block in README.md"
(cd "$work" && cc app.c $(pkg-config --cflags --libs inkhit) -o app && ./app) > "$work/app.out"
cat "$work/app.out" >&2
grep -qx 'bytes 8..<9, link 0, -0.68 px' "$work/app.out" || fail "the README's example: the l of the link"
(cd "$work" && cc "$OLDPWD/examples/c/hello.c" $(pkg-config --cflags --libs inkhit) -o hello && ./hello) > "$work/hello.out"
cat "$work/hello.out" >&2
grep -q '^(65.7, 8) r 0: "l" (bytes 8..<9), link 0, distance -' "$work/hello.out" || fail "hello: the l of the link"
grep -q '^(100.5, 8) r 0: miss$' "$work/hello.out" || fail "hello: the gap"
grep -q '^(100.5, 8) r 3.5: "n" (bytes 14..<15), link -1, distance 2\.' "$work/hello.out" || fail "hello: the radius"

step "examples/cpp/example.cpp (RAII wrappers), also under AddressSanitizer"
c++ -std=c++17 -Wall -Wextra -Werror -pedantic examples/cpp/example.cpp $(pkg-config --cflags --libs inkhit) -o "$work/example_cpp"
"$work/example_cpp" >&2 || fail "example.cpp"
c++ -std=c++17 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined examples/cpp/example.cpp \
  $(pkg-config --cflags --libs inkhit) -o "$work/example_cpp_asan"
ASAN_OPTIONS=detect_leaks=1 "$work/example_cpp_asan" > "$work/cpp_asan.log" 2>&1 \
  || { cat "$work/cpp_asan.log" >&2; fail "example.cpp under AddressSanitizer"; }

step "examples/python (ctypes): paragraph.py, and test_paragraph.py against ink-hit"
ink_hit="$(swift build --show-bin-path)/ink-hit"
[ -x "$ink_hit" ] || swift build --product ink-hit >&2
python3 examples/python/paragraph.py > "$work/paragraph.out" || fail "paragraph.py"
cat "$work/paragraph.out" >&2
grep -q "^(65.7, 8) r 0: 'l' (link 0)" "$work/paragraph.out" || fail "paragraph.py: the l of the link"
python3 examples/python/test_paragraph.py --ink-hit "$ink_hit" >&2 || fail "test_paragraph.py"

echo "C ABI: all $steps steps passed (libInkHit $version: $(wc -l < "$work/exported") functions exported, C, C under ASan/UBSan/LSan, C++, Python)"
