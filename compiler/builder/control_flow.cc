#include "compiler/builder/control_flow.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln {
namespace {

constexpr absl::string_view kConditional =
    "operation_semantics.md, Conditional";

bool IsPredScalar(XlaOp op) {
  return op.valid() && op.instruction()->shape().IsScalar() &&
         op.instruction()->shape().element_type() == ElementType::kPred;
}

absl::Status ConditionalError(absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("conditional: ", what, " (", kConditional, ")"));
}

}  // namespace

XlaOp While(const XlaComputation& condition, const XlaComputation& body,
            XlaOp init) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({init});
  if (builder == nullptr) return XlaOp();
  Computation* condition_copy = builder->Import(condition);
  Computation* body_copy = builder->Import(body);
  if (condition_copy == nullptr || body_copy == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kCondition, condition_copy);
  attrs.Set(attr::kBody, body_copy);
  return builder->AddInstruction(Opcode::kWhile, {init}, std::move(attrs));
}

XlaOp Conditional(XlaOp predicate, XlaOp true_operand,
                  const XlaComputation& true_computation, XlaOp false_operand,
                  const XlaComputation& false_computation) {
  XlaBuilder* builder =
      XlaBuilder::BuilderOf({predicate, true_operand, false_operand});
  if (builder == nullptr) return XlaOp();
  Computation* on_true = builder->Import(true_computation);
  Computation* on_false = builder->Import(false_computation);
  if (on_true == nullptr || on_false == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kTrueComputation, on_true);
  attrs.Set(attr::kFalseComputation, on_false);
  return builder->AddInstruction(Opcode::kConditional,
                                 {predicate, true_operand, false_operand},
                                 std::move(attrs));
}

XlaOp Conditional(XlaOp branch_index,
                  absl::Span<const XlaComputation* const> branch_computations,
                  absl::Span<const XlaOp> branch_operands) {
  std::vector<XlaOp> operands = {branch_index};
  operands.insert(operands.end(), branch_operands.begin(),
                  branch_operands.end());
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  if (branch_computations.empty() ||
      branch_computations.size() != branch_operands.size()) {
    return builder->ReportError(ConditionalError(absl::StrCat(
        branch_computations.size(), " branch computations and ",
        branch_operands.size(),
        " branch operands; N >= 1 branches need one operand each")));
  }
  if (IsPredScalar(branch_index) && branch_computations.size() == 2 &&
      branch_computations[0] != nullptr && branch_computations[1] != nullptr) {
    return Conditional(branch_index, branch_operands[0],
                       *branch_computations[0], branch_operands[1],
                       *branch_computations[1]);
  }
  ComputationList branches;
  for (size_t i = 0; i < branch_computations.size(); ++i) {
    if (branch_computations[i] == nullptr) {
      return builder->ReportError(
          ConditionalError(absl::StrCat("branch computation ", i, " is null")));
    }
    Computation* branch = builder->Import(*branch_computations[i]);
    if (branch == nullptr) return XlaOp();
    branches.push_back(branch);
  }
  AttributeMap attrs;
  attrs.Set(attr::kBranchComputations, std::move(branches));
  return builder->AddInstruction(Opcode::kConditional, operands,
                                 std::move(attrs));
}

XlaOp Call(XlaBuilder* builder, const XlaComputation& computation,
           absl::Span<const XlaOp> operands) {
  if (builder == nullptr) return XlaOp();
  Computation* to_apply = builder->Import(computation);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(Opcode::kCall, operands, std::move(attrs));
}

XlaOp OptimizationBarrier(XlaOp operand) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kOptimizationBarrier, {operand}, {});
}

XlaOp AfterAll(XlaBuilder* builder, absl::Span<const XlaOp> tokens) {
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kAfterAll, tokens, {});
}

XlaOp AddDependency(XlaOp operand, XlaOp token) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, token});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kAddDependency, {operand, token}, {});
}

}  // namespace kiln
