// Kernels of the control-flow family: while, conditional, call, fusion, the
// scheduling helpers (opt-barrier, after-all, add-dependency, domain) here;
// async-start/update/done in control_flow_async.cc.
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/control_flow_internal.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Runs body while condition holds; refuses to start iteration
// max_while_iterations + 1 (a reference evaluator must terminate).
absl::StatusOr<Literal> WhileKernel(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> condition =
      CalledComputation(instruction, attr::kCondition);
  if (!condition.ok()) return condition.status();
  absl::StatusOr<const Computation*> body =
      CalledComputation(instruction, attr::kBody);
  if (!body.ok()) return body.status();
  const int64_t limit = context.options().max_while_iterations;
  Literal state = *operands[0];
  for (int64_t iterations = 0;; ++iterations) {
    const Literal* argument[] = {&state};
    absl::StatusOr<Literal> go_on = context.Call(**condition, argument);
    if (!go_on.ok()) return go_on.status();
    absl::StatusOr<bool> more = PredResult(instruction, *go_on);
    if (!more.ok()) return more.status();
    if (!*more) return state;
    if (iterations >= limit) {
      return KernelError(
          instruction,
          absl::StrCat("the while loop did not finish within ", limit,
                       " iterations (EvalOptions::max_while_iterations)"));
    }
    absl::StatusOr<Literal> next = context.Call(**body, argument);
    if (!next.ok()) return next.status();
    state = *std::move(next);
  }
}

// The branches in operand order: true_computation, false_computation for
// the pred form, or branch_computations.
absl::StatusOr<std::vector<const Computation*>> Branches(
    const Instruction& instruction) {
  std::vector<const Computation*> branches;
  const ComputationList* list =
      instruction.attrs().Get<ComputationList>(attr::kBranchComputations);
  if (list != nullptr) {
    branches.assign(list->begin(), list->end());
  } else {
    for (absl::string_view name : {"true_computation", "false_computation"}) {
      absl::StatusOr<const Computation*> branch =
          CalledComputation(instruction, name);
      if (!branch.ok()) return branch.status();
      branches.push_back(*branch);
    }
  }
  if (branches.empty() || static_cast<int64_t>(branches.size()) + 1 !=
                              instruction.operand_count()) {
    return KernelError(instruction, "branches do not match the operands");
  }
  for (const Computation* branch : branches) {
    if (branch == nullptr || branch->root() == nullptr) {
      return KernelError(instruction, "a branch computation has no ROOT");
    }
  }
  return branches;
}

// A pred selects branch 0 when true and 1 when false (XLA's numbering of
// true_computation/false_computation). An s32 index outside [0, N) runs
// the last branch (operation_semantics.md, Conditional).
absl::StatusOr<Literal> ConditionalKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<std::vector<const Computation*>> branches =
      Branches(instruction);
  if (!branches.ok()) return branches.status();
  const Literal& selector = *operands[0];
  const int64_t count = static_cast<int64_t>(branches->size());
  int64_t index = 0;
  if (selector.shape().IsScalar() &&
      selector.element_type() == ElementType::kPred) {
    index = selector.data()[0] != 0 ? 0 : 1;
  } else if (selector.shape().IsScalar() &&
             selector.element_type() == ElementType::kS32) {
    index = selector.GetInt64(0);
    if (index < 0 || index >= count) index = count - 1;
  } else {
    return KernelError(instruction, "the selector is not pred[] or s32[]");
  }
  const Literal* argument[] = {operands[index + 1]};
  return context.Call(*(*branches)[index], argument);
}

// call and fusion: the called computation on the operands.
absl::StatusOr<Literal> CallComputation(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context, absl::string_view attr) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> callee =
      CalledComputation(instruction, attr);
  if (!callee.ok()) return callee.status();
  return context.Call(**callee, operands);
}

absl::StatusOr<Literal> CallKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context) {
  return CallComputation(instruction, operands, context, "to_apply");
}

absl::StatusOr<Literal> FusionKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const> operands,
                                     EvalContext& context) {
  return CallComputation(instruction, operands, context, "calls");
}

// opt-barrier, domain and add-dependency pass operand 0 through.
absl::StatusOr<Literal> PassThroughKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  return *operands[0];
}

// after-all: a token (tokens carry no data; ordering is the driver's).
absl::StatusOr<Literal> AfterAllKernel(const Instruction& instruction,
                                       absl::Span<const Literal* const>,
                                       EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  return context.NewLiteral(instruction, Shape::Token());
}

}  // namespace

void RegisterControlFlowKernels(KernelTable* table) {
  table->Set(Opcode::kWhile, &WhileKernel);
  table->Set(Opcode::kConditional, &ConditionalKernel);
  table->Set(Opcode::kCall, &CallKernel);
  table->Set(Opcode::kFusion, &FusionKernel);
  table->Set(Opcode::kOptimizationBarrier, &PassThroughKernel);
  table->Set(Opcode::kDomain, &PassThroughKernel);
  table->Set(Opcode::kAddDependency, &PassThroughKernel);
  table->Set(Opcode::kAfterAll, &AfterAllKernel);
  table->Set(Opcode::kAsyncStart, &AsyncStartKernel);
  table->Set(Opcode::kAsyncUpdate, &AsyncUpdateKernel);
  table->Set(Opcode::kAsyncDone, &AsyncDoneKernel);
}

}  // namespace eval
}  // namespace kiln
