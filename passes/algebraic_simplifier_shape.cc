// Shape rewrites of the algebraic simplifier: reshape, transpose,
// broadcast, reverse, copy, convert, pad and concatenate. They only move
// (or keep) elements, so all are exact (docs/passes_catalog.md).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/opcode.h"
#include "compiler/util/int_lists.h"
#include "passes/algebraic_simplifier.h"
#include "passes/algebraic_simplifier_util.h"

namespace kiln {
namespace algsimp {
namespace {

using Result = absl::StatusOr<bool>;
using Dims = std::vector<int64_t>;

// An op that changes nothing is replaced by its operand (same shape and
// layout, or it would drop a layout change).
Result ReplaceByOperandIf(bool no_op, Instruction* op,
                          RewriteContext& context) {
  if (!no_op || op->operand_count() < 1 || !CanReplace(op, op->operand(0))) {
    return false;
  }
  return ReplaceAndClean(context, op, op->operand(0));
}

// Makes `op` read `source` instead of its operand 0, then drops the
// bypassed operand if nothing else uses it.
Result Bypass(Instruction* op, Instruction* source, RewriteContext& context) {
  Instruction* bypassed = op->operand(0);
  op->ReplaceOperandWith(0, source);
  absl::Status removed = RemoveIfDead(context, bypassed);
  if (!removed.ok()) return removed;
  return true;
}

const Dims* DimensionsOf(const Instruction* op) {
  return op->attrs().Get<Dims>(attr::kDimensions);
}

// reshape to the operand's own shape -> operand; reshape(reshape(x)) ->
// reshape(x) (both keep row-major element order).
Result ReshapeTrivial(Instruction* reshape, RewriteContext& context) {
  if (reshape->opcode() != Opcode::kReshape || !AllStatic(reshape)) {
    return false;
  }
  Instruction* inner = reshape->operand(0);
  if (CanReplace(reshape, inner)) {
    return ReplaceAndClean(context, reshape, inner);
  }
  if (inner->opcode() != Opcode::kReshape || !AllStatic(inner)) return false;
  return Bypass(reshape, inner->operand(0), context);
}

// Identity transpose -> operand; transpose(transpose(x, p), q) ->
// transpose(x, r) with r[i] = p[q[i]].
Result TransposeTrivial(Instruction* transpose, RewriteContext& context) {
  if (transpose->opcode() != Opcode::kTranspose) return false;
  const Dims* outer = DimensionsOf(transpose);
  if (outer == nullptr) return false;
  if (util::IsIdentityPermutation(*outer)) {
    return ReplaceByOperandIf(true, transpose, context);
  }
  Instruction* inner = transpose->operand(0);
  const Dims* inner_dims = DimensionsOf(inner);
  if (inner->opcode() != Opcode::kTranspose || inner_dims == nullptr ||
      inner_dims->size() != outer->size()) {
    return false;
  }
  Dims composed;
  for (int64_t d : *outer) composed.push_back((*inner_dims)[d]);
  transpose->mutable_attrs()->Set(attr::kDimensions, composed);
  return Bypass(transpose, inner->operand(0), context);
}

// A strict broadcast: operand dim i has the size of result dim dims[i].
bool IsStrictBroadcast(const Instruction& broadcast) {
  const Dims* dims = DimensionsOf(&broadcast);
  const Shape& in = broadcast.operand(0)->shape();
  const Shape& out = broadcast.shape();
  if (dims == nullptr || static_cast<int64_t>(dims->size()) != in.rank()) {
    return false;
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    if ((*dims)[i] < 0 || (*dims)[i] >= out.rank() ||
        in.dimension(i) != out.dimension((*dims)[i])) {
      return false;
    }
  }
  return true;
}

// broadcast with dims 0..n-1 onto the same shape -> operand;
// broadcast(broadcast(x, d1), d2) -> broadcast(x, d2[d1[i]]). A broadcast
// of a scalar constant is kept as it is: materializing it would grow the
// module.
Result BroadcastTrivial(Instruction* broadcast, RewriteContext& context) {
  if (broadcast->opcode() != Opcode::kBroadcast || !AllStatic(broadcast) ||
      !IsStrictBroadcast(*broadcast)) {
    return false;
  }
  const Dims& outer = *DimensionsOf(broadcast);
  if (util::IsIdentityPermutation(outer) &&
      outer.size() == static_cast<size_t>(broadcast->shape().rank())) {
    return ReplaceByOperandIf(true, broadcast, context);
  }
  Instruction* inner = broadcast->operand(0);
  if (inner->opcode() != Opcode::kBroadcast || !AllStatic(inner) ||
      !IsStrictBroadcast(*inner)) {
    return false;
  }
  Dims composed;
  for (int64_t d : *DimensionsOf(inner)) composed.push_back(outer[d]);
  broadcast->mutable_attrs()->Set(attr::kDimensions, composed);
  return Bypass(broadcast, inner->operand(0), context);
}

// The dims of `op` along which its operand has more than one element.
bool ReversesOnlySizeOne(const Instruction& reverse, const Dims& dims) {
  const Shape& shape = reverse.operand(0)->shape();
  for (int64_t d : dims) {
    if (d < 0 || d >= shape.rank() || shape.dimension(d) > 1) return false;
  }
  return true;
}

// reverse of no dimension (or only size-1 ones) -> operand;
// reverse(reverse(x, d), d) -> x (the same set of dimensions).
Result ReverseTrivial(Instruction* reverse, RewriteContext& context) {
  if (reverse->opcode() != Opcode::kReverse || !AllStatic(reverse)) {
    return false;
  }
  const Dims* dims = DimensionsOf(reverse);
  if (dims == nullptr) return false;
  if (ReversesOnlySizeOne(*reverse, *dims)) {
    return ReplaceByOperandIf(true, reverse, context);
  }
  const Instruction* inner = reverse->operand(0);
  const Dims* inner_dims = DimensionsOf(inner);
  if (inner->opcode() != Opcode::kReverse || inner_dims == nullptr) {
    return false;
  }
  const absl::flat_hash_set<int64_t> a(dims->begin(), dims->end());
  const absl::flat_hash_set<int64_t> b(inner_dims->begin(), inner_dims->end());
  if (a != b || !CanReplace(reverse, inner->operand(0))) return false;
  return ReplaceAndClean(context, reverse, inner->operand(0));
}

// copy of a value that already has the copy's layout -> the value. A copy
// that changes the layout (or whose shapes lack layouts on one side) stays.
Result CopySameLayout(Instruction* copy, RewriteContext& context) {
  return ReplaceByOperandIf(copy->opcode() == Opcode::kCopy, copy, context);
}

// Whether every value of `from` converts to `to` and back unchanged.
bool ConvertsLosslessly(ElementType from, ElementType to) {
  const ElementTypeInfo& a = GetElementTypeInfo(from);
  const ElementTypeInfo& b = GetElementTypeInfo(to);
  if (a.kind == TypeKind::kSigned || a.kind == TypeKind::kUnsigned) {
    if (b.kind == a.kind) return b.bit_width >= a.bit_width;
    return a.kind == TypeKind::kUnsigned && b.kind == TypeKind::kSigned &&
           b.bit_width > a.bit_width;
  }
  if (a.kind == TypeKind::kFloat && b.kind == TypeKind::kFloat) {
    // IEEE types only: wider exponent and mantissa hold every value
    // (subnormals of the narrower type become normals), inf, NaN and -0.
    return a.encoding == FloatEncoding::kIeee &&
           b.encoding == FloatEncoding::kIeee &&
           b.exponent_bits >= a.exponent_bits &&
           b.mantissa_bits >= a.mantissa_bits;
  }
  return false;
}

// convert to the operand's own type -> operand; convert(convert(x: A): B):
// A -> x when B holds every value of A exactly.
Result ConvertTrivial(Instruction* convert, RewriteContext& context) {
  if (convert->opcode() != Opcode::kConvert) return false;
  Instruction* inner = convert->operand(0);
  if (CanReplace(convert, inner)) {
    return ReplaceAndClean(context, convert, inner);
  }
  if (inner->opcode() != Opcode::kConvert) return false;
  Instruction* x = inner->operand(0);
  if (!CanReplace(convert, x) ||
      !ConvertsLosslessly(x->shape().element_type(),
                          inner->shape().element_type())) {
    return false;
  }
  return ReplaceAndClean(context, convert, x);
}

// pad with no padding at all -> operand.
Result PadNothing(Instruction* pad, RewriteContext& context) {
  if (pad->opcode() != Opcode::kPad) return false;
  const PaddingConfig* config = pad->attrs().Get<PaddingConfig>(attr::kPadding);
  if (config == nullptr) return false;
  for (const PaddingDimension& dim : config->dimensions) {
    if (dim.low != 0 || dim.high != 0 || dim.interior != 0) return false;
  }
  return ReplaceByOperandIf(true, pad, context);
}

bool HasNoElements(const Shape& shape) {
  for (int64_t size : shape.dimensions()) {
    if (size == 0) return true;
  }
  return false;
}

// concatenate of one operand -> operand; operands with no elements are
// dropped (they contribute nothing) while one operand remains.
Result ConcatenateTrivial(Instruction* concat, RewriteContext& context) {
  if (concat->opcode() != Opcode::kConcatenate || !AllStatic(concat)) {
    return false;
  }
  if (concat->operand_count() == 1) {
    return ReplaceByOperandIf(true, concat, context);
  }
  std::vector<Instruction*> kept;
  for (Instruction* operand : concat->operands()) {
    if (!HasNoElements(operand->shape())) kept.push_back(operand);
  }
  if (kept.empty() ||
      kept.size() == static_cast<size_t>(concat->operand_count())) {
    return false;
  }
  const std::vector<Instruction*> dropped = concat->operands();
  concat->DetachOperands();
  for (Instruction* operand : kept) concat->AppendOperand(operand);
  for (Instruction* operand : dropped) {
    absl::Status removed = RemoveIfDead(context, operand);
    if (!removed.ok()) return removed;
  }
  return true;
}

// reshape, transpose, slice or reverse of a broadcast scalar -> that
// scalar broadcast straight to the result shape: every element is the
// scalar either way.
Result MoveOfScalarBroadcast(Instruction* op, RewriteContext& context) {
  switch (op->opcode()) {
    case Opcode::kReshape:
    case Opcode::kTranspose:
    case Opcode::kSlice:
    case Opcode::kReverse:
      break;
    default:
      return false;
  }
  Instruction* inner = op->operand(0);
  if (inner->opcode() != Opcode::kBroadcast || inner->operand_count() != 1 ||
      !inner->operand(0)->shape().IsScalar() || !op->shape().IsArray()) {
    return false;
  }
  auto broadcast = std::make_unique<Instruction>(Opcode::kBroadcast,
                                                 op->shape(), "broadcast");
  broadcast->AppendOperand(inner->operand(0));
  broadcast->mutable_attrs()->Set(attr::kDimensions, Dims{});
  return ReplaceAndClean(context, op, AddBefore(op, std::move(broadcast)));
}

}  // namespace

void AddShapeRewrites(std::vector<Rewrite>* rewrites) {
  AddRewrite(rewrites, "reshape-trivial", {Opcode::kReshape}, ReshapeTrivial);
  AddRewrite(rewrites, "transpose-trivial", {Opcode::kTranspose},
             TransposeTrivial);
  AddRewrite(rewrites, "broadcast-trivial", {Opcode::kBroadcast},
             BroadcastTrivial);
  AddRewrite(rewrites, "reverse-trivial", {Opcode::kReverse}, ReverseTrivial);
  AddRewrite(rewrites, "copy-same-layout", {Opcode::kCopy}, CopySameLayout);
  AddRewrite(rewrites, "convert-trivial", {Opcode::kConvert}, ConvertTrivial);
  AddRewrite(rewrites, "pad-nothing", {Opcode::kPad}, PadNothing);
  AddRewrite(rewrites, "concatenate-trivial", {Opcode::kConcatenate},
             ConcatenateTrivial);
  AddRewrite(
      rewrites, "move-of-scalar-broadcast",
      {Opcode::kReshape, Opcode::kTranspose, Opcode::kSlice, Opcode::kReverse},
      MoveOfScalarBroadcast);
}

}  // namespace algsimp
}  // namespace kiln
