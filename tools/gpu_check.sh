#!/usr/bin/env bash
# The GPU backend's check on the machine it runs on (docs/backends.md, "The
# GPU backends"): builds kiln, runs the conformance suite on `gpu` (and a
# sample on `gpu-emulated` for comparison), then the GPU benchmarks, each
# against a bandwidth or library baseline measured in the same run:
#   - a fused elementwise chain, a row reduction, softmax and layer norm
#     against a device-to-device copy of the same bytes;
#   - dot against cuBLAS called directly.
# Writes everything into the folder given as the argument, else $OUT, and
# a summary into summary.txt there. Meant to finish within 8 minutes.
#
#   tools/gpu_check.sh /tmp/gpu-results
#
# Without a CUDA driver or device it stops at once with the backend's
# message and exit status 2.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out="${1:-${OUT:-}}"
if [[ -z "${out}" ]]; then
  echo "usage: tools/gpu_check.sh RESULTS_DIR (or set OUT)" >&2
  exit 64
fi
mkdir -p "${out}"
summary="${out}/summary.txt"
: >"${summary}"
note() { echo "$*" | tee -a "${summary}"; }
deadline=$((SECONDS + 8 * 60))
left() { echo $((deadline - SECONDS)); }

kiln="${KILN:-}"
if [[ -z "${kiln}" ]]; then
  bazel build -c opt //tools:kiln >"${out}/build.log" 2>&1 || {
    note "FAIL: bazel build //tools:kiln (see build.log)"
    exit 1
  }
  kiln="$(bazel info -c opt bazel-bin 2>/dev/null)/tools/kiln"
fi
export KILN_CACHE_DIR="${KILN_CACHE_DIR:-${out}/kiln-cache}"

# 1. Is there a device? The gpu backend says so in its first run.
probe="tools/gpu_check/probe.hlo"
if ! "${kiln}" run --backend=gpu --random_args=0 "${probe}" \
    >"${out}/probe.txt" 2>&1; then
  note "no device: $(tail -n 1 "${out}/probe.txt")"
  note "the GPU conformance suite and benchmarks need a CUDA device;" \
    "run the same kernels on the CPU with --backend=gpu-emulated"
  exit 2
fi
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"

# 2. Conformance on the device (expectations: spec_tests/expectations/gpu.txt).
timeout "$(($(left) / 2))" "${kiln}" conform --backend=gpu \
  --report="${out}/conformance_gpu" spec_tests >"${out}/conformance_gpu.txt" 2>&1
note "conformance gpu: $(tail -n 1 "${out}/conformance_gpu.txt")"

# 3. Benchmarks: each module against its baseline, as a ratio.
bench() {
  local name="$1" file="$2"
  timeout "$(($(left) > 30 ? 60 : 5))" "${kiln}" bench --backend=gpu --json \
    --runs=20 "${file}" >"${out}/bench_${name}.json" 2>&1
  note "bench ${name}: $(tr -d '\n' <"${out}/bench_${name}.json" | cut -c1-300)"
}
for module in tools/gpu_check/*.hlo; do
  name="$(basename "${module}" .hlo)"
  [[ "${name}" == probe ]] && continue
  bench "${name}" "${module}"
done
note "targets: elementwise >= 85% and row reduction >= 70% of the copy" \
  "bandwidth (copy.hlo), dot >= 90% of cuBLAS, softmax and layer norm" \
  "within 1.5x of the copy's time; compare the GB/s columns above"
note "done in ${SECONDS} s"
