#!/usr/bin/env bash
# Shared by the CLI shell tests: sourced after KILN is set. Provides DATA,
# WORK, fail (counts in $failures), expect_status and expect_grep.

readonly DATA="tools/cli/testdata"
readonly WORK="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_status WANT DESCRIPTION -- COMMAND...: runs COMMAND, output captured
# in ${WORK}/out and ${WORK}/err, and checks its exit status.
expect_status() {
  local want="$1" what="$2"
  shift 3
  "$@" >"${WORK}/out" 2>"${WORK}/err"
  local got=$?
  if [[ "${got}" != "${want}" ]]; then
    fail "${what}: exit status ${got}, want ${want}; stderr:"
    cat "${WORK}/err" >&2
  fi
}

expect_grep() {
  local pattern="$1" file="$2" what="$3"
  if ! grep -Eq -- "${pattern}" "${file}"; then
    fail "${what}: no match for '${pattern}' in:"
    cat "${file}" >&2
  fi
}
