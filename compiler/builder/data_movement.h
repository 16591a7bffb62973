// Builder functions of the data-movement ops (operation_semantics.md):
// broadcasts, reshapes, transposes, slices, concatenation, padding, the
// dynamic-dimension helpers and tuples (Copy is in elementwise.h, next to
// its schema). Each adds one instruction (a few add two, as XlaBuilder
// does: noted at the function) through XlaBuilder::AddInstruction, which
// infers and checks the result shape.
//
//   XlaOp x = Parameter(&b, 0, Shape::Array(ElementType::kF32, {4, 6}), "x");
//   XlaOp t = Transpose(Reshape(x, {2, 12}), {1, 0});   // f32[12,2]
#ifndef KILN_COMPILER_BUILDER_DATA_MOVEMENT_H_
#define KILN_COMPILER_BUILDER_DATA_MOVEMENT_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/shape.h"

namespace kiln {

// Adds major dimensions of sizes `broadcast_sizes` in front of the
// operand's: the HLO is broadcast(operand), dimensions={N, ..., N+M-1}.
XlaOp Broadcast(XlaOp operand, absl::Span<const int64_t> broadcast_sizes);

// Broadcasts `operand` to `out_dim_size`, operand dimension i landing on
// result dimension broadcast_dimensions[i]. As in XlaBuilder, operand
// dimensions of size 1 that grow are first dropped by a reshape, so that
// the broadcast itself is strict HLO (every mapped size equal).
XlaOp BroadcastInDim(XlaOp operand, absl::Span<const int64_t> out_dim_size,
                     absl::Span<const int64_t> broadcast_dimensions);

// reshape to `new_sizes` (same element type and element count).
XlaOp Reshape(XlaOp operand, absl::Span<const int64_t> new_sizes);
// Transpose by `dimensions`, then reshape (operation_semantics.md,
// Transpose: "Reshape(operand, permutation, ...)"). Two instructions unless
// `dimensions` is the identity.
XlaOp Reshape(XlaOp operand, absl::Span<const int64_t> dimensions,
              absl::Span<const int64_t> new_sizes);
// reshape to an explicit `shape` (may carry bounded dynamic dimensions).
XlaOp Reshape(const Shape& shape, XlaOp operand);

// dynamic-reshape: result dimension i has run-time size dim_sizes[i] (an
// s32 scalar), bound new_size_bounds[i], dynamic iff dims_are_dynamic[i].
XlaOp DynamicReshape(XlaOp operand, absl::Span<const XlaOp> dim_sizes,
                     absl::Span<const int64_t> new_size_bounds,
                     const std::vector<bool>& dims_are_dynamic);

// Merges the in-order, consecutive `dimensions` into one (a reshape).
XlaOp Collapse(XlaOp operand, absl::Span<const int64_t> dimensions);

// transpose, dimensions=permutation.
XlaOp Transpose(XlaOp operand, absl::Span<const int64_t> permutation);

// reverse, dimensions=dimensions.
XlaOp Rev(XlaOp operand, absl::Span<const int64_t> dimensions);

// slice={[start:limit:stride], ...}; the three lists have one entry per
// operand dimension.
XlaOp Slice(XlaOp operand, absl::Span<const int64_t> start_indices,
            absl::Span<const int64_t> limit_indices,
            absl::Span<const int64_t> strides);
// Slices dimension `dimno` only; the other dimensions are kept whole.
XlaOp SliceInDim(XlaOp operand, int64_t start_index, int64_t limit_index,
                 int64_t stride, int64_t dimno);

// dynamic-slice(operand, start_indices...), dynamic_slice_sizes=slice_sizes.
XlaOp DynamicSlice(XlaOp operand, absl::Span<const XlaOp> start_indices,
                   absl::Span<const int64_t> slice_sizes);
// dynamic-update-slice(operand, update, start_indices...).
XlaOp DynamicUpdateSlice(XlaOp operand, XlaOp update,
                         absl::Span<const XlaOp> start_indices);

// concatenate(operands...), dimensions={dimension}.
XlaOp ConcatInDim(XlaBuilder* builder, absl::Span<const XlaOp> operands,
                  int64_t dimension);

// pad(operand, padding_value), padding=low_high_interior per dimension.
XlaOp Pad(XlaOp operand, XlaOp padding_value,
          const PaddingConfig& padding_config);
// Pads dimension `dimno` only, with edge padding (pad_lo, pad_hi).
XlaOp PadInDim(XlaOp operand, XlaOp padding_value, int64_t dimno,
               int64_t pad_lo, int64_t pad_hi);

// get-dimension-size: an s32[] holding the (run-time) size of `dimension`.
XlaOp GetDimensionSize(XlaOp operand, int64_t dimension);
// set-dimension-size: `dimension` becomes dynamic with run-time size `val`.
XlaOp SetDimensionSize(XlaOp operand, XlaOp val, int64_t dimension);

// tuple(elements...).
XlaOp Tuple(XlaBuilder* builder, absl::Span<const XlaOp> elements);
// get-tuple-element, index=index.
XlaOp GetTupleElement(XlaOp tuple_data, int64_t index);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_DATA_MOVEMENT_H_
