// Shape rules of async-start, async-update and async-done (async_ops.md),
// with late binding of operands and outputs, and the output/operand
// aliasing check that fusion and custom-call share.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/control_flow_shapes.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kAsync = "async_ops.md, Async HLO Instructions";
constexpr absl::string_view kLateBinding = "async_ops.md, Late Binding";

Shape WithoutLayout(Shape shape) {
  shape.clear_layout();
  return shape;
}

// The computation the async chain runs: calls= on this instruction, or on
// the async-start found by following operand 0 through async-updates. The
// walk is bounded so that a graph built with a cycle cannot hang it.
absl::StatusOr<const Computation*> AsyncComputation(
    const Instruction& instruction) {
  constexpr int kMaxChainLength = 1 << 20;
  const Instruction* current = &instruction;
  for (int step = 0; step < kMaxChainLength; ++step) {
    Computation* const* calls =
        current->attrs().Get<Computation*>(attr::kCalls);
    if (calls != nullptr && *calls != nullptr) {
      return RequiredComputationAttr(*current, attr::kCalls, kAsync);
    }
    if (current->opcode() == Opcode::kAsyncStart ||
        current->operand_count() == 0) {
      return RuleError(instruction, "missing computation calls=", kAsync);
    }
    current = current->operand(0);
    if (current->opcode() != Opcode::kAsyncStart &&
        current->opcode() != Opcode::kAsyncUpdate) {
      return RuleError(instruction,
                       absl::StrCat("operand 0 is ", current->name(),
                                    ", expected an async-start or "
                                    "async-update"),
                       kAsync);
    }
  }
  return RuleError(instruction, "the async chain has no async-start", kAsync);
}

// The parameter shapes of `computation`, layouts cleared.
std::vector<Shape> ParameterShapes(const Computation& computation) {
  std::vector<Shape> params;
  for (const Instruction* param : computation.parameters()) {
    params.push_back(WithoutLayout(param->shape()));
  }
  return params;
}

// Operands bound so far must be the computation's leading parameters, in
// order (late binding binds left to right).
absl::Status CheckBoundOperands(const Instruction& instruction,
                                const Computation& computation,
                                const std::vector<Shape>& bound) {
  const std::vector<Shape> params = ParameterShapes(computation);
  if (bound.size() > params.size()) {
    return RuleError(instruction,
                     absl::StrCat(bound.size(), " operands bound but calls=",
                                  computation.name(), " takes ", params.size()),
                     kLateBinding);
  }
  for (size_t i = 0; i < bound.size(); ++i) {
    if (!bound[i].Compatible(params[i])) {
      return RuleError(
          instruction,
          absl::StrCat("bound operand ", i, " is ", ShapeText(bound[i]),
                       ", expected ", ShapeText(params[i]), " (parameter ", i,
                       " of ", computation.name(), ")"),
          kLateBinding);
    }
  }
  return absl::OkStatus();
}

bool IsEmptyTuple(const Shape& shape) {
  return shape.IsTuple() && shape.tuple_size() == 0;
}

// The declared async value: a tuple (operands, result, context...). The
// context elements are the implementation's state, which only the
// declaration names.
absl::StatusOr<const Shape*> DeclaredAsyncValue(const Instruction& instruction,
                                                const Shape& shape,
                                                absl::string_view what) {
  if (!shape.IsTuple() || shape.tuple_size() < 2 ||
      !shape.tuple_shape(0).IsTuple()) {
    return RuleError(instruction,
                     absl::StrCat(what, " is ", ShapeText(shape),
                                  ", expected ((operands...), result, "
                                  "context...)"),
                     kAsync);
  }
  return &shape;
}

// An output slot is unbound (), the root of the computation, or the
// root wrapped in a 1-tuple (async_ops.md's late-bound output examples).
bool IsAcceptedOutput(const Shape& output, const Shape& root) {
  return IsEmptyTuple(output) || output.Compatible(root) ||
         output.Compatible(Shape::Tuple({root}));
}

// (bound operands, output, context of `declared` from index 2).
Shape AsyncValue(std::vector<Shape> bound, Shape output,
                 const Shape& declared) {
  std::vector<Shape> elements = {Shape::Tuple(std::move(bound)),
                                 std::move(output)};
  for (int64_t i = 2; i < declared.tuple_size(); ++i) {
    elements.push_back(WithoutLayout(declared.tuple_shape(i)));
  }
  return Shape::Tuple(std::move(elements));
}

// The output slot the instruction declares at tuple index 1, checked.
absl::StatusOr<Shape> DeclaredOutput(const Instruction& instruction,
                                     const Shape& declared, const Shape& root,
                                     const Shape* previous) {
  Shape output = WithoutLayout(declared.tuple_shape(1));
  if (previous != nullptr && !IsEmptyTuple(*previous)) {
    if (!output.Compatible(*previous)) {
      return RuleError(
          instruction,
          absl::StrCat("output slot is ", ShapeText(output),
                       ", but the previous step bound ", ShapeText(*previous)),
          kLateBinding);
    }
    return output;
  }
  if (!IsAcceptedOutput(output, root)) {
    return RuleError(instruction,
                     absl::StrCat("output slot is ", ShapeText(output),
                                  ", expected () or the computation's root ",
                                  ShapeText(root)),
                     kAsync);
  }
  return output;
}

// The previous async value (operand 0 of async-update and async-done).
absl::StatusOr<const Shape*> PreviousValue(const Instruction& instruction) {
  return DeclaredAsyncValue(instruction, instruction.operand(0)->shape(),
                            "operand 0");
}

}  // namespace

const Shape* SubshapeAt(const Shape& shape, absl::Span<const int64_t> index) {
  const Shape* current = &shape;
  for (int64_t i : index) {
    if (!current->IsTuple() || i < 0 || i >= current->tuple_size()) {
      return nullptr;
    }
    current = &current->tuple_shape(i);
  }
  return current;
}

absl::Status CheckOutputOperandAliasing(const Instruction& instruction,
                                        const Shape& result,
                                        absl::string_view spec_section) {
  const OutputOperandAliasing* aliasing =
      instruction.attrs().Get<OutputOperandAliasing>(
          attr::kOutputToOperandAliasing);
  if (aliasing == nullptr) return absl::OkStatus();
  for (const OutputOperandAlias& alias : aliasing->aliases) {
    const Shape* output = SubshapeAt(result, alias.output_index);
    if (output == nullptr) {
      return RuleError(instruction,
                       absl::StrCat("output_to_operand_aliasing output index ",
                                    DimsToString(alias.output_index),
                                    " is not in ", ShapeText(result)),
                       spec_section);
    }
    if (alias.operand < 0 || alias.operand >= instruction.operand_count()) {
      return RuleError(
          instruction,
          absl::StrCat("output_to_operand_aliasing operand ", alias.operand,
                       " is not in [0, ", instruction.operand_count(), ")"),
          spec_section);
    }
    const Shape& operand_shape = instruction.operand(alias.operand)->shape();
    const Shape* operand = SubshapeAt(operand_shape, alias.operand_index);
    if (operand == nullptr || !operand->Compatible(*output)) {
      return RuleError(
          instruction,
          absl::StrCat("output_to_operand_aliasing aliases output ",
                       DimsToString(alias.output_index), " (",
                       ShapeText(*output), ") with operand ", alias.operand,
                       " index ", DimsToString(alias.operand_index), " of ",
                       ShapeText(operand_shape)),
          spec_section);
    }
  }
  return absl::OkStatus();
}

// ((operands), output, context...): the operands bind the computation's
// leading parameters; output and context are as declared, checked.
absl::StatusOr<Shape> AsyncStartShape(const Instruction& instruction,
                                      ShapeForm /*form*/) {
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  absl::StatusOr<const Shape*> declared =
      DeclaredAsyncValue(instruction, instruction.shape(), "the shape");
  if (!declared.ok()) return declared.status();
  std::vector<Shape> bound;
  for (const Instruction* operand : instruction.operands()) {
    bound.push_back(WithoutLayout(operand->shape()));
  }
  KILN_RULE_RETURN_IF_ERROR(
      CheckBoundOperands(instruction, **computation, bound));
  const Shape root = WithoutLayout((*computation)->root()->shape());
  absl::StatusOr<Shape> output =
      DeclaredOutput(instruction, **declared, root, nullptr);
  if (!output.ok()) return output.status();
  KILN_RULE_RETURN_IF_ERROR(
      CheckOutputOperandAliasing(instruction, **declared, kAsync));
  return AsyncValue(std::move(bound), *std::move(output), **declared);
}

// The previous value with operands 1.. appended to the bound operands; the
// output slot is as declared (checked) and the context carried over.
absl::StatusOr<Shape> AsyncUpdateShape(const Instruction& instruction,
                                       ShapeForm /*form*/) {
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  absl::StatusOr<const Shape*> previous = PreviousValue(instruction);
  if (!previous.ok()) return previous.status();
  absl::StatusOr<const Shape*> declared =
      DeclaredAsyncValue(instruction, instruction.shape(), "the shape");
  if (!declared.ok()) return declared.status();
  std::vector<Shape> bound;
  for (const Shape& shape : (*previous)->tuple_shape(0).tuple_shapes()) {
    bound.push_back(WithoutLayout(shape));
  }
  // Operands past the computation's parameters are late-bound output
  // buffers (async_ops.md, Late-Bound Outputs); they bind no parameter.
  const size_t params = (*computation)->parameters().size();
  for (int64_t i = 1; i < instruction.operand_count(); ++i) {
    if (bound.size() == params) {
      if (!IsEmptyTuple((*previous)->tuple_shape(1))) {
        return RuleError(instruction,
                         absl::StrCat("operand ", i,
                                      " binds an output, but the output is "
                                      "already bound"),
                         kLateBinding);
      }
      break;
    }
    bound.push_back(WithoutLayout(instruction.operand(i)->shape()));
  }
  KILN_RULE_RETURN_IF_ERROR(
      CheckBoundOperands(instruction, **computation, bound));
  const Shape root = WithoutLayout((*computation)->root()->shape());
  absl::StatusOr<Shape> output = DeclaredOutput(instruction, **declared, root,
                                                &(*previous)->tuple_shape(1));
  if (!output.ok()) return output.status();
  return AsyncValue(std::move(bound), *std::move(output), **previous);
}

// The bound output of the chain, or (when still unbound) the output the
// async-done declares, which must be the computation's root. All operands
// must be bound by now.
absl::StatusOr<Shape> AsyncDoneShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  absl::StatusOr<const Shape*> previous = PreviousValue(instruction);
  if (!previous.ok()) return previous.status();
  const int64_t bound = (*previous)->tuple_shape(0).tuple_size();
  const int64_t params = (*computation)->parameters().size();
  if (bound != params) {
    return RuleError(
        instruction,
        absl::StrCat("only ", bound, " of the ", params, " operands of ",
                     (*computation)->name(), " are bound"),
        kLateBinding);
  }
  const Shape& output = (*previous)->tuple_shape(1);
  if (!IsEmptyTuple(output)) return WithoutLayout(output);
  const Shape root = WithoutLayout((*computation)->root()->shape());
  const Shape declared = WithoutLayout(instruction.shape());
  if (IsEmptyTuple(declared) || !IsAcceptedOutput(declared, root)) {
    return RuleError(
        instruction,
        absl::StrCat("binds output ", ShapeText(declared),
                     ", expected the computation's root ", ShapeText(root)),
        kLateBinding);
  }
  return declared;
}

}  // namespace ops_internal
}  // namespace kiln
