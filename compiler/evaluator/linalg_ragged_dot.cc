// ragged-dot (operation_semantics.md, RaggedDot, which defers to
// chlo.ragged_dot). lhs_ragged_dims names one lhs dimension r, split into
// consecutive groups by group_sizes (the last dimension of group_sizes is
// the group count g):
//   1. r is a free (non-contracting) dim: [b.., m.., k..] x [g, b.., k..,
//      n..] -> [b.., m.., n..]; a row whose r-index lies in group i is
//      multiplied by rhs group i (rhs_group_dims); rows past the last group
//      are zero.
//   2. r is a contracting dim: [b.., m.., k..] x [b.., k.., n..] ->
//      [g, b.., m.., n..]; result slice i sums only over the contracting
//      positions whose r-index lies in group i.
//   3. r is a batch dim: a plain dot (groups do not change the values).
// group_sizes is [g] (the same groups everywhere) or [b.., x.., g], where
// b.. are the batch dims and x.. the dims of r's kind (free, contracting)
// with a smaller lhs dimension number than r (mode 1, 2).
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/linalg_dot.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Group boundaries, one row of g groups per group_sizes prefix index.
struct Groups {
  int64_t count = 0;       // g
  int64_t rows = 1;        // product of group_sizes' leading dims
  std::vector<int64_t> x;  // the "outer" dims (lhs numbers), in dim order
  std::vector<int64_t> start, end;  // [row * count + i], clamped to size

  // The group of `position` (the r-index) in `row`, or -1.
  int64_t Find(int64_t row, int64_t position) const {
    for (int64_t i = 0; i < count; ++i) {
      const int64_t at = row * count + i;
      if (start[at] <= position && position < end[at]) return i;
    }
    return -1;
  }
};

// Reads group_sizes and checks that its leading dims are [batch sizes...,
// x sizes...] when it has any.
absl::StatusOr<Groups> ReadGroups(const Instruction& instruction,
                                  const Literal& sizes, const Shape& lhs,
                                  const DotLayout& plan, int64_t ragged,
                                  const std::vector<int64_t>& kind_dims) {
  Groups groups;
  const std::vector<int64_t>& dims = sizes.shape().dimensions();
  groups.count = dims.back();
  for (int64_t d : kind_dims) {
    if (d < ragged) groups.x.push_back(d);
  }
  std::sort(groups.x.begin(), groups.x.end());  // lhs dimension order
  if (dims.size() > 1) {
    std::vector<int64_t> expected;
    for (int64_t d : plan.lhs_batch) expected.push_back(lhs.dimension(d));
    for (int64_t d : groups.x) expected.push_back(lhs.dimension(d));
    expected.push_back(groups.count);
    if (expected != dims) {
      return KernelError(
          instruction,
          absl::StrCat("group_sizes is ", sizes.shape().ToString(false),
                       "; expected [g] or [batch dims..., outer dims of the "
                       "ragged dimension's kind..., g] (RaggedDot)"));
    }
    groups.rows = sizes.element_count() / std::max<int64_t>(1, groups.count);
  }
  const int64_t limit = lhs.dimension(ragged);
  groups.start.resize(groups.rows * groups.count);
  groups.end.resize(groups.rows * groups.count);
  for (int64_t row = 0; row < groups.rows; ++row) {
    int64_t offset = 0;
    for (int64_t i = 0; i < groups.count; ++i) {
      const int64_t at = row * groups.count + i;
      // Negative sizes count as empty groups.
      const int64_t size = std::max<int64_t>(0, sizes.GetInt64(at));
      groups.start[at] = std::min(offset, limit);
      offset = std::min(limit, offset + std::min(size, limit));
      groups.end[at] = offset;
    }
  }
  return groups;
}

// For each flat index over `group_dims` (canonical order), the r-index and
// the flat index over the x dims (in lhs dimension order).
struct Positions {
  std::vector<int64_t> ragged_index, x_flat;
  int64_t x_count = 1;
};

Positions Decompose(const Shape& lhs, const std::vector<int64_t>& group_dims,
                    int64_t ragged, const std::vector<int64_t>& x) {
  Positions out;
  std::vector<int64_t> sizes;
  for (int64_t d : group_dims) sizes.push_back(lhs.dimension(d));
  for (int64_t d : x) out.x_count *= lhs.dimension(d);
  ForEachIndex(sizes, [&](absl::Span<const int64_t> index) {
    int64_t flat = 0;
    for (int64_t d : x) {
      const size_t at = std::find(group_dims.begin(), group_dims.end(), d) -
                        group_dims.begin();
      flat = flat * lhs.dimension(d) + index[at];
    }
    const size_t r = std::find(group_dims.begin(), group_dims.end(), ragged) -
                     group_dims.begin();
    out.ragged_index.push_back(index[r]);
    out.x_flat.push_back(flat);
  });
  return out;
}

template <typename T>
absl::StatusOr<Literal> RaggedFree(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   int64_t ragged, int64_t group_dim,
                                   EvalContext& context) {
  using A = Arith<T>;
  const Literal& lhs = *operands[0];
  const DotLayout plan =
      PlanDot(instruction, lhs.shape(), operands[1]->shape(), group_dim);
  absl::StatusOr<Groups> groups = ReadGroups(
      instruction, *operands[2], lhs.shape(), plan, ragged, plan.lhs_free);
  if (!groups.ok()) return groups.status();
  absl::Status fits =
      CheckWork<T>(instruction, context,
                   {lhs.element_count(), operands[1]->element_count(),
                    SafeProduct({plan.batch, plan.m, plan.n})});
  if (!fits.ok()) return fits;
  const std::vector<A> lhs_c = CanonicalLhs<T>(lhs, plan);
  const std::vector<A> rhs_c = CanonicalRhs<T>(*operands[1], plan, group_dim);
  const Positions rows =
      Decompose(lhs.shape(), plan.lhs_free, ragged, groups->x);
  const bool per_row = groups->rows > 1;
  std::vector<A> out(static_cast<size_t>(plan.batch * plan.m * plan.n), A(0));
  for (int64_t b = 0; b < plan.batch; ++b) {
    for (int64_t i = 0; i < plan.m; ++i) {
      const int64_t row = per_row ? b * rows.x_count + rows.x_flat[i] : 0;
      const int64_t g = groups->Find(row, rows.ragged_index[i]);
      if (g < 0) continue;  // Past the last group: zeros.
      const A* lhs_row = lhs_c.data() + (b * plan.m + i) * plan.k;
      const A* rhs_b = rhs_c.data() + (g * plan.batch + b) * plan.k * plan.n;
      A* out_row = out.data() + (b * plan.m + i) * plan.n;
      for (int64_t kk = 0; kk < plan.k; ++kk) {
        AddScaledRow(lhs_row[kk], rhs_b + kk * plan.n, out_row, plan.n);
      }
    }
  }
  return StoreResult<T>(instruction, out, context);
}

template <typename T>
absl::StatusOr<Literal> RaggedContracting(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    int64_t ragged, EvalContext& context) {
  using A = Arith<T>;
  const Literal& lhs = *operands[0];
  const DotLayout plan =
      PlanDot(instruction, lhs.shape(), operands[1]->shape());
  absl::StatusOr<Groups> groups =
      ReadGroups(instruction, *operands[2], lhs.shape(), plan, ragged,
                 plan.lhs_contracting);
  if (!groups.ok()) return groups.status();
  absl::Status fits =
      CheckWork<T>(instruction, context,
                   {lhs.element_count(), operands[1]->element_count(),
                    SafeProduct({groups->count, plan.batch, plan.m, plan.n})});
  if (!fits.ok()) return fits;
  const std::vector<A> lhs_c = CanonicalLhs<T>(lhs, plan);
  const std::vector<A> rhs_c = CanonicalRhs<T>(*operands[1], plan);
  const Positions sums =
      Decompose(lhs.shape(), plan.lhs_contracting, ragged, groups->x);
  const bool per_row = groups->rows > 1;
  const int64_t slice = plan.batch * plan.m * plan.n;
  std::vector<A> out(static_cast<size_t>(groups->count * slice), A(0));
  for (int64_t b = 0; b < plan.batch; ++b) {
    // The group of each contracting position of this batch entry.
    std::vector<int64_t> group_of(plan.k);
    for (int64_t kk = 0; kk < plan.k; ++kk) {
      const int64_t row = per_row ? b * sums.x_count + sums.x_flat[kk] : 0;
      group_of[kk] = groups->Find(row, sums.ragged_index[kk]);
    }
    const A* rhs_b = rhs_c.data() + b * plan.k * plan.n;
    for (int64_t i = 0; i < plan.m; ++i) {
      const A* lhs_row = lhs_c.data() + (b * plan.m + i) * plan.k;
      for (int64_t kk = 0; kk < plan.k; ++kk) {
        const int64_t g = group_of[kk];
        if (g < 0) continue;  // Outside every group: not summed.
        A* out_row = out.data() + g * slice + (b * plan.m + i) * plan.n;
        AddScaledRow(lhs_row[kk], rhs_b + kk * plan.n, out_row, plan.n);
      }
    }
  }
  return StoreResult<T>(instruction, out, context);
}

template <typename T>
absl::StatusOr<Literal> RaggedBatch(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext& context) {
  using A = Arith<T>;
  const DotLayout plan =
      PlanDot(instruction, operands[0]->shape(), operands[1]->shape());
  absl::Status fits =
      CheckWork<T>(instruction, context,
                   {operands[0]->element_count(), operands[1]->element_count(),
                    SafeProduct({plan.batch, plan.m, plan.n})});
  if (!fits.ok()) return fits;
  const std::vector<A> lhs_c = CanonicalLhs<T>(*operands[0], plan);
  const std::vector<A> rhs_c = CanonicalRhs<T>(*operands[1], plan);
  std::vector<A> out(static_cast<size_t>(plan.batch * plan.m * plan.n), A(0));
  BatchMatMul(lhs_c.data(), rhs_c.data(), out.data(), plan.batch, plan.m,
              plan.k, plan.n);
  return StoreResult<T>(instruction, out, context);
}

}  // namespace

absl::StatusOr<Literal> RaggedDotKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  if (!instruction.shape().IsArray()) {
    return KernelError(instruction, "declared shape is not an array");
  }
  const int64_t ragged = Int64ListOrEmpty(instruction, attr::kLhsRaggedDims)[0];
  const std::vector<int64_t>& group_dims =
      Int64ListOrEmpty(instruction, attr::kRhsGroupDims);
  const int64_t group_dim = group_dims.empty() ? -1 : group_dims[0];
  const std::vector<int64_t>& contracting =
      Int64ListOrEmpty(instruction, attr::kLhsContractingDims);
  const bool in_contracting = std::find(contracting.begin(), contracting.end(),
                                        ragged) != contracting.end();
  return DispatchByComputeType(
      instruction.shape().element_type(),
      [&](auto tag) -> absl::StatusOr<Literal> {
        using T = typename decltype(tag)::type;
        if (group_dim >= 0) {
          return RaggedFree<T>(instruction, operands, ragged, group_dim,
                               context);
        }
        if (in_contracting) {
          return RaggedContracting<T>(instruction, operands, ragged, context);
        }
        return RaggedBatch<T>(instruction, operands, context);
      });
}

}  // namespace eval
}  // namespace kiln
