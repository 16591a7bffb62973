// Shape rules of the elementwise ops with their own shape logic: compare,
// select, clamp, the conversions (whose target element type is the declared
// result type), reduce-precision and map (operation_semantics.md).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/broadcast_shapes.h"
#include "compiler/ops/element_type_classes.h"
#include "compiler/ops/elementwise_shapes.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

std::string Section(absl::string_view heading) {
  return absl::StrCat("operation_semantics.md, ", heading);
}

absl::Status CheckArrays(const Instruction& instruction,
                         absl::Span<const int64_t> operands,
                         absl::string_view section) {
  for (int64_t index : operands) {
    absl::StatusOr<const Shape*> shape =
        ArrayOperand(instruction, index, section);
    if (!shape.ok()) return shape.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> Broadcast(const Instruction& instruction,
                                std::vector<int64_t> operands,
                                std::vector<int64_t> strict_scalar_ok,
                                ShapeForm form, ElementType type) {
  BroadcastOptions options{std::move(operands), std::move(strict_scalar_ok)};
  absl::StatusOr<Shape> shape = BroadcastOperands(instruction, options, form);
  if (!shape.ok()) return shape.status();
  return WithElementType(*shape, type);
}

// --- compare ---

// Which element types each comparison `type=` accepts.
absl::Status CheckComparisonType(const Instruction& instruction,
                                 ElementType element_type) {
  const EnumValue* type = instruction.attrs().Get<EnumValue>(attr::kType);
  if (type == nullptr) return absl::OkStatus();
  uint8_t classes = 0;
  if (type->spelling == "FLOAT" || type->spelling == "TOTALORDER") {
    classes = kFloatOrComplex;
  } else if (type->spelling == "SIGNED") {
    classes = kSignedClass;
  } else if (type->spelling == "UNSIGNED") {
    classes = kUnsignedClass | kPredClass;
  }
  if (InClasses(element_type, classes)) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("comparison type ", type->spelling, " needs a ",
                                ClassesText(classes), " element type, got ",
                                ElementTypeName(element_type)),
                   Section("Compare"));
}

absl::StatusOr<Shape> CompareShape(const Instruction& instruction,
                                   ShapeForm form) {
  const std::string section = Section("Compare");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0, 1}, section));
  KILN_RULE_RETURN_IF_ERROR(CheckSameElementType(instruction, {0, 1}, section));
  const ElementType type = instruction.operand(0)->shape().element_type();
  const EnumValue* direction =
      instruction.attrs().Get<EnumValue>(attr::kDirection);
  if (direction == nullptr) {
    return RuleError(instruction,
                     "missing required attribute direction=", section);
  }
  if (IsComplexType(type) && direction->spelling != "EQ" &&
      direction->spelling != "NE") {
    return RuleError(instruction,
                     absl::StrCat("direction ", direction->spelling,
                                  " does not order complex numbers; only EQ "
                                  "and NE compare ",
                                  ElementTypeName(type)),
                     section);
  }
  KILN_RULE_RETURN_IF_ERROR(CheckComparisonType(instruction, type));
  return Broadcast(instruction, {0, 1}, {}, form, ElementType::kPred);
}

// --- select ---

// Tuples select as a whole under a scalar pred (client form only; XLA's HLO
// select takes arrays).
absl::StatusOr<Shape> TupleSelectShape(const Instruction& instruction,
                                       ShapeForm form) {
  const std::string section = Section("Select");
  const Shape& pred = instruction.operand(0)->shape();
  const Shape& on_true = instruction.operand(1)->shape();
  const Shape& on_false = instruction.operand(2)->shape();
  if (form == ShapeForm::kStrict) {
    return RuleError(instruction, "strict HLO select takes arrays, not tuples",
                     section);
  }
  if (!on_true.Compatible(on_false)) {
    return RuleError(
        instruction,
        absl::StrCat("on_true ", ShapeText(on_true), " and on_false ",
                     ShapeText(on_false), " must have the same shape"),
        section);
  }
  if (!pred.IsScalar()) {
    return RuleError(instruction,
                     absl::StrCat("selecting tuples needs a scalar pred, got ",
                                  ShapeText(pred)),
                     section);
  }
  Shape result = on_true;
  result.clear_layout();
  return result;
}

absl::StatusOr<Shape> SelectShape(const Instruction& instruction,
                                  ShapeForm form) {
  const std::string section = Section("Select");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0}, section));
  if (instruction.operand(0)->shape().element_type() != ElementType::kPred) {
    return RuleError(instruction,
                     absl::StrCat("pred must have element type pred, got ",
                                  ShapeText(instruction.operand(0)->shape())),
                     section);
  }
  if (instruction.operand(1)->shape().IsTuple()) {
    return TupleSelectShape(instruction, form);
  }
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {1, 2}, section));
  KILN_RULE_RETURN_IF_ERROR(CheckSameElementType(instruction, {1, 2}, section));
  return Broadcast(instruction, {1, 2, 0}, {}, form,
                   instruction.operand(1)->shape().element_type());
}

// --- clamp ---

absl::StatusOr<Shape> ClampShape(const Instruction& instruction,
                                 ShapeForm form) {
  const std::string section = Section("Clamp");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0, 1, 2}, section));
  KILN_RULE_RETURN_IF_ERROR(
      CheckSameElementType(instruction, {1, 0, 2}, section));
  KILN_RULE_RETURN_IF_ERROR(CheckElementClasses(
      instruction, 1, kPredClass | kIntegralClasses | kFloatClass, section));
  // The operand leads: min and max may be scalars even in strict HLO.
  return Broadcast(instruction, {1, 0, 2}, {0, 2}, form,
                   instruction.operand(1)->shape().element_type());
}

// --- conversions ---

// The declared result element type: convert-like ops take their target
// type from the instruction's own shape.
absl::StatusOr<ElementType> TargetType(const Instruction& instruction,
                                       absl::string_view section) {
  const ElementType type = instruction.shape().element_type();
  if (!IsArrayType(type)) {
    return RuleError(
        instruction,
        absl::StrCat("the target element type comes from the "
                     "declared result shape, which is ",
                     ShapeText(instruction.shape()), "; expected an array"),
        section);
  }
  return type;
}

// "The dimensions of the operand and the target shape must match": the
// declared result, which names the target type, must have `result`'s
// dimensions.
absl::StatusOr<Shape> CheckDeclaredDims(const Instruction& instruction,
                                        Shape result,
                                        absl::string_view section) {
  const Shape& declared = instruction.shape();
  if (declared.dimensions() == result.dimensions()) return result;
  return RuleError(
      instruction,
      absl::StrCat("declared result ", ShapeText(declared),
                   " must have the "
                   "dimensions ",
                   DimsToString(result.dimensions()), " that operand ",
                   ShapeText(instruction.operand(0)->shape()), " gives"),
      section);
}

absl::StatusOr<Shape> ConvertShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("ConvertElementType");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0}, section));
  absl::StatusOr<ElementType> target = TargetType(instruction, section);
  if (!target.ok()) return target.status();
  const Shape& operand = instruction.operand(0)->shape();
  if (IsComplexType(operand.element_type()) && !IsComplexType(*target)) {
    return RuleError(instruction,
                     absl::StrCat("converting complex ", ShapeText(operand),
                                  " to real ", ElementTypeName(*target),
                                  " is not defined; use real or imag"),
                     section);
  }
  return CheckDeclaredDims(instruction, WithElementType(operand, *target),
                           section);
}

absl::StatusOr<Shape> BitcastConvertShape(const Instruction& instruction,
                                          ShapeForm) {
  const std::string section = Section("BitcastConvertType");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0}, section));
  absl::StatusOr<ElementType> target = TargetType(instruction, section);
  if (!target.ok()) return target.status();
  const Shape& operand = instruction.operand(0)->shape();
  const int from_bits = BitWidth(operand.element_type());
  const int to_bits = BitWidth(*target);
  Shape result = WithElementType(operand, *target);
  if (from_bits == to_bits) {
    return CheckDeclaredDims(instruction, std::move(result), section);
  }
  const int wide = std::max(from_bits, to_bits);
  const int narrow = std::min(from_bits, to_bits);
  if (wide % narrow != 0) {
    return RuleError(
        instruction,
        absl::StrCat("cannot bitcast ", ShapeText(operand), " to ",
                     ElementTypeName(*target), ": bit widths ", from_bits,
                     " and ", to_bits, " are not multiples"),
        section);
  }
  const int64_t ratio = wide / narrow;
  std::vector<int64_t> dims = operand.dimensions();
  std::vector<bool> dynamic = operand.dynamic_dimensions();
  if (from_bits > to_bits) {
    dims.push_back(ratio);  // A new minor dimension holds the pieces.
    dynamic.push_back(false);
  } else {
    if (dims.empty() || dims.back() != ratio || dynamic.back()) {
      return RuleError(
          instruction,
          absl::StrCat("bitcasting ", ShapeText(operand), " to wider ",
                       ElementTypeName(*target),
                       " needs a static last dimension of size ", ratio),
          Section("Bitcast-converting to primitive type of different width"));
    }
    dims.pop_back();
    dynamic.pop_back();
  }
  return CheckDeclaredDims(
      instruction,
      Shape::DynamicArray(*target, std::move(dims), std::move(dynamic)),
      Section("Bitcast-converting to primitive type of different width"));
}

absl::StatusOr<Shape> StochasticConvertShape(const Instruction& instruction,
                                             ShapeForm) {
  // operation_semantics.md has no StochasticConvert section; Kiln follows
  // XLA.
  const std::string section = "XLA semantics, StochasticConvert";
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0, 1}, section));
  KILN_RULE_RETURN_IF_ERROR(
      CheckElementClasses(instruction, 0, kFloatClass, section));
  KILN_RULE_RETURN_IF_ERROR(
      CheckElementClasses(instruction, 1, kUnsignedClass, section));
  const Shape& operand = instruction.operand(0)->shape();
  const Shape& random = instruction.operand(1)->shape();
  if (BitWidth(operand.element_type()) != BitWidth(random.element_type()) ||
      operand.dimensions() != random.dimensions()) {
    return RuleError(
        instruction,
        absl::StrCat("random bits ", ShapeText(random), " must match operand ",
                     ShapeText(operand), " in dimensions and bit width"),
        section);
  }
  absl::StatusOr<ElementType> target = TargetType(instruction, section);
  if (!target.ok()) return target.status();
  if (!InClasses(*target, kIntegralClasses)) {
    // XLA's stochastic rounding (StochasticConvertDecomposer) is to integer
    // types only.
    return RuleError(
        instruction,
        absl::StrCat("stochastic-convert to ", ElementTypeName(*target),
                     ": XLA converts to integer types only"),
        section);
  }
  return CheckDeclaredDims(instruction, WithElementType(operand, *target),
                           section);
}

absl::StatusOr<Shape> ReducePrecisionShape(const Instruction& instruction,
                                           ShapeForm) {
  const std::string section = Section("ReducePrecision");
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, {0}, section));
  KILN_RULE_RETURN_IF_ERROR(
      CheckElementClasses(instruction, 0, kFloatClass, section));
  absl::StatusOr<int64_t> exponent =
      RequiredInt64Attr(instruction, attr::kExponentBits, section);
  if (!exponent.ok()) return exponent.status();
  absl::StatusOr<int64_t> mantissa =
      RequiredInt64Attr(instruction, attr::kMantissaBits, section);
  if (!mantissa.ok()) return mantissa.status();
  if (*exponent < 1 || *mantissa < 0) {
    return RuleError(
        instruction,
        absl::StrCat("exponent_bits=", *exponent, " mantissa_bits=", *mantissa,
                     ": need at least 1 exponent bit and a "
                     "non-negative number of mantissa bits"),
        section);
  }
  const Shape& operand = instruction.operand(0)->shape();
  return WithElementType(operand, operand.element_type());
}

// --- map ---

absl::Status CheckMapDimensions(const Instruction& instruction, int64_t rank,
                                absl::string_view section) {
  const std::vector<int64_t>* dims =
      Int64ListAttr(instruction, attr::kDimensions);
  if (dims == nullptr) return absl::OkStatus();
  bool identity = static_cast<int64_t>(dims->size()) == rank;
  for (size_t i = 0; identity && i < dims->size(); ++i) {
    identity = (*dims)[i] == static_cast<int64_t>(i);
  }
  if (identity) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("dimensions=", DimsToString(*dims),
                                " must list every operand dimension in order"),
                   section);
}

absl::StatusOr<Shape> MapShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Map");
  std::vector<int64_t> all;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) all.push_back(i);
  KILN_RULE_RETURN_IF_ERROR(CheckArrays(instruction, all, section));
  const Shape& first = instruction.operand(0)->shape();
  for (int64_t i : all) {
    const Shape& shape = instruction.operand(i)->shape();
    if (shape.dimensions() != first.dimensions()) {
      return RuleError(instruction,
                       absl::StrCat("operand ", i, " is ", ShapeText(shape),
                                    " but operand 0 is ", ShapeText(first),
                                    "; map operands need equal dimensions"),
                       section);
    }
  }
  KILN_RULE_RETURN_IF_ERROR(
      CheckMapDimensions(instruction, first.rank(), section));
  Computation* const* to_apply =
      instruction.attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr ||
      (*to_apply)->root() == nullptr) {
    return RuleError(instruction, "missing the to_apply computation", section);
  }
  const Computation& computation = **to_apply;
  if (static_cast<int64_t>(computation.parameters().size()) !=
      instruction.operand_count()) {
    return RuleError(
        instruction,
        absl::StrCat("to_apply takes ", computation.parameters().size(),
                     " parameters but map has ", instruction.operand_count(),
                     " operands"),
        section);
  }
  // The spec: "scalar computation of type T_0, T_1, ..., T_{N + M -1} ->
  // S": parameter i is a scalar of operand i's element type.
  for (int64_t i : all) {
    const Instruction* parameter = computation.parameters()[i];
    const ElementType type = instruction.operand(i)->shape().element_type();
    if (parameter == nullptr || !parameter->shape().IsScalar() ||
        parameter->shape().element_type() != type) {
      return RuleError(
          instruction,
          absl::StrCat("to_apply parameter ", i, " is ",
                       parameter == nullptr ? std::string("missing")
                                            : ShapeText(parameter->shape()),
                       " but must be a scalar ", ElementTypeName(type),
                       " like operand ", i, "'s elements"),
          section);
    }
  }
  const Shape& root = computation.root()->shape();
  if (!root.IsScalar()) {
    return RuleError(
        instruction,
        absl::StrCat("to_apply must return a scalar, got ", ShapeText(root)),
        section);
  }
  return WithElementType(first, root.element_type());
}

}  // namespace

void SetElementwiseSpecialShapeRules(SchemaTable* table) {
  SetShapeRule(table, Opcode::kCompare, &CompareShape);
  SetShapeRule(table, Opcode::kSelect, &SelectShape);
  SetShapeRule(table, Opcode::kClamp, &ClampShape);
  SetShapeRule(table, Opcode::kConvert, &ConvertShape);
  SetShapeRule(table, Opcode::kBitcastConvert, &BitcastConvertShape);
  SetShapeRule(table, Opcode::kStochasticConvert, &StochasticConvertShape);
  SetShapeRule(table, Opcode::kReducePrecision, &ReducePrecisionShape);
  SetShapeRule(table, Opcode::kMap, &MapShape);
}

}  // namespace ops_internal
}  // namespace kiln
