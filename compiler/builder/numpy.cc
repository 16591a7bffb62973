#include "compiler/builder/numpy.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler/builder/data_movement.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {
namespace numpy {
namespace {

constexpr absl::string_view kNumpyRule =
    "broadcasting.md, NumPy rules: shapes align from the last dimension, "
    "sizes must be equal or 1";
constexpr absl::string_view kTileRule =
    "numpy.h, Tile: one non-negative multiple per dimension";

std::string DimsText(absl::Span<const int64_t> dims) {
  std::vector<std::string> sizes;
  for (int64_t d : dims) {
    sizes.push_back(d == Shape::kUnboundedSize ? "?" : absl::StrCat(d));
  }
  return absl::StrCat("[", absl::StrJoin(sizes, ","), "]");
}

absl::Status NumpyError(absl::string_view op, absl::string_view what,
                        absl::string_view rule) {
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": ", what, " (", rule, ")"));
}

// NumPy's pairing of two sizes: equal, or one of them 1. An unbounded '?'
// takes the other size (its run-time size must agree).
std::optional<int64_t> MergeSizes(int64_t a, int64_t b) {
  if (a == b || b == 1) return a;
  if (a == 1) return b;
  if (a == Shape::kUnboundedSize) return b;
  if (b == Shape::kUnboundedSize) return a;
  return std::nullopt;
}

// The array shape of `x`, recording an error naming `op` when x is
// invalid, foreign or not an array.
std::optional<Shape> ArrayShapeOf(XlaBuilder* builder, XlaOp x,
                                  absl::string_view op) {
  if (!builder->CheckOperands({x}, op).ok()) return std::nullopt;
  absl::StatusOr<Shape> shape = builder->GetShape(x);
  if (!shape.ok()) return std::nullopt;
  if (!shape->IsArray()) {
    builder->ReportError(
        NumpyError(op, absl::StrCat(shape->ToString(false), " is not an array"),
                   kNumpyRule));
    return std::nullopt;
  }
  return *shape;
}

// {high - low, ..., high - 1}: the trailing dimensions of a rank-`high`
// result, where a rank-`low` operand aligned from the last dimension lands.
std::vector<int64_t> TrailingDimensions(int64_t low, int64_t high) {
  std::vector<int64_t> dims;
  for (int64_t d = high - low; d < high; ++d) dims.push_back(d);
  return dims;
}

// NumPy's broadcast of `a` and `b`; errors are reported for op `op`.
absl::StatusOr<std::vector<int64_t>> BroadcastDims(
    absl::string_view op, absl::Span<const int64_t> a,
    absl::Span<const int64_t> b) {
  const int64_t rank = std::max(a.size(), b.size());
  const int64_t a_offset = rank - static_cast<int64_t>(a.size());
  const int64_t b_offset = rank - static_cast<int64_t>(b.size());
  std::vector<int64_t> result(rank);
  for (int64_t d = 0; d < rank; ++d) {
    // A dimension missing on the left of the shorter shape counts as 1.
    const int64_t a_size = d < a_offset ? 1 : a[d - a_offset];
    const int64_t b_size = d < b_offset ? 1 : b[d - b_offset];
    std::optional<int64_t> merged = MergeSizes(a_size, b_size);
    if (!merged.has_value()) {
      return NumpyError(
          op,
          absl::StrCat("shapes ", DimsText(a), " and ", DimsText(b),
                       " are incompatible at dimension ", d,
                       " of the result (sizes ", a_size, " and ", b_size, ")"),
          kNumpyRule);
    }
    result[d] = *merged;
  }
  return result;
}

// Checks the NumPy rule for lhs and rhs and adds `opcode` in client form,
// with broadcast_dimensions aligning a lower-rank array from the last
// dimension.
XlaOp BinaryOp(absl::string_view name, Opcode opcode, XlaOp lhs, XlaOp rhs,
               AttributeMap attrs = {}) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({lhs, rhs});
  if (builder == nullptr) return XlaOp();
  std::optional<Shape> a = ArrayShapeOf(builder, lhs, name);
  if (!a.has_value()) return XlaOp();
  std::optional<Shape> b = ArrayShapeOf(builder, rhs, name);
  if (!b.has_value()) return XlaOp();
  absl::StatusOr<std::vector<int64_t>> result =
      BroadcastDims(name, a->dimensions(), b->dimensions());
  if (!result.ok()) return builder->ReportError(result.status());
  const int64_t low = std::min(a->rank(), b->rank());
  const int64_t high = std::max(a->rank(), b->rank());
  if (low != high && low != 0) {
    attrs.Set(attr::kBroadcastDimensions, TrailingDimensions(low, high));
  }
  return builder->AddInstruction(opcode, {lhs, rhs}, std::move(attrs));
}

XlaOp CompareOp(absl::string_view name, ComparisonDirection direction,
                XlaOp lhs, XlaOp rhs) {
  AttributeMap attrs;
  attrs.Set(attr::kDirection, ToEnumValue(direction));
  return BinaryOp(name, Opcode::kCompare, lhs, rhs, std::move(attrs));
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  return BroadcastDims("numpy.broadcast_shapes", a, b);
}

XlaOp BroadcastTo(XlaOp x, absl::Span<const int64_t> dims) {
  constexpr absl::string_view kName = "numpy.broadcast_to";
  XlaBuilder* builder = XlaBuilder::BuilderOf({x});
  if (builder == nullptr) return XlaOp();
  std::optional<Shape> in = ArrayShapeOf(builder, x, kName);
  if (!in.has_value()) return XlaOp();
  const int64_t offset = static_cast<int64_t>(dims.size()) - in->rank();
  for (int64_t i = 0; i < in->rank(); ++i) {
    const int64_t size = in->dimension(i);
    if (offset < 0 || (size != 1 && size != dims[offset + i])) {
      return builder->ReportError(NumpyError(
          kName,
          absl::StrCat("cannot broadcast ", DimsText(in->dimensions()), " to ",
                       DimsText(dims), ": dimension ", i, " (size ", size, ") ",
                       offset < 0
                           ? "has no counterpart (rank too high)"
                           : absl::StrCat("meets size ", dims[offset + i])),
          kNumpyRule));
    }
  }
  if (in->dimensions() == std::vector<int64_t>(dims.begin(), dims.end())) {
    return x;
  }
  return BroadcastInDim(x, dims, TrailingDimensions(in->rank(), dims.size()));
}

XlaOp Tile(XlaOp x, absl::Span<const int64_t> multiples) {
  constexpr absl::string_view kName = "numpy.tile";
  XlaBuilder* builder = XlaBuilder::BuilderOf({x});
  if (builder == nullptr) return XlaOp();
  std::optional<Shape> in = ArrayShapeOf(builder, x, kName);
  if (!in.has_value()) return XlaOp();
  if (static_cast<int64_t>(multiples.size()) != in->rank()) {
    return builder->ReportError(
        NumpyError(kName,
                   absl::StrCat("multiples ", DimsText(multiples), " has ",
                                multiples.size(), " entries but ",
                                in->ToString(false), " has rank ", in->rank()),
                   kTileRule));
  }
  // Interleave a copy dimension before each dimension that repeats:
  // [m0, d0, m1, d1, ...] (dimensions with multiple 1 get none).
  std::vector<int64_t> interleaved;
  std::vector<int64_t> operand_positions;
  std::vector<int64_t> tiled;
  for (int64_t i = 0; i < in->rank(); ++i) {
    if (multiples[i] < 0) {
      return builder->ReportError(
          NumpyError(kName,
                     absl::StrCat("multiples ", DimsText(multiples),
                                  " has a negative entry at dimension ", i),
                     kTileRule));
    }
    if (multiples[i] != 1) interleaved.push_back(multiples[i]);
    operand_positions.push_back(static_cast<int64_t>(interleaved.size()));
    interleaved.push_back(in->dimension(i));
    tiled.push_back(multiples[i] * in->dimension(i));
  }
  if (interleaved.size() == static_cast<size_t>(in->rank())) return x;
  return Reshape(BroadcastInDim(x, interleaved, operand_positions), tiled);
}

XlaOp Add(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.add", Opcode::kAdd, lhs, rhs);
}
XlaOp Sub(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.subtract", Opcode::kSubtract, lhs, rhs);
}
XlaOp Mul(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.multiply", Opcode::kMultiply, lhs, rhs);
}
XlaOp Div(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.divide", Opcode::kDivide, lhs, rhs);
}
XlaOp Rem(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.remainder", Opcode::kRemainder, lhs, rhs);
}
XlaOp Max(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.maximum", Opcode::kMaximum, lhs, rhs);
}
XlaOp Min(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.minimum", Opcode::kMinimum, lhs, rhs);
}
XlaOp Pow(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.power", Opcode::kPower, lhs, rhs);
}
XlaOp Atan2(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.arctan2", Opcode::kAtan2, lhs, rhs);
}
XlaOp And(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.logical_and", Opcode::kAnd, lhs, rhs);
}
XlaOp Or(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.logical_or", Opcode::kOr, lhs, rhs);
}
XlaOp Xor(XlaOp lhs, XlaOp rhs) {
  return BinaryOp("numpy.logical_xor", Opcode::kXor, lhs, rhs);
}

XlaOp Eq(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.equal", ComparisonDirection::kEq, lhs, rhs);
}
XlaOp Ne(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.not_equal", ComparisonDirection::kNe, lhs, rhs);
}
XlaOp Lt(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.less", ComparisonDirection::kLt, lhs, rhs);
}
XlaOp Le(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.less_equal", ComparisonDirection::kLe, lhs, rhs);
}
XlaOp Gt(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.greater", ComparisonDirection::kGt, lhs, rhs);
}
XlaOp Ge(XlaOp lhs, XlaOp rhs) {
  return CompareOp("numpy.greater_equal", ComparisonDirection::kGe, lhs, rhs);
}

}  // namespace numpy
}  // namespace kiln
