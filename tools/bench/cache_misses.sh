#!/bin/bash
# Counts what a pipeline costs in instructions and simulated cache misses,
# with no timing noise: callgrind's cache simulator (a 32 KB L1 and a 32 MB
# last-level cache, as on the machines the benchmarks run on) counts only
# inside kiln::RunPipeline, so parsing and printing are left out. Use it to
# compare two builds of a change to the IR's memory layout, where timings on
# a shared machine differ by more than the change does.
#
#   tools/bench/cache_misses.sh [KILN] [PIPELINE] [INSTRUCTIONS]
#
# defaults: the opt build of kiln, the cpu pipeline, 100000 instructions.
# Prints one line: Ir (instructions), D1mr, DLmr (last-level read misses)
# and DLmw (last-level write misses). Needs valgrind (Debian's package).
set -euo pipefail
cd "$(dirname "$0")/../.."

bin="$(bazel info -c opt output_path 2>/dev/null)/k8-opt/bin"
kiln="${1:-$bin/tools/kiln}"
pipeline="${2:-cpu}"
instructions="${3:-100000}"

if ! command -v valgrind >/dev/null; then
  echo "cache_misses.sh: valgrind is not installed (apt-get install -y valgrind)" >&2
  exit 2
fi
if [[ ! -x "$bin/tools/bench/pipeline_bench" || ! -x "$kiln" ]]; then
  bazel build -c opt //tools:kiln //tools/bench:pipeline_bench
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/tools/bench/pipeline_bench" --write_module "$instructions" \
  "$work/module.hlo"
valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 \
  --LL=33554432,16,64 --toggle-collect='kiln::RunPipeline*' \
  --callgrind-out-file="$work/callgrind.out" \
  "$kiln" opt --pipeline="$pipeline" "$work/module.hlo" >/dev/null \
  2>"$work/valgrind.log"

# The events line names the columns of the totals line.
awk -v what="$pipeline $instructions" '
  /^events:/ { for (i = 2; i <= NF; ++i) column[$i] = i }
  /^(summary|totals):/ && !done {
    printf "%s Ir=%s D1mr=%s DLmr=%s DLmw=%s\n", what, $column["Ir"],
           $column["D1mr"], $column["DLmr"], $column["DLmw"]
    done = 1
  }' "$work/callgrind.out"
