// The baselines of tools/gpu_check.sh, measured on the device the
// benchmarks run on: cuMemcpyDtoD of `copy_bytes` (the bandwidth the
// memory-bound benchmarks are held against; it reads and writes each
// byte, so its GB/s count 2 x bytes) and one f32 GEMM of n x n x n through
// cuBLAS called directly (what the dot benchmark is held against). Prints
// one JSON object; exit status 2 without a device.
//
//   gpu_baseline [copy_bytes=67108864] [n=4096] [runs=20]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/gpu/cublas.h"
#include "backends/gpu/cuda_driver.h"

namespace kiln::gpu {
namespace {

using Clock = std::chrono::steady_clock;

// The fastest of `runs` timed calls of `step` (after one untimed), each
// ending when the device is done.
template <typename Step>
absl::StatusOr<double> Fastest(const CudaDriver& driver, int runs, Step step) {
  double best = 1e30;
  for (int run = 0; run <= runs; ++run) {
    const auto start = Clock::now();
    if (absl::Status status = step(); !status.ok()) return status;
    if (CuResult error = driver.ctx_synchronize(); error != 0) {
      return CudaError(driver, error, "cuCtxSynchronize");
    }
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    if (run > 0) best = std::min(best, seconds);
  }
  return best;
}

absl::StatusOr<CuDevicePtr> Allocate(const CudaDriver& driver, size_t bytes) {
  CuDevicePtr pointer = 0;
  if (CuResult error = driver.mem_alloc(&pointer, bytes); error != 0) {
    return CudaError(driver, error, "cuMemAlloc");
  }
  return pointer;
}

int Main(int argc, char** argv) {
  const size_t copy_bytes =
      argc > 1 ? std::strtoull(argv[1], nullptr, 10) : size_t{64} << 20;
  const int64_t n = argc > 2 ? std::atoll(argv[2]) : 4096;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 20;
  absl::StatusOr<const CudaDevice*> device = GetCudaDevice();
  if (!device.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(device.status().message()).c_str());
    return 2;
  }
  const CudaDriver& driver = (*device)->driver;
  auto fail = [](const absl::Status& status) {
    std::fprintf(stderr, "gpu_baseline: %s\n",
                 std::string(status.message()).c_str());
    return 1;
  };
  if (absl::Status status = MakeCurrent(**device); !status.ok()) {
    return fail(status);
  }
  absl::StatusOr<CuDevicePtr> from = Allocate(driver, copy_bytes);
  absl::StatusOr<CuDevicePtr> to = Allocate(driver, copy_bytes);
  if (!from.ok() || !to.ok())
    return fail(from.ok() ? to.status() : from.status());
  absl::StatusOr<double> copy = Fastest(driver, runs, [&]() -> absl::Status {
    if (CuResult error = driver.memcpy_dtod(*to, *from, copy_bytes);
        error != 0) {
      return CudaError(driver, error, "cuMemcpyDtoD");
    }
    return absl::OkStatus();
  });
  if (!copy.ok()) return fail(copy.status());
  driver.mem_free(*from);
  driver.mem_free(*to);

  const size_t matrix = n * n * sizeof(float);
  absl::StatusOr<CuDevicePtr> a = Allocate(driver, matrix);
  absl::StatusOr<CuDevicePtr> b = Allocate(driver, matrix);
  absl::StatusOr<CuDevicePtr> c = Allocate(driver, matrix);
  if (!a.ok() || !b.ok() || !c.ok()) {
    return fail(!a.ok() ? a.status() : !b.ok() ? b.status() : c.status());
  }
  GemmCall call;
  call.m = call.k = call.n = n;
  call.lhs = *a;
  call.rhs = *b;
  call.out = *c;
  absl::StatusOr<double> gemm =
      Fastest(driver, runs, [&] { return CublasGemm(call); });
  if (!gemm.ok()) return fail(gemm.status());
  std::printf(
      "{\"device\": \"%s\", \"memcpy_bytes\": %zu, \"memcpy_min_s\": %.9f, "
      "\"memcpy_gbps\": %.2f, \"gemm_n\": %lld, \"gemm_min_s\": %.9f, "
      "\"gemm_tflops\": %.3f}\n",
      (*device)->name.c_str(), copy_bytes, *copy,
      2.0 * copy_bytes / *copy / 1e9, static_cast<long long>(n), *gemm,
      2.0 * n * n * n / *gemm / 1e12);
  return 0;
}

}  // namespace
}  // namespace kiln::gpu

int main(int argc, char** argv) { return kiln::gpu::Main(argc, argv); }
