// Indexing and reduction rewrites of the algebraic simplifier: slice,
// dynamic-slice, dynamic-update-slice and reduce. All exact
// (docs/passes_catalog.md).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"
#include "passes/algebraic_simplifier.h"
#include "passes/algebraic_simplifier_util.h"

namespace kiln {
namespace algsimp {
namespace {

using Result = absl::StatusOr<bool>;
using Dims = std::vector<int64_t>;

// slice taking every element -> operand; slice(slice(x)) -> one slice.
// Element j of the outer slice is element s2 + j*t2 of the inner one, which
// is x's element s1 + (s2 + j*t2)*t1: start s1 + s2*t1, stride t1*t2.
Result SliceTrivial(Instruction* slice, RewriteContext& context) {
  if (slice->opcode() != Opcode::kSlice || !AllStatic(slice)) return false;
  const SliceRanges* outer = slice->attrs().Get<SliceRanges>(attr::kSlice);
  Instruction* inner = slice->operand(0);
  if (outer == nullptr ||
      static_cast<int64_t>(outer->ranges.size()) != slice->shape().rank()) {
    return false;
  }
  if (CanReplace(slice, inner)) {
    return ReplaceAndClean(context, slice, inner);
  }
  const SliceRanges* inner_ranges =
      inner->attrs().Get<SliceRanges>(attr::kSlice);
  if (inner->opcode() != Opcode::kSlice || inner_ranges == nullptr ||
      !AllStatic(inner) ||
      inner_ranges->ranges.size() != outer->ranges.size()) {
    return false;
  }
  SliceRanges composed;
  for (size_t d = 0; d < outer->ranges.size(); ++d) {
    const SliceRange& a = inner_ranges->ranges[d];
    const SliceRange& b = outer->ranges[d];
    const int64_t count = slice->shape().dimension(d);
    SliceRange range;
    range.start = a.start + b.start * a.stride;
    range.stride = a.stride * b.stride;
    range.limit =
        count == 0 ? range.start : range.start + (count - 1) * range.stride + 1;
    composed.ranges.push_back(range);
  }
  slice->mutable_attrs()->Set(attr::kSlice, composed);
  slice->ReplaceOperandWith(0, inner->operand(0));
  absl::Status removed = RemoveIfDead(context, inner);
  if (!removed.ok()) return removed;
  return true;
}

// The dimension `concat` joins its operands along, or -1.
int64_t ConcatenatedDimension(const Instruction& concat) {
  const std::vector<int64_t>* dims =
      concat.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
  return dims == nullptr || dims->size() != 1 ? -1 : (*dims)[0];
}

// slice(concatenate(a, b, ...)) reading along the concatenated dimension
// from one operand only -> slice of that operand (shifted by its offset).
Result SliceOfConcatenate(Instruction* slice, RewriteContext& context) {
  if (slice->opcode() != Opcode::kSlice) return false;
  Instruction* concat = slice->operand(0);
  if (concat->opcode() != Opcode::kConcatenate || !AllStatic(concat)) {
    return false;
  }
  const SliceRanges* ranges = slice->attrs().Get<SliceRanges>(attr::kSlice);
  const int64_t dim = ConcatenatedDimension(*concat);
  if (ranges == nullptr || dim < 0 ||
      dim >= static_cast<int64_t>(ranges->ranges.size()) ||
      slice->shape().dimension(dim) == 0) {
    return false;
  }
  const SliceRange& range = ranges->ranges[dim];
  const int64_t first = range.start;
  const int64_t last =
      range.start + (slice->shape().dimension(dim) - 1) * range.stride;
  int64_t offset = 0;
  for (Instruction* operand : concat->operands()) {
    const int64_t size = operand->shape().dimension(dim);
    if (first >= offset && last < offset + size) {
      SliceRanges shifted = *ranges;
      shifted.ranges[dim].start -= offset;
      shifted.ranges[dim].limit = last - offset + 1;
      slice->mutable_attrs()->Set(attr::kSlice, shifted);
      slice->ReplaceOperandWith(0, operand);
      absl::Status removed = RemoveIfDead(context, concat);
      if (!removed.ok()) return removed;
      return true;
    }
    offset += size;
  }
  return false;
}

// Reads an integer scalar (or element `i` of a vector) constant as an
// index, unsigned values saturating as the evaluator reads them.
std::optional<int64_t> ConstantIndex(const Instruction* index, int64_t i) {
  if (index->opcode() != Opcode::kConstant || !index->has_literal()) {
    return std::nullopt;
  }
  const Literal& literal = index->literal();
  if (!IsIntegralType(literal.element_type()) || i >= literal.element_count() ||
      literal.has_dynamic_sizes()) {
    return std::nullopt;
  }
  if (IsUnsignedIntType(literal.element_type())) {
    const uint64_t value = literal.GetUint64(i);
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(std::min(value, kMax));
  }
  return literal.GetInt64(i);
}

// The start indices of a dynamic-slice or dynamic-update-slice whose
// indices (operands from `first`: one scalar per dimension, or one vector)
// are all constants, clamped into [0, dims[d] - sizes[d]] as the spec says.
std::optional<Dims> ClampedConstantStarts(const Instruction& op, int64_t first,
                                          const Dims& dims, const Dims& sizes) {
  const int64_t rank = static_cast<int64_t>(dims.size());
  const int64_t count = op.operand_count() - first;
  const bool vector_form =
      count == 1 && rank != 1 && op.operand(first)->shape().rank() == 1;
  if (!vector_form && count != rank) return std::nullopt;
  Dims starts;
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> start =
        vector_form ? ConstantIndex(op.operand(first), d)
                    : ConstantIndex(op.operand(first + d), 0);
    if (!start.has_value()) return std::nullopt;
    starts.push_back(std::clamp<int64_t>(*start, 0, dims[d] - sizes[d]));
  }
  return starts;
}

// dynamic-slice of the whole operand -> operand (the clamp forces every
// start to 0, whatever the indices); with constant indices -> slice at
// the clamped starts.
Result DynamicSliceTrivial(Instruction* ds, RewriteContext& context) {
  if (ds->opcode() != Opcode::kDynamicSlice || !AllStatic(ds)) return false;
  Instruction* operand = ds->operand(0);
  const Dims* sizes = ds->attrs().Get<Dims>(attr::kDynamicSliceSizes);
  const Dims& dims = operand->shape().dimensions();
  if (sizes == nullptr || sizes->size() != dims.size()) return false;
  for (size_t d = 0; d < dims.size(); ++d) {
    if ((*sizes)[d] < 0 || (*sizes)[d] > dims[d]) return false;
  }
  if (CanReplace(ds, operand) && *sizes == dims) {
    return ReplaceAndClean(context, ds, operand);
  }
  std::optional<Dims> starts = ClampedConstantStarts(*ds, 1, dims, *sizes);
  if (!starts.has_value()) return false;
  SliceRanges ranges;
  for (size_t d = 0; d < dims.size(); ++d) {
    ranges.ranges.push_back({(*starts)[d], (*starts)[d] + (*sizes)[d], 1});
  }
  auto slice =
      std::make_unique<Instruction>(Opcode::kSlice, ds->shape(), "slice");
  slice->AppendOperand(operand);
  slice->mutable_attrs()->Set(attr::kSlice, ranges);
  return ReplaceAndClean(context, ds, AddBefore(ds, std::move(slice)));
}

// dynamic-update-slice whose update covers the whole operand -> update
// (starts clamp to 0).
Result DynamicUpdateSliceTrivial(Instruction* dus, RewriteContext& context) {
  if (dus->opcode() != Opcode::kDynamicUpdateSlice || !AllStatic(dus) ||
      dus->operand_count() < 2) {
    return false;
  }
  Instruction* operand = dus->operand(0);
  Instruction* update = dus->operand(1);
  if (update->shape().dimensions() == operand->shape().dimensions() &&
      CanReplace(dus, update)) {
    return ReplaceAndClean(context, dus, update);
  }
  return false;
}

// The opcode of a reducer computation that is exactly op(p0, p1) or
// op(p1, p0) on scalars, for the ops with a known identity.
std::optional<Opcode> ReducerOp(const Computation& reducer) {
  if (reducer.parameters().size() != 2 || reducer.instruction_count() != 3) {
    return std::nullopt;
  }
  const Instruction* root = reducer.root();
  if (root == nullptr || root->operand_count() != 2 ||
      !root->shape().IsScalar() || !root->attrs().empty() ||
      root->operand(0) == root->operand(1)) {
    return std::nullopt;
  }
  for (const Instruction* operand : root->operands()) {
    if (operand->opcode() != Opcode::kParameter) return std::nullopt;
  }
  switch (root->opcode()) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
      return root->opcode();
    default:
      return std::nullopt;
  }
}

// Whether f(init, x) == x for every x, bitwise up to NaN payloads.
bool IsExactIdentityFor(Opcode op, const Instruction* init) {
  const ElementType type = init->shape().element_type();
  switch (op) {
    case Opcode::kAdd:
      return IsExactAddIdentity(init, false);
    case Opcode::kMultiply:
      return !IsComplexType(type) && AllElementsAre(init, IsOne);
    case Opcode::kMaximum:
      return AllElementsAre(init, IsTypeMinimum);
    case Opcode::kMinimum:
      return AllElementsAre(init, IsTypeMaximum);
    case Opcode::kAnd:
      return IsIntegralOrPred(type) && AllElementsAre(init, IsAllOnes);
    case Opcode::kOr:
    case Opcode::kXor:
      return IsIntegralOrPred(type) && AllElementsAre(init, IsAnyZero);
    default:
      return false;
  }
}

// reduce over dimensions of size 1 only (or none): each result element
// is f(init, x) for the one x it covers, which is x when init is the
// reducer's exact identity. -> operand, or a reshape dropping the dims.
Result ReduceTrivial(Instruction* reduce, RewriteContext& context) {
  if (reduce->opcode() != Opcode::kReduce || reduce->operand_count() != 2 ||
      !AllStatic(reduce)) {
    return false;
  }
  Instruction* input = reduce->operand(0);
  const Dims* dims = reduce->attrs().Get<Dims>(attr::kDimensions);
  Computation* const* reducer =
      reduce->attrs().Get<Computation*>(attr::kToApply);
  if (dims == nullptr || reducer == nullptr || *reducer == nullptr) {
    return false;
  }
  for (int64_t d : *dims) {
    if (d < 0 || d >= input->shape().rank() || input->shape().dimension(d) != 1)
      return false;
  }
  std::optional<Opcode> op = ReducerOp(**reducer);
  if (!op.has_value() || !IsExactIdentityFor(*op, reduce->operand(1))) {
    return false;
  }
  if (CanReplace(reduce, input)) return ReplaceAndClean(context, reduce, input);
  auto reshape = std::make_unique<Instruction>(Opcode::kReshape,
                                               reduce->shape(), "reshape");
  reshape->AppendOperand(input);
  return ReplaceAndClean(context, reduce,
                         AddBefore(reduce, std::move(reshape)));
}

}  // namespace

void AddIndexingRewrites(std::vector<Rewrite>* rewrites) {
  AddRewrite(rewrites, "slice-trivial", {Opcode::kSlice}, SliceTrivial);
  AddRewrite(rewrites, "slice-of-concatenate", {Opcode::kSlice},
             SliceOfConcatenate);
  AddRewrite(rewrites, "dynamic-slice-trivial", {Opcode::kDynamicSlice},
             DynamicSliceTrivial);
  AddRewrite(rewrites, "dynamic-update-slice-trivial",
             {Opcode::kDynamicUpdateSlice}, DynamicUpdateSliceTrivial);
  AddRewrite(rewrites, "reduce-trivial", {Opcode::kReduce}, ReduceTrivial);
}

}  // namespace algsimp
}  // namespace kiln
