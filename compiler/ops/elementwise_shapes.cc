// Shape rules of the elementwise ops: unary math, binary arithmetic and
// logic with client-form broadcasting, compare, select, clamp, complex,
// the conversions, reduce-precision and map (operation_semantics.md).
#include "compiler/ops/elementwise_shapes.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/broadcast_shapes.h"
#include "compiler/ops/element_type_classes.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

// How a unary op's result element type follows from its operand's.
enum class UnaryResult { kSame, kPred, kComplexComponent };

struct UnaryRule {
  Opcode opcode;
  uint8_t classes;  // Accepted operand element types.
  UnaryResult result;
  const char* section;  // operation_semantics.md heading.
  // operation_semantics.md has no section for some unary ops (the inverse
  // trigonometric and hyperbolic functions, sinh): their rule follows XLA
  // and their errors cite "(XLA semantics, <Op>)".
  bool no_spec_section = false;
};

constexpr UnaryRule kUnaryRules[] = {
    {Opcode::kAbs, kSignedClass | kFloatOrComplex,
     UnaryResult::kComplexComponent, "Abs"},
    {Opcode::kAcos, kFloatOrComplex, UnaryResult::kSame, "Acos", true},
    {Opcode::kAcosh, kFloatOrComplex, UnaryResult::kSame, "Acosh", true},
    {Opcode::kAsin, kFloatOrComplex, UnaryResult::kSame, "Asin", true},
    {Opcode::kAsinh, kFloatOrComplex, UnaryResult::kSame, "Asinh", true},
    {Opcode::kAtan, kFloatOrComplex, UnaryResult::kSame, "Atan", true},
    {Opcode::kAtanh, kFloatOrComplex, UnaryResult::kSame, "Atanh", true},
    {Opcode::kCbrt, kFloatOrComplex, UnaryResult::kSame, "Cbrt"},
    {Opcode::kCeil, kFloatClass, UnaryResult::kSame, "Ceil"},
    {Opcode::kClz, kIntegralClasses, UnaryResult::kSame, "Clz"},
    {Opcode::kCos, kFloatOrComplex, UnaryResult::kSame, "Cos"},
    {Opcode::kCosh, kFloatOrComplex, UnaryResult::kSame, "Cosh"},
    {Opcode::kErf, kFloatClass, UnaryResult::kSame, "Erf"},
    {Opcode::kExp, kFloatOrComplex, UnaryResult::kSame, "Exp"},
    {Opcode::kExpm1, kFloatOrComplex, UnaryResult::kSame, "Expm1"},
    {Opcode::kFloor, kFloatClass, UnaryResult::kSame, "Floor"},
    {Opcode::kImag, kFloatOrComplex, UnaryResult::kComplexComponent, "Imag"},
    {Opcode::kIsFinite, kFloatClass, UnaryResult::kPred, "IsFinite"},
    {Opcode::kLog, kFloatOrComplex, UnaryResult::kSame, "Log"},
    {Opcode::kLog1p, kFloatOrComplex, UnaryResult::kSame, "Log1p"},
    {Opcode::kLogistic, kFloatOrComplex, UnaryResult::kSame, "Logistic"},
    {Opcode::kNegate, kNumericClasses, UnaryResult::kSame, "Neg"},
    {Opcode::kNot, kPredClass | kIntegralClasses, UnaryResult::kSame, "Not"},
    {Opcode::kPopulationCount, kIntegralClasses, UnaryResult::kSame,
     "PopulationCount"},
    {Opcode::kReal, kFloatOrComplex, UnaryResult::kComplexComponent, "Real"},
    {Opcode::kRoundNearestAfz, kFloatClass, UnaryResult::kSame,
     "RoundNearestAfz"},
    {Opcode::kRoundNearestEven, kFloatClass, UnaryResult::kSame,
     "RoundNearestEven"},
    {Opcode::kRsqrt, kFloatOrComplex, UnaryResult::kSame, "Rsqrt"},
    {Opcode::kSign, kSignedClass | kFloatOrComplex, UnaryResult::kSame, "Sign"},
    {Opcode::kSin, kFloatOrComplex, UnaryResult::kSame, "Sin"},
    {Opcode::kSinh, kFloatOrComplex, UnaryResult::kSame, "Sinh", true},
    {Opcode::kSqrt, kFloatOrComplex, UnaryResult::kSame, "Sqrt"},
    {Opcode::kTan, kFloatOrComplex, UnaryResult::kSame, "Tan"},
    {Opcode::kTanh, kFloatOrComplex, UnaryResult::kSame, "Tanh"},
};

struct BinaryRule {
  Opcode opcode;
  uint8_t classes;
  const char* section;
};

constexpr BinaryRule kBinaryRules[] = {
    {Opcode::kAdd, kAnyArrayClasses, "Add"},
    {Opcode::kSubtract, kNumericClasses, "Sub"},
    {Opcode::kMultiply, kAnyArrayClasses, "Mul"},
    {Opcode::kDivide, kNumericClasses, "Div"},
    // No complex: XLA defines no order on complex numbers, nor a remainder
    // of them (its evaluator and CPU emitter refuse them).
    {Opcode::kRemainder, kIntegralClasses | kFloatClass, "Rem"},
    {Opcode::kMaximum, kPredClass | kIntegralClasses | kFloatClass, "Max"},
    {Opcode::kMinimum, kPredClass | kIntegralClasses | kFloatClass, "Min"},
    {Opcode::kPower, kNumericClasses, "Pow"},
    {Opcode::kAtan2, kFloatOrComplex, "Atan2"},
    {Opcode::kAnd, kPredClass | kIntegralClasses, "And"},
    {Opcode::kOr, kPredClass | kIntegralClasses, "Or"},
    {Opcode::kXor, kPredClass | kIntegralClasses, "Xor"},
    {Opcode::kShiftLeft, kIntegralClasses, "ShiftLeft"},
    {Opcode::kShiftRightArithmetic, kIntegralClasses, "ShiftRightArithmetic"},
    {Opcode::kShiftRightLogical, kIntegralClasses, "ShiftRightLogical"},
};

std::string Section(absl::string_view heading) {
  return absl::StrCat("operation_semantics.md, ", heading);
}

std::string Section(const UnaryRule& rule) {
  if (rule.no_spec_section) {
    return absl::StrCat("XLA semantics, ", rule.section);
  }
  return Section(rule.section);
}

template <typename Rule, size_t N>
const Rule* FindRule(const Rule (&rules)[N], Opcode opcode) {
  for (const Rule& rule : rules) {
    if (rule.opcode == opcode) return &rule;
  }
  return nullptr;
}

absl::StatusOr<Shape> UnaryShape(const Instruction& instruction, ShapeForm) {
  const UnaryRule* rule = FindRule(kUnaryRules, instruction.opcode());
  absl::StatusOr<const Shape*> operand =
      ArrayOperand(instruction, 0, Section(*rule));
  if (!operand.ok()) return operand.status();
  KILN_RULE_RETURN_IF_ERROR(
      CheckElementClasses(instruction, 0, rule->classes, Section(*rule)));
  const ElementType type = (*operand)->element_type();
  switch (rule->result) {
    case UnaryResult::kPred:
      return WithElementType(**operand, ElementType::kPred);
    case UnaryResult::kComplexComponent:
      if (IsComplexType(type)) {
        return WithElementType(**operand, GetElementTypeInfo(type).component);
      }
      return WithElementType(**operand, type);
    case UnaryResult::kSame:
      break;
  }
  return WithElementType(**operand, type);
}

absl::StatusOr<Shape> CopyShape(const Instruction& instruction, ShapeForm) {
  Shape result = instruction.operand(0)->shape();
  result.clear_layout();
  return result;
}

absl::StatusOr<Shape> BroadcastArrays(const Instruction& instruction,
                                      std::vector<int64_t> operands,
                                      std::vector<int64_t> strict_scalar_ok,
                                      ShapeForm form, ElementType type) {
  BroadcastOptions options{std::move(operands), std::move(strict_scalar_ok)};
  absl::StatusOr<Shape> shape = BroadcastOperands(instruction, options, form);
  if (!shape.ok()) return shape.status();
  return WithElementType(*shape, type);
}

absl::Status CheckArrays(const Instruction& instruction,
                         absl::Span<const int64_t> operands,
                         absl::string_view section) {
  for (int64_t index : operands) {
    absl::StatusOr<const Shape*> shape =
        ArrayOperand(instruction, index, Section(section));
    if (!shape.ok()) return shape.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> BinaryShape(const Instruction& instruction,
                                  ShapeForm form) {
  const BinaryRule* rule = FindRule(kBinaryRules, instruction.opcode());
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0, 1}, rule->section));
  KILN_RULE_RETURN_IF_ERROR(
      CheckSameElementType(instruction, {0, 1}, Section(rule->section)));
  const Shape& lhs = instruction.operand(0)->shape();
  KILN_RULE_RETURN_IF_ERROR(CheckElementClasses(instruction, 0, rule->classes,
                                                Section(rule->section)));
  return BroadcastArrays(instruction, {0, 1}, {}, form, lhs.element_type());
}

absl::StatusOr<Shape> ComplexShape(const Instruction& instruction,
                                   ShapeForm form) {
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0, 1}, "Complex"));
  KILN_RULE_RETURN_IF_ERROR(
      CheckSameElementType(instruction, {0, 1}, Section("Complex")));
  const Shape& lhs = instruction.operand(0)->shape();
  ElementType result;
  if (lhs.element_type() == ElementType::kF32) {
    result = ElementType::kC64;
  } else if (lhs.element_type() == ElementType::kF64) {
    result = ElementType::kC128;
  } else {
    return RuleError(instruction,
                     absl::StrCat("complex builds c64 from f32 or c128 from "
                                  "f64, got ",
                                  ShapeText(lhs)),
                     Section("Complex"));
  }
  return BroadcastArrays(instruction, {0, 1}, {}, form, result);
}

}  // namespace

void SetElementwiseShapeRules(SchemaTable* table) {
  for (const UnaryRule& rule : kUnaryRules) {
    SetShapeRule(table, rule.opcode, &UnaryShape);
  }
  for (const BinaryRule& rule : kBinaryRules) {
    SetShapeRule(table, rule.opcode, &BinaryShape);
  }
  SetShapeRule(table, Opcode::kCopy, &CopyShape);
  SetShapeRule(table, Opcode::kComplex, &ComplexShape);
  SetElementwiseSpecialShapeRules(table);
}

}  // namespace ops_internal
}  // namespace kiln
