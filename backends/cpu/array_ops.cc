#include "backends/cpu/array_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "Eigen/Core"
#include "compiler/ir/float_convert.h"

namespace kiln::cpu {

// out[j] = in[x] where x's index is j's index permuted: output dimension d
// is input dimension permutation[d]. Row-major, `element` bytes each.
void TransposeCopy(const uint8_t* in, const std::vector<int64_t>& in_dims,
                   const std::vector<int64_t>& permutation, int64_t element,
                   uint8_t* out) {
  const int64_t rank = static_cast<int64_t>(in_dims.size());
  std::vector<int64_t> in_strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    in_strides[d] = in_strides[d + 1] * in_dims[d + 1];
  }
  std::vector<int64_t> out_dims(rank), strides(rank);
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    out_dims[d] = in_dims[permutation[d]];
    strides[d] = in_strides[permutation[d]];
    count *= out_dims[d];
  }
  std::vector<int64_t> index(rank, 0);
  int64_t source = 0;
  for (int64_t j = 0; j < count; ++j) {
    std::memcpy(out + j * element, in + source * element, element);
    for (int64_t d = rank - 1; d >= 0; --d) {
      source += strides[d];
      if (++index[d] < out_dims[d]) break;
      source -= strides[d] * out_dims[d];
      index[d] = 0;
    }
  }
}

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (size_t d = 0; d < permutation.size(); ++d) {
    if (permutation[d] != static_cast<int64_t>(d)) return false;
  }
  return true;
}

namespace {

// c[m,n] = a[m,k] * b[k,n] with the Eigen linked into Kiln (baseline ISA).
template <typename T>
void Gemm(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n) {
  using Matrix =
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Matrix> lhs(a, m, k);
  Eigen::Map<const Matrix> rhs(b, k, n);
  Eigen::Map<Matrix> result(c, m, n);
  result.noalias() = lhs * rhs;
}

}  // namespace

int64_t ByteWidth(ElementType type) {
  return GetElementTypeInfo(type).storage_bytes;
}

// bf16 or f16 elements as floats (exact).
std::vector<float> Widen(ElementType type, const uint8_t* in, int64_t count) {
  std::vector<float> out(count);
  const uint16_t* bits = reinterpret_cast<const uint16_t*>(in);
  if (type == ElementType::kBF16) {  // The high half of a float.
    for (int64_t i = 0; i < count; ++i) {
      const uint32_t wide = static_cast<uint32_t>(bits[i]) << 16;
      std::memcpy(&out[i], &wide, sizeof wide);
    }
    return out;
  }
  // f16: every value through compiler/ir's routine, once, into a table.
  static const std::vector<float>* const kF16 = [] {
    auto* table = new std::vector<float>(1 << 16);
    for (uint32_t b = 0; b < (1u << 16); ++b) {
      (*table)[b] = static_cast<float>(BitsToFloat(ElementType::kF16, b));
    }
    return table;
  }();
  for (int64_t i = 0; i < count; ++i) out[i] = (*kF16)[bits[i]];
  return out;
}

// Floats rounded to nearest even into bf16 or f16 elements.
void Narrow(ElementType type, const std::vector<float>& in, uint8_t* out) {
  uint16_t* bits = reinterpret_cast<uint16_t*>(out);
  for (size_t i = 0; i < in.size(); ++i) {
    if (type == ElementType::kBF16 && !std::isnan(in[i])) {
      // Round to nearest even on the bit pattern (overflow becomes inf).
      uint32_t wide;
      std::memcpy(&wide, &in[i], sizeof wide);
      bits[i] =
          static_cast<uint16_t>((wide + 0x7fff + ((wide >> 16) & 1)) >> 16);
    } else {
      bits[i] = static_cast<uint16_t>(FloatToBits(type, in[i]));
    }
  }
}

template <typename T>
void MatMul(const HostLibrary* host, const T* a, const T* b, T* c, int64_t m,
            int64_t k, int64_t n, int threads, bool transpose_a,
            bool transpose_b) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(c, c + m * n, T(0));
    return;
  }
  bool done = false;
  if constexpr (std::is_same_v<T, float>) {
    if (host != nullptr && host->gemm_f32 != nullptr) {
      host->gemm_f32(a, b, c, m, k, n, transpose_a, transpose_b, threads);
      done = true;
    }
  } else {
    if (host != nullptr && host->gemm_f64 != nullptr) {
      host->gemm_f64(a, b, c, m, k, n, transpose_a, transpose_b, threads);
      done = true;
    }
  }
  if (!done) {
    // The built-in GEMM reads row-major operands only.
    std::vector<T> a_rows, b_rows;
    if (transpose_a) {
      a_rows.resize(m * k);
      TransposeCopy(reinterpret_cast<const uint8_t*>(a), {k, m}, {1, 0},
                    sizeof(T), reinterpret_cast<uint8_t*>(a_rows.data()));
      a = a_rows.data();
    }
    if (transpose_b) {
      b_rows.resize(k * n);
      TransposeCopy(reinterpret_cast<const uint8_t*>(b), {n, k}, {1, 0},
                    sizeof(T), reinterpret_cast<uint8_t*>(b_rows.data()));
      b = b_rows.data();
    }
    Gemm(a, b, c, m, k, n);
  }
  // Sums start from +0, as the evaluator's: a sum of negative zeros is +0
  // (Eigen's small products start from the first term and keep -0).
  for (int64_t i = 0; i < m * n; ++i) c[i] += T(0);
}

template void MatMul<float>(const HostLibrary*, const float*, const float*,
                            float*, int64_t, int64_t, int64_t, int, bool, bool);
template void MatMul<double>(const HostLibrary*, const double*, const double*,
                             double*, int64_t, int64_t, int64_t, int, bool,
                             bool);

}  // namespace kiln::cpu
