// The parser's use of shape inference: shapes the text leaves out are
// inferred, and (ParseOptions::check_shapes) every written shape is checked
// against the op's rule. Runs after the whole module is read, because a
// computation may be called before its definition in the text; callees go
// first so that call, while, map and friends see their callees' shapes.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/text/parser_internal.h"

namespace kiln {
namespace text_internal {
namespace {

// "file:line:col: error: <message>" at the instruction's name. Rule errors
// already start with "<name>: "; others get it.
absl::Status InstructionError(const Instruction& instruction,
                              absl::string_view message) {
  const std::string prefix = absl::StrCat(instruction.name(), ": ");
  return absl::InvalidArgumentError(absl::StrCat(
      instruction.location.ToString(),
      ": error: ", absl::StartsWith(message, prefix) ? "" : prefix, message));
}

}  // namespace

bool ShapeMayBeOmitted(Opcode opcode) {
  // The shape_optional trait (compiler/ir/op_traits.cc): elementwise ops,
  // and ops whose shape follows from operands, attributes and called
  // computations. XLA always writes the shapes of collectives, async pairs
  // and slices, and for constant, parameter, convert, reshape, iota, rng,
  // custom-call, fusion, infeed, ... the text chooses the result. broadcast
  // too: the sizes of its new dimensions are in no operand or attribute
  // (XLA's parser lists it but reads `dimensions` as sizes, which is not
  // what they mean).
  return GetOpTraits(opcode).shape_optional;
}

absl::Status HloTextParser::InferOrCheckShape(Instruction* instruction) {
  if (auto it = implied_broadcast_dimensions_.find(instruction);
      it != implied_broadcast_dimensions_.end()) {
    const Shape& operand = instruction->operand(0)->shape();
    if (!operand.IsArray() || !operand.IsScalar()) {
      return ErrorAt(it->second,
                     absl::StrCat("missing required attribute 'dimensions' of "
                                  "broadcast (only a scalar operand may leave "
                                  "it out; the operand is ",
                                  operand.ToString(false), ")"));
    }
  }
  const bool omitted = omitted_shapes_.contains(instruction);
  if (!omitted && !options_.check_shapes) return absl::OkStatus();
  absl::StatusOr<Shape> inferred = InferShape(*instruction, ShapeForm::kClient);
  if (!inferred.ok()) {
    return InstructionError(*instruction, inferred.status().message());
  }
  if (omitted) {
    inferred->SetDefaultLayoutIfMissing();
    instruction->set_shape(*std::move(inferred));
    return absl::OkStatus();
  }
  if (!instruction->shape().Compatible(*inferred)) {
    return InstructionError(
        *instruction,
        absl::StrCat("declared shape ", instruction->shape().ToString(false),
                     " does not match the shape the op's rule gives, ",
                     inferred->ToString(false), " (shape.inferred)"));
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::CheckDeferredOperandShapes() {
  for (const DeferredOperandCheck& check : deferred_operand_checks_) {
    if (!check.declared.Compatible(check.operand->shape())) {
      return ErrorAt(
          check.offset,
          absl::StrCat("the declared operand shape ",
                       check.declared.ToString(false),
                       " is not compatible with the shape of operand '",
                       check.operand->name(), "', ",
                       check.operand->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::InferAndCheckShapes() {
  if (omitted_shapes_.empty() && !options_.check_shapes) {
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<Computation*>> order =
      module_->PostOrderComputations();
  if (!order.ok()) return order.status();
  for (Computation* computation : *order) {
    for (Instruction* instruction : computation->instructions()) {
      if (absl::Status s = InferOrCheckShape(instruction); !s.ok()) return s;
    }
  }
  return CheckDeferredOperandShapes();
}

}  // namespace text_internal
}  // namespace kiln
