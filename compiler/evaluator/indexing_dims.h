// Gather's and scatter's dimension numbers, read and checked once per
// instruction, and the walk over the indices' batch positions that both ops
// share (operation_semantics.md, Gather and Scatter). Gather and scatter name
// the same roles differently:
//   gather                       scatter
//   offset_dims                  update_window_dims       (window)
//   collapsed_slice_dims         inserted_window_dims     (collapsed)
//   operand_batching_dims        input_batching_dims      (operand_batching)
//   start_indices_batching_dims  scatter_indices_batching_dims
//   start_index_map              scatter_dims_to_operand_dims (index_map)
#ifndef KILN_COMPILER_EVALUATOR_INDEXING_DIMS_H_
#define KILN_COMPILER_EVALUATOR_INDEXING_DIMS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

struct IndexedDimNames {
  absl::string_view window;
  absl::string_view collapsed;
  absl::string_view operand_batching;
  absl::string_view index_batching;
  absl::string_view index_map;
};

inline constexpr IndexedDimNames kGatherDimNames = {
    attr::kOffsetDims, attr::kCollapsedSliceDims, attr::kOperandBatchingDims,
    attr::kStartIndicesBatchingDims, attr::kStartIndexMap};
inline constexpr IndexedDimNames kScatterDimNames = {
    attr::kUpdateWindowDims, attr::kInsertedWindowDims,
    attr::kInputBatchingDims, attr::kScatterIndicesBatchingDims,
    attr::kScatterDimsToOperandDims};

// The dimension numbers plus what follows from them for one operand rank
// and one indices shape.
struct IndexedDims {
  std::vector<int64_t> window, collapsed, operand_batching, index_batching,
      index_map;
  int64_t index_vector_dim = 0;
  // Operand dims neither collapsed nor batching, in order: window[k] (a
  // result / updates dimension) walks operand dimension window_operand[k].
  std::vector<int64_t> window_operand;
  // The indices' dims other than index_vector_dim, in order.
  std::vector<int64_t> batch;
  // Elements between consecutive entries of one index vector.
  int64_t vector_stride = 1;
};

// Reads and checks the dimension numbers against `operand`, `indices`, and
// a result/updates array of `window_rank` dimensions.
absl::StatusOr<IndexedDims> ReadIndexedDims(const Instruction& instruction,
                                            const IndexedDimNames& names,
                                            const Shape& operand,
                                            const Shape& indices,
                                            int64_t window_rank);

// The dimensions of the result (gather) or updates (scatter) that are not
// window dims, in order: one per entry of IndexedDims::batch.
std::vector<int64_t> NonWindowDims(const IndexedDims& dims,
                                   int64_t window_rank);

// Walks the indices' batch positions in row-major order. For each, fills
// `start` (one entry per operand dimension) with the index vector scattered
// through index_map plus the batch coordinates at the operand batching
// dims (entries of other dims are 0), and calls f(start, position) where
// position holds the batch coordinates. The index values are raw (neither
// clamped nor checked).
template <typename F>
void ForEachIndexVector(const IndexedDims& dims, const Literal& indices,
                        int64_t rank, F&& f) {
  DimVector sizes, strides_of_batch;
  const DimVector strides = Strides(indices.shape().dimensions());
  for (int64_t d : dims.batch) {
    sizes.push_back(indices.shape().dimension(d));
    strides_of_batch.push_back(strides[d]);
    if (sizes.back() == 0) return;
  }
  // Batch position of each operand batching dim's indices dimension.
  DimVector batching_position;
  for (int64_t index_dim : dims.index_batching) {
    for (size_t k = 0; k < dims.batch.size(); ++k) {
      if (dims.batch[k] == index_dim) batching_position.push_back(k);
    }
  }
  DimVector position(sizes.size(), 0), start(rank, 0);
  int64_t base = 0;
  while (true) {
    for (size_t k = 0; k < dims.index_map.size(); ++k) {
      start[dims.index_map[k]] = ReadIndex(
          indices, base + static_cast<int64_t>(k) * dims.vector_stride);
    }
    for (size_t i = 0; i < dims.operand_batching.size(); ++i) {
      start[dims.operand_batching[i]] = position[batching_position[i]];
    }
    f(absl::Span<const int64_t>(start), absl::Span<const int64_t>(position));
    int64_t k = static_cast<int64_t>(sizes.size()) - 1;
    for (; k >= 0; --k) {
      base += strides_of_batch[k];
      if (++position[k] < sizes[k]) break;
      base -= strides_of_batch[k] * sizes[k];
      position[k] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_INDEXING_DIMS_H_
