#include "passes/gather_simplification.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "compiler/util/int_lists.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/gather_scatter_drivers.h"
#include "passes/gather_simplification_util.h"

namespace kiln {
namespace {

using gather_scatter::Dims;
using gather_scatter::Emitter;
using gather_scatter::IndexedDims;

// One gather under rewrite: its parts and the emitter that places new
// instructions before it.
struct GatherParts {
  Instruction* gather;
  Instruction* operand;
  Instruction* indices;
  IndexedDims dims;
  Dims sizes;
  int64_t count;  // Index vectors.
};

Dims WindowSizes(const GatherParts& g) {
  Dims sizes;
  for (int64_t d :
       gather_scatter::WindowOperandDims(g.dims, g.operand->shape().rank())) {
    sizes.push_back(g.sizes[d]);
  }
  return sizes;
}

bool IsCanonical(const GatherParts& g) {
  return g.indices->shape().rank() == 2 && g.dims.index_vector_dim == 1 &&
         g.dims.operand_batching.empty() && g.dims.collapsed.empty() &&
         util::IsIdentityPermutation(g.dims.index_map) &&
         g.dims.window == util::Range(1, g.operand->shape().rank() + 1);
}

// Slice at the constant start of the only index vector.
Instruction* SliceAtConstantIndex(Emitter& emitter, const GatherParts& g) {
  const Literal& literal = g.indices->literal();
  const Shape& shape = g.operand->shape();
  Dims starts(shape.rank(), 0);
  for (size_t k = 0; k < g.dims.index_map.size(); ++k) {
    const int64_t d = g.dims.index_map[k];
    int64_t last = shape.dimension(d) - g.sizes[d];
#ifdef KILN_SEEDED_BUGS
    // Seeded: the last start clamped to is one too small.
    if (SeededBug("gather-clamp")) last = std::max<int64_t>(0, last - 1);
#endif
    starts[d] =
        std::clamp<int64_t>(gather_scatter::ConstantIndex(literal, k), 0, last);
  }
  Dims limits(shape.rank());
  for (int64_t d = 0; d < shape.rank(); ++d) limits[d] = starts[d] + g.sizes[d];
  return emitter.Reshape(emitter.Slice(g.operand, starts, limits),
                         g.gather->shape().dimensions());
}

// Constant indices with at most this many index vectors become slices.
constexpr int64_t kMaxConstantSlices = 16;

// One slice per constant index vector (clamped at compile time), stacked
// by a concatenate, then put in the result's dimension order.
Instruction* ConcatenateConstantSlices(Emitter& emitter, const GatherParts& g) {
  const Literal& literal = g.indices->literal();
  const Shape& indices = g.indices->shape();
  const Shape& shape = g.operand->shape();
  const Dims batch_dims =
      gather_scatter::IndexBatchDims(g.dims, indices.rank());
  const Dims batch_sizes = gather_scatter::IndexBatchSizes(g.dims, indices);
  Dims strides(indices.rank(), 1);
  for (int64_t d = indices.rank() - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * indices.dimension(d + 1);
  }
  const Dims window = WindowSizes(g);
  Dims row = {1};
  row.insert(row.end(), window.begin(), window.end());
  std::vector<Instruction*> rows;
  for (int64_t b = 0; b < g.count; ++b) {
    Dims coordinates(batch_sizes.size());
    int64_t base = 0;
    for (int64_t j = static_cast<int64_t>(batch_sizes.size()) - 1, rest = b;
         j >= 0; --j) {
      coordinates[j] = rest % batch_sizes[j];
      rest /= batch_sizes[j];
      base += coordinates[j] * strides[batch_dims[j]];
    }
    const int64_t vector_stride = g.dims.index_vector_dim < indices.rank()
                                      ? strides[g.dims.index_vector_dim]
                                      : 0;
    Dims starts(shape.rank(), 0);
    for (size_t k = 0; k < g.dims.index_map.size(); ++k) {
      const int64_t d = g.dims.index_map[k];
      int64_t last = shape.dimension(d) - g.sizes[d];
#ifdef KILN_SEEDED_BUGS
      if (SeededBug("gather-clamp")) last = std::max<int64_t>(0, last - 1);
#endif
      starts[d] = std::clamp<int64_t>(
          gather_scatter::ConstantIndex(literal, base + k * vector_stride), 0,
          last);
    }
    for (size_t j = 0; j < g.dims.operand_batching.size(); ++j) {
      const int64_t position = std::find(batch_dims.begin(), batch_dims.end(),
                                         g.dims.index_batching[j]) -
                               batch_dims.begin();
      starts[g.dims.operand_batching[j]] = coordinates[position];
    }
    Dims limits(shape.rank());
    for (int64_t d = 0; d < shape.rank(); ++d) {
      limits[d] = starts[d] + g.sizes[d];
    }
    rows.push_back(
        emitter.Reshape(emitter.Slice(g.operand, starts, limits), row));
  }
  Dims unflattened = batch_sizes;
  unflattened.insert(unflattened.end(), window.begin(), window.end());
  Instruction* stacked =
      emitter.Reshape(emitter.Concatenate(rows, 0), unflattened);
  return emitter.Transpose(stacked, gather_scatter::GatherResultPermutation(
                                        g.dims, g.gather->shape().rank()));
}

bool IndexedDimsAreWhole(const GatherParts& g) {
  if (!g.dims.operand_batching.empty()) return false;
  for (int64_t d : g.dims.index_map) {
    if (g.sizes[d] != g.operand->shape().dimension(d)) return false;
  }
  return true;
}

// Every index vector selects the slice at 0: broadcast it over the batch.
Instruction* BroadcastWholeSlice(Emitter& emitter, const GatherParts& g) {
  Instruction* slice =
      emitter.Slice(g.operand, Dims(g.sizes.size(), 0), g.sizes);
  Instruction* window = emitter.Reshape(slice, WindowSizes(g));
  const Dims& result = g.gather->shape().dimensions();
  if (window == nullptr || window->shape().dimensions() == result) {
    return window;
  }
  return emitter.Broadcast(window, result, g.dims.window);
}

Instruction* DynamicSliceAtOnlyIndex(Emitter& emitter, const GatherParts& g) {
  const int64_t vector_size = g.dims.index_map.size();
  const ElementType type = g.indices->shape().element_type();
  Instruction* zero = emitter.ScalarConstant(type, 0);
  std::vector<Instruction*> starts(g.operand->shape().rank(), zero);
  for (int64_t k = 0; k < vector_size; ++k) {
    starts[g.dims.index_map[k]] =
        gather_scatter::SingleVectorEntry(emitter, g.indices, k, vector_size);
  }
  return emitter.Reshape(emitter.DynamicSlice(g.operand, starts, g.sizes),
                         g.gather->shape().dimensions());
}

// XLA's canonical gather (see the header), then reshape and transpose back.
// Returns the new gather through `canonical`.
Instruction* Canonicalize(Emitter& emitter, const GatherParts& g,
                          Instruction** canonical) {
  IndexedDims dims = g.dims;
  const int64_t rank = g.operand->shape().rank();
  Instruction* vectors =
      gather_scatter::MakeBatchingExplicit(emitter, g.indices, &dims);
  if (vectors == nullptr) return nullptr;
  const int64_t vector_size = dims.index_map.size();
  Dims batch_sizes = vectors->shape().dimensions();
  batch_sizes.pop_back();
  Instruction* flat = emitter.Reshape(vectors, {g.count, vector_size});
  Dims permutation = dims.index_map;
  for (int64_t d = 0; d < rank; ++d) {
    if (!util::Contains(dims.index_map, d)) permutation.push_back(d);
  }
  Instruction* operand = emitter.Transpose(g.operand, permutation);
  Dims sizes;
  for (int64_t d : permutation) sizes.push_back(g.sizes[d]);
  auto gather =
      std::make_unique<Instruction>(Opcode::kGather, Shape(), g.gather->name());
  gather->AppendOperand(operand);
  gather->AppendOperand(flat);
  IndexedDims canonical_dims;
  canonical_dims.window = util::Range(1, rank + 1);
  canonical_dims.index_map = util::Range(0, vector_size);
  canonical_dims.index_vector_dim = 1;
  gather_scatter::WriteGatherDims(canonical_dims, gather.get());
  gather->mutable_attrs()->Set(attr::kSliceSizes, sizes);
  *canonical = emitter.Add(std::move(gather));
  // Drop the collapsed (size-1) dims and unflatten the batch.
  Dims kept = batch_sizes;
  Dims window_order;  // Operand dims of the kept window dims, in order.
  for (int64_t d : permutation) {
    if (util::Contains(dims.collapsed, d)) continue;
    kept.push_back(g.sizes[d]);
    window_order.push_back(d);
  }
  Instruction* value = emitter.Reshape(*canonical, kept);
  const Dims window_operand = gather_scatter::WindowOperandDims(g.dims, rank);
  const int64_t batch_count = batch_sizes.size();
  Dims result_permutation;
  int64_t next_batch = 0, next_window = 0;
  for (int64_t o = 0; o < g.gather->shape().rank(); ++o) {
    if (util::Contains(g.dims.window, o)) {
      const int64_t d = window_operand[next_window++];
      result_permutation.push_back(
          batch_count +
          (std::find(window_order.begin(), window_order.end(), d) -
           window_order.begin()));
    } else {
      result_permutation.push_back(next_batch++);
    }
  }
  return emitter.Transpose(value, result_permutation);
}

// Rewrites one gather; a new canonical gather is returned through
// `canonical` for the trivial rules to look at.
absl::StatusOr<bool> SimplifyGather(Instruction* gather,
                                    Instruction** canonical) {
  *canonical = nullptr;
  const Dims* sizes = gather->attrs().Get<Dims>(attr::kSliceSizes);
  if (gather->operand_count() != 2 || sizes == nullptr ||
      !gather_scatter::AllStatic(*gather)) {
    return false;
  }
  GatherParts g{gather,
                gather->operand(0),
                gather->operand(1),
                gather_scatter::ReadGatherDims(*gather),
                *sizes,
                0};
  g.count = util::Product(
      gather_scatter::IndexBatchSizes(g.dims, g.indices->shape()));
  const Shape& result = gather->shape();
  Emitter emitter(gather->parent(), *gather, gather);
  Instruction* value = nullptr;
  if (util::Product(result.dimensions()) == 0) {
    value = emitter.Zeros(result.element_type(), result.dimensions());
  } else if (std::find(sizes->begin(), sizes->end(), 0) != sizes->end()) {
    return false;  // Not evaluable: nothing to preserve.
  } else if (g.count == 1 && g.indices->opcode() == Opcode::kConstant) {
    value = SliceAtConstantIndex(emitter, g);
  } else if (g.count <= kMaxConstantSlices &&
             g.indices->opcode() == Opcode::kConstant) {
    value = ConcatenateConstantSlices(emitter, g);
  } else if (IndexedDimsAreWhole(g)) {
    value = BroadcastWholeSlice(emitter, g);
  } else if (g.count == 1) {
    value = DynamicSliceAtOnlyIndex(emitter, g);
  } else if (!IsCanonical(g)) {
    value = Canonicalize(emitter, g, canonical);
  } else {
    return false;
  }
  value = gather_scatter::WithShape(emitter, value, result);
  if (!emitter.status().ok()) return emitter.status();
  absl::Status replaced = gather_scatter::ReplaceAndOrder(gather, value);
  if (!replaced.ok()) return replaced;
  return true;
}

}  // namespace

absl::StatusOr<bool> GatherSimplificationPass::Run(Module& module) {
  return gather_scatter::SimplifyEach(module, Opcode::kGather, SimplifyGather);
}

KILN_REGISTER_PASS(GatherSimplificationPass);

}  // namespace kiln
