// Kernels of the reduction family: reduce and map here; reduce-window and
// select-and-scatter in reduction_window.cc, sort and topk in
// reduction_sort.cc, scan in reduction_scan.cc.
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/reduction_fast_path.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/evaluator/reduction_walk.h"
#include "compiler/evaluator/reduction_wide.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// reduce's operands, checked on the values themselves: N arrays of equal
// dimensions, then N scalar inits of the arrays' types.
absl::Status CheckReduceValues(const Instruction& instruction,
                               absl::Span<const Literal* const> operands) {
  const size_t count = operands.size() / 2;
  for (size_t k = 0; k < count; ++k) {
    const Literal& input = *operands[k];
    const Literal& init = *operands[count + k];
    if (!input.shape().IsArray() ||
        input.shape().dimensions() != operands[0]->shape().dimensions() ||
        !init.shape().IsScalar() ||
        init.element_type() != input.element_type()) {
      return KernelError(
          instruction,
          absl::StrCat("input ", k, " ", input.shape().ToString(false),
                       " and init ", init.shape().ToString(false),
                       " do not fit input 0 ",
                       operands[0]->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

// One call of the combiner per input element, in the walk's order.
absl::Status GeneralReduce(const Instruction& instruction,
                           const Computation& combiner,
                           absl::Span<const Literal* const> inputs,
                           const ReduceWalk& walk,
                           std::vector<Literal>& outputs,
                           EvalContext& context) {
  const int count = static_cast<int>(inputs.size());
  std::vector<ElementType> types;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Literal* input : inputs) types.push_back(input->element_type());
  }
  ScalarCaller caller(context, combiner, types);
  return ForEachRun(walk, [&](int64_t i, int64_t o, int64_t n, int64_t step) {
    for (int64_t j = 0; j < n; ++j) {
      const int64_t out = o + j * step;
      for (int k = 0; k < count; ++k) {
        caller.Load(k, outputs[k], out);
        caller.Load(count + k, *inputs[k], i + j);
      }
      absl::StatusOr<Literal> result = caller.Call();
      if (!result.ok()) return result.status();
      absl::Status stored =
          StoreCombinerResult(instruction, *result, outputs, out);
      if (!stored.ok()) return stored;
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<Literal> ReduceKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const> operands,
                                     EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::Status values = CheckReduceValues(instruction, operands);
  if (!values.ok()) return values;
  absl::StatusOr<const Computation*> combiner =
      CalledComputation(instruction, attr::kToApply);
  if (!combiner.ok()) return combiner.status();
  const size_t count = operands.size() / 2;
  const std::vector<int64_t>& dims = operands[0]->shape().dimensions();
  const std::vector<int64_t>* reduced_dims =
      instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
  std::vector<bool> reduced(dims.size(), false);
  for (int64_t d : *reduced_dims) reduced[d] = true;  // Checked by the rule.
  std::vector<int64_t> out_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) out_dims.push_back(dims[d]);
  }
  std::vector<Literal> outputs;
  for (size_t k = 0; k < count; ++k) {
    absl::StatusOr<Literal> output = context.NewLiteral(
        instruction, Shape::Array(operands[k]->element_type(), out_dims));
    if (!output.ok()) return output.status();
    FillWithScalar(*operands[count + k], *output);
    outputs.push_back(*std::move(output));
  }
  const ReduceWalk walk = PlanReduceWalk(dims, reduced);
  const ElementType type = operands[0]->element_type();
  // Recognised float sums and products accumulate wide and round once
  // (reduction_wide.h); other single-op combiners run as typed loops in
  // the spec's order, the rest call the combiner per element in that order.
  std::optional<CombinerOp> op =
      count == 1 ? MatchCombinerOp(**combiner, type) : std::nullopt;
  if (op.has_value() && AccumulatesWide(*op, type)) {
    absl::Status ok = RunWideReduce(instruction, *op, walk, *operands[0],
                                    outputs[0], context);
    if (!ok.ok()) return ok;
  } else if (std::optional<CombinerOp> fast =
                 count == 1 ? RecognizeCombiner(**combiner, type)
                            : std::nullopt;
             fast.has_value()) {
    RunFastReduce(*fast, walk, *operands[0], outputs[0]);
  } else {
    absl::Status ok =
        GeneralReduce(instruction, **combiner, operands.subspan(0, count), walk,
                      outputs, context);
    if (!ok.ok()) return ok;
  }
  if (count == 1) return std::move(outputs[0]);
  return Literal::Tuple(std::move(outputs));
}

// map: the computation applied to the operands' elements at each index.
absl::StatusOr<Literal> MapKernel(const Instruction& instruction,
                                  absl::Span<const Literal* const> operands,
                                  EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> computation =
      CalledComputation(instruction, attr::kToApply);
  if (!computation.ok()) return computation.status();
  std::vector<ElementType> types;
  for (const Literal* operand : operands) {
    if (!operand->shape().IsArray() ||
        operand->shape().dimensions() != operands[0]->shape().dimensions()) {
      return KernelError(
          instruction,
          absl::StrCat("operand ", operand->shape().ToString(false),
                       " does not have the dimensions of ",
                       operands[0]->shape().ToString(false)));
    }
    types.push_back(operand->element_type());
  }
  const ElementType result_type = rule->element_type();
  absl::StatusOr<Literal> result = context.NewLiteral(
      instruction,
      Shape::Array(result_type, operands[0]->shape().dimensions()));
  if (!result.ok()) return result.status();
  ScalarCaller caller(context, **computation, types);
  for (int64_t i = 0; i < result->element_count(); ++i) {
    for (size_t k = 0; k < operands.size(); ++k) {
      caller.Load(static_cast<int>(k), *operands[k], i);
    }
    absl::StatusOr<Literal> value = caller.Call();
    if (!value.ok()) return value.status();
    absl::Status ok = CheckScalarResult(instruction, *value, result_type);
    if (!ok.ok()) return ok;
    CopyElement(*value, 0, *result, i, ElementBytes(*value));
  }
  return result;
}

}  // namespace

void RegisterReductionKernels(KernelTable* table) {
  // OnValidElements: operands with dynamic sizes are computed on their
  // valid elements only (docs/evaluator_dynamic.md).
  table->Set(Opcode::kReduce, &OnValidElements<ReduceKernel>);
  table->Set(Opcode::kMap, &OnValidElements<MapKernel>);
  table->Set(Opcode::kReduceWindow, &OnValidElements<ReduceWindowKernel>);
  table->Set(
      Opcode::kSelectAndScatter,
      &WithDynamicSizes<SelectAndScatterKernel, RunSelectAndScatterDynamic>);
  table->Set(Opcode::kSort, &OnValidElements<SortKernel>);
  table->Set(Opcode::kTopK, &OnValidElements<TopKKernel>);
  table->Set(Opcode::kScan, &OnValidElements<ScanKernel>);
}

}  // namespace eval
}  // namespace kiln
