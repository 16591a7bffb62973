#!/bin/sh
# An adapter of the exec: protocol of `kiln conform` (docs/conformance.md,
# "The exec protocol") that runs each module with `kiln run`; it proves the
# protocol end to end and is the model for a vendor's own adapter.
#
#   kiln conform --backend='exec:tools/conform/kiln_run_adapter.sh KILN \
#       {module} {args} {out} {replicas} {partitions}' spec_tests
#
# MODULE is HLO text, ARGS the arguments (one HLO literal per entry
# parameter, device 0's first, separated by blank lines; empty for none),
# OUT the file to write the results to, one HLO literal per line (kiln run's
# output, `device D ...:` lines included). The exit status is kiln run's:
# 0 on success, non-zero when it refuses the module or fails.
set -eu
if [ "$#" -ne 6 ]; then
  echo "usage: $0 KILN MODULE ARGS OUT REPLICAS PARTITIONS" >&2
  exit 2
fi
kiln=$1
module=$2
args=$3
out=$4
replicas=$5
partitions=$6
if grep -q '[^[:space:]]' "$args"; then
  set -- "--args_file=$args"
else
  set --
fi
exec "$kiln" run "$@" --replicas="$replicas" --partitions="$partitions" \
  "$module" >"$out"
