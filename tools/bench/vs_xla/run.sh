#!/usr/bin/env bash
# Kiln's cpu backend side by side with XLA's CPU backend (through jaxlib),
# on the same workloads, inputs and cores, interleaved; prints one table.
#
#   tools/bench/vs_xla/run.sh [--cores=0] [--rounds=3] [--runs=5]
#                             [--only=REGEX] [--timeout=120]
#
# Makes its own venv with the pinned jaxlib (requirements.txt) under
# $KILN_BENCH_VENV (default ~/.cache/kiln/vs_xla-venv), builds kiln with
# -c opt, and pins both sides to the same cores with taskset.
set -euo pipefail
cd "$(dirname "$0")/../../.."

tools/setup.sh
venv="${KILN_BENCH_VENV:-${HOME}/.cache/kiln/vs_xla-venv}"
if [[ ! -x "${venv}/bin/python" ]] ||
  ! cmp -s tools/bench/vs_xla/requirements.txt "${venv}/requirements.txt"; then
  python3 -m venv "${venv}"
  "${venv}/bin/pip" install -q -r tools/bench/vs_xla/requirements.txt
  cp tools/bench/vs_xla/requirements.txt "${venv}/requirements.txt"
fi
bazel build -c opt //tools:kiln
kiln="$(bazel info -c opt bazel-bin)/tools/kiln"
exec "${venv}/bin/python" tools/bench/vs_xla/vs_xla.py --kiln="${kiln}" "$@"
