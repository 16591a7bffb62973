#include "passes/gather_expander.h"

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

// The loop body: state (counter, operand, accumulator[, vectors]).
absl::StatusOr<Computation*> BuildBody(Instruction* gather,
                                       const Shape& state_shape,
                                       const IndexedDims& dims,
                                       const Dims& slice_sizes,
                                       const Dims& window_sizes) {
  Computation* body = gather->parent()->parent()->AddComputation(
      std::make_unique<Computation>(absl::StrCat(gather->name(), ".body")));
  Emitter emitter(body, *gather, nullptr);
  gather_scatter::LoopState state =
      gather_scatter::UnpackLoopState(emitter, state_shape);
  if (!emitter.status().ok()) return emitter.status();
  Instruction* counter = state.elements[0];
  Instruction* operand = state.elements[1];
  Instruction* accumulator = state.elements[2];
  Instruction* vectors =
      state.elements.size() > 3 ? state.elements[3] : nullptr;
  const Shape& indices = gather->operand(1)->shape();
  std::vector<Instruction*> starts =
      gather_scatter::LoopStarts(emitter, counter, vectors, dims,
                                 gather_scatter::IndexBatchSizes(dims, indices),
                                 indices.rank(), operand->shape().rank());
  Instruction* slice = emitter.DynamicSlice(operand, starts, slice_sizes);
  Dims row_dims = {1};
  row_dims.insert(row_dims.end(), window_sizes.begin(), window_sizes.end());
  Instruction* row = emitter.Reshape(slice, row_dims);
  Instruction* zero = emitter.ScalarConstant(ElementType::kS64, 0);
  std::vector<Instruction*> row_starts(row_dims.size(), zero);
  row_starts[0] = counter;
  std::vector<Instruction*> next = state.elements;
  next[0] = emitter.Binary(Opcode::kAdd, counter,
                           emitter.ScalarConstant(ElementType::kS64, 1));
  next[2] = emitter.DynamicUpdateSlice(accumulator, row, row_starts);
  body->set_root(emitter.Tuple(next));
  if (!emitter.status().ok()) return emitter.status();
  return body;
}

absl::StatusOr<bool> ExpandGather(Instruction* gather) {
  const Dims* slice_sizes = gather->attrs().Get<Dims>(attr::kSliceSizes);
  if (gather->operand_count() != 2 || slice_sizes == nullptr ||
      !gather_scatter::AllStatic(*gather)) {
    return false;
  }
  Instruction* operand = gather->operand(0);
  Instruction* indices = gather->operand(1);
  const Shape& result = gather->shape();
  const IndexedDims dims = gather_scatter::ReadGatherDims(*gather);
  Emitter emitter(gather->parent(), *gather, gather);
  if (util::Product(result.dimensions()) == 0) {
    Instruction* zeros =
        emitter.Zeros(result.element_type(), result.dimensions());
    zeros = gather_scatter::WithShape(emitter, zeros, result);
    if (!emitter.status().ok()) return emitter.status();
    absl::Status replaced = gather_scatter::ReplaceAndOrder(gather, zeros);
    if (!replaced.ok()) return replaced;
    return true;
  }
  for (int64_t size : *slice_sizes) {
    if (size == 0) return false;  // Not evaluable: nothing to preserve.
  }
  const Dims batch_sizes =
      gather_scatter::IndexBatchSizes(dims, indices->shape());
  const int64_t count = util::Product(batch_sizes);
  Dims window_sizes;
  for (int64_t d :
       gather_scatter::WindowOperandDims(dims, operand->shape().rank())) {
    window_sizes.push_back((*slice_sizes)[d]);
  }
  Dims accumulator_dims = {count};
  accumulator_dims.insert(accumulator_dims.end(), window_sizes.begin(),
                          window_sizes.end());
  std::vector<Instruction*> init = {
      emitter.ScalarConstant(ElementType::kS64, 0), operand,
      emitter.Zeros(result.element_type(), accumulator_dims)};
  if (Instruction* vectors =
          gather_scatter::FlatIndexVectorsS64(emitter, indices, dims)) {
    init.push_back(vectors);
  }
  Instruction* state = emitter.Tuple(init);
  if (!emitter.status().ok()) return emitter.status();
  absl::StatusOr<Computation*> body =
      BuildBody(gather, state->shape(), dims, *slice_sizes, window_sizes);
  if (!body.ok()) return body.status();
  absl::StatusOr<Computation*> condition = gather_scatter::AddCounterCondition(
      gather->parent(), *gather, state->shape(), count);
  if (!condition.ok()) return condition.status();
  Instruction* loop = emitter.While(state, *condition, *body);
  Dims unflattened = batch_sizes;
  unflattened.insert(unflattened.end(), window_sizes.begin(),
                     window_sizes.end());
  Instruction* value =
      emitter.Reshape(emitter.GetTupleElement(loop, 2), unflattened);
  value = emitter.Transpose(
      value, gather_scatter::GatherResultPermutation(dims, result.rank()));
  value = gather_scatter::WithShape(emitter, value, result);
  if (!emitter.status().ok()) return emitter.status();
  absl::Status replaced = gather_scatter::ReplaceAndOrder(gather, value);
  if (!replaced.ok()) return replaced;
  return true;
}

}  // namespace

absl::StatusOr<bool> GatherExpanderPass::Run(Module& module) {
  return gather_scatter::RewriteEach(module, Opcode::kGather, ExpandGather);
}

KILN_REGISTER_PASS(GatherExpanderPass);

}  // namespace kiln
