// The dot family's shared machinery: where each operand dimension goes
// (batch, free, contracting), canonical [batch, free, contracting] copies
// of the operands, and the batched matrix product every dot-like kernel
// ends in. Internal to the linalg kernels.
#ifndef KILN_COMPILER_EVALUATOR_LINALG_DOT_H_
#define KILN_COMPILER_EVALUATOR_LINALG_DOT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/linalg_common.h"
#include "compiler/evaluator/linalg_internal.h"

namespace kiln {
namespace eval {

// The roles of the operands' dimensions. The result is [batch..., lhs
// free..., rhs free...], each group in operand dimension order.
struct DotLayout {
  std::vector<int64_t> lhs_batch, lhs_contracting, lhs_free;
  std::vector<int64_t> rhs_batch, rhs_contracting, rhs_free;
  int64_t batch = 1, m = 1, k = 1, n = 1;  // Products of each group's sizes.
};

// The layout from the instruction's *_batch_dims / *_contracting_dims;
// `rhs_skip` (>= 0) is an rhs dimension that is neither free nor summed
// (ragged-dot's group dimension). The shape rule must have passed.
DotLayout PlanDot(const Instruction& instruction, const Shape& lhs,
                  const Shape& rhs, int64_t rhs_skip = -1);

// The operands as canonical arrays of Arith<T>: lhs as [batch, m, k] and
// rhs as [batch, k, n] (rhs with `rhs_lead` first when >= 0: [group,
// batch, k, n]).
template <typename T>
std::vector<Arith<T>> CanonicalLhs(const Literal& lhs, const DotLayout& plan) {
  return Transposed(
      ReadConverted<T>(lhs), lhs.shape().dimensions(),
      Joined({plan.lhs_batch, plan.lhs_free, plan.lhs_contracting}));
}
template <typename T>
std::vector<Arith<T>> CanonicalRhs(const Literal& rhs, const DotLayout& plan,
                                   int64_t rhs_lead = -1) {
  std::vector<int64_t> lead;
  if (rhs_lead >= 0) lead.push_back(rhs_lead);
  return Transposed(
      ReadConverted<T>(rhs), rhs.shape().dimensions(),
      Joined({lead, plan.rhs_batch, plan.rhs_contracting, plan.rhs_free}));
}

// out[n] += a * rhs_row[n] for one row: the inner loop of every product,
// contiguous over the rhs row and the result row.
template <typename A>
inline void AddScaledRow(A a, const A* rhs_row, A* out_row, int64_t n) {
  for (int64_t j = 0; j < n; ++j) out_row[j] += a * rhs_row[j];
}

// out[b, i, :] = sum over kk of lhs[b, i, kk] * rhs[b, kk, :], in i-k-j
// order; `out` must be zero-filled (or hold values to add to).
template <typename A>
void BatchMatMul(const A* lhs, const A* rhs, A* out, int64_t batch, int64_t m,
                 int64_t k, int64_t n) {
  for (int64_t b = 0; b < batch; ++b) {
    const A* lhs_b = lhs + b * m * k;
    const A* rhs_b = rhs + b * k * n;
    for (int64_t i = 0; i < m; ++i) {
      A* out_row = out + (b * m + i) * n;
      const A* lhs_row = lhs_b + i * k;
      for (int64_t kk = 0; kk < k; ++kk) {
        AddScaledRow(lhs_row[kk], rhs_b + kk * n, out_row, n);
      }
    }
  }
}

// Stores `values` (the result's elements in row-major order) into a new
// result literal of `instruction` (ComputeType T).
template <typename T>
absl::StatusOr<Literal> StoreResult(const Instruction& instruction,
                                    const std::vector<Arith<T>>& values,
                                    EvalContext& context) {
  absl::StatusOr<Literal> result = context.NewResult(instruction);
  if (!result.ok()) return result.status();
  if (result->element_count() != static_cast<int64_t>(values.size())) {
    return KernelError(instruction,
                       "internal: result size differs from the declared "
                       "shape");
  }
  StoreArith<T>(absl::Span<const Arith<T>>(values), *result);
  return result;
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_LINALG_DOT_H_
