// The copy engine behind the data movement and indexing kernels. Those ops
// never look at element values, only move them, so they work on raw storage
// bytes (ElementTypeInfo::storage_bytes per element) and serve every element
// type alike: sub-byte, narrow float and complex included.
//
// Each op is an affine map between index spaces: element `i` (a multi-index
// over `dims`) is copied from src[src_base + sum i[d] * src_strides[d]] to
// dst[dst_base + sum i[d] * dst_strides[d]], strides in elements and possibly
// zero (broadcast) or negative (reverse). A StridedCopy is planned once
// (dimensions of size 1 dropped, contiguous neighbours merged, so that a
// slice of whole rows becomes one memcpy) and run as often as needed with
// other bases (gather runs one plan per index vector).
#ifndef KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_COPY_H_
#define KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_COPY_H_

#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace eval {

using DimVector = absl::InlinedVector<int64_t, 8>;

class StridedCopy {
 public:
  // `dims`, `dst_strides` and `src_strides` have one entry per dimension.
  StridedCopy(absl::Span<const int64_t> dims,
              absl::Span<const int64_t> dst_strides,
              absl::Span<const int64_t> src_strides, int64_t element_bytes);

  // Copies every element; bases are element offsets. The caller guarantees
  // that every address the map reaches lies inside both buffers.
  void Run(uint8_t* dst, int64_t dst_base, const uint8_t* src,
           int64_t src_base) const;

  // True when there is nothing to copy (some dimension is 0).
  bool empty() const { return empty_; }

 private:
  void RunRows(uint8_t* dst, const uint8_t* src) const;

  DimVector dims_, dst_strides_, src_strides_;
  int64_t element_bytes_;
  bool empty_ = false;
};

// Bytes one element of `type` takes in a Literal.
int64_t ElementBytes(ElementType type);

// `shape` with every bounded dynamic dimension made static at its bound
// (the evaluator holds a dynamic array at its bounds; see
// docs/evaluator_data_movement.md). Unbounded dimensions are an error.
absl::StatusOr<Shape> BoundedShape(const Instruction& instruction,
                                   const Shape& shape);

// A zero-filled result literal of the instruction's shape at its bounds.
absl::StatusOr<Literal> NewBoundedResult(const Instruction& instruction,
                                         EvalContext& context);

// The attribute `name` as an int64 list; an error naming it when absent.
absl::StatusOr<const std::vector<int64_t>*> Int64ListAttribute(
    const Instruction& instruction, absl::string_view name);

// An array operand, or an error naming the op when it is not an array.
absl::StatusOr<const Literal*> ArrayValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    int64_t index);

// An integer element as a start index: signed values as they are, unsigned
// ones saturated to INT64_MAX (every such index is clamped or rejected as
// out of range anyway).
int64_t ReadIndex(const Literal& literal, int64_t i);

// Row-major strides of `dims`, inline.
DimVector Strides(absl::Span<const int64_t> dims);

// The kernels of data_movement_reshape.cc (reshape, bitcast, copy, iota and
// the dynamic-shape ops); RegisterDataMovementKernels calls it.
void RegisterReshapeLikeKernels(KernelTable* table);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_COPY_H_
