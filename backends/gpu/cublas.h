// cuBLAS, loaded with dlopen (libcublas.so.13, .12 or .11 from
// $CUDA_HOME/lib64 or the loader's path; KILN_CUBLAS_LIBRARY names another
// library, as tests do with the fake driver): the gpu backend's dot.
// Nothing links against it.
#ifndef KILN_BACKENDS_GPU_CUBLAS_H_
#define KILN_BACKENDS_GPU_CUBLAS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "backends/gpu/cuda_driver.h"
#include "compiler/ir/element_type.h"

namespace kiln::gpu {

// One strided batched GEMM of row-major matrices on the device:
// out[b] (m x n) = lhs[b] (m x k) * rhs[b] (k x n), where a transposed
// operand is stored [k, m] (lhs) or [n, k] (rhs).
struct GemmCall {
  ElementType type = ElementType::kF32;  // Of the operands and the result.
  int64_t batch = 1, m = 1, k = 1, n = 1;
  bool transpose_lhs = false, transpose_rhs = false;
  CuDevicePtr lhs = 0, rhs = 0, out = 0;
};

// Whether cuBLAS multiplies `type` here: f32, f64, and f16 and bf16
// accumulated in f32 (as the host dot: rounded once).
bool CublasSupports(ElementType type);

// Runs `call` on the legacy default stream of the current context. An
// Unavailable error when cuBLAS does not load (the caller runs the dot on
// the host instead).
absl::Status CublasGemm(const GemmCall& call);

// Whether cuBLAS loads (it is loaded once, on first use).
absl::Status CublasStatus();

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_CUBLAS_H_
