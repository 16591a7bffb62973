// Gather and scatter with random dimension numbers: start index maps in
// any order, collapsed / inserted window dims, offset dims anywhere in
// the result, index vectors in any position, out-of-range indices.
#include "compiler/builder/indexing.h"

#include <algorithm>

#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

// Indices of `batch` dims with an index vector of `k` elements at a random
// position; returns the op and sets `index_vector_dim`.
XlaOp Indices(Context& c, const std::vector<int64_t>& batch, int64_t k,
              int64_t* index_vector_dim) {
  std::vector<int64_t> dims = batch;
  *index_vector_dim = c.d().Range(0, batch.size());
  if (k != 1 || c.d().Chance(70)) {
    dims.insert(dims.begin() + *index_vector_dim, k);
  } else {
    *index_vector_dim = batch.size();  // Implicit trailing vector of 1.
  }
  const ElementType type =
      c.d().Chance(60)
          ? ElementType::kS32
          : (c.d().Chance(50) ? ElementType::kS64 : ElementType::kU8);
  return c.Value(type, dims);
}

XlaOp GenGather(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  const int64_t rank = dims.size();
  const int64_t k = c.d().Range(1, rank);
  std::vector<int64_t> map = c.d().Permutation(rank);
  map.resize(k);
  GatherDimensionNumbers numbers;
  numbers.start_index_map = map;
  std::vector<int64_t> slice_sizes(rank);
  for (int64_t d = 0; d < rank; ++d) slice_sizes[d] = c.d().Range(0, dims[d]);
  for (int64_t d : map) {
    if (dims[d] >= 1 && c.d().Chance(50)) {
      numbers.collapsed_slice_dims.push_back(d);
      slice_sizes[d] = 1;
    }
  }
  std::sort(numbers.collapsed_slice_dims.begin(),
            numbers.collapsed_slice_dims.end());
  const std::vector<int64_t> batch = c.Dims(0, 2);
  XlaOp indices = Indices(c, batch, k, &numbers.index_vector_dim);
  const int64_t offsets = rank - numbers.collapsed_slice_dims.size();
  numbers.offset_dims = c.d().Subset(batch.size() + offsets, offsets);
  return Gather(operand, indices, numbers, slice_sizes);
}

XlaOp GenScatter(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const ElementType type = c.TypeOf(operand);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  const int64_t rank = dims.size();
  const int64_t k = c.d().Range(1, rank);
  std::vector<int64_t> map = c.d().Permutation(rank);
  map.resize(k);
  ScatterDimensionNumbers numbers;
  numbers.scatter_dims_to_operand_dims = map;
  for (int64_t d : map) {
    if (dims[d] >= 1 && c.d().Chance(50)) {
      numbers.inserted_window_dims.push_back(d);
    }
  }
  std::sort(numbers.inserted_window_dims.begin(),
            numbers.inserted_window_dims.end());
  const std::vector<int64_t> batch = c.Dims(0, 2);
  XlaOp indices = Indices(c, batch, k, &numbers.index_vector_dim);
  std::vector<int64_t> window;
  for (int64_t d = 0; d < rank; ++d) {
    if (!std::binary_search(numbers.inserted_window_dims.begin(),
                            numbers.inserted_window_dims.end(), d)) {
      window.push_back(c.d().Range(0, dims[d]));
    }
  }
  const int64_t update_rank = batch.size() + window.size();
  numbers.update_window_dims = c.d().Subset(update_rank, window.size());
  std::vector<int64_t> update_dims(update_rank);
  size_t next_window = 0, next_batch = 0;
  for (int64_t i = 0; i < update_rank; ++i) {
    if (std::binary_search(numbers.update_window_dims.begin(),
                           numbers.update_window_dims.end(), i)) {
      update_dims[i] = window[next_window++];
    } else {
      update_dims[i] = batch[next_batch++];
    }
  }
  XlaOp updates = c.Value(type, update_dims);
  return Scatter(operand, indices, updates,
                 c.Combiner(type, /*order_free=*/true), numbers);
}

}  // namespace

void AddIndexingGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"gather", false, GenGather},
                          {"scatter", false, GenScatter},
                      });
}

}  // namespace kiln::fuzzgen
