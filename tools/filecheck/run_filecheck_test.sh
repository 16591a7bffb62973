#!/usr/bin/env bash
# Tests run_filecheck.sh: a file whose RUN lines pass, and files that must
# make it fail (a CHECK that does not match, `not` on a success, no RUN
# lines). usage: run_filecheck_test.sh RUNNER KILN
set -uo pipefail
runner="$1"
kiln="$2"
testdata="$(dirname "${runner}")/testdata"
failures=0

expect_status() {
  local want="$1" file="$2"
  local output
  output="$("${runner}" "${kiln}" "${testdata}/${file}" 2>&1)"
  local status=$?
  if [[ "${want}" == pass && ${status} -ne 0 ]] ||
    [[ "${want}" == fail && ${status} -eq 0 ]]; then
    echo "FAIL: ${file}: expected the runner to ${want}, exit ${status}:"
    echo "${output}"
    failures=$((failures + 1))
  else
    echo "ok: ${file} (${want})"
  fi
}

expect_status pass passing.hlo
expect_status fail failing_check.hlo
expect_status fail not_on_success.hlo
expect_status fail no_run_lines.hlo
exit $((failures > 0))
