#!/usr/bin/env bash
# Runs the RUN lines of a FileCheck test file, LLVM lit style, so that the
# file itself is the single source of truth for how it is tested:
#
#   // RUN: kiln opt %s --passes=dce --split-input-file | FileCheck %s
#   // RUN: not kiln opt %s --passes=nope 2>&1 | FileCheck %s --check-prefix=ERR
#
# usage: run_filecheck.sh KILN_BINARY TEST_FILE
#
# Substitutions: %s is the test file, %S its directory, %t a fresh temporary
# path, %% a literal '%'. A line ending in '\' continues on the next RUN
# line. Each RUN line runs in bash with pipefail; the commands `kiln`,
# `FileCheck` and `not` are functions: `kiln` runs KILN_BINARY, `FileCheck`
# the LLVM tool (from $FILECHECK, PATH, or /usr/lib/llvm-*/bin), and `not`
# succeeds when its command fails without crashing (exit 1..127).
set -uo pipefail

if (($# != 2)); then
  echo "usage: $0 KILN_BINARY TEST_FILE" >&2
  exit 2
fi
kiln_binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
test_file="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"

find_filecheck() {
  if [[ -n "${FILECHECK:-}" ]]; then
    echo "${FILECHECK}"
    return
  fi
  local candidate
  for candidate in FileCheck FileCheck-19 FileCheck-16 FileCheck-15 \
    FileCheck-14; do
    if command -v "${candidate}" >/dev/null 2>&1; then
      command -v "${candidate}"
      return
    fi
  done
  for candidate in /usr/lib/llvm-*/bin/FileCheck; do
    if [[ -x "${candidate}" ]]; then
      echo "${candidate}"
      return
    fi
  done
}
filecheck_binary="$(find_filecheck)"
if [[ -z "${filecheck_binary}" ]]; then
  echo "run_filecheck.sh: FileCheck not found (install llvm-14-tools:" \
    "tools/setup.sh does)" >&2
  exit 1
fi

# The RUN lines, with continuations joined.
run_lines=()
pending=""
while IFS= read -r line; do
  [[ "${line}" =~ ^[[:space:]]*//[[:space:]]*RUN:(.*)$ ]] || continue
  command_text="${BASH_REMATCH[1]}"
  if [[ "${command_text}" =~ ^(.*)\\[[:space:]]*$ ]]; then
    pending+="${BASH_REMATCH[1]} "
    continue
  fi
  run_lines+=("${pending}${command_text}")
  pending=""
done <"${test_file}"
if [[ -n "${pending}" ]]; then
  echo "${test_file}: the last RUN line ends in '\\' with nothing after it" >&2
  exit 1
fi
if ((${#run_lines[@]} == 0)); then
  echo "${test_file}: no RUN lines" >&2
  exit 1
fi

temp_dir="$(mktemp -d "${TEST_TMPDIR:-/tmp}/filecheck.XXXXXX")"
trap 'rm -rf "${temp_dir}"' EXIT

substitute() {
  local text="$1"
  text="${text//%%/$'\x01'}"
  text="${text//%s/${test_file}}"
  text="${text//%S/$(dirname "${test_file}")}"
  text="${text//%t/${temp_dir}/t}"
  echo "${text//$'\x01'/%}"
}

failures=0
index=0
for run_line in "${run_lines[@]}"; do
  index=$((index + 1))
  command_text="$(substitute "${run_line}")"
  KILN_BINARY="${kiln_binary}" FILECHECK_BINARY="${filecheck_binary}" \
    bash -o pipefail -c '
      kiln() { "${KILN_BINARY}" "$@"; }
      FileCheck() { "${FILECHECK_BINARY}" "$@"; }
      not() {
        "$@"
        local status=$?
        if ((status >= 128)); then
          echo "not: the command crashed (exit ${status}): $*" >&2
          return 1
        fi
        ((status != 0))
      }
      '"${command_text}"
  status=$?
  if ((status != 0)); then
    echo "FAILED: RUN line ${index} of ${test_file} (exit ${status}):" >&2
    echo "  ${run_line}" >&2
    failures=$((failures + 1))
  fi
done
if ((failures > 0)); then
  echo "${failures} of ${#run_lines[@]} RUN lines failed" >&2
  exit 1
fi
echo "${#run_lines[@]} RUN lines passed"
