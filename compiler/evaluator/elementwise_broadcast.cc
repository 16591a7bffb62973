#include "compiler/evaluator/elementwise_broadcast.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

std::string DimsText(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// Folds operand `k`'s size `size` into result dimension `d`: sizes must be
// equal or one of them 1 (broadcasting.md, degenerate dimensions).
absl::Status MergeDim(const Instruction& instruction, size_t k, int64_t size,
                      int64_t d, std::vector<int64_t>* result) {
  int64_t& target = (*result)[d];
  if (size == target || size == 1) return absl::OkStatus();
  if (target == 1) {
    target = size;
    return absl::OkStatus();
  }
  return KernelError(
      instruction,
      absl::StrCat("operand ", k, " has size ", size,
                   " where result dimension ", d, " has size ", target,
                   "; sizes must be equal or one of them 1 (broadcasting.md)"));
}

// The result dimension each dimension of operand `k` maps to.
absl::StatusOr<std::vector<int64_t>> DimensionMap(
    const Instruction& instruction, size_t k, const Shape& shape,
    int64_t result_rank) {
  std::vector<int64_t> map;
  if (shape.rank() == result_rank) {
    for (int64_t d = 0; d < result_rank; ++d) map.push_back(d);
    return map;
  }
  if (shape.rank() == 0) return map;
  const Int64List* dims =
      instruction.attrs().Get<Int64List>(attr::kBroadcastDimensions);
  if (dims == nullptr || static_cast<int64_t>(dims->size()) != shape.rank()) {
    return KernelError(
        instruction,
        absl::StrCat("operand ", k, " of rank ", shape.rank(),
                     " needs broadcast_dimensions with one entry per "
                     "dimension to match the rank-",
                     result_rank, " result (broadcasting.md, InDim)"));
  }
  for (size_t i = 0; i < dims->size(); ++i) {
    const int64_t d = (*dims)[i];
    if (d < 0 || d >= result_rank || (i > 0 && d <= (*dims)[i - 1])) {
      return KernelError(
          instruction,
          absl::StrCat("broadcast_dimensions ", DimsText(*dims),
                       " must be strictly increasing dimensions of the rank-",
                       result_rank, " result (broadcasting.md, InDim)"));
    }
  }
  return *dims;
}

}  // namespace

absl::Status CheckArrayOperands(const Instruction& instruction,
                                absl::Span<const Literal* const> operands) {
  for (size_t k = 0; k < operands.size(); ++k) {
    if (!operands[k]->shape().IsArray()) {
      return KernelError(instruction,
                         absl::StrCat("operand ", k, " must be an array, got ",
                                      operands[k]->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<BroadcastPlan> PlanBroadcast(
    const Instruction& instruction, absl::Span<const Literal* const> operands) {
  absl::Status arrays = CheckArrayOperands(instruction, operands);
  if (!arrays.ok()) return arrays;
  BroadcastPlan plan;
  // The common case, operands of one shape (every per-element call of a
  // combiner or comparator is one): nothing to broadcast.
  if (!operands.empty() &&
      !instruction.attrs().Has(attr::kBroadcastDimensions)) {
    const std::vector<int64_t>& dims = operands[0]->shape().dimensions();
    bool same = true;
    for (const Literal* operand : operands) {
      same = same && operand->shape().dimensions() == dims;
    }
    if (same) {
      plan.result_dims = dims;
      for (int64_t size : dims) plan.result_count *= size;
      plan.strides.assign(operands.size(), RowMajorStrides(dims));
      plan.same_shape.assign(operands.size(), true);
      return plan;
    }
  }
  size_t top = 0;
  for (size_t k = 1; k < operands.size(); ++k) {
    if (operands[k]->shape().rank() > operands[top]->shape().rank()) top = k;
  }
  const int64_t rank = operands[top]->shape().rank();
  plan.result_dims = operands[top]->shape().dimensions();
  std::vector<std::vector<int64_t>> maps;
  for (size_t k = 0; k < operands.size(); ++k) {
    const Shape& shape = operands[k]->shape();
    absl::StatusOr<std::vector<int64_t>> map =
        DimensionMap(instruction, k, shape, rank);
    if (!map.ok()) return map.status();
    for (int64_t i = 0; i < shape.rank(); ++i) {
      absl::Status merged = MergeDim(instruction, k, shape.dimension(i),
                                     (*map)[i], &plan.result_dims);
      if (!merged.ok()) return merged;
    }
    maps.push_back(*std::move(map));
  }
  for (int64_t size : plan.result_dims) plan.result_count *= size;
  for (size_t k = 0; k < operands.size(); ++k) {
    const Shape& shape = operands[k]->shape();
    const std::vector<int64_t> own = RowMajorStrides(shape.dimensions());
    std::vector<int64_t> strides(rank, 0);
    for (int64_t i = 0; i < shape.rank(); ++i) {
      if (shape.dimension(i) != 1) strides[maps[k][i]] = own[i];
    }
    plan.strides.push_back(std::move(strides));
    plan.same_shape.push_back(shape.dimensions() == plan.result_dims);
  }
  return plan;
}

BroadcastWalker::BroadcastWalker(const BroadcastPlan& plan)
    : plan_(plan),
      index_(plan.result_dims.size(), 0),
      offsets_(plan.strides.size(), 0) {}

void BroadcastWalker::Next() {
  for (int64_t d = static_cast<int64_t>(index_.size()) - 1; d >= 0; --d) {
    if (++index_[d] < plan_.result_dims[d]) {
      for (size_t k = 0; k < offsets_.size(); ++k) {
        offsets_[k] += plan_.strides[k][d];
      }
      return;
    }
    // Dimension d wraps from its last index back to 0.
    for (size_t k = 0; k < offsets_.size(); ++k) {
      offsets_[k] -= plan_.strides[k][d] * (index_[d] - 1);
    }
    index_[d] = 0;
  }
}

absl::StatusOr<Literal> NewBroadcastResult(const Instruction& instruction,
                                           const BroadcastPlan& plan,
                                           ElementType type,
                                           EvalContext& context) {
  return context.NewLiteral(instruction, Shape::Array(type, plan.result_dims));
}

}  // namespace eval
}  // namespace kiln
