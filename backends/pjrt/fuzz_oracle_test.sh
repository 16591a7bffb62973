#!/bin/sh
# XLA's CPU plugin as the backend `kiln fuzz` checks against the reference
# evaluator (docs/fuzzing.md): ten seeds on two threads sharing the one
# client of the process. Findings are XLA's disagreements and allowed; the
# run must finish and check every seed. Skipped without the plugin.
#   fuzz_oracle_test.sh KILN
set -eu
kiln=$1
. "${TEST_SRCDIR:-.}/kiln/backends/pjrt/xla_plugin_test_lib.sh"
find_xla_plugin "$kiln"
out=${TEST_TMPDIR:-/tmp}/fuzz.txt
status=0
"$kiln" fuzz "--backend=pjrt:$plugin" --oracle=backend --seeds=0..9 \
  --jobs=2 --reduce_seconds=0 "--out=${TEST_TMPDIR:-/tmp}/findings" \
  >"$out" 2>"${TEST_TMPDIR:-/tmp}/fuzz.err" || status=$?
cat "$out"
if [ "$status" -gt 1 ]; then
  tail -n 20 "${TEST_TMPDIR:-/tmp}/fuzz.err" >&2
  echo "FAIL: kiln fuzz exited with status $status" >&2
  exit 1
fi
if ! grep -Eq '^10 cases, 10 checks, .* with 2 jobs$' "$out"; then
  echo "FAIL: kiln fuzz did not check all ten seeds" >&2
  exit 1
fi
echo PASS
