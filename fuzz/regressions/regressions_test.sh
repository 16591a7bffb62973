#!/usr/bin/env bash
# Replays every finding under fuzz/regressions: all must be fixed.
# Usage: regressions_test.sh PATH_TO_KILN
set -uo pipefail
out="$("$1" fuzz --replay=fuzz/regressions 2>&1)"
status=$?
echo "${out}"
[[ "${status}" == 0 ]] || { echo "FAIL: a replayed finding fails again"; exit 1; }
grep -q ' fixed, 0 still failing$' <<<"${out}" || { echo "FAIL: no summary"; exit 1; }
