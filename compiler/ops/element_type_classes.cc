#include "compiler/ops/element_type_classes.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

uint8_t ClassOf(ElementType type) {
  switch (GetElementTypeInfo(type).kind) {
    case TypeKind::kPred:
      return kPredClass;
    case TypeKind::kSigned:
      return kSignedClass;
    case TypeKind::kUnsigned:
      return kUnsignedClass;
    case TypeKind::kFloat:
      return kFloatClass;
    case TypeKind::kComplex:
      return kComplexClass;
    default:
      return 0;
  }
}

std::string ClassesText(uint8_t classes) {
  std::vector<std::string> names;
  if (classes & kPredClass) names.push_back("pred");
  if ((classes & kIntegralClasses) == kIntegralClasses) {
    names.push_back("integral");
  } else if (classes & kSignedClass) {
    names.push_back("signed integral");
  } else if (classes & kUnsignedClass) {
    names.push_back("unsigned integral");
  }
  if (classes & kFloatClass) names.push_back("floating-point");
  if (classes & kComplexClass) names.push_back("complex");
  if (names.size() <= 1) return absl::StrJoin(names, "");
  std::string last = names.back();
  names.pop_back();
  return absl::StrJoin(names, ", ") + " or " + last;
}

absl::Status CheckElementClasses(const Instruction& instruction,
                                 int64_t operand, uint8_t classes,
                                 absl::string_view spec_section) {
  const Shape& shape = instruction.operand(operand)->shape();
  if (InClasses(shape.element_type(), classes)) return absl::OkStatus();
  const std::string text = ClassesText(classes);
  const bool vowel = !text.empty() && (text[0] == 'i' || text[0] == 'u');
  return RuleError(
      instruction,
      absl::StrCat(OpcodeName(instruction.opcode()), " expects ",
                   vowel ? "an " : "a ", text, " element type, got ",
                   ShapeText(shape), " for operand ", operand),
      spec_section);
}

}  // namespace ops_internal
}  // namespace kiln
