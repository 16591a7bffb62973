// Library routines compiled for the host's instruction set on first use:
// Kiln itself is built for a baseline x86-64, so the Eigen GEMM linked into
// it uses SSE2 only. The host library is Eigen's GEMM compiled by the host
// compiler with the kernels' flags (-march=native: AVX2 and FMA on most
// machines) and OpenMP threads, kept in the kernel cache like any kernel,
// so it is compiled once per machine and cache. Without Eigen's headers or
// a working compiler, callers use the built-in GEMM instead.
#ifndef KILN_BACKENDS_CPU_HOST_LIBRARY_H_
#define KILN_BACKENDS_CPU_HOST_LIBRARY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "backends/cpu/kernel_compiler.h"

namespace kiln::cpu {

// c[m,n] = a[m,k] * b[k,n], row-major, on up to `threads` threads (0: as
// many as the process may use). With `transpose_a`, a is stored as its
// transpose ([k,m] row-major), and with `transpose_b` b as [n,k]: Eigen
// reads either order while packing, so no transposed copy is made.
using GemmF32 = void (*)(const float* a, const float* b, float* c, int64_t m,
                         int64_t k, int64_t n, int transpose_a, int transpose_b,
                         int threads);
using GemmF64 = void (*)(const double* a, const double* b, double* c, int64_t m,
                         int64_t k, int64_t n, int transpose_a, int transpose_b,
                         int threads);

struct HostLibrary {
  GemmF32 gemm_f32 = nullptr;
  GemmF64 gemm_f64 = nullptr;
  std::shared_ptr<KernelLibrary> library;
  // Why the routines are missing (empty when loaded).
  std::string error;
};

// The host library for `options` (compiled or taken from the cache on the
// first call; thread-safe; never fails: see HostLibrary::error).
std::shared_ptr<const HostLibrary> GetHostLibrary(
    const KernelCompilerOptions& options);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_HOST_LIBRARY_H_
