#!/usr/bin/env bash
# Kiln's test command: installs what is missing, runs every test, and prints
# the number of individual test cases that passed and failed as its last line.
#
#   tools/test.sh                    # bazel test //...
#   tools/test.sh --config=asan      # extra arguments go to `bazel test`
#   tools/test.sh //compiler/ir/...  # arguments without '-' replace //...
set -euo pipefail
cd "$(dirname "$0")/.."

tools/setup.sh

flags=()
targets=()
for arg in "$@"; do
  if [[ "${arg}" == -* ]]; then
    flags+=("${arg}")
  else
    targets+=("${arg}")
  fi
done
if ((${#targets[@]} == 0)); then
  targets=(//...)
fi

events="$(mktemp /tmp/kiln-test-events.XXXXXX.json)"
trap 'rm -f "${events}"' EXIT

# --keep_going: one broken target must not hide the results of the others.
bazel_status=0
bazel test --keep_going --build_event_json_file="${events}" \
  "${flags[@]+"${flags[@]}"}" -- "${targets[@]}" || bazel_status=$?

# The counter prints "N passed, N failed" last and fails if anything failed,
# including a bazel failure that no target accounts for.
python3 tools/count_test_results.py "${events}" "${bazel_status}"
