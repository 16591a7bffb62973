#include "compiler/text/generic_attrs.h"

#include <array>

namespace kiln {
namespace text_internal {
namespace {

struct RawField {
  absl::string_view name;
  std::optional<RawText> Instruction::*field;
};

constexpr std::array<RawField, 7> kRawFields = {{
    {"sharding", &Instruction::sharding},
    // XLA's text spells statistics_viz "statistics"; both are read.
    {"statistics", &Instruction::statistics_viz},
    {"statistics_viz", &Instruction::statistics_viz},
    {"result_accuracy", &Instruction::result_accuracy},
    {"origin", &Instruction::origin},
    {"metadata", &Instruction::metadata},
    {"backend_config", &Instruction::backend_config},
}};

const RawField* FindRawField(absl::string_view name) {
  for (const RawField& raw : kRawFields) {
    if (raw.name == name) return &raw;
  }
  return nullptr;
}

}  // namespace

absl::Span<const absl::string_view> GenericAttributeOrder() {
  // XLA's HloInstruction printing: sharding, frontend_attributes,
  // statistics, control-predecessors, result_accuracy, the original value,
  // then metadata and backend_config last.
  static constexpr std::array<absl::string_view, 8> kOrder = {
      "sharding",        "frontend_attributes",
      "statistics",      "control-predecessors",
      "result_accuracy", "origin",
      "metadata",        "backend_config",
  };
  return kOrder;
}

bool IsGenericAttributeName(absl::string_view name) {
  if (name == "statistics_viz") return true;
  for (absl::string_view generic : GenericAttributeOrder()) {
    if (generic == name) return true;
  }
  return false;
}

std::optional<RawText>* RawGenericField(Instruction* instruction,
                                        absl::string_view name) {
  const RawField* raw = FindRawField(name);
  return raw == nullptr ? nullptr : &(instruction->*(raw->field));
}

const std::optional<RawText>* RawGenericField(const Instruction& instruction,
                                              absl::string_view name) {
  const RawField* raw = FindRawField(name);
  return raw == nullptr ? nullptr : &(instruction.*(raw->field));
}

namespace {

absl::string_view DefaultComparisonType(ElementType type) {
  if (IsFloatType(type) || IsComplexType(type)) return "FLOAT";
  if (IsSignedIntType(type)) return "SIGNED";
  return "UNSIGNED";  // pred and unsigned integers.
}

}  // namespace

bool IsDefaultComparisonType(const Instruction& instruction,
                             absl::string_view name, const AttrValue& value) {
  if (instruction.opcode() != Opcode::kCompare || name != "type" ||
      instruction.operand_count() == 0) {
    return false;
  }
  const auto* type = std::get_if<EnumValue>(&value);
  return type != nullptr &&
         type->spelling == DefaultComparisonType(
                               instruction.operand(0)->shape().element_type());
}

}  // namespace text_internal
}  // namespace kiln
