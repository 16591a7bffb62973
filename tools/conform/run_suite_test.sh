#!/bin/sh
# Runs a conformance suite with `kiln conform` and fails unless every case
# gives the result its expectations file predicts.
#   run_suite_test.sh KILN SUITE_DIR [FLAGS...]
# The reports land in $TEST_UNDECLARED_OUTPUTS_DIR (bazel-testlogs/.../
# test.outputs/) when Bazel provides it.
set -eu
# Kernel caches of compiling backends (cpu) stay inside the test sandbox.
export KILN_CACHE_DIR="${KILN_CACHE_DIR:-${TEST_TMPDIR:-/tmp}/kiln-cache}"
kiln=$1
suite=$2
shift 2
report=${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/conformance_report
out=${TEST_TMPDIR:-/tmp}/conform_out.txt
status=0
"$kiln" conform --report="$report" "$@" "$suite" >"$out" 2>&1 || status=$?
cat "$out"
summary=$(tail -n 1 "$out")
case "$summary" in
  *" passed, 0 failed, "*) ;;
  *)
    echo "FAIL: unexpected results (exit status $status): $summary" >&2
    exit 1
    ;;
esac
if [ "$status" -ne 0 ]; then
  echo "FAIL: kiln conform exited with status $status" >&2
  exit 1
fi
echo "PASS: $summary"
