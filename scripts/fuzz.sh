#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each one for a bounded time; exits non-zero on any finding.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]    run each TARGET (default: all) for SECONDS (default 60; INKHIT_FUZZ_JOBS=N
#                                            runs N at a time)
#   scripts/fuzz.sh --build                  only build
#   scripts/fuzz.sh --seeds                  only build and write the seed corpora (.build-fuzz/seeds/TARGET)
#   scripts/fuzz.sh --minimize TARGET FILE   minimize a crasher (writes .build-fuzz/findings/TARGET/minimized-*)
#   SWIFT_BACKTRACE=enable=no .build-fuzz/bin/TARGET-fuzzer FILE     replay one input
#
# INKHIT_FUZZ_SEED=N fixes libFuzzer's seed (CI does, so a CI run is reproducible: the same seed from the
# same seed corpus explores the same inputs first); unset, every run explores new ones. INKHIT_FUZZ_FRESH=1
# starts from the seed corpus alone (as a fresh clone does), ignoring what earlier runs learnt.
#
# Targets: font (font bytes → outlines → shapes → index → queries), geometry (structure-aware outline /
# transform / radius / point decoding against brute force), jobs (`ink-hit query` lines through JobRunner),
# scenes (structure-aware scene jobs: large bounds, huge paths and masks), capi (the C interface as sequences
# of calls with hostile arguments), colorfonts (COLR and sbix fonts built from a grammar), text (structure-aware
# text jobs: whitespace runs, bidi nesting, mark and ZWJ floods, runs, exclusions, links and attachments).
#
# Every run is held to 2 GB (-rss_limit_mb and -malloc_limit_mb: an allocation or a resident size beyond it
# is a finding, as an abort is) and 10 s per input (-timeout).
#
# The package's modules are compiled with swiftc directly (one object per module, whole-module, -O,
# AddressSanitizer and libFuzzer coverage), so no executable target is added to Package.swift; the C shims
# come in through their module maps (-I Sources/C…) and pkg-config flags, and the C interface's own C files
# are compiled with $CC. Fuzzers that check answers against brute force or build fonts get the library's test
# support compiled in (Tests/InkTestSupport: SplitMix64, BruteForce, TestShapes — one generator and one
# oracle for tests, fuzzers and benchmarks; TinyFont, ColorFont, HostileFonts for the font grammar; not
# TestFonts, which needs the fonts of the test suite). Everything lands in .build-fuzz/ (git-ignored, or
# $INKHIT_FUZZ_BUILD): mods/ and obj/ (modules), bin/ (fuzzers), seeds/ (generated each run), corpus/ (what
# the fuzzers learnt, kept between runs), findings/ (crashers, timeouts, OOMs).
#
# The compilers and the fuzzing engine follow OSS-Fuzz's variables when they are set (Fuzz/oss-fuzz-build.sh
# sets them): $CC and $CFLAGS for C, $SWIFTC for Swift, $LIB_FUZZING_ENGINE linked into every fuzzer
# (default -fsanitize=fuzzer: libFuzzer), $SANITIZER (address, the default, or thread).
set -euo pipefail
cd "$(dirname "$0")/.."

B=${INKHIT_FUZZ_BUILD:-.build-fuzz}
TARGETS=(font geometry jobs scenes capi colorfonts text)
TEST_SUPPORT=(Tests/InkTestSupport/SplitMix64.swift Tests/InkTestSupport/BruteForce.swift Tests/InkTestSupport/TestShapes.swift)
FONT_GRAMMAR=(Tests/InkTestSupport/TinyFont.swift Tests/InkTestSupport/ColorFont.swift Tests/InkTestSupport/HostileFonts.swift)
declare -A MAX_LEN=([font]=800000 [geometry]=4096 [jobs]=16384 [scenes]=4096 [capi]=4096 [colorfonts]=1024 [text]=4096)
SWIFTC=${SWIFTC:-swiftc}
CC=${CC:-clang}
SANITIZER=${SANITIZER:-address}
case $SANITIZER in address|thread) ;; *) echo "fuzz: SANITIZER=$SANITIZER is not supported (address, thread)" >&2; exit 2 ;; esac
CFLAGS=${CFLAGS:--O1 -g -fsanitize=$SANITIZER,fuzzer-no-link}
read -r -a ENGINE <<<"${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}"
# One package name for every module and fuzzer, as SwiftPM gives its targets: `package` members (test hooks
# such as TextLayout.lineFillingWork) are visible to the fuzzers.
SWIFTFLAGS=(-O -g -parse-as-library -swift-version 6 -package-name InkHit)
FUZZ=(-sanitize=fuzzer,"$SANITIZER")
# The geometry core runs hot loops over every edge and cell: edge coverage without comparison tracing keeps
# it ~3x faster under instrumentation (the parsers above it keep full `-sanitize=fuzzer` tracing).
LIGHT=(-sanitize="$SANITIZER" -sanitize-coverage=edge,inline-8bit-counters,pc-table)
# Linking: the sanitizer's runtime, and the fuzzing engine through clang (swiftc's linker driver).
LINK=(-sanitize="$SANITIZER")
for w in "${ENGINE[@]}"; do LINK+=(-Xclang-linker "$w"); done
# Library modules in dependency order (those present), the C shims' module maps, and the system libraries
# they name through pkg-config in Package.swift.
MODULES=()
for m in InkGeometry InkHit InkFreeType InkText InkScene InkJobs InkHitC; do [ -d "Sources/$m" ] && MODULES+=("$m"); done
INCLUDES=(-I "$B/mods" -I "$B/cmods/CInkHitRuntime" -I "$B/cmods/CInkHit")
for d in Sources/C*/; do [ -f "$d/module.modulemap" ] && INCLUDES+=(-I "${d%/}"); done
read -r -a PKGS <<<"$(grep -o 'pkgConfig: *"[^"]*"' Package.swift | sed 's/.*"\(.*\)"/\1/' | tr '\n' ' ')"
read -r -a PKG_CFLAGS <<<"$(pkg-config --cflags "${PKGS[@]}")"
read -r -a PKG_LIBS <<<"$(pkg-config --libs "${PKGS[@]}")"
for f in "${PKG_CFLAGS[@]}"; do INCLUDES+=(-Xcc "$f"); done

# newer OUT SRC...: true when OUT is missing or older than any SRC.
newer() {
  local out=$1; shift
  [ -e "$out" ] || return 0
  [ -n "$(find "$@" -newer "$out" -print -quit)" ]
}

# module NAME [DEP...]: Sources/NAME/**/*.swift → mods/NAME.swiftmodule + obj/NAME.o (rebuilt when a source,
# an earlier module's object or this script changed).
module() {
  local name=$1; shift
  local srcs
  mapfile -t srcs < <(find Sources/"$name" -name '*.swift' | LC_ALL=C sort)
  local deps=()
  local d
  for d in "$@"; do deps+=("$B/obj/$d.o"); done
  newer "$B/obj/$name.o" "${srcs[@]}" "${deps[@]}" scripts/fuzz.sh || return 0
  echo "fuzz: compiling module $name" >&2
  local san=("${FUZZ[@]}")
  case $name in InkGeometry|InkHit) san=("${LIGHT[@]}") ;; esac
  "$SWIFTC" "${SWIFTFLAGS[@]}" "${san[@]}" -wmo -module-name "$name" "${INCLUDES[@]}" \
    -emit-module -emit-module-path "$B/mods/$name.swiftmodule" -c -o "$B/obj/$name.o" "${srcs[@]}"
  touch "$B/obj/$name.o"      # swiftc keeps the old file (and time) when the object did not change
}

# The C interface's C targets: a module map for each header (the Swift module InkHitC and the capi fuzzer
# import them), and their objects, compiled with $CC $CFLAGS.
c_targets() {
  local name
  for name in CInkHitRuntime CInkHit; do
    local dir="Sources/$name"
    mkdir -p "$B/cmods/$name"
    printf 'module %s {\n  umbrella "%s"\n  export *\n}\n' "$name" "$PWD/$dir/include" > "$B/cmods/$name/module.modulemap"
    newer "$B/obj/$name.o" "$dir" scripts/fuzz.sh || continue
    echo "fuzz: compiling $name" >&2
    # shellcheck disable=SC2086
    "$CC" $CFLAGS -std=c11 -I Sources/CInkHitRuntime/include -I "$dir/include" -c -o "$B/obj/$name.o" "$dir"/*.c
  done
}

build() {
  mkdir -p "$B/mods" "$B/obj" "$B/bin"
  # Objects made with other compilers, flags or engine are made again.
  local flags="$SWIFTC|$CC|$CFLAGS|${ENGINE[*]}|$SANITIZER"
  if [ "$(cat "$B/flags" 2>/dev/null)" != "$flags" ]; then rm -f "$B"/obj/*.o "$B"/bin/*-fuzzer; echo "$flags" > "$B/flags"; fi
  c_targets
  local i
  for i in "${!MODULES[@]}"; do module "${MODULES[$i]}" "${MODULES[@]:0:$i}"; done
  local t file extra
  for t in "${TARGETS[@]}"; do
    extra=()
    case $t in
      font) file=FontFuzzer ;;
      geometry) file=GeometryFuzzer; extra=("${TEST_SUPPORT[@]}") ;;     # brute-force comparisons
      jobs) file=JobFuzzer ;;
      scenes) file=SceneFuzzer ;;
      capi) file=CAPIFuzzer ;;
      colorfonts) file=ColorFontFuzzer; extra=("${FONT_GRAMMAR[@]}") ;;
      text) file=TextFuzzer ;;
    esac
    newer "$B/bin/$t-fuzzer" "Fuzz/$file.swift" Fuzz/Support "${extra[@]}" "$B/obj" scripts/fuzz.sh || continue
    echo "fuzz: linking $t-fuzzer" >&2
    "$SWIFTC" "${SWIFTFLAGS[@]}" "${LINK[@]}" -module-name "${file}Main" "${INCLUDES[@]}" \
      "Fuzz/$file.swift" Fuzz/Support/*.swift "${extra[@]}" "$B"/obj/*.o "${PKG_LIBS[@]}" -o "$B/bin/$t-fuzzer" \
      2> >(grep -v 'Cannot export local symbol' >&2)     # gold's noise about ASan's helper symbols
  done
}

# Seed corpora, regenerated every run: fonts are copied from the system (never committed; small subsets
# and a tiny CFF font are made with fontTools when it is installed), geometry inputs are generated by the
# geometry fuzzer, job lines come from Fuzz/corpus/jobs/.
seeds() {
  rm -rf "$B/seeds"
  mkdir -p "$B/seeds/font" "$B/seeds/geometry" "$B/seeds/jobs"
  find /usr/share/fonts -type f \( -name '*.ttf' -o -name '*.otf' -o -name '*.ttc' \) -size -780k \
    -exec cp {} "$B/seeds/font/" \; 2>/dev/null || true
  # Small subsets (a handful of glyphs, composite ones included) make mutations land in glyf/loca/CFF.
  if python3 -c 'import fontTools.subset' 2>/dev/null; then
    local f
    for f in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf \
             /usr/share/fonts/truetype/noto/NotoMono-Regular.ttf; do
      [ -f "$f" ] || continue
      python3 -m fontTools.subset "$f" --text='Hagoé%Åﬁ' --output-file="$B/seeds/font/subset-$(basename "$f")" \
        --no-hinting 2>/dev/null || true
    done
    python3 - "$B/seeds/font" <<'EOF' 2>/dev/null || true
# A tiny CFF-flavoured OpenType font (FontBuilder), so the CFF parser is fuzzed too.
import sys
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
fb = FontBuilder(1000, isTTF=False)
names = [".notdef", "a", "o"]
fb.setupGlyphOrder(names)
fb.setupCharacterMap({ord("a"): "a", ord("o"): "o"})
def square(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0)); pen.lineTo((x1, y0)); pen.lineTo((x1, y1)); pen.lineTo((x0, y1)); pen.closePath()
cs = {}
for n in names:
    pen = T2CharStringPen(600, None)
    if n == "o":
        pen.moveTo((300, 0)); pen.curveTo((450, 0), (550, 150), (550, 300)); pen.curveTo((550, 450), (450, 600), (300, 600))
        pen.curveTo((150, 600), (50, 450), (50, 300)); pen.curveTo((50, 150), (150, 0), (300, 0)); pen.closePath()
        square(pen, 250, 250, 350, 350)
    elif n == "a":
        square(pen, 50, 0, 550, 500)
    cs[n] = pen.getCharString()
fb.setupCFF("InkHitFuzz", {"FullName": "InkHitFuzz"}, cs, {})
fb.setupHorizontalMetrics({n: (600, 50) for n in names})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": "InkHitFuzz", "styleName": "Regular"})
fb.setupOS2()
fb.setupPost()
fb.save(sys.argv[1] + "/tiny-cff.otf")
EOF
  fi
  cp Fuzz/corpus/jobs/*.jsonl "$B/seeds/jobs/"
  # The structure-aware targets write their own seeds (Fuzz/GeometryFuzzer.swift's GeometrySeeds, …).
  local t
  for t in geometry scenes capi colorfonts text; do
    mkdir -p "$B/seeds/$t"
    INKHIT_FUZZ_WRITE_SEEDS="$B/seeds/$t" "$B/bin/$t-fuzzer" >/dev/null 2>&1
  done
}

run_target() {
  local t=$1 secs=$2
  local corpus="$B/corpus/$t"
  if [ -n "${INKHIT_FUZZ_FRESH:-}" ]; then corpus="$B/corpus-fresh/$t"; rm -rf "$corpus"; fi
  mkdir -p "$corpus" "$B/findings/$t"
  local seed=()
  [ -n "${INKHIT_FUZZ_SEED:-}" ] && seed=(-seed="$INKHIT_FUZZ_SEED")
  echo "fuzz: running $t for ${secs}s" >&2
  local log="$B/findings/$t/last-run.log"
  set +e
  # SWIFT_BACKTRACE=enable=no: let a Swift trap reach libFuzzer as a signal (the runtime's backtracer
  # reads its own stack in a way ASan reports as an underflow).
  SWIFT_BACKTRACE=enable=no "$B/bin/$t-fuzzer" -max_total_time="$secs" -max_len="${MAX_LEN[$t]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -print_final_stats=1 "${seed[@]}" -artifact_prefix="$B/findings/$t/" "$corpus" "$B/seeds/$t" >"$log" 2>&1
  local rc=$?
  set -e
  grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tr '\n' ' ' >&2; echo >&2
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t FAILED (exit $rc); log: $log" >&2
    grep -E -A30 '^==[0-9]+==|ERROR: libFuzzer|Fatal error|fuzz invariant' "$log" | head -60 >&2 || tail -40 "$log" >&2
    ls -1 "$B/findings/$t" | grep -E '^(crash|timeout|oom|leak|slow-unit)-' >&2 || true
  fi
  return $rc
}

case "${1:-}" in
  --build) build; exit 0 ;;
  --seeds) build; seeds; exit 0 ;;
  --minimize)
    t=${2:?target}; file=${3:?crash file}
    build
    SWIFT_BACKTRACE=enable=no "$B/bin/$t-fuzzer" -minimize_crash=1 -max_total_time=120 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
      -exact_artifact_path="$B/findings/$t/minimized-$(basename "$file")" "$file"
    echo "minimized: $B/findings/$t/minimized-$(basename "$file")" >&2
    exit 0 ;;
esac

secs=${1:-60}
shift || true
selected=("$@")
[ ${#selected[@]} -eq 0 ] && selected=("${TARGETS[@]}")
build
seeds
failed=()
# INKHIT_FUZZ_JOBS=N runs up to N targets at once, each still for SECONDS (CI runs two on its two cores).
jobs_max=${INKHIT_FUZZ_JOBS:-1}
if [ "$jobs_max" -le 1 ]; then
  for t in "${selected[@]}"; do
    run_target "$t" "$secs" || failed+=("$t")
  done
else
  declare -A running=()
  for t in "${selected[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    run_target "$t" "$secs" &
    running[$t]=$!
  done
  for t in "${selected[@]}"; do wait "${running[$t]}" || failed+=("$t"); done
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]} (see $B/findings/)" >&2
  exit 1
fi
echo "fuzz: no findings (${selected[*]}, ${secs}s each)" >&2
