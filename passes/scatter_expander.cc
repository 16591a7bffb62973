#include "passes/scatter_expander.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

// What the loop body needs to know about one scatter.
struct ScatterPlan {
  Instruction* scatter = nullptr;
  int64_t arity = 1;
  IndexedDims dims;
  Dims window;       // In operand dims.
  Dims batch_sizes;  // The indices' batch dims.
  bool has_vectors = false;
  std::vector<Computation*> combiners;
  bool overwrite = false;
};

// Updates j as [B, window...]: scatter dims first (a transpose), then
// flattened, with size-1 dims where the window has inserted or batching
// dims (a reshape that keeps the element order).
Instruction* FlatUpdates(Emitter& emitter, Instruction* updates,
                         const ScatterPlan& plan, int64_t count) {
  Dims permutation;
  const int64_t rank = updates->shape().rank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!util::Contains(plan.dims.window, d)) permutation.push_back(d);
  }
  for (int64_t d : plan.dims.window) permutation.push_back(d);
  Dims flat = {count};
  flat.insert(flat.end(), plan.window.begin(), plan.window.end());
  return emitter.Reshape(emitter.Transpose(updates, permutation), flat);
}

// State: (counter, operands..., updates..., [vectors]).
absl::StatusOr<Computation*> BuildBody(const ScatterPlan& plan,
                                       const Shape& state_shape) {
  Instruction* scatter = plan.scatter;
  Computation* body = scatter->parent()->parent()->AddComputation(
      std::make_unique<Computation>(absl::StrCat(scatter->name(), ".body")));
  Emitter emitter(body, *scatter, nullptr);
  gather_scatter::LoopState state =
      gather_scatter::UnpackLoopState(emitter, state_shape);
  if (!emitter.status().ok()) return emitter.status();
  const int64_t n = plan.arity;
  Instruction* counter = state.elements[0];
  Instruction* vectors = plan.has_vectors ? state.elements[1 + 2 * n] : nullptr;
  const Shape& operand_shape = scatter->operand(0)->shape();
  std::vector<Instruction*> starts = gather_scatter::LoopStarts(
      emitter, counter, vectors, plan.dims, plan.batch_sizes,
      scatter->operand(n)->shape().rank(), operand_shape.rank());
  Instruction* zero = emitter.ScalarConstant(ElementType::kS64, 0);
  std::vector<Instruction*> row_starts(plan.window.size() + 1, zero);
  row_starts[0] = counter;
  Dims row_sizes = {1};
  row_sizes.insert(row_sizes.end(), plan.window.begin(), plan.window.end());
  std::vector<Instruction*> operands, updates;
  for (int64_t j = 0; j < n; ++j) {
    operands.push_back(state.elements[1 + j]);
    updates.push_back(emitter.Reshape(
        emitter.DynamicSlice(state.elements[1 + n + j], row_starts, row_sizes),
        plan.window));
  }
  const gather_scatter::WindowPlacement placement = gather_scatter::PlaceWindow(
      emitter, starts, plan.dims, operand_shape, plan.window);
  std::vector<Instruction*> results = gather_scatter::ApplyUpdateWindow(
      emitter, operands, updates, starts, placement, plan.combiners,
      plan.overwrite);
  std::vector<Instruction*> next = state.elements;
  next[0] = emitter.Binary(Opcode::kAdd, counter,
                           emitter.ScalarConstant(ElementType::kS64, 1));
  for (int64_t j = 0; j < n; ++j) next[1 + j] = results[j];
  body->set_root(emitter.Tuple(next));
  if (!emitter.status().ok()) return emitter.status();
  return body;
}

// The operands unchanged, as the scatter's value.
Instruction* OperandsAsResult(Emitter& emitter, Instruction* scatter,
                              int64_t arity) {
  if (arity == 1) return scatter->operand(0);
  std::vector<Instruction*> operands(scatter->operands().begin(),
                                     scatter->operands().begin() + arity);
  return emitter.Tuple(operands);
}

absl::StatusOr<bool> ExpandScatter(Instruction* scatter) {
  Computation* const* to_apply =
      scatter->attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr ||
      scatter->operand_count() < 3 || scatter->operand_count() % 2 == 0 ||
      !gather_scatter::AllStatic(*scatter)) {
    return false;
  }
  ScatterPlan plan;
  plan.scatter = scatter;
  plan.arity = gather_scatter::ScatterArity(*scatter);
  plan.dims = gather_scatter::ReadScatterDims(*scatter);
  const int64_t n = plan.arity;
  const Shape& operand_shape = scatter->operand(0)->shape();
  Instruction* indices = scatter->operand(n);
  const Shape& updates_shape = scatter->operand(n + 1)->shape();
  Emitter emitter(scatter->parent(), *scatter, scatter);
  if (util::Product(updates_shape.dimensions()) == 0 ||
      util::Product(operand_shape.dimensions()) == 0) {
    // No update element, or none can fit: the operands are the result.
    Instruction* value = OperandsAsResult(emitter, scatter, n);
    if (!emitter.status().ok()) return emitter.status();
    absl::Status replaced = gather_scatter::ReplaceAndOrder(scatter, value);
    if (!replaced.ok()) return replaced;
    return true;
  }
  plan.window = gather_scatter::ScatterWindowShape(plan.dims, operand_shape,
                                                   updates_shape);
  plan.batch_sizes =
      gather_scatter::IndexBatchSizes(plan.dims, indices->shape());
  plan.overwrite = gather_scatter::IsOverwrite(**to_apply, n);
  if (!plan.overwrite) {
    absl::StatusOr<std::vector<Computation*>> combiners =
        gather_scatter::PerOutputCombiners(*to_apply, n, *scatter);
    if (!combiners.ok()) return combiners.status();
    plan.combiners = *std::move(combiners);
  }
  const int64_t count = util::Product(plan.batch_sizes);
  std::vector<Instruction*> init = {
      emitter.ScalarConstant(ElementType::kS64, 0)};
  for (int64_t j = 0; j < n; ++j) init.push_back(scatter->operand(j));
  for (int64_t j = 0; j < n; ++j) {
    init.push_back(
        FlatUpdates(emitter, scatter->operand(n + 1 + j), plan, count));
  }
  if (Instruction* vectors =
          gather_scatter::FlatIndexVectorsS64(emitter, indices, plan.dims)) {
    init.push_back(vectors);
    plan.has_vectors = true;
  }
  Instruction* state = emitter.Tuple(init);
  if (!emitter.status().ok()) return emitter.status();
  absl::StatusOr<Computation*> body = BuildBody(plan, state->shape());
  if (!body.ok()) return body.status();
  absl::StatusOr<Computation*> condition = gather_scatter::AddCounterCondition(
      scatter->parent(), *scatter, state->shape(), count);
  if (!condition.ok()) return condition.status();
  Instruction* loop = emitter.While(state, *condition, *body);
  std::vector<Instruction*> results;
  for (int64_t j = 0; j < n; ++j) {
    results.push_back(emitter.GetTupleElement(loop, 1 + j));
  }
  Instruction* value = n == 1 ? results[0] : emitter.Tuple(results);
  value = gather_scatter::WithShape(emitter, value, scatter->shape());
  if (!emitter.status().ok()) return emitter.status();
  absl::Status replaced = gather_scatter::ReplaceAndOrder(scatter, value);
  if (!replaced.ok()) return replaced;
  return true;
}

}  // namespace

absl::StatusOr<bool> ScatterExpanderPass::Run(Module& module) {
  return gather_scatter::RewriteEach(module, Opcode::kScatter, ExpandScatter);
}

KILN_REGISTER_PASS(ScatterExpanderPass);

}  // namespace kiln
