#!/usr/bin/env bash
# The GPU backend's check on the machine it runs on (docs/backends.md, "The
# GPU backends"), within 8 minutes:
#   1. the conformance suite on `gpu`: --sample=cover, then --sample=pairs
#      with the time left;
#   2. the GPU benchmarks, each held against a baseline measured in the
#      same run (tools/gpu_check/gpu_baseline):
#      - a fused elementwise chain (target >= 85%) and a row reduction
#        (>= 70%) against the bandwidth of cuMemcpyDtoD;
#      - dot against cuBLAS called directly (>= 90%);
#      - softmax and layer norm against the time cuMemcpyDtoD takes for the
#        same bytes (within 1.5x).
#      The benchmarks' times are the device's (kiln bench's device_min_s:
#      without copying the arguments in and the result out).
# Writes everything into the folder given as the argument, else $OUT:
# summary.txt (what to paste into the issue), ratios.json, and each
# step's output.
#
#   tools/gpu_check.sh /tmp/gpu-results
#
# Without a CUDA driver or device it stops at once with exit status 2.
# KILN=path/to/kiln and BASELINE=path/to/gpu_baseline skip the build.
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
no_device() {
  note "no device: $*"
  note "the GPU conformance suite and benchmarks need a CUDA device;" \
    "run the same kernels on the CPU with --backend=gpu-emulated"
  exit 2
}

# 0. A driver at all? Asked before building anything (exit at once).
if [[ -z "${KILN_CUDA_DRIVER_LIBRARY:-}" ]] &&
  ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' &&
  ! python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  no_device "libcuda.so.1 is not installed"
fi

kiln="${KILN:-}"
baseline="${BASELINE:-}"
if [[ -z "${kiln}" || -z "${baseline}" ]]; then
  bazel build -c opt //tools:kiln //tools/gpu_check:gpu_baseline \
    >"${out}/build.log" 2>&1 || {
    note "FAIL: bazel build (see build.log)"
    exit 1
  }
  bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
  kiln="${kiln:-${bin}/tools/kiln}"
  baseline="${baseline:-${bin}/tools/gpu_check/gpu_baseline}"
fi
export KILN_CACHE_DIR="${KILN_CACHE_DIR:-${out}/kiln-cache}"

# 1. Is there a device? The gpu backend says so in its first run.
if ! "${kiln}" run --backend=gpu --random_args=0 tools/gpu_check/probe.hlo \
  >"${out}/probe.txt" 2>&1; then
  no_device "$(tail -n 1 "${out}/probe.txt")"
fi
note "device: $(nvidia-smi --query-gpu=name,driver_version \
  --format=csv,noheader 2>/dev/null | head -n 1)"
"${kiln}" compile --backend=gpu --emit=stats tools/gpu_check/probe.hlo \
  >"${out}/probe_stats.txt" 2>&1
note "$(grep -E '^device' "${out}/probe_stats.txt" | head -n 2)"

# 2. Conformance on the device (expectations: spec_tests/expectations/gpu.txt
# when it exists). The cover sample first; the pairs with the time left
# but 150 s, so that the benchmarks still run. Each case runs in a process
# of its own (--isolate): a kernel's fault poisons its CUDA context for
# the rest of the process, and must fail that case only.
conform() {
  local sample="$1" limit="$2"
  timeout "${limit}" "${kiln}" conform --backend=gpu --isolate \
    --sample="${sample}" \
    --report="${out}/conformance_${sample}" spec_tests \
    >"${out}/conformance_${sample}.txt" 2>&1
  local status=$?
  note "conformance gpu --sample=${sample}: $(tail -n 1 \
    "${out}/conformance_${sample}.txt")$([[ ${status} == 124 ]] &&
      echo " (stopped at the ${limit} s limit)")"
}
conform cover 150
if (($(left) > 240)); then
  conform pairs $(($(left) - 150))
else
  note "conformance gpu --sample=pairs: skipped (no time left)"
fi

# 3. Baselines, then the benchmarks.
timeout 60 "${baseline}" $((64 << 20)) 4096 20 >"${out}/baseline.json" \
  2>"${out}/baseline.err"
note "baseline: $(cat "${out}/baseline.json" "${out}/baseline.err")"
for module in tools/gpu_check/*.hlo; do
  name="$(basename "${module}" .hlo)"
  [[ "${name}" == probe ]] && continue
  if (($(left) < 10)); then
    note "bench ${name}: skipped (no time left)"
    continue
  fi
  timeout "$(($(left) > 70 ? 60 : $(left) - 5))" "${kiln}" bench \
    --backend=gpu --json --runs=20 "${module}" >"${out}/bench_${name}.json" \
    2>"${out}/bench_${name}.err"
  note "bench ${name}: $(cat "${out}/bench_${name}.json" \
    "${out}/bench_${name}.err" | tr -d '\n' | cut -c1-400)"
done

# 4. The ratios against the targets.
python3 - "${out}" <<'EOF' | tee -a "${summary}"
import json, os, sys
out = sys.argv[1]
def load(name):
    try:
        with open(os.path.join(out, name)) as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None
base = load("baseline.json")
ratios = {}
lines = []
if base is None:
    lines.append("ratios: no baseline")
else:
    gbps = base["memcpy_gbps"]
    for name, kind, target in [("elementwise", "bandwidth", 0.85),
                               ("row_reduction", "bandwidth", 0.70),
                               ("copy", "bandwidth", None),
                               ("dot", "cublas", 0.90),
                               ("softmax", "time", 1.5),
                               ("layer_norm", "time", 1.5)]:
        bench = load("bench_%s.json" % name)
        if bench is None or not bench.get("device_min_s"):
            lines.append("%s: no result" % name)
            continue
        t = bench["device_min_s"]
        if kind == "bandwidth":
            value = bench["bytes"] / t / 1e9 / gbps
            text = "%.1f%% of the copy bandwidth" % (100 * value)
            ok = target is None or value >= target
        elif kind == "cublas":
            value = base["gemm_min_s"] / t
            text = "%.1f%% of cuBLAS" % (100 * value)
            ok = value >= target
        else:
            value = t / (bench["bytes"] / (gbps * 1e9))
            text = "%.2fx the copy's time for its bytes" % value
            ok = value <= target
        ratios[name] = value
        verdict = "" if target is None else (" (target met)" if ok
                                             else " (TARGET MISSED)")
        lines.append("%s: %s%s" % (name, text, verdict))
with open(os.path.join(out, "ratios.json"), "w") as f:
    json.dump(ratios, f, indent=1)
print("\n".join(lines))
EOF
note "done in ${SECONDS} s"
