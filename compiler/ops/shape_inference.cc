#include "compiler/ops/shape_inference.h"

#include "absl/strings/str_cat.h"
#include "compiler/ops/op_schema.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace {

absl::Status CheckOperandCount(const Instruction& instruction,
                               const OpSchema& schema) {
  const int64_t count = instruction.operand_count();
  const bool too_few = count < schema.min_operands;
  const bool too_many = schema.max_operands >= 0 && count > schema.max_operands;
  if (!too_few && !too_many) return absl::OkStatus();
  std::string expected =
      schema.max_operands < 0 ? absl::StrCat("at least ", schema.min_operands)
      : schema.min_operands == schema.max_operands
          ? absl::StrCat(schema.min_operands)
          : absl::StrCat(schema.min_operands, " to ", schema.max_operands);
  return ops_internal::RuleError(
      instruction,
      absl::StrCat(OpcodeName(instruction.opcode()), " takes ", expected,
                   " operands, got ", count),
      "operation_semantics.md, operand count");
}

}  // namespace

absl::StatusOr<Shape> InferShape(const Instruction& instruction,
                                 ShapeForm form) {
  const OpSchema& schema = GetOpSchema(instruction.opcode());
  absl::Status count = CheckOperandCount(instruction, schema);
  if (!count.ok()) return count;
  if (schema.shape_rule == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "no shape rule for ", OpcodeName(instruction.opcode()), " yet"));
  }
  absl::StatusOr<Shape> shape = schema.shape_rule(instruction, form);
  if (!shape.ok()) return shape;
  // Results carry default layouts; layout assignment is a later pass.
  shape->clear_layout();
  shape->SetDefaultLayoutIfMissing();
  return shape;
}

bool HasShapeRule(Opcode opcode) {
  return GetOpSchema(opcode).shape_rule != nullptr;
}

}  // namespace kiln
