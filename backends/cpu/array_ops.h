// Array helpers of the library thunks (dot, convolution): transposing
// copies, bf16/f16 widening and narrowing, and matrix products through the
// host library (host_library.h) or, without it, the Eigen linked into Kiln.
#ifndef KILN_BACKENDS_CPU_ARRAY_OPS_H_
#define KILN_BACKENDS_CPU_ARRAY_OPS_H_

#include <cstdint>
#include <vector>

#include "backends/cpu/host_library.h"
#include "compiler/ir/element_type.h"

namespace kiln::cpu {

// out[j] = in[x] where x's index is j's index permuted: output dimension d
// is input dimension permutation[d]. Row-major, `element` bytes each.
void TransposeCopy(const uint8_t* in, const std::vector<int64_t>& in_dims,
                   const std::vector<int64_t>& permutation, int64_t element,
                   uint8_t* out);

bool IsIdentity(const std::vector<int64_t>& permutation);

// Bytes an element of `type` takes in a buffer (the literal's storage).
int64_t ByteWidth(ElementType type);

// bf16 or f16 elements as floats (exact), and floats rounded to nearest
// even into bf16 or f16 elements.
std::vector<float> Widen(ElementType type, const uint8_t* in, int64_t count);
void Narrow(ElementType type, const std::vector<float>& in, uint8_t* out);

// c[m,n] = a[m,k] * b[k,n], row-major (T = float or double); `host` may
// be null; `threads` (0: all the process may use) bounds the host GEMM's.
// `transpose_a`: a is stored [k,m]; `transpose_b`: b is stored [n,k].
template <typename T>
void MatMul(const HostLibrary* host, const T* a, const T* b, T* c, int64_t m,
            int64_t k, int64_t n, int threads = 0, bool transpose_a = false,
            bool transpose_b = false);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_ARRAY_OPS_H_
