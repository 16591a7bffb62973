#!/usr/bin/env bash
# tools/gpu_check.sh without a device: a driver that has none (the fake
# driver with no device) stops it at the device probe with exit status 2
# and the backend's message, before any conformance or benchmark runs.
# Usage: gpu_check_test.sh KILN GPU_BASELINE FAKE_DRIVER
set -uo pipefail
kiln="$(realpath "$1")"
baseline="$(realpath "$2")"
fake="$(realpath "$3")"
out="${TEST_TMPDIR:-/tmp}/gpu_check"
KILN="${kiln}" BASELINE="${baseline}" KILN_CUDA_DRIVER_LIBRARY="${fake}" \
  FAKE_CUDA_DEVICE_COUNT=0 KILN_CACHE_DIR="${out}/cache" \
  tools/gpu_check.sh "${out}" >"${out}.log" 2>&1
status=$?
if [[ ${status} != 2 ]]; then
  echo "FAIL: gpu_check.sh exited ${status}, not 2"
  cat "${out}.log"
  exit 1
fi
if ! grep -q '^no device: .*no CUDA driver/device found' "${out}/summary.txt"; then
  echo "FAIL: summary.txt lacks the no-device message"
  cat "${out}/summary.txt"
  exit 1
fi
if ls "${out}"/conformance_* "${out}"/bench_* >/dev/null 2>&1; then
  echo "FAIL: conformance or benchmarks ran without a device"
  exit 1
fi
"${baseline}" >/dev/null 2>&1
if [[ $? != 2 ]]; then
  echo "FAIL: gpu_baseline without a device did not exit 2"
  exit 1
fi
echo PASS
