#include "compiler/builder/data_movement.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace {

std::vector<int64_t> ToVector(absl::Span<const int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

std::string DimsText(absl::Span<const int64_t> dims) {
  return absl::StrCat("{", absl::StrJoin(dims, ","), "}");
}

// Records "<op>: <what> (operation_semantics.md, <section>)", the form of
// the shape rules' errors, for mistakes caught before an instruction
// exists.
XlaOp ArgumentError(XlaBuilder* builder, absl::string_view op,
                    absl::string_view what, absl::string_view section) {
  return builder->ReportError(absl::InvalidArgumentError(absl::StrCat(
      op, ": ", what, " (operation_semantics.md, ", section, ")")));
}

// The array shape of `operand`, for functions that compute an attribute or
// a declared shape from it. Records an error (naming `op`) when the operand
// is invalid, foreign or not an array.
absl::StatusOr<Shape> ArrayShapeOf(XlaBuilder* builder, XlaOp operand,
                                   absl::string_view op,
                                   absl::string_view section) {
  absl::Status ok = builder->CheckOperands({operand}, op);
  if (!ok.ok()) return ok;
  absl::StatusOr<Shape> shape = builder->GetShape(operand);
  if (!shape.ok()) return shape.status();
  if (!shape->IsArray()) {
    ArgumentError(builder, op,
                  absl::StrCat("operand is ", shape->ToString(false),
                               ", expected an array"),
                  section);
    return builder->first_error();
  }
  return shape;
}

AttributeMap DimensionsAttr(absl::Span<const int64_t> dimensions) {
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, ToVector(dimensions));
  return attrs;
}

bool IsIdentity(absl::Span<const int64_t> permutation) {
  for (size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// True when every entry of `dims` indexes a dimension of a rank-`rank`
// array, so that it can be used to look sizes up.
bool AllInRange(absl::Span<const int64_t> dims, int64_t rank) {
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) return false;
  }
  return true;
}

// Adds an op whose result shape the caller chooses. The shape is checked
// first (e.g. no negative size), since the op's rule takes it as given.
XlaOp AddWithDeclaredShape(XlaBuilder* builder, Opcode opcode,
                           absl::Span<const XlaOp> operands, AttributeMap attrs,
                           const Shape& declared, absl::string_view section) {
  if (absl::Status valid = declared.Validate(); !valid.ok()) {
    return ArgumentError(
        builder, OpcodeName(opcode),
        absl::StrCat("invalid result shape ", declared.ToString(false), ": ",
                     valid.message()),
        section);
  }
  return builder->AddInstruction(opcode, operands, std::move(attrs), declared);
}

XlaOp AddBroadcast(XlaBuilder* builder, XlaOp operand, const Shape& result,
                   absl::Span<const int64_t> dimensions,
                   absl::string_view section) {
  return AddWithDeclaredShape(builder, Opcode::kBroadcast, {operand},
                              DimensionsAttr(dimensions), result, section);
}

}  // namespace

XlaOp Broadcast(XlaOp operand, absl::Span<const int64_t> broadcast_sizes) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in =
      ArrayShapeOf(builder, operand, "broadcast", "Broadcast");
  if (!in.ok()) return XlaOp();
  std::vector<int64_t> sizes = ToVector(broadcast_sizes);
  std::vector<bool> dynamic(sizes.size(), false);
  std::vector<int64_t> dimensions;
  for (int64_t i = 0; i < in->rank(); ++i) {
    dimensions.push_back(static_cast<int64_t>(sizes.size()));
    sizes.push_back(in->dimension(i));
    dynamic.push_back(in->is_dynamic_dimension(i));
  }
  return AddBroadcast(builder, operand,
                      Shape::DynamicArray(in->element_type(), std::move(sizes),
                                          std::move(dynamic)),
                      dimensions, "Broadcast");
}

XlaOp BroadcastInDim(XlaOp operand, absl::Span<const int64_t> out_dim_size,
                     absl::Span<const int64_t> broadcast_dimensions) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in =
      ArrayShapeOf(builder, operand, "broadcast", "BroadcastInDim");
  if (!in.ok()) return XlaOp();
  const Shape result = Shape::Array(in->element_type(), ToVector(out_dim_size));
  const int64_t out_rank = static_cast<int64_t>(out_dim_size.size());
  if (static_cast<int64_t>(broadcast_dimensions.size()) != in->rank() ||
      !AllInRange(broadcast_dimensions, out_rank)) {
    // Malformed: the broadcast's own rule reports it.
    return AddBroadcast(builder, operand, result, broadcast_dimensions,
                        "BroadcastInDim");
  }
  // Size-1 operand dimensions that grow are removed first (a reshape), as
  // XlaBuilder does, so that the broadcast maps equal sizes only.
  std::vector<int64_t> kept_sizes;
  std::vector<int64_t> kept_dimensions;
  for (int64_t i = 0; i < in->rank(); ++i) {
    const int64_t target = broadcast_dimensions[i];
    if (in->dimension(i) == 1 && out_dim_size[target] != 1) continue;
    kept_sizes.push_back(in->dimension(i));
    kept_dimensions.push_back(target);
  }
  XlaOp source = operand;
  if (static_cast<int64_t>(kept_sizes.size()) != in->rank()) {
    source = Reshape(operand, kept_sizes);
  }
  return AddBroadcast(builder, source, result, kept_dimensions,
                      "BroadcastInDim");
}

XlaOp Reshape(XlaOp operand, absl::Span<const int64_t> new_sizes) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in =
      ArrayShapeOf(builder, operand, "reshape", "Reshape");
  if (!in.ok()) return XlaOp();
  return Reshape(Shape::Array(in->element_type(), ToVector(new_sizes)),
                 operand);
}

XlaOp Reshape(XlaOp operand, absl::Span<const int64_t> dimensions,
              absl::Span<const int64_t> new_sizes) {
  XlaOp transposed =
      IsIdentity(dimensions) ? operand : Transpose(operand, dimensions);
  return Reshape(transposed, new_sizes);
}

XlaOp Reshape(const Shape& shape, XlaOp operand) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return AddWithDeclaredShape(builder, Opcode::kReshape, {operand}, {}, shape,
                              "Reshape");
}

XlaOp DynamicReshape(XlaOp operand, absl::Span<const XlaOp> dim_sizes,
                     absl::Span<const int64_t> new_size_bounds,
                     const std::vector<bool>& dims_are_dynamic) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in =
      ArrayShapeOf(builder, operand, "dynamic-reshape", "DynamicReshape");
  if (!in.ok()) return XlaOp();
  if (dim_sizes.size() != new_size_bounds.size() ||
      dims_are_dynamic.size() != new_size_bounds.size()) {
    return ArgumentError(
        builder, "dynamic-reshape",
        absl::StrCat("dim_sizes (", dim_sizes.size(), "), new_size_bounds (",
                     new_size_bounds.size(), ") and dims_are_dynamic (",
                     dims_are_dynamic.size(),
                     ") must have one entry per result dimension"),
        "DynamicReshape");
  }
  std::vector<XlaOp> operands = {operand};
  operands.insert(operands.end(), dim_sizes.begin(), dim_sizes.end());
  return AddWithDeclaredShape(
      builder, Opcode::kDynamicReshape, operands, {},
      Shape::DynamicArray(in->element_type(), ToVector(new_size_bounds),
                          dims_are_dynamic),
      "DynamicReshape");
}

XlaOp Collapse(XlaOp operand, absl::Span<const int64_t> dimensions) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in =
      ArrayShapeOf(builder, operand, "reshape", "Collapse");
  if (!in.ok()) return XlaOp();
  bool consecutive = !dimensions.empty() && AllInRange(dimensions, in->rank());
  for (size_t i = 1; consecutive && i < dimensions.size(); ++i) {
    consecutive = dimensions[i] == dimensions[i - 1] + 1;
  }
  if (!consecutive) {
    return ArgumentError(
        builder, "reshape",
        absl::StrCat("Collapse dimensions ", DimsText(dimensions),
                     " must be a non-empty, in-order, consecutive subset of "
                     "the dimensions of ",
                     in->ToString(false)),
        "Collapse");
  }
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < in->rank(); ++d) {
    if (d > dimensions.front() && d <= dimensions.back()) {
      sizes.back() *= in->dimension(d);
    } else {
      sizes.push_back(in->dimension(d));
    }
  }
  return Reshape(operand, sizes);
}

XlaOp Transpose(XlaOp operand, absl::Span<const int64_t> permutation) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kTranspose, {operand},
                                 DimensionsAttr(permutation));
}

XlaOp Rev(XlaOp operand, absl::Span<const int64_t> dimensions) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kReverse, {operand},
                                 DimensionsAttr(dimensions));
}

XlaOp Slice(XlaOp operand, absl::Span<const int64_t> start_indices,
            absl::Span<const int64_t> limit_indices,
            absl::Span<const int64_t> strides) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  if (start_indices.size() != limit_indices.size() ||
      strides.size() != start_indices.size()) {
    return ArgumentError(
        builder, "slice",
        absl::StrCat("start_indices (", start_indices.size(),
                     "), limit_indices (", limit_indices.size(),
                     ") and strides (", strides.size(),
                     ") must have one entry per dimension"),
        "Slice");
  }
  SliceRanges ranges;
  for (size_t i = 0; i < start_indices.size(); ++i) {
    ranges.ranges.push_back({start_indices[i], limit_indices[i], strides[i]});
  }
  AttributeMap attrs;
  attrs.Set(attr::kSlice, std::move(ranges));
  return builder->AddInstruction(Opcode::kSlice, {operand}, std::move(attrs));
}

XlaOp SliceInDim(XlaOp operand, int64_t start_index, int64_t limit_index,
                 int64_t stride, int64_t dimno) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in = ArrayShapeOf(builder, operand, "slice", "Slice");
  if (!in.ok()) return XlaOp();
  if (dimno < 0 || dimno >= in->rank()) {
    return ArgumentError(
        builder, "slice",
        absl::StrCat("SliceInDim dimension ", dimno, " is out of range for ",
                     in->ToString(false)),
        "Slice");
  }
  std::vector<int64_t> starts(in->rank(), 0);
  std::vector<int64_t> limits = in->dimensions();
  std::vector<int64_t> strides(in->rank(), 1);
  starts[dimno] = start_index;
  limits[dimno] = limit_index;
  strides[dimno] = stride;
  return Slice(operand, starts, limits, strides);
}

XlaOp DynamicSlice(XlaOp operand, absl::Span<const XlaOp> start_indices,
                   absl::Span<const int64_t> slice_sizes) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  std::vector<XlaOp> operands = {operand};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  AttributeMap attrs;
  attrs.Set(attr::kDynamicSliceSizes, ToVector(slice_sizes));
  return builder->AddInstruction(Opcode::kDynamicSlice, operands,
                                 std::move(attrs));
}

XlaOp DynamicUpdateSlice(XlaOp operand, XlaOp update,
                         absl::Span<const XlaOp> start_indices) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, update});
  if (builder == nullptr) return XlaOp();
  std::vector<XlaOp> operands = {operand, update};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  return builder->AddInstruction(Opcode::kDynamicUpdateSlice, operands, {});
}

XlaOp ConcatInDim(XlaBuilder* builder, absl::Span<const XlaOp> operands,
                  int64_t dimension) {
  if (operands.empty()) {
    return ArgumentError(builder, "concatenate",
                         "needs at least one operand (N >= 1)",
                         "ConcatInDim (Concatenate)");
  }
  return builder->AddInstruction(Opcode::kConcatenate, operands,
                                 DimensionsAttr({dimension}));
}

XlaOp Pad(XlaOp operand, XlaOp padding_value,
          const PaddingConfig& padding_config) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, padding_value});
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kPadding, padding_config);
  return builder->AddInstruction(Opcode::kPad, {operand, padding_value},
                                 std::move(attrs));
}

XlaOp PadInDim(XlaOp operand, XlaOp padding_value, int64_t dimno,
               int64_t pad_lo, int64_t pad_hi) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, padding_value});
  if (builder == nullptr) return XlaOp();
  absl::StatusOr<Shape> in = ArrayShapeOf(builder, operand, "pad", "Pad");
  if (!in.ok()) return XlaOp();
  if (dimno < 0 || dimno >= in->rank()) {
    return ArgumentError(
        builder, "pad",
        absl::StrCat("PadInDim dimension ", dimno, " is out of range for ",
                     in->ToString(false)),
        "Pad");
  }
  PaddingConfig config;
  config.dimensions.resize(in->rank());
  config.dimensions[dimno].low = pad_lo;
  config.dimensions[dimno].high = pad_hi;
  return Pad(operand, padding_value, config);
}

XlaOp GetDimensionSize(XlaOp operand, int64_t dimension) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kGetDimensionSize, {operand},
                                 DimensionsAttr({dimension}));
}

XlaOp SetDimensionSize(XlaOp operand, XlaOp val, int64_t dimension) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, val});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kSetDimensionSize, {operand, val},
                                 DimensionsAttr({dimension}));
}

XlaOp Tuple(XlaBuilder* builder, absl::Span<const XlaOp> elements) {
  return builder->AddInstruction(Opcode::kTuple, elements, {});
}

XlaOp GetTupleElement(XlaOp tuple_data, int64_t index) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({tuple_data});
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kIndex, index);
  return builder->AddInstruction(Opcode::kGetTupleElement, {tuple_data},
                                 std::move(attrs));
}

}  // namespace kiln
