#!/usr/bin/env bash
# OSS-Fuzz-style build of InkHit's fuzz targets: what a continuous-fuzzing service's build script
# (OSS-Fuzz's projects/inkhit/build.sh, in a base-builder-swift image) runs. It writes, into $OUT:
#   inkhit_TARGET                     one fuzzer binary per target of Fuzz/ (font, geometry, jobs, scenes,
#                                     capi, colorfonts, text), linked with $LIB_FUZZING_ENGINE;
#   inkhit_TARGET_seed_corpus.zip     its seed corpus (the files scripts/fuzz.sh seeds it with);
#   inkhit_TARGET.options             its libFuzzer options (input size, 2 GB memory cap, time per input).
#
# Variables (OSS-Fuzz's): CC, CXX, LIB_FUZZING_ENGINE and OUT are required; CFLAGS, SANITIZER (address or
# thread), SWIFTC and WORK (scratch space; default $OUT/.work) are optional. CXX is not used (there is no
# C++), but required as OSS-Fuzz always sets it.
#
#   CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out Fuzz/oss-fuzz-build.sh
#   Fuzz/oss-fuzz-build.sh --check    after a build: run every binary once over its zipped seeds
#
# CI (.ci/run) runs both with local values. Fonts: the font target's seeds include the system's fonts
# (fonts-dejavu-core and the others ./inkhit deps installs) when they are there, as scripts/fuzz.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CC:?set CC (the C compiler)}" "${CXX:?set CXX}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE (e.g. -fsanitize=fuzzer)}"
: "${OUT:?set OUT (where the fuzzers go)}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export CC LIB_FUZZING_ENGINE
export INKHIT_FUZZ_BUILD=${INKHIT_FUZZ_BUILD:-${WORK:-$OUT/.work}/inkhit-fuzz}
B=$INKHIT_FUZZ_BUILD
targets=(font geometry jobs scenes capi colorfonts text)
declare -A max_len=([font]=800000 [geometry]=4096 [jobs]=16384 [scenes]=4096 [capi]=4096 [colorfonts]=1024 [text]=4096)

if [ "${1:-}" = "--check" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  for t in "${targets[@]}"; do
    [ -x "$OUT/inkhit_$t" ] && [ -f "$OUT/inkhit_${t}_seed_corpus.zip" ] && [ -f "$OUT/inkhit_$t.options" ] \
      || { echo "oss-fuzz: $OUT lacks inkhit_$t, its seed corpus or its options" >&2; exit 1; }
    mkdir -p "$scratch/$t"
    python3 -m zipfile -e "$OUT/inkhit_${t}_seed_corpus.zip" "$scratch/$t"
    n=$(find "$scratch/$t" -type f | wc -l)
    [ "$n" -gt 0 ] || { echo "oss-fuzz: inkhit_$t has an empty seed corpus" >&2; exit 1; }
    SWIFT_BACKTRACE=enable=no "$OUT/inkhit_$t" -runs=0 -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
      -max_len="${max_len[$t]}" "$scratch/$t" > "$scratch/$t.log" 2>&1 \
      || { tail -30 "$scratch/$t.log" >&2; echo "oss-fuzz: inkhit_$t failed on its seeds" >&2; exit 1; }
    echo "oss-fuzz: inkhit_$t ran its $n seeds" >&2
  done
  exit 0
fi

scripts/fuzz.sh --seeds
for t in "${targets[@]}"; do
  cp "$B/bin/$t-fuzzer" "$OUT/inkhit_$t"
  # The seeds, flat, as OSS-Fuzz wants them (Python's zipfile: no zip tool needed).
  python3 - "$B/seeds/$t" "$OUT/inkhit_${t}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        if os.path.isfile(os.path.join(src, name)):
            z.write(os.path.join(src, name), name)
PY
  printf '[libfuzzer]\nmax_len = %s\nrss_limit_mb = 2048\nmalloc_limit_mb = 2048\ntimeout = 10\n' "${max_len[$t]}" > "$OUT/inkhit_$t.options"
done
echo "oss-fuzz: ${#targets[@]} fuzzers, seed corpora and options in $OUT" >&2
