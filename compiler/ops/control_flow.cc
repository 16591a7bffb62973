// Ops that call computations or order execution: call, conditional, while,
// fusion, the async wrappers, and the scheduling helpers.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/control_flow_shapes.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kWhile = "operation_semantics.md, While";
constexpr absl::string_view kConditional =
    "operation_semantics.md, Conditional";
constexpr absl::string_view kCall = "operation_semantics.md, Call";
constexpr absl::string_view kFusion = "operation_semantics.md, Fusion";
constexpr absl::string_view kAfterAll = "operation_semantics.md, AfterAll";
constexpr absl::string_view kAddDependency =
    "operation_semantics.md, AddDependency";
constexpr absl::string_view kOptimizationBarrier =
    "operation_semantics.md, OptimizationBarrier";

// The shapes of operands [first, operand_count), layouts cleared.
std::vector<Shape> OperandShapes(const Instruction& instruction,
                                 int64_t first) {
  std::vector<Shape> shapes;
  for (int64_t i = first; i < instruction.operand_count(); ++i) {
    shapes.push_back(instruction.operand(i)->shape());
    shapes.back().clear_layout();
  }
  return shapes;
}

// The root shape of `computation`, layout cleared.
Shape RootShape(const Computation& computation) {
  Shape root = computation.root()->shape();
  root.clear_layout();
  return root;
}

// The called computation `attr` must take operands [first, ...); the result
// is its root shape.
absl::StatusOr<Shape> CallLike(const Instruction& instruction,
                               absl::string_view attr, int64_t first,
                               absl::string_view section) {
  absl::StatusOr<const Computation*> callee =
      RequiredComputationAttr(instruction, attr, section);
  if (!callee.ok()) return callee.status();
  const Shape root = RootShape(**callee);
  KILN_RULE_RETURN_IF_ERROR(CheckSignature(instruction, attr, **callee,
                                           OperandShapes(instruction, first),
                                           root, section));
  return root;
}

absl::StatusOr<Shape> CallShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  return CallLike(instruction, "to_apply", 0, kCall);
}

absl::StatusOr<Shape> FusionShape(const Instruction& instruction,
                                  ShapeForm /*form*/) {
  absl::StatusOr<Shape> result = CallLike(instruction, "calls", 0, kFusion);
  if (!result.ok()) return result;
  KILN_RULE_RETURN_IF_ERROR(
      CheckOutputOperandAliasing(instruction, *result, kFusion));
  return result;
}

// condition: T -> pred[], body: T -> T, init: T; the result is T.
absl::StatusOr<Shape> WhileShape(const Instruction& instruction,
                                 ShapeForm /*form*/) {
  Shape state = instruction.operand(0)->shape();
  state.clear_layout();
  absl::StatusOr<const Computation*> condition =
      RequiredComputationAttr(instruction, attr::kCondition, kWhile);
  if (!condition.ok()) return condition.status();
  absl::StatusOr<const Computation*> body =
      RequiredComputationAttr(instruction, attr::kBody, kWhile);
  if (!body.ok()) return body.status();
  KILN_RULE_RETURN_IF_ERROR(
      CheckSignature(instruction, "condition", **condition, {state},
                     Shape::Scalar(ElementType::kPred), kWhile));
  KILN_RULE_RETURN_IF_ERROR(
      CheckSignature(instruction, "body", **body, {state}, state, kWhile));
  return state;
}

// The branches of a conditional in operand order: true_computation then
// false_computation for a pred selector, or branch_computations (for an s32
// index, or a pred written in list form).
absl::StatusOr<std::vector<const Computation*>> Branches(
    const Instruction& instruction) {
  const Shape& selector = instruction.operand(0)->shape();
  const bool is_pred =
      selector.IsScalar() && selector.element_type() == ElementType::kPred;
  const bool is_index =
      selector.IsScalar() && selector.element_type() == ElementType::kS32;
  if (!is_pred && !is_index) {
    return RuleError(instruction,
                     absl::StrCat("selector is ", ShapeText(selector),
                                  ", expected pred[] or s32[]"),
                     kConditional);
  }
  const AttributeMap& attrs = instruction.attrs();
  const bool has_list = attrs.Has(attr::kBranchComputations);
  const bool has_pair =
      attrs.Has(attr::kTrueComputation) || attrs.Has(attr::kFalseComputation);
  std::vector<const Computation*> branches;
  if (is_pred && has_pair && !has_list) {
    for (absl::string_view name : {"true_computation", "false_computation"}) {
      absl::StatusOr<const Computation*> branch =
          RequiredComputationAttr(instruction, name, kConditional);
      if (!branch.ok()) return branch.status();
      branches.push_back(*branch);
    }
    return branches;
  }
  const ComputationList* list =
      attrs.Get<ComputationList>(attr::kBranchComputations);
  if (has_pair || list == nullptr || list->empty()) {
    return RuleError(instruction,
                     is_pred ? "a pred selector takes true_computation= and "
                               "false_computation="
                             : "an s32 selector takes a non-empty "
                               "branch_computations=",
                     kConditional);
  }
  if (is_pred && list->size() != 2) {
    return RuleError(
        instruction,
        absl::StrCat("a pred selector takes 2 branches, got ", list->size()),
        kConditional);
  }
  for (const Computation* branch : *list) {
    if (branch == nullptr || branch->root() == nullptr) {
      return RuleError(instruction, "a branch computation has no ROOT",
                       kConditional);
    }
    branches.push_back(branch);
  }
  return branches;
}

// Branch i takes operand i+1; every branch returns the same shape.
absl::StatusOr<Shape> ConditionalShape(const Instruction& instruction,
                                       ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Computation*>> branches =
      Branches(instruction);
  if (!branches.ok()) return branches.status();
  const int64_t count = branches->size();
  if (instruction.operand_count() != count + 1) {
    return RuleError(
        instruction,
        absl::StrCat("has ", count, " branches but ",
                     instruction.operand_count() - 1, " branch operands"),
        kConditional);
  }
  const Shape result = RootShape(*(*branches)[0]);
  for (int64_t i = 0; i < count; ++i) {
    Shape operand = instruction.operand(i + 1)->shape();
    operand.clear_layout();
    KILN_RULE_RETURN_IF_ERROR(
        CheckSignature(instruction, absl::StrCat("branch ", i), *(*branches)[i],
                       {operand}, result, kConditional));
  }
  return result;
}

absl::StatusOr<Shape> AfterAllShape(const Instruction& instruction,
                                    ShapeForm /*form*/) {
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    const Shape& operand = instruction.operand(i)->shape();
    if (!operand.IsToken()) {
      return RuleError(instruction,
                       absl::StrCat("operand ", i, " is ", ShapeText(operand),
                                    ", expected token[]"),
                       kAfterAll);
    }
  }
  return Shape::Token();
}

absl::StatusOr<Shape> AddDependencyShape(const Instruction& instruction,
                                         ShapeForm /*form*/) {
  const Shape& token = instruction.operand(1)->shape();
  if (!token.IsToken()) {
    return RuleError(
        instruction,
        absl::StrCat("operand 1 is ", ShapeText(token), ", expected token[]"),
        kAddDependency);
  }
  return instruction.operand(0)->shape();
}

absl::StatusOr<Shape> OptimizationBarrierShape(const Instruction& instruction,
                                               ShapeForm /*form*/) {
  const Shape& operand = instruction.operand(0)->shape();
  if (!operand.IsTuple()) {
    return RuleError(
        instruction,
        absl::StrCat("operand is ", ShapeText(operand), ", expected a tuple"),
        kOptimizationBarrier);
  }
  return operand;
}

absl::StatusOr<Shape> DomainShape(const Instruction& instruction,
                                  ShapeForm /*form*/) {
  return instruction.operand(0)->shape();
}

std::vector<AttrSpec> AsyncAttrs(bool is_start) {
  // async_execution_thread is printed (quoted) only when not "main". XLA
  // prints calls= on async-start only; the later halves may repeat it.
  // output_to_operand_aliasing appears on async-start of in-place ops.
  return {
      Optional("async_execution_thread", AttrKind::kString),
      Optional("output_to_operand_aliasing", AttrKind::kOutputOperandAliasing),
      AttrSpec{"calls", AttrKind::kComputation, is_start, {}}};
}

}  // namespace

void RegisterControlFlowSchemas(SchemaTable* table) {
  // is_composite marks composite calls (their name/version live in
  // frontend_attributes).
  Define(table, Opcode::kCall, 0, kVariadic,
         {Required("to_apply", AttrKind::kComputation),
          Optional("is_composite", AttrKind::kBool)});
  // A pred selector prints true/false_computation; an s32 index prints
  // branch_computations. Exactly one of the two forms is present.
  Define(table, Opcode::kConditional, 1, kVariadic,
         {Optional("true_computation", AttrKind::kComputation),
          Optional("false_computation", AttrKind::kComputation),
          Optional("branch_computations", AttrKind::kComputationList)});
  Define(table, Opcode::kWhile, 1, 1,
         {Required("condition", AttrKind::kComputation),
          Required("body", AttrKind::kComputation)});
  Define(
      table, Opcode::kFusion, 0, kVariadic,
      {Enum("kind", {"kLoop", "kInput", "kOutput", "kCustom"},
            /*required=*/true),
       Optional("output_to_operand_aliasing", AttrKind::kOutputOperandAliasing),
       Required("calls", AttrKind::kComputation)});
  SetShapeRule(table, Opcode::kCall, &CallShape);
  SetShapeRule(table, Opcode::kConditional, &ConditionalShape);
  SetShapeRule(table, Opcode::kWhile, &WhileShape);
  SetShapeRule(table, Opcode::kFusion, &FusionShape);
  // Late binding (async_ops.md): async-update and async-done may bind
  // further operands after the previous async value.
  Define(table, Opcode::kAsyncStart, 0, kVariadic, AsyncAttrs(true));
  Define(table, Opcode::kAsyncUpdate, 1, kVariadic, AsyncAttrs(false));
  Define(table, Opcode::kAsyncDone, 1, kVariadic, AsyncAttrs(false));
  SetShapeRule(table, Opcode::kAsyncStart, &AsyncStartShape);
  SetShapeRule(table, Opcode::kAsyncUpdate, &AsyncUpdateShape);
  SetShapeRule(table, Opcode::kAsyncDone, &AsyncDoneShape);
  Define(table, Opcode::kAfterAll, 0, kVariadic);
  Define(table, Opcode::kAddDependency, 2, 2);
  Define(table, Opcode::kOptimizationBarrier, 1, 1);
  // domain={kind="sharding", entry={...}, exit={...}}, kept verbatim.
  Define(table, Opcode::kDomain, 1, 1,
         {Optional("domain", AttrKind::kRawText)});
  SetShapeRule(table, Opcode::kAfterAll, &AfterAllShape);
  SetShapeRule(table, Opcode::kAddDependency, &AddDependencyShape);
  SetShapeRule(table, Opcode::kOptimizationBarrier, &OptimizationBarrierShape);
  SetShapeRule(table, Opcode::kDomain, &DomainShape);
}

}  // namespace ops_internal
}  // namespace kiln
