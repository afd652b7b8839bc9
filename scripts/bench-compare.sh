#!/usr/bin/env bash
# Before/after benchmark comparison: this checkout (working tree included) against an earlier commit.
#
#   scripts/bench-compare.sh BASE_COMMIT [--runs N] [--quick]
#
#   BASE_COMMIT  the "before" side, e.g. c65446c (the last commit before the API refactor)
#   --runs N     runs of each side, alternated base, head, base, head, … (default 5, at least 3)
#   --quick      fewer rounds per number inside each run (ink-bench-summary compare --quick): a smoke test
#
# What it does:
# 1. checks BASE_COMMIT out into the git worktree .build-bench-base/ (git-ignored, like every .build-*/;
#    kept between runs, with its Benchmarks/.build/);
# 2. if that commit's benchmarks lack `ink-bench-summary compare`, adds it: copies this checkout's
#    API-independent measurement code (Benchmarks/Sources/ink-bench-summary/{Compare,Layout}.swift and
#    Benchmarks/Sources/CMallocCounter/) and applies scripts/bench-compare/old-api-c65446c.patch (the
#    same `PageQueries` and `LayoutWorkload` in the old API, the package and `main.swift` hooks) — once:
#    later runs find it in place;
# 3. builds ink-bench-summary in release mode on both sides (each Benchmarks/ has its own .build/);
# 4. runs `ink-bench-summary compare` alternately, base first, `--runs` times each, and prints the median
#    of every number side by side with the change (results: .build-bench-base/results/DATE/).
#
# The numbers: page workload (DejaVu Sans 16 px, 200,000 points) query ns/point at r = 0 and r = 3.5 through
# the main batch call, the raw-buffer batch call and single-point calls; bytes per placement and per unique
# shape; warm and cold page builds, and the index alone (shapes and transforms given); the CJK-fallback
# paragraph laid out with one shared shape cache and with a fresh cache per layout: ms per layout, and bytes
# malloc'd per layout (counted in-process). This host is shared: compare medians of alternated runs, never
# one run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE_DIR=$ROOT/.build-bench-base
PATCH=$ROOT/scripts/bench-compare/old-api-c65446c.patch

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

base=""
runs=5
quick=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --quick) quick=(--quick); shift ;;
    -h|--help) usage ;;
    -*) echo "bench-compare: unknown option $1" >&2; usage ;;
    *) [ -z "$base" ] || usage; base=$1; shift ;;
  esac
done
[ -n "$base" ] || usage
[[ $runs =~ ^[0-9]+$ ]] && [ "$runs" -ge 3 ] || { echo "bench-compare: --runs must be at least 3" >&2; exit 2; }
want=$(git rev-parse --verify "$base^{commit}")
head_desc=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain -- Sources Package.swift Benchmarks)" ]; then head_desc="$head_desc + working tree"; fi

# 1. The base worktree, at BASE_COMMIT (ignored files such as Benchmarks/.build/ are kept between runs).
if [ -e "$BASE_DIR" ] && [ ! -f "$BASE_DIR/.git" ]; then
  echo "bench-compare: $BASE_DIR exists but is not a git worktree; remove it first" >&2; exit 1
fi
if [ -e "$BASE_DIR" ] && [ "$(git -C "$BASE_DIR" rev-parse HEAD)" != "$want" ]; then
  echo "bench-compare: moving $BASE_DIR to $base" >&2
  git -C "$BASE_DIR" checkout -q --force --detach "$want"
  git -C "$BASE_DIR" clean -fdq -- Benchmarks
fi
if [ ! -e "$BASE_DIR" ]; then
  echo "bench-compare: checking out $base into $BASE_DIR" >&2
  git worktree add -q --detach "$BASE_DIR" "$want"
fi

# 2. `ink-bench-summary compare` on the base side: its own when the commit has it, else added here.
SUMMARY=Benchmarks/Sources/ink-bench-summary
COPIED=("$SUMMARY/Compare.swift" "$SUMMARY/Layout.swift" Benchmarks/Sources/CMallocCounter)
prepared() {       # the copies are current and the patch is applied
  local f
  for f in "${COPIED[@]}"; do diff -rq "$ROOT/$f" "$BASE_DIR/$f" >/dev/null 2>&1 || return 1; done
  git -C "$BASE_DIR" apply --reverse --check "$PATCH" 2>/dev/null
}
if git -C "$BASE_DIR" cat-file -e "HEAD:$SUMMARY/Compare.swift" 2>/dev/null; then
  git -C "$BASE_DIR" checkout -q -- Benchmarks
  git -C "$BASE_DIR" clean -fdq -- Benchmarks
elif ! prepared; then
  echo "bench-compare: adding \`ink-bench-summary compare\` to $base (scripts/bench-compare/)" >&2
  git -C "$BASE_DIR" checkout -q -- Benchmarks
  git -C "$BASE_DIR" clean -fdq -- Benchmarks
  cp "$ROOT/$SUMMARY/Compare.swift" "$ROOT/$SUMMARY/Layout.swift" "$BASE_DIR/$SUMMARY/"
  cp -R "$ROOT/Benchmarks/Sources/CMallocCounter" "$BASE_DIR/Benchmarks/Sources/"
  git -C "$BASE_DIR" apply "$PATCH" || {
    echo "bench-compare: $PATCH does not apply to $base's Benchmarks/ (it was made for c65446c)" >&2; exit 1; }
fi
# The same dependency versions on both sides.
[ -f "$ROOT/Benchmarks/Package.resolved" ] && cp "$ROOT/Benchmarks/Package.resolved" "$BASE_DIR/Benchmarks/"

# 3. Build both.
for side in "$BASE_DIR" "$ROOT"; do
  echo "bench-compare: building ink-bench-summary in $side/Benchmarks" >&2
  (cd "$side/Benchmarks" && swift build -c release --product ink-bench-summary 2>&1 | grep -E 'error|warning: unre|Compiling|Build' >&2) \
    || { echo "bench-compare: build failed in $side/Benchmarks" >&2; exit 1; }
done
BIN_BASE=$BASE_DIR/Benchmarks/.build/release/ink-bench-summary
BIN_HEAD=$ROOT/Benchmarks/.build/release/ink-bench-summary

# 4. Alternate runs.
OUT=$BASE_DIR/results/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq 1 "$runs"); do
  for side in base head; do
    if [ $side = base ]; then bin=$BIN_BASE; dir=$BASE_DIR/Benchmarks; else bin=$BIN_HEAD; dir=$ROOT/Benchmarks; fi
    echo "bench-compare: run $i/$runs, $side" >&2
    (cd "$dir" && "$bin" compare "${quick[@]}") > "$OUT/$side-$i.tsv"
  done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$OUT" "$runs" "$base ($(git rev-parse --short "$want"))" "$head_desc" "$load_start" "$load_end" "${quick[*]:-}" <<'EOF'
import statistics, sys
out, runs, base_name, head_name, load0, load1, quick = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]

def read(side):
    runs_values, info = [], {}
    for i in range(1, runs + 1):
        values = {}
        for line in open(f"{out}/{side}-{i}.tsv"):
            key, _, value = line.rstrip("\n").partition("\t")
            if key.startswith("info."):
                info[key] = value
            else:
                values[key] = float(value)
        runs_values.append(values)
    return runs_values, info

base, base_info = read("base")
head, head_info = read("head")

rows = [
    ("page: glyphs (inked)", "page.glyphs", "{:.0f}", "page.inked"),
    ("page: query r=0, batch (ns/point)", "page.r0.batch", "{:.1f}", None),
    ("page: query r=0, raw buffers (ns/point)", "page.r0.rawBuffers", "{:.1f}", None),
    ("page: query r=0, single-point calls (ns/point)", "page.r0.single", "{:.1f}", None),
    ("page: query r=3.5, batch (ns/point)", "page.r3.5.batch", "{:.1f}", None),
    ("page: query r=3.5, raw buffers (ns/point)", "page.r3.5.rawBuffers", "{:.1f}", None),
    ("page: query r=3.5, single-point calls (ns/point)", "page.r3.5.single", "{:.1f}", None),
    ("page: bytes per placement", "page.bytesPerPlacement", "{:.1f}", None),
    ("page: bytes per unique shape", "page.bytesPerShape", "{:.0f}", None),
    ("page: build warm (ms)", "page.build.warm", "{:.3f}", None),
    ("page: build cold (ms)", "page.build.cold", "{:.2f}", None),
    ("page: build, index only: add(shape, transform) + build() (ms)", "page.build.indexOnly", "{:.3f}", None),
    ("CJK layout: glyphs", "layout.glyphs", "{:.0f}", None),
    ("CJK layout, shared cache (ms per layout)", "layout.shared.ms", "{:.3f}", None),
    ("CJK layout, fresh cache (ms per layout)", "layout.fresh.ms", "{:.2f}", None),
    ("CJK layout, shared cache: KiB malloc'd per layout", "layout.shared.bytes", "kib", None),
    ("CJK layout, shared cache: allocations per layout", "layout.shared.allocs", "{:.0f}", None),
    ("CJK layout, shared cache: peak live heap growth (KiB)", "layout.shared.peak", "kib", None),
    ("CJK layout, fresh cache: KiB malloc'd per layout", "layout.fresh.bytes", "kib", None),
]

def median(side, key):
    vals = [r[key] for r in side if key in r]
    vals = [v for v in vals if v == v]       # drop NaN (not measured)
    return (statistics.median(vals), vals) if vals else (None, [])

def fmt(spec, v):
    if v is None:
        return "—"
    return f"{v / 1024:.1f}" if spec == "kib" else spec.format(v)

print(f"# Before/after: {base_name} → {head_name}")
print()
print(f"- runs: {runs} of each side, alternated (base first){', --quick' if quick else ''}; medians over runs")
print(f"- load average: {load0} at the start, {load1} at the end (other processes share these cores)")
print(f"- batch call: base {base_info.get('info.batch', '?')}; head {head_info.get('info.batch', '?')}")
print(f"- raw buffers: base {base_info.get('info.rawBuffers', '?')}; head {head_info.get('info.rawBuffers', '?')}")
print(f"- per-run values: {out}/")
print()
print("| number | before | after | change | before, every run | after, every run |")
print("|---|---|---|---|---|---|")
for label, key, spec, extra in rows:
    b, bv = median(base, key)
    h, hv = median(head, key)
    if extra:
        be, _ = median(base, extra)
        he, _ = median(head, extra)
        print(f"| {label} | {fmt(spec, b)} ({fmt(spec, be)}) | {fmt(spec, h)} ({fmt(spec, he)}) | | | |")
        continue
    change = f"{(h / b - 1) * 100:+.1f} %" if b and h is not None else "—"
    every = lambda vs: " ".join(fmt(spec, v) for v in vs) or "—"
    print(f"| {label} | {fmt(spec, b)} | {fmt(spec, h)} | {change} | {every(bv)} | {every(hv)} |")
EOF
