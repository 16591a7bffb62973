#include "passes/scatter_simplification.h"

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
#include "passes/gather_scatter_drivers.h"
#include "passes/gather_simplification_util.h"

namespace kiln {
namespace {

using gather_scatter::Dims;
using gather_scatter::Emitter;
using gather_scatter::IndexedDims;

struct ScatterParts {
  Instruction* scatter;
  int64_t arity;
  std::vector<Instruction*> operands;
  Instruction* indices;
  std::vector<Instruction*> updates;
  Computation* combiner;
  IndexedDims dims;
  Dims window;    // In operand dims.
  int64_t count;  // Index vectors.
};

bool IsCanonical(const ScatterParts& s) {
  const int64_t rank = s.operands[0]->shape().rank();
  return s.indices->shape().rank() == 2 && s.dims.index_vector_dim == 1 &&
         s.dims.operand_batching.empty() && s.dims.collapsed.empty() &&
         util::IsIdentityPermutation(s.dims.index_map) &&
         s.dims.window == util::Range(1, rank + 1);
}

Instruction* AsResult(Emitter& emitter,
                      const std::vector<Instruction*>& values) {
  if (values.size() == 1) return values[0];
  return emitter.Tuple(values);
}

// The only index vector's window (`windows`, one per operand, in operand
// dims), written at `starts`.
Instruction* WriteOnlyWindow(Emitter& emitter, const ScatterParts& s,
                             const std::vector<Instruction*>& windows,
                             const std::vector<Instruction*>& starts,
                             const gather_scatter::WindowPlacement& placement,
                             absl::Status* status) {
  const bool overwrite = gather_scatter::IsOverwrite(*s.combiner, s.arity);
  std::vector<Computation*> combiners;
  if (!overwrite) {
    absl::StatusOr<std::vector<Computation*>> made =
        gather_scatter::PerOutputCombiners(s.combiner, s.arity, *s.scatter);
    if (!made.ok()) {
      *status = made.status();
      return nullptr;
    }
    combiners = *std::move(made);
  }
  return AsResult(emitter, gather_scatter::ApplyUpdateWindow(
                               emitter, s.operands, windows, starts, placement,
                               combiners, overwrite));
}

std::vector<Instruction*> UpdateWindows(Emitter& emitter,
                                        const ScatterParts& s) {
  std::vector<Instruction*> windows;
  for (Instruction* update : s.updates) {
    windows.push_back(emitter.Reshape(update, s.window));
  }
  return windows;
}

// Constant index vector: bounds known now. Per element (the spec's rule),
// only the part of the window inside the operand is written: the update
// windows are sliced to it and written at its start. With no part inside,
// the operands are the result.
Instruction* ScatterAtConstantIndex(Emitter& emitter, const ScatterParts& s,
                                    absl::Status* status) {
  const Literal& literal = s.indices->literal();
  const Shape& shape = s.operands[0]->shape();
  Instruction* zero = emitter.ScalarConstant(ElementType::kS64, 0);
  std::vector<Instruction*> starts(shape.rank(), zero);
  Dims low(shape.rank(), 0);
  Dims high = s.window;
  for (size_t k = 0; k < s.dims.index_map.size(); ++k) {
    const int64_t d = s.dims.index_map[k];
    const int64_t dim = shape.dimension(d);
    const int64_t start = gather_scatter::ConstantIndex(literal, k);
    // Checked first so that the arithmetic below cannot overflow.
    if (start >= dim || start <= -s.window[d]) {
      return AsResult(emitter, s.operands);
    }
    low[d] = start < 0 ? -start : 0;
    high[d] = std::min(s.window[d], dim - start);
    starts[d] = emitter.ScalarConstant(ElementType::kS64, start + low[d]);
  }
  std::vector<Instruction*> windows = UpdateWindows(emitter, s);
  for (Instruction*& window : windows) {
    window = emitter.Slice(window, low, high);
  }
  return WriteOnlyWindow(emitter, s, windows, starts, {}, status);
}

Instruction* ScatterAtOnlyIndex(Emitter& emitter, const ScatterParts& s,
                                absl::Status* status) {
  const int64_t vector_size = s.dims.index_map.size();
  const Shape& shape = s.operands[0]->shape();
  Instruction* zero =
      emitter.ScalarConstant(s.indices->shape().element_type(), 0);
  std::vector<Instruction*> starts(shape.rank(), zero);
  for (int64_t k = 0; k < vector_size; ++k) {
    starts[s.dims.index_map[k]] =
        gather_scatter::SingleVectorEntry(emitter, s.indices, k, vector_size);
  }
  const gather_scatter::WindowPlacement placement =
      gather_scatter::PlaceWindow(emitter, starts, s.dims, shape, s.window);
  return WriteOnlyWindow(emitter, s, UpdateWindows(emitter, s), starts,
                         placement, status);
}

// XLA's canonical scatter (see the header); returns the new scatter
// through `canonical` and the original value.
Instruction* Canonicalize(Emitter& emitter, const ScatterParts& s,
                          Instruction** canonical) {
  IndexedDims dims = s.dims;
  const int64_t rank = s.operands[0]->shape().rank();
  Instruction* vectors =
      gather_scatter::MakeBatchingExplicit(emitter, s.indices, &dims);
  if (vectors == nullptr) return nullptr;
  const int64_t vector_size = dims.index_map.size();
  Instruction* flat = emitter.Reshape(vectors, {s.count, vector_size});
  Dims permutation = dims.index_map;
  for (int64_t d = 0; d < rank; ++d) {
    if (!util::Contains(dims.index_map, d)) permutation.push_back(d);
  }
  // Updates: scatter dims first, flattened; the window with size-1
  // inserted dims in operand order; then permuted like the operands.
  Dims scatter_first;
  for (int64_t d = 0; d < s.updates[0]->shape().rank(); ++d) {
    if (!util::Contains(s.dims.window, d)) scatter_first.push_back(d);
  }
  scatter_first.insert(scatter_first.end(), s.dims.window.begin(),
                       s.dims.window.end());
  Dims flat_updates = {s.count};
  flat_updates.insert(flat_updates.end(), s.window.begin(), s.window.end());
  Dims update_permutation = {0};
  for (int64_t d : permutation) update_permutation.push_back(d + 1);
  auto scatter = std::make_unique<Instruction>(Opcode::kScatter, Shape(),
                                               s.scatter->name());
  for (Instruction* operand : s.operands) {
    scatter->AppendOperand(emitter.Transpose(operand, permutation));
  }
  scatter->AppendOperand(flat);
  for (Instruction* update : s.updates) {
    Instruction* ordered =
        emitter.Reshape(emitter.Transpose(update, scatter_first), flat_updates);
    scatter->AppendOperand(emitter.Transpose(ordered, update_permutation));
  }
  IndexedDims canonical_dims;
  canonical_dims.window = util::Range(1, rank + 1);
  canonical_dims.index_map = util::Range(0, vector_size);
  canonical_dims.index_vector_dim = 1;
  gather_scatter::WriteScatterDims(canonical_dims, scatter.get());
  scatter->mutable_attrs()->Set(attr::kToApply, s.combiner);
  if (const bool* unique = s.scatter->attrs().Get<bool>(attr::kUniqueIndices)) {
    scatter->mutable_attrs()->Set(attr::kUniqueIndices, *unique);
  }
  *canonical = emitter.Add(std::move(scatter));
  Dims inverse(rank);
  for (int64_t j = 0; j < rank; ++j) inverse[permutation[j]] = j;
  std::vector<Instruction*> results;
  for (int64_t j = 0; j < s.arity; ++j) {
    Instruction* result =
        s.arity == 1 ? *canonical : emitter.GetTupleElement(*canonical, j);
    results.push_back(emitter.Transpose(result, inverse));
  }
  return AsResult(emitter, results);
}

absl::StatusOr<bool> SimplifyScatter(Instruction* scatter,
                                     Instruction** canonical) {
  *canonical = nullptr;
  Computation* const* to_apply =
      scatter->attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr ||
      scatter->operand_count() < 3 || scatter->operand_count() % 2 == 0 ||
      !gather_scatter::AllStatic(*scatter)) {
    return false;
  }
  ScatterParts s;
  s.scatter = scatter;
  s.arity = gather_scatter::ScatterArity(*scatter);
  for (int64_t j = 0; j < s.arity; ++j) {
    s.operands.push_back(scatter->operand(j));
    s.updates.push_back(scatter->operand(s.arity + 1 + j));
  }
  s.indices = scatter->operand(s.arity);
  s.combiner = *to_apply;
  s.dims = gather_scatter::ReadScatterDims(*scatter);
  const Shape& operand = s.operands[0]->shape();
  const Shape& updates = s.updates[0]->shape();
  s.window = gather_scatter::ScatterWindowShape(s.dims, operand, updates);
  s.count = util::Product(
      gather_scatter::IndexBatchSizes(s.dims, s.indices->shape()));
  Emitter emitter(scatter->parent(), *scatter, scatter);
  absl::Status status;
  Instruction* value = nullptr;
  if (util::Product(updates.dimensions()) == 0 ||
      util::Product(operand.dimensions()) == 0) {
    value = AsResult(emitter, s.operands);
  } else if (s.count == 1 && s.indices->opcode() == Opcode::kConstant) {
    value = ScatterAtConstantIndex(emitter, s, &status);
  } else if (s.count == 1) {
    value = ScatterAtOnlyIndex(emitter, s, &status);
  } else if (!IsCanonical(s)) {
    value = Canonicalize(emitter, s, canonical);
  } else {
    return false;
  }
  if (!status.ok()) return status;
  value = gather_scatter::WithShape(emitter, value, scatter->shape());
  if (!emitter.status().ok()) return emitter.status();
  absl::Status replaced = gather_scatter::ReplaceAndOrder(scatter, value);
  if (!replaced.ok()) return replaced;
  return true;
}

}  // namespace

absl::StatusOr<bool> ScatterSimplificationPass::Run(Module& module) {
  return gather_scatter::SimplifyEach(module, Opcode::kScatter,
                                      SimplifyScatter);
}

KILN_REGISTER_PASS(ScatterSimplificationPass);

}  // namespace kiln
