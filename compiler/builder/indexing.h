// Builder functions of gather and scatter (operation_semantics.md, Gather
// and Scatter). The dimension numbers are plain structs, turned into the
// attributes of the ops' schemas (compiler/ops/indexing.cc): the batching
// lists are emitted only when non-empty and the boolean hints only when
// true, as XLA prints them. DynamicSlice and DynamicUpdateSlice, which the
// schema groups with these, are in data_movement.h (XlaBuilder's grouping).
//
//   GatherDimensionNumbers dnums;
//   dnums.offset_dims = {1};
//   dnums.collapsed_slice_dims = {0};
//   dnums.start_index_map = {0};
//   dnums.index_vector_dim = 1;
//   XlaOp rows = Gather(table, indices, dnums, /*slice_sizes=*/{1, 8});
#ifndef KILN_COMPILER_BUILDER_INDEXING_H_
#define KILN_COMPILER_BUILDER_INDEXING_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"

namespace kiln {

// gather's dimension numbers (the attributes of the same names).
struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  int64_t index_vector_dim = 0;
};

// scatter's dimension numbers (the attributes of the same names).
struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  int64_t index_vector_dim = 0;
};

// gather(operand, start_indices).
XlaOp Gather(XlaOp operand, XlaOp start_indices,
             const GatherDimensionNumbers& dimension_numbers,
             absl::Span<const int64_t> slice_sizes,
             bool indices_are_sorted = false);

// scatter(operands..., scatter_indices, updates...), to_apply=
// update_computation. One result per operand (a tuple when N > 1).
XlaOp Scatter(absl::Span<const XlaOp> operands, XlaOp scatter_indices,
              absl::Span<const XlaOp> updates,
              const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted = false, bool unique_indices = false);
// The single-operand form.
XlaOp Scatter(XlaOp operand, XlaOp scatter_indices, XlaOp updates,
              const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted = false, bool unique_indices = false);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_INDEXING_H_
