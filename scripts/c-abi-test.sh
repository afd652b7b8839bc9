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
#   6. the Python package (python/src, ctypes) loading the installed library ($INKHIT_LIBRARY): its API,
#      lifetime and struct-layout tests (python/tests; the wheel's own tests are scripts/python-test.sh);
#   7. loading libInkHit leaves the host's signal dispositions as they were (scripts/c-tests/signals_test.c:
#      sigaction of SIGQUIT, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP and the alternate stack, with and
#      without the library, linked and dlopen'd; a host's own NULL dereference dies of SIGSEGV without a Swift
#      backtrace); SWIFT_BACKTRACE=enable=yes keeps Swift's handler (the check can fail);
#   8. the README's "Glyphs from your own shaper" example, compiled with its command line, answers checked; and
#      scripts/c-tests/harfbuzz_test.c: hb_shape()'s arrays through inkhit_builder_add_shaped (tags = clusters,
#      answers bit for bit those of the same glyphs placed one by one), and the same glyphs as glyph jobs
#      answered by `ink-hit query` as through C;
#   9. the Pango adapter as installed (inkhit-pango.pc): examples/pango/paragraph.c, and
#      scripts/c-tests/pango_cairo_test.c — Pango paragraphs drawn by cairo at 1x, 2x, 4x and hinted, every pixel
#      centre with coverage < 0.02 or > 0.98 against the index (0 disagreements), tags against Pango's
#      log_clusters, hostile calls — then again with the adapter compiled in under AddressSanitizer and
#      UndefinedBehaviorSanitizer (LeakSanitizer on; fontconfig's own allocations suppressed).
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
[ "$(wc -l < "$work/declared")" -ge 64 ] || fail "found only $(wc -l < "$work/declared") functions in inkhit.h"
if ! diff "$work/declared" "$work/exported" > "$work/symbols.diff"; then
  cat "$work/symbols.diff" >&2
  fail "the exported symbols (>) differ from the functions inkhit.h declares (<)"
fi
readelf -d "$lib" | grep 'Library soname: \[libInkHit.so.1\]' > /dev/null || fail "the soname is not libInkHit.so.1"
runtime_dir=$(swift -print-target-info | sed -n '/"runtimeLibraryPaths"/,/]/s/^ *"\(.*\)",\{0,1\}$/\1/p' | awk 'NR == 1')
[ -n "$runtime_dir" ] || fail "no runtimeLibraryPaths in swift -print-target-info"
readelf -d "$lib" | grep "runpath: \[.*$runtime_dir" > /dev/null || fail "RUNPATH does not name the Swift runtime ($runtime_dir)"

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

step "the Python package (python/src) on the installed library: API, lifetimes, struct layouts"
ink_hit="$(swift build --show-bin-path)/ink-hit"
[ -x "$ink_hit" ] || swift build --product ink-hit >&2
[ -x .build-python/venv/bin/python ] || fail "no .build-python/venv (./inkhit deps makes it)"
(cd python && INKHIT_LIBRARY="$prefix/lib/libInkHit.so.1" PYTHONPATH="$PWD/src" INKHIT_INK_HIT="$ink_hit" \
  ../.build-python/venv/bin/python -m pytest -q -p no:cacheprovider --basetemp="$work/pytest" tests/test_api.py tests/test_lifetime.py \
  tests/test_structs.py) > "$work/python.log" 2>&1 || { cat "$work/python.log" >&2; fail "python/tests on the installed library"; }
tail -1 "$work/python.log" >&2

step "loading libInkHit leaves the host's signal dispositions as they were"
signals=scripts/c-tests/signals_test.c
cc -std=c11 -Wall -Wextra -Werror -g "$signals" -ldl -o "$work/signals_plain"
cc -std=c11 -Wall -Wextra -Werror -g -DLINKED "$signals" -Wl,--no-as-needed $(pkg-config --cflags --libs inkhit) -ldl \
  -o "$work/signals_linked"
"$work/signals_plain" state > "$work/signals_without.txt"
"$work/signals_linked" state > "$work/signals_with.txt" || fail "signals_test state (linked)"
diff "$work/signals_without.txt" "$work/signals_with.txt" >&2 || fail "a program linked with libInkHit starts with other signal dispositions"
"$work/signals_plain" dlopen "$lib" >&2 || fail "dlopen(libInkHit) changed the host's signal dispositions"
"$work/signals_plain" dlopen-own "$lib" >&2 || fail "dlopen(libInkHit) changed a host that has its own SIGSEGV handler"
if SWIFT_BACKTRACE=enable=yes "$work/signals_plain" dlopen "$lib" > /dev/null 2>&1; then
  fail "with SWIFT_BACKTRACE=enable=yes the Swift runtime's handler should stay (and the check should see it)"
fi
set +e
(ulimit -c 0; exec "$work/signals_linked" crash) > /dev/null 2> "$work/crash.err"
crash_status=$?
set -e
[ "$crash_status" -eq 139 ] || fail "the host's NULL dereference ended with status $crash_status, not SIGSEGV (139)"
if [ -s "$work/crash.err" ]; then cat "$work/crash.err" >&2; fail "the host's crash printed something (a Swift backtrace?)"; fi

step "the README's \"Glyphs from your own shaper\" (HarfBuzz), and hb_shape's arrays against glyph jobs"
awk '/^### Glyphs from your own shaper/ { s = 1 } s && /^```c$/ { on = 1; next } on && /^```$/ { exit } on { print }' README.md > "$work/shaper.c"
[ -s "$work/shaper.c" ] || fail "no \`\`\`c block under \"### Glyphs from your own shaper\" in README.md"
(cd "$work" && cc shaper.c $(pkg-config --cflags --libs inkhit harfbuzz) -o shaper && ./shaper) > "$work/shaper.out"
cat "$work/shaper.out" >&2
grep -qx "(20, 28): 'T', byte 0" "$work/shaper.out" || fail "the shaper example: the T"
grep -qx "(34, 33): miss" "$work/shaper.out" || fail "the shaper example: the hole of the a"
grep -qx "(141.5, 30): 'i', byte 8" "$work/shaper.out" || fail "the shaper example: the i"
cc "${flags[@]}" scripts/c-tests/harfbuzz_test.c $(pkg-config --cflags --libs inkhit harfbuzz) -lm -o "$work/harfbuzz_test"
mkdir -p "$work/hb"
"$work/harfbuzz_test" "$work/hb" >&2 || fail "harfbuzz_test"
"$ink_hit" query "$work/hb/jobs.jsonl" > "$work/hb/ink-hit.jsonl" || fail "ink-hit query on the HarfBuzz glyph jobs"
python3 scripts/c-tests/compare_answers.py "$work/hb/answers.jsonl" "$work/hb/ink-hit.jsonl" >&2 || fail "glyph jobs vs the C interface"

step "the Pango adapter: examples/pango, cairo's pixels against the index (also under ASan/UBSan/LSan)"
pkg-config --exists inkhit-pango || fail "install-c did not install the Pango adapter (inkhit-pango.pc)"
nm -D --defined-only "$prefix/lib/libInkHitPango.so" | awk '{print $3}' | grep -x inkhit_pango_add_layout > /dev/null \
  || fail "libInkHitPango does not export inkhit_pango_add_layout"
(cd "$work" && cc -std=c11 -Wall -Wextra -Werror "$OLDPWD/examples/pango/paragraph.c" $(pkg-config --cflags --libs inkhit-pango) \
  -o paragraph && ./paragraph "$work/paragraph.png") > "$work/pango_paragraph.out"
cat "$work/pango_paragraph.out" >&2
grep -q '^the stem of the l of "link" .*: "l" (byte 8) on a glyph' "$work/pango_paragraph.out" || fail "paragraph.c: the l"
grep -q '^the underline below the i of "link" .*: "i" (byte 9) on a decoration' "$work/pango_paragraph.out" || fail "paragraph.c: the underline"
grep -q '^the space after "gap." .*: miss$' "$work/pango_paragraph.out" || fail "paragraph.c: the space"
grep -q '^the central stroke of the synthetic bold 永 .*: "永" (byte 27) on a glyph' "$work/pango_paragraph.out" || fail "paragraph.c: 永"
cc -std=c11 -Wall -Wextra -Werror -g -O1 scripts/c-tests/pango_cairo_test.c $(pkg-config --cflags --libs inkhit-pango) -lm -o "$work/pango_cairo_test"
"$work/pango_cairo_test" >&2 || fail "pango_cairo_test"
printf 'leak:libfontconfig.so\n' > "$work/lsan-pango.supp"
cc -std=c11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Iadapters/pango scripts/c-tests/pango_cairo_test.c adapters/pango/inkhit_pango.c \
  $(pkg-config --cflags --libs inkhit pango pangocairo pangoft2 cairo fontconfig harfbuzz) -lm -o "$work/pango_cairo_test_asan"
INKHIT_PANGO_QUICK=1 ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 LSAN_OPTIONS="suppressions=$work/lsan-pango.supp" \
  "$work/pango_cairo_test_asan" > "$work/pango_asan.log" 2>&1 || { cat "$work/pango_asan.log" >&2; fail "pango_cairo_test under AddressSanitizer"; }
grep -q "ERROR: \(Address\|Leak\)Sanitizer\|runtime error" "$work/pango_asan.log" && { cat "$work/pango_asan.log" >&2; fail "sanitizer report"; }
tail -1 "$work/pango_asan.log" >&2

echo "C ABI: all $steps steps passed (libInkHit $version: $(wc -l < "$work/exported") functions exported, C, C under ASan/UBSan/LSan, C++, Python, host signals, HarfBuzz, Pango/cairo)"
