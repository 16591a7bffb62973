// Kernels of dot and scaled-dot (operation_semantics.md, DotGeneral and
// ScaledDot). Both copy their operands into canonical [batch, m, k] and
// [batch, k, n] arrays of the result's arithmetic type and run one batched
// i-k-j matrix product.
#include "compiler/evaluator/linalg_dot.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {

DotLayout PlanDot(const Instruction& instruction, const Shape& lhs,
                  const Shape& rhs, int64_t rhs_skip) {
  DotLayout plan;
  plan.lhs_batch = Int64ListOrEmpty(instruction, attr::kLhsBatchDims);
  plan.rhs_batch = Int64ListOrEmpty(instruction, attr::kRhsBatchDims);
  plan.lhs_contracting =
      Int64ListOrEmpty(instruction, attr::kLhsContractingDims);
  plan.rhs_contracting =
      Int64ListOrEmpty(instruction, attr::kRhsContractingDims);
  plan.lhs_free =
      util::DimsNotIn(lhs.rank(), plan.lhs_batch, plan.lhs_contracting);
  std::vector<int64_t> rhs_used = plan.rhs_batch;
  if (rhs_skip >= 0) rhs_used.push_back(rhs_skip);
  plan.rhs_free = util::DimsNotIn(rhs.rank(), rhs_used, plan.rhs_contracting);
  plan.batch = ProductOf(lhs.dimensions(), plan.lhs_batch);
  plan.m = ProductOf(lhs.dimensions(), plan.lhs_free);
  plan.k = ProductOf(lhs.dimensions(), plan.lhs_contracting);
  plan.n = ProductOf(rhs.dimensions(), plan.rhs_free);
  return plan;
}

namespace {

template <typename T>
absl::StatusOr<Literal> TypedDot(const Instruction& instruction,
                                 const Literal& lhs, const Literal& rhs,
                                 EvalContext& context) {
  using A = Arith<T>;
  const DotLayout plan = PlanDot(instruction, lhs.shape(), rhs.shape());
  absl::Status fits = CheckWork<T>(instruction, context,
                                   {lhs.element_count(), rhs.element_count(),
                                    SafeProduct({plan.batch, plan.m, plan.n})});
  if (!fits.ok()) return fits;
  const std::vector<A> lhs_c = CanonicalLhs<T>(lhs, plan);
  const std::vector<A> rhs_c = CanonicalRhs<T>(rhs, plan);
  std::vector<A> out(static_cast<size_t>(plan.batch * plan.m * plan.n), A(0));
  BatchMatMul(lhs_c.data(), rhs_c.data(), out.data(), plan.batch, plan.m,
              plan.k, plan.n);
  return StoreResult<T>(instruction, out, context);
}

// Both operands must be arrays and the instruction's declared shape an
// array; the shape rule has checked the rest.
absl::Status CheckArrayResult(const Instruction& instruction) {
  if (!instruction.shape().IsArray()) {
    return KernelError(
        instruction,
        absl::StrCat("declared shape ", instruction.shape().ToString(false),
                     " is not an array"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> DotKernel(const Instruction& instruction,
                                  absl::Span<const Literal* const> operands,
                                  EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (ok.ok()) ok = CheckArrayResult(instruction);
  if (!ok.ok()) return ok;
  if (instruction.attrs().Has(attr::kSparsity) || operands.size() != 2) {
    return KernelError(instruction,
                       "sparse dot (sparsity= with metadata operands) is not "
                       "supported by the reference evaluator");
  }
  return DispatchByComputeType(instruction.shape().element_type(),
                               [&](auto tag) -> absl::StatusOr<Literal> {
                                 using T = typename decltype(tag)::type;
                                 return TypedDot<T>(instruction, *operands[0],
                                                    *operands[1], context);
                               });
}

namespace {

// Multiplies each element of `values` (row-major over `dims`, already in
// the result's arithmetic type) by its block's scale: the scale's index is
// the element's index with each contracting index divided by that
// dimension's block size (size / scale size). A scalar scale multiplies
// every element.
template <typename T>
void ApplyScale(std::vector<Arith<T>>& values, const Shape& shape,
                const Literal& scale) {
  const std::vector<Arith<T>> factors = ReadConverted<T>(scale);
  if (scale.shape().IsScalar()) {
    for (auto& v : values) v *= factors[0];
    return;
  }
  const std::vector<int64_t>& dims = shape.dimensions();
  const std::vector<int64_t>& scale_dims = scale.shape().dimensions();
  const std::vector<int64_t> scale_strides = RowMajorStrides(scale_dims);
  int64_t i = 0;
  ForEachIndex(dims, [&](absl::Span<const int64_t> index) {
    int64_t s = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int64_t block = dims[d] / scale_dims[d];
      s += (index[d] / block) * scale_strides[d];
    }
    values[i++] *= factors[s];
  });
}

template <typename T>
absl::StatusOr<Literal> TypedScaledDot(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  using A = Arith<T>;
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  const DotLayout plan = PlanDot(instruction, lhs.shape(), rhs.shape());
  absl::Status fits = CheckWork<T>(instruction, context,
                                   {lhs.element_count(), rhs.element_count(),
                                    SafeProduct({plan.batch, plan.m, plan.n})});
  if (!fits.ok()) return fits;
  std::vector<A> lhs_values = ReadConverted<T>(lhs);
  std::vector<A> rhs_values = ReadConverted<T>(rhs);
  ApplyScale<T>(lhs_values, lhs.shape(), *operands[2]);
  ApplyScale<T>(rhs_values, rhs.shape(), *operands[3]);
  // Global scales (operands 4 and 5, scalars) multiply every element of
  // their side, after its block scale: dot(a * s * g, b * t * h) equals
  // dot(a * s, b * t) * g * h.
  if (operands.size() == 6) {
    ApplyScale<T>(lhs_values, lhs.shape(), *operands[4]);
    ApplyScale<T>(rhs_values, rhs.shape(), *operands[5]);
  }
  const std::vector<A> lhs_c =
      Transposed(lhs_values, lhs.shape().dimensions(),
                 Joined({plan.lhs_batch, plan.lhs_free, plan.lhs_contracting}));
  const std::vector<A> rhs_c =
      Transposed(rhs_values, rhs.shape().dimensions(),
                 Joined({plan.rhs_batch, plan.rhs_contracting, plan.rhs_free}));
  std::vector<A> out(static_cast<size_t>(plan.batch * plan.m * plan.n), A(0));
  BatchMatMul(lhs_c.data(), rhs_c.data(), out.data(), plan.batch, plan.m,
              plan.k, plan.n);
  return StoreResult<T>(instruction, out, context);
}

}  // namespace

absl::StatusOr<Literal> ScaledDotKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (ok.ok()) ok = CheckArrayResult(instruction);
  if (!ok.ok()) return ok;
  if (operands.size() != 4 && operands.size() != 6) {
    return KernelError(instruction,
                       "scaled-dot takes lhs, rhs, lhs_scale, rhs_scale and "
                       "optionally lhs_global_scale, rhs_global_scale");
  }
  for (size_t i = 4; i < operands.size(); ++i) {
    if (!operands[i]->shape().IsArray() || !operands[i]->shape().IsScalar() ||
        !IsArrayType(operands[i]->element_type()) ||
        operands[i]->element_type() == ElementType::kPred) {
      return KernelError(
          instruction,
          absl::StrCat("global scale operand ", i, " is ",
                       operands[i]->shape().ToString(false),
                       ", expected a numeric scalar (operation_semantics.md, "
                       "ScaledDot)"));
    }
  }
  return DispatchByComputeType(instruction.shape().element_type(),
                               [&](auto tag) -> absl::StatusOr<Literal> {
                                 using T = typename decltype(tag)::type;
                                 return TypedScaledDot<T>(instruction, operands,
                                                          context);
                               });
}

}  // namespace eval
}  // namespace kiln
