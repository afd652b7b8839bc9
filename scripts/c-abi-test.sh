#!/usr/bin/env bash
# The C interface as its users get it: installs libInkHit into a temporary prefix (scripts/install-c.sh) and
# works only from what was installed, found through pkg-config:
#
#   1. the library exports exactly the functions inkhit.h declares (nm), under its soname, and is self-contained:
#      it needs (readelf -d, ldd) only libc, libm, libstdc++, libgcc_s, FreeType, HarfBuzz and FriBidi — no Swift,
#      Dispatch or BlocksRuntime library — has no RUNPATH, stays loaded after dlclose (NODELETE), is stripped
#      with its debug information in lib/.debug (same build id), and is at most 12 MiB (16 MiB for the debug
#      build); the Pango adapter likewise (exports only inkhit_pango_*, RUNPATH $ORIGIN);
#   2. examples/c/inkhit_test.c — every function, hostile calls included — compiled with cc -Werror, run; a
#      1.0-style program (inkhit_text_hit.glyph, INKHIT_NODE_NO_CLIP) compiles with -Werror in C and C++ and its
#      old names alias the new ones, and INKHIT_WARN_DEPRECATED makes the compiler point them out;
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
#      backtrace); the library copied into a toolchain-like folder, where the runtime inside it finds a
#      swift-backtrace and takes the signals: all given back; SWIFT_BACKTRACE naming the toolchain's backtracer
#      keeps Swift's handler (the check can fail);
#   8. the README's "Glyphs from your own shaper" example, compiled with its command line, answers checked; and
#      scripts/c-tests/harfbuzz_test.c: hb_shape()'s arrays through inkhit_builder_add_shaped (tags = clusters,
#      answers bit for bit those of the same glyphs placed one by one), and the same glyphs as glyph jobs
#      answered by `ink-hit query` as through C;
#   9. the Pango adapter as installed (inkhit-pango.pc): examples/pango/paragraph.c, and
#      scripts/c-tests/pango_cairo_test.c — Pango paragraphs drawn by cairo at 1x, 2x, 4x and hinted, every pixel
#      centre with coverage < 0.02 or > 0.98 against the index (0 disagreements), tags against Pango's
#      log_clusters, hostile calls — then again with the adapter compiled in under AddressSanitizer and
#      UndefinedBehaviorSanitizer (LeakSanitizer on; fontconfig's own allocations suppressed);
#  10. scripts/c-tests/qt_raster_test.cpp: adapters/qt/inkhit_qt.hpp (installed) against Debian's Qt 6: QTextLayout
#      drawn by QPainter offscreen (TrueType, CFF, CJK; synthetic bold, italic, stretch; every hinting preference;
#      below and above the 64 px glyph cache; identity, 2x, rotated and sheared painters), every clear pixel
#      against the index (0 disagreements), a source Qt did not draw refused; examples/gtk/labels.c compiled and
#      run under Xvfb with GTK's GL and cairo renderers at scales 1 and 2 (a hit on a T's bar, a miss beside);
#  11. two Swift runtimes in one process: scripts/c-tests/swift_host.swift, a Swift program (the toolchain's
#      runtime) linked with libInkHit (its own inside): swift_retain is the host's, libInkHit defines none of the
#      runtime's symbols, the README's answers, 8 threads mixing the host's runtime work with queries; and
#      scripts/c-tests/dlclose_test.c: a thread that used the library ends after dlclose (NODELETE);
#      scripts/c-tests/two_copies_test.c: two copies of the library dlopen'd in one process (two plugins; its
#      static TLS block, checked at most 256 bytes in step 1, leaves room for both);
#  12. with the Swift toolchain hidden (a mount namespace, `unshare -m`, with an empty tmpfs over it): ldd finds
#      everything; examples/c/inkhit_test.c, the README's and hello.c's answers, hello.c shipped as the README
#      says (the library copied beside it, rpath $ORIGIN/lib, the install prefix moved away), C++, HarfBuzz, signals, dlclose,
#      the Pango adapter's programs, and scripts/c-tests/curve_exact_test.c — the curve-exact fixtures
#      (Tests/InkJobsTests/Fixtures: example, heldout, stress, cff) through inkhit_builder_add_glyph and
#      inkhit_index_hit: 0 wrong answers.
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

step "exported symbols, soname, what it needs at run time (no Swift), stripped, size"
grep -E '^[a-z].*\binkhit_[a-z0-9_]+\(' "$header" | grep -v '^typedef' | sed -E 's/^.*\b(inkhit_[a-z0-9_]+)\(.*$/\1/' | sort > "$work/declared"
nm -D --defined-only "$lib" | awk '{print $3}' | sort > "$work/exported"
[ "$(wc -l < "$work/declared")" -ge 64 ] || fail "found only $(wc -l < "$work/declared") functions in inkhit.h"
if ! diff "$work/declared" "$work/exported" > "$work/symbols.diff"; then
  cat "$work/symbols.diff" >&2
  fail "the exported symbols (>) differ from the functions inkhit.h declares (<)"
fi
readelf -d "$lib" | grep 'Library soname: \[libInkHit.so.1\]' > /dev/null || fail "the soname is not libInkHit.so.1"
# A self-contained library: what the README's C section promises a host needs at run time, nothing more.
allowed='^(libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libfreetype\.so\.6|libharfbuzz\.so\.0|libfribidi\.so\.0)$'
real_lib=$(readlink -f "$lib")
# Checks one installed library: NAME, the NEEDED it may have (a regex), the RUNPATH it must have ("" for none), a
# size bound in bytes.
self_contained() {
  local file=$1 name=$2 needed_re=$3 runpath=$4 bound=$5
  readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' > "$work/$name.needed"
  grep -Ev "$needed_re" "$work/$name.needed" > "$work/$name.extra" && { cat "$work/$name.extra" >&2; fail "$name needs libraries beyond the system's listed ones"; }
  ldd "$file" > "$work/$name.ldd" || fail "ldd $name"
  grep -Ei 'swift|dispatch|BlocksRuntime|not found' "$work/$name.ldd" && fail "$name loads a Swift runtime library (ldd), or misses one"
  if readelf -d "$file" | grep '(RPATH)' > /dev/null; then fail "$name has an RPATH"; fi
  local found
  found=$(readelf -d "$file" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [ "$found" = "$runpath" ] || fail "$name's RUNPATH is '$found', not '$runpath'"
  readelf -SW "$file" | grep -E ' \.(symtab|debug_info) ' > /dev/null && fail "$name is not stripped"
  local debuglink build_id debug_build_id
  debuglink=$(readelf -p .gnu_debuglink "$file" | sed -n 's/^ *\[ *0\] *//p')
  [ "$debuglink" = "$(basename "$file").debug" ] || fail "$name's .gnu_debuglink names '$debuglink'"
  [ -f "$(dirname "$file")/.debug/$debuglink" ] || fail "$name's debug information is not in lib/.debug/$debuglink"
  readelf -SW "$(dirname "$file")/.debug/$debuglink" | grep ' \.debug_info ' > /dev/null || fail "lib/.debug/$debuglink has no .debug_info"
  build_id=$(readelf -n "$file" | sed -n 's/.*Build ID: //p')
  debug_build_id=$(readelf -n "$(dirname "$file")/.debug/$debuglink" | sed -n 's/.*Build ID: //p')
  [ -n "$build_id" ] && [ "$build_id" = "$debug_build_id" ] || fail "$name and its .debug file have other build ids"
  local size
  size=$(stat -c %s "$file")
  [ "$size" -le "$bound" ] || fail "$name is $size bytes stripped, above $bound"
  echo "$name: $size bytes stripped, $(stat -c %s "$(dirname "$file")/.debug/$debuglink") bytes of debug information; needs $(tr '\n' ' ' < "$work/$name.needed")" >&2
}
# The release build (what install-c installs) is held to 12 MiB; the debug build, whose code is not optimised,
# to 16.
bound=$((12 * 1024 * 1024))
[ -n "$mode" ] && bound=$((16 * 1024 * 1024))
self_contained "$real_lib" libInkHit "$allowed" "" "$bound"
readelf -d "$lib" | grep 'Flags: .*NODELETE' > /dev/null || fail "libInkHit is not NODELETE (dlclose would unmap the runtime inside)"
# Its thread-local block is static TLS (initial-exec), taken from the ~1.6 KB glibc keeps for all dlopen'd
# libraries of a process: it must stay small enough for several such libraries (two_copies_test.c below).
tls=$(readelf -lW "$lib" | awk '$1 == "TLS" { print $6 }')
[ -n "$tls" ] && [ $((tls)) -le 256 ] || fail "libInkHit's thread-local block is ${tls:-?} bytes (static TLS: at most 256)"
nm -D --undefined-only "$lib" | grep -E ' (swift_|_swift|\$s|dispatch_|_Block_)' && fail "libInkHit imports Swift runtime symbols"
if [ -e "$prefix/lib/libInkHitPango.so" ]; then
  pango_lib=$(readlink -f "$prefix/lib/libInkHitPango.so")
  nm -D --defined-only "$pango_lib" | awk '{print $3}' | grep -v '^inkhit_pango_' && fail "libInkHitPango exports symbols other than inkhit_pango_*"
  # Pango's own dependencies (GLib, cairo, fontconfig, ...) come from the system; no Swift library among them.
  self_contained "$pango_lib" libInkHitPango '.' '$ORIGIN' $((12 * 1024 * 1024))
  readelf -d "$pango_lib" | grep 'NEEDED.*\[libInkHit\.so\.1\]' > /dev/null || fail "libInkHitPango does not link libInkHit.so.1"
fi

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -g)
step "examples/c/inkhit_test.c (every function, hostile calls)"
cc "${flags[@]}" examples/c/inkhit_test.c $(pkg-config --cflags --libs inkhit) -lm -lpthread -o "$work/inkhit_test"
"$work/inkhit_test" || fail "inkhit_test"

step "1.0 names still compile: silently by default (also with -Werror), pointed out with INKHIT_WARN_DEPRECATED"
cat > "$work/old_names.c" <<'C'
#include <inkhit.h>
#include <string.h>
int main(void) {
    inkhit_text_hit t;
    inkhit_scene_hit s;
    memset(&t, 0, sizeof t);
    memset(&s, 0, sizeof s);
    t.placement = 3;
    s.placement = 4;
    /* The 1.0 field names read the same storage; the 1.0 flag is the same bit. */
    return (t.glyph == 3 && s.glyph == 4 && INKHIT_NODE_NO_CLIP == INKHIT_NODE_NOT_CLIPS_CHILDREN) ? 0 : 1;
}
C
for compiler in "cc -std=c11" "c++ -std=c++17 -x c++"; do
  $compiler -Wall -Wextra -Werror -pedantic "$work/old_names.c" $(pkg-config --cflags --libs inkhit) -o "$work/old_names" \
    || fail "$compiler: a 1.0 caller using glyph and INKHIT_NODE_NO_CLIP does not compile with -Werror"
  "$work/old_names" || fail "$compiler: the 1.0 names do not alias the 1.3 ones"
  if $compiler -DINKHIT_WARN_DEPRECATED -Werror -c "$work/old_names.c" $(pkg-config --cflags inkhit) -o /dev/null 2> "$work/old_names.log"; then
    fail "$compiler: INKHIT_WARN_DEPRECATED does not point out the 1.0 names"
  fi
  grep -q "deprecated" "$work/old_names.log" || { cat "$work/old_names.log" >&2; fail "$compiler: no deprecation warning"; }
done

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
# The runtime inside libInkHit takes the signals where it finds a swift-backtrace: beside a toolchain's runtime
# folder (ROOT/lib/swift/linux -> ROOT/libexec/swift/linux). There it does, and the constructor gives them back.
swift_bin=$(readlink -f "$(command -v swift)")
backtracer="$(dirname "$(dirname "$swift_bin")")/libexec/swift/linux"
[ -x "$backtracer/swift-backtrace-static" ] || fail "no $backtracer/swift-backtrace-static in the toolchain"
mkdir -p "$work/toolchain-like/lib/swift/linux" "$work/toolchain-like/libexec/swift/linux"
cp "$real_lib" "$work/toolchain-like/lib/swift/linux/libInkHit.so.1"
ln -s "$backtracer"/swift-backtrace* "$work/toolchain-like/libexec/swift/linux/"
cc -std=c11 -Wall -Wextra -Werror -g -DCOUNT_SIGACTION -rdynamic "$signals" -ldl -o "$work/signals_count"
"$work/signals_count" dlopen-taken "$work/toolchain-like/lib/swift/linux/libInkHit.so.1" >&2 \
  || fail "in a toolchain-like folder the runtime inside libInkHit took the signals and they were not all given back"
if SWIFT_BACKTRACE="enable=yes,swift-backtrace=$backtracer/swift-backtrace-static" "$work/signals_plain" dlopen "$lib" > /dev/null 2>&1; then
  fail "with SWIFT_BACKTRACE naming a backtracer the Swift runtime's handler should stay (and the check should see it)"
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

step "Qt's raster engine against inkhit_qt.hpp (Debian's Qt, offscreen); GTK 4 labels (examples/gtk) under Xvfb"
pkg-config --exists Qt6Gui || fail "no Qt 6 (./inkhit deps installs qt6-base-dev)"
[ -f "$prefix/include/inkhit_qt.hpp" ] || fail "install-c did not install inkhit_qt.hpp"
c++ -std=c++17 -O1 -fPIC -Wall -Wextra -Werror scripts/c-tests/qt_raster_test.cpp \
  $(pkg-config --cflags --libs inkhit Qt6Gui fontconfig) -o "$work/qt_raster_test"
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" "$work/qt_raster_test" > "$work/qt.log" 2>&1 \
  || { cat "$work/qt.log" >&2; fail "qt_raster_test"; }
tail -1 "$work/qt.log" >&2
(cd "$work" && cc -std=c11 -Wall -Wextra -Werror "$OLDPWD/examples/gtk/labels.c" $(pkg-config --cflags --libs gtk4 inkhit-pango) -o labels)
command -v Xvfb > /dev/null || fail "no Xvfb (./inkhit deps installs xvfb)"
# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3> "$work/display" > /dev/null 2>&1 &
xvfb=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=$(head -1 "$work/display")
[ -n "$display" ] || { kill "$xvfb"; fail "Xvfb did not start"; }
for renderer in gl cairo; do
  for scale in 1 2; do
    DISPLAY=":$display" GSK_RENDERER=$renderer GDK_SCALE=$scale XDG_RUNTIME_DIR="$work" NO_AT_BRIDGE=1 \
      timeout 60 "$work/labels" --once > "$work/labels.out" 2> /dev/null || { kill "$xvfb"; fail "labels.c ($renderer, $scale)"; }
    grep -q "placements (Gsk$( [ $renderer = gl ] && echo GL || echo Cairo )Renderer, scale $scale)" "$work/labels.out" \
      && grep -q '): placement 0, byte 0$' "$work/labels.out" && grep -q '^(-3.0, -3.0): miss$' "$work/labels.out" \
      || { cat "$work/labels.out" >&2; kill "$xvfb"; fail "labels.c's answers ($renderer, scale $scale)"; }
  done
done
kill "$xvfb"; wait "$xvfb" 2> /dev/null || true

step "two Swift runtimes in one process (a Swift program linked with libInkHit); dlclose; two copies"
swiftc -Onone -swift-version 5 scripts/c-tests/swift_host.swift -import-objc-header "$header" -L "$prefix/lib" -lInkHit \
  -Xlinker -rpath -Xlinker "$prefix/lib" -o "$work/swift_host" > "$work/swift_host.log" 2>&1 \
  || { cat "$work/swift_host.log" >&2; fail "compiling swift_host.swift"; }
"$work/swift_host" > "$work/swift_host.out" 2>&1 || { cat "$work/swift_host.out" >&2; fail "swift_host"; }
tail -1 "$work/swift_host.out" >&2
cc "${flags[@]}" scripts/c-tests/dlclose_test.c $(pkg-config --cflags inkhit) -ldl -lpthread -o "$work/dlclose_test"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
"$work/dlclose_test" "$lib" "$font" >&2 || fail "a thread that used libInkHit ended after dlclose"
cc "${flags[@]}" scripts/c-tests/two_copies_test.c $(pkg-config --cflags inkhit) -ldl -o "$work/two_copies_test"
mkdir -p "$work/copy1" "$work/copy2"
cp "$real_lib" "$work/copy1/libInkHit.so.1" && cp "$real_lib" "$work/copy2/libInkHit.so.1"
"$work/two_copies_test" "$work/copy1/libInkHit.so.1" "$work/copy2/libInkHit.so.1" "$font" >&2 \
  || fail "two copies of libInkHit in one process (two plugins)"

step "with the Swift toolchain hidden: ldd, C, C++, HarfBuzz, Pango, signals, dlclose, curve-exact answers"
# The toolchain's folder (ROOT/usr/bin/swift -> ROOT), or its runtime folders when it lives in /usr.
toolchain=$(dirname "$(dirname "$(dirname "$swift_bin")")")
case "$toolchain" in /|/usr) toolchain="$(dirname "$(dirname "$swift_bin")")/lib/swift" ;; esac
unshare_flags=(-m)
[ "$(id -u)" -eq 0 ] || unshare_flags=(-r -m)    # an unprivileged user namespace may mount a tmpfs too
# Runs a command in a mount namespace with an empty tmpfs over the toolchain.
hidden() { unshare "${unshare_flags[@]}" sh -c 'mount -t tmpfs tmpfs "$0" && exec "$@"' "$toolchain" "$@"; }
hidden sh -c '[ -z "$(ls -A "$0")" ] && ! swift --version > /dev/null 2>&1' "$toolchain" \
  || fail "could not hide $toolchain (unshare -m needs root or user namespaces)"
for l in "$real_lib" "${pango_lib:-$real_lib}"; do
  hidden ldd "$l" > "$work/hidden.ldd" || fail "ldd $l with the toolchain hidden"
  grep -Ei 'not found|swift|dispatch|BlocksRuntime' "$work/hidden.ldd" && fail "ldd $l with the toolchain hidden"
done
hidden "$work/inkhit_test" > "$work/hidden.log" 2>&1 || { cat "$work/hidden.log" >&2; fail "inkhit_test with the toolchain hidden"; }
(cd "$work" && hidden ./app) > "$work/hidden_app.out" || fail "the README's example with the toolchain hidden"
cmp -s "$work/app.out" "$work/hidden_app.out" || fail "the README's example answers otherwise with the toolchain hidden"
(cd "$work" && hidden ./hello) > "$work/hidden_hello.out" || fail "hello with the toolchain hidden"
cmp -s "$work/hello.out" "$work/hidden_hello.out" || fail "hello answers otherwise with the toolchain hidden"
# The README's "Shipping it beside an app": the library copied into the app's folder, found through $ORIGIN only.
mkdir -p "$work/myapp/lib" && cp "$real_lib" "$work/myapp/lib/libInkHit.so.1"
cc examples/c/hello.c -I "$prefix/include" -L "$prefix/lib" -lInkHit -Wl,-rpath,'$ORIGIN/lib' -o "$work/myapp/app"
mv "$prefix" "$prefix.moved"
(cd "$work" && hidden ./myapp/app) > "$work/myapp.out" || { mv "$prefix.moved" "$prefix"; fail "an app with libInkHit beside it"; }
mv "$prefix.moved" "$prefix"
cmp -s "$work/hello.out" "$work/myapp.out" || fail "an app with libInkHit beside it answers otherwise"
hidden "$work/example_cpp" > /dev/null 2>&1 || fail "example.cpp with the toolchain hidden"
hidden "$work/harfbuzz_test" "$work/hb" > /dev/null 2>&1 || fail "harfbuzz_test with the toolchain hidden"
hidden "$work/signals_linked" state > "$work/hidden_signals.txt" || fail "signals_test with the toolchain hidden"
diff "$work/signals_without.txt" "$work/hidden_signals.txt" >&2 || fail "signal dispositions with the toolchain hidden"
hidden "$work/dlclose_test" "$lib" "$font" > /dev/null || fail "dlclose_test with the toolchain hidden"
hidden "$work/two_copies_test" "$work/copy1/libInkHit.so.1" "$work/copy2/libInkHit.so.1" "$font" > /dev/null \
  || fail "two copies of libInkHit with the toolchain hidden"
(cd "$work" && hidden ./paragraph "$work/paragraph.png") > "$work/hidden_paragraph.out" || fail "paragraph.c with the toolchain hidden"
cmp -s "$work/pango_paragraph.out" "$work/hidden_paragraph.out" || fail "paragraph.c answers otherwise with the toolchain hidden"
hidden "$work/pango_cairo_test" > "$work/hidden_pango.log" 2>&1 || { cat "$work/hidden_pango.log" >&2; fail "pango_cairo_test with the toolchain hidden"; }
cc "${flags[@]}" -O1 scripts/c-tests/curve_exact_test.c $(pkg-config --cflags --libs inkhit) -o "$work/curve_exact_test"
python3 scripts/c-tests/curve_exact_input.py Tests/InkJobsTests/Fixtures example heldout stress cff > "$work/curve_exact.txt"
hidden "$work/curve_exact_test" < "$work/curve_exact.txt" > "$work/curve_exact.out" || { cat "$work/curve_exact.out" >&2; fail "curve-exact answers with the toolchain hidden"; }
cat "$work/curve_exact.out" >&2

echo "C ABI: all $steps steps passed (libInkHit $version: $(wc -l < "$work/exported") functions exported, self-contained, C, C under ASan/UBSan/LSan, C++, Python, host signals, HarfBuzz, Pango/cairo, a Swift host, the toolchain hidden)"
