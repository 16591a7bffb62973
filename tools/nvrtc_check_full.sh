#!/usr/bin/env bash
# The offline GPU kernel check on the whole conformance suite: every
# distinct kernel unit the `gpu` backend generates for spec_tests compiled
# by NVRTC to PTX and assembled by ptxas for sm_80 and sm_90
# (//backends/gpu:nvrtc_check_test with KILN_NVRTC_FULL=1; CI runs the
# same test on a sample covering every op and element type). Extra
# arguments go to `bazel test`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bazel test //backends/gpu:nvrtc_check_test --test_env=KILN_NVRTC_FULL=1 \
  --test_timeout=3600 --test_output=streamed "$@"
