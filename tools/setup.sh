#!/usr/bin/env bash
# Installs everything Kiln needs on a fresh Debian 12 machine. Idempotent:
# apt-get runs only when a package is missing, so repeated calls are instant.
#
# Bazel: Debian's bazel-bootstrap installs /usr/bin/bazel-4 plus a wrapper
# /usr/bin/bazel that reads .bazelversion (4.2.3) and runs
# /usr/bin/bazel-<version>. The pin therefore works through a symlink
# /usr/bin/bazel-4.2.3 -> bazel-4, which this script creates if missing.
set -euo pipefail

readonly PACKAGES=(
  bazel-bootstrap   # Bazel 4.2.3 (/usr/bin/bazel-4 and the bazel wrapper)
  g++               # builds Kiln; the cpu backend's kernels (with OpenMP)
  libabsl-dev       # Abseil
  libeigen3-dev     # Eigen (half, bfloat16)
  libre2-dev        # RE2
  libgtest-dev      # GoogleTest
  libgmock-dev      # GoogleMock
  libbenchmark-dev  # Google Benchmark
  nlohmann-json3-dev
  libjemalloc-dev   # the allocator of kiln and the benchmarks (third_party/BUILD)
  clang             # the fuzz build (tools/fuzz.sh)
  libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang
  lld               # the fuzz build links with lld
  llvm-14-tools     # FileCheck
  python3           # tools/count_test_results.py
)

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "setup.sh: need root (or sudo) to run: $*" >&2
    exit 1
  fi
}

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg -s "${package}" >/dev/null 2>&1; then
    missing+=("${package}")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup.sh: installing ${missing[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

BAZEL_VERSION="$(cat "$(dirname "$0")/../.bazelversion")"
readonly BAZEL_VERSION
if [[ ! -e "/usr/bin/bazel-${BAZEL_VERSION}" ]]; then
  as_root ln -s bazel-4 "/usr/bin/bazel-${BAZEL_VERSION}"
fi

# The pjrt backend's PJRT C API headers and XLA's CPU plugin, from pinned
# PyPI wheels (tools/fetch_pjrt.py; cached, so this is instant once done).
# Offline, Kiln builds and tests without them: the pjrt tests are skipped.
if ! python3 "$(dirname "$0")/fetch_pjrt.py"; then
  echo "setup.sh: could not fetch the PJRT headers and plugin;" \
    "the pjrt backend and its tests are skipped" >&2
fi
