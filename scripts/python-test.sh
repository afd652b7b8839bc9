#!/usr/bin/env bash
# The Python package's tests (./inkhit test runs this after the C interface's tests; ./inkhit test-python alone):
# builds the wheel (scripts/python-wheel.sh: the release C library, auditwheel), installs it into the test venv
# .build-python/venv (./inkhit deps made it) and runs pytest over python/tests against that installed wheel:
# the curve-exact fixtures through the API and against `ink-hit query` byte for byte, Hypothesis properties,
# lifetimes and threads, the C structs against a compiler, layouts, scenes, jobs, the Dask example, the Pango
# adapter, the README's Python section, and the wheel in a fresh venv with the Swift toolchain hidden; then the
# binding fuzzer under a memory cap.
#
# Usage: scripts/python-test.sh [PYTEST ARGS...]
#   INKHIT_INK_HIT: the ink-hit binary to compare with (default: .build/debug/ink-hit, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build-python/venv
[ -x "$venv/bin/python" ] || { echo "python-test: $venv is missing: run ./inkhit deps" >&2; exit 1; }
start=$SECONDS
wheel=$(readlink -f "$(scripts/python-wheel.sh dist)")
echo "python-test: built $wheel ($(du -k "$wheel" | cut -f1) KiB) in $((SECONDS - start)) s" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"

if [ -z "${INKHIT_INK_HIT:-}" ]; then
  INKHIT_INK_HIT="$(swift build --show-bin-path)/ink-hit"
  [ -x "$INKHIT_INK_HIT" ] || swift build --product ink-hit >&2
fi
export INKHIT_INK_HIT INKHIT_WHEEL="$wheel"
# From the tests' folder, so `import inkhit` is the installed wheel, never python/src.
cd python
# The binding fuzzer (tests/fuzz_binding.py: Hypothesis over the public API with hostile numbers and arrays) in a
# process of its own under a 3 GB address-space cap, so an abort or an allocation past the cap fails it; a fixed set
# of examples (INKHIT_FUZZ_EXAMPLES per test, default 400: ~20 s here). It runs beside the other tests (each is one
# process; its output is printed when both have ended). Skipped when pytest arguments pick tests.
fuzz_pid=""
if [ $# -eq 0 ]; then
  fuzz_log="$(mktemp)"
  fuzz_start=$SECONDS
  prlimit --as=3000000000 "../$venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$fuzz_log.tmp" \
    tests/fuzz_binding.py > "$fuzz_log" 2>&1 &
  fuzz_pid=$!
fi
status=0
"../$venv/bin/python" -m pytest -q -p no:cacheprovider tests "$@" || status=$?
if [ -n "$fuzz_pid" ]; then
  wait "$fuzz_pid" || status=1
  fuzz_seconds=$((SECONDS - fuzz_start))
  cat "$fuzz_log" >&2
  rm -rf "$fuzz_log" "$fuzz_log.tmp"
  echo "python-test: the binding fuzzer took $fuzz_seconds s" >&2
fi
exit $status
