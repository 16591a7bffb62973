#include "compiler/builder/computations.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {
namespace {

// Stands in for a computation whose build failed; the error is already
// recorded in the parent, so no op using this can succeed.
XlaComputation Placeholder(absl::string_view name) {
  XlaBuilder builder(absl::StrCat(name, ".failed"));
  Parameter(&builder, 0, Shape::Scalar(ElementType::kPred), "unused");
  // A single pred parameter as ROOT always builds.
  absl::StatusOr<XlaComputation> built = builder.Build();
  return *std::move(built);
}

XlaComputation BuildOrNoteError(XlaBuilder* parent, XlaBuilder* sub) {
  absl::StatusOr<XlaComputation> built = sub->Build();
  if (built.ok()) return *std::move(built);
  parent->ReportError(built.status());
  return Placeholder(sub->name());
}

XlaComputation CreateScalarBinary(absl::string_view name, Opcode opcode,
                                  ElementType type, XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub =
      parent->CreateSubBuilder(absl::StrCat(name, "_", ElementTypeName(type)));
  const Shape scalar = Shape::Scalar(type);
  XlaOp lhs = Parameter(sub.get(), 0, scalar, "lhs");
  XlaOp rhs = Parameter(sub.get(), 1, scalar, "rhs");
  sub->AddInstruction(opcode, {lhs, rhs}, {});
  return BuildOrNoteError(parent, sub.get());
}

XlaComputation CreateScalarComparison(
    absl::string_view name, ComparisonDirection direction,
    absl::Span<const ElementType> operand_types, XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder(name);
  if (operand_types.empty()) {
    sub->ReportError(absl::InvalidArgumentError(absl::StrCat(
        sub->name(), ": a sort comparator needs at least one operand type ",
        "(operation_semantics.md, Sort)")));
    return BuildOrNoteError(parent, sub.get());
  }
  std::vector<XlaOp> params;
  for (size_t i = 0; i < operand_types.size(); ++i) {
    const Shape scalar = Shape::Scalar(operand_types[i]);
    params.push_back(
        Parameter(sub.get(), 2 * i, scalar, absl::StrCat("p.", i, ".lhs")));
    params.push_back(
        Parameter(sub.get(), 2 * i + 1, scalar, absl::StrCat("p.", i, ".rhs")));
  }
  AttributeMap attrs;
  attrs.Set(attr::kDirection, ToEnumValue(direction));
  sub->AddInstruction(Opcode::kCompare, {params[0], params[1]},
                      std::move(attrs));
  return BuildOrNoteError(parent, sub.get());
}

}  // namespace

XlaComputation CreateScalarAddComputation(ElementType type,
                                          XlaBuilder* parent) {
  const Opcode opcode = type == ElementType::kPred ? Opcode::kOr : Opcode::kAdd;
  return CreateScalarBinary("add", opcode, type, parent);
}

XlaComputation CreateScalarMultiplyComputation(ElementType type,
                                               XlaBuilder* parent) {
  const Opcode opcode =
      type == ElementType::kPred ? Opcode::kAnd : Opcode::kMultiply;
  return CreateScalarBinary("mul", opcode, type, parent);
}

XlaComputation CreateScalarMaxComputation(ElementType type,
                                          XlaBuilder* parent) {
  return CreateScalarBinary("max", Opcode::kMaximum, type, parent);
}

XlaComputation CreateScalarMinComputation(ElementType type,
                                          XlaBuilder* parent) {
  return CreateScalarBinary("min", Opcode::kMinimum, type, parent);
}

XlaComputation CreateScalarAndComputation(ElementType type,
                                          XlaBuilder* parent) {
  return CreateScalarBinary("and", Opcode::kAnd, type, parent);
}

XlaComputation CreateScalarOrComputation(ElementType type, XlaBuilder* parent) {
  return CreateScalarBinary("or", Opcode::kOr, type, parent);
}

XlaComputation CreateScalarLtComputation(
    absl::Span<const ElementType> operand_types, XlaBuilder* parent) {
  return CreateScalarComparison("lt", ComparisonDirection::kLt, operand_types,
                                parent);
}

XlaComputation CreateScalarGtComputation(
    absl::Span<const ElementType> operand_types, XlaBuilder* parent) {
  return CreateScalarComparison("gt", ComparisonDirection::kGt, operand_types,
                                parent);
}

}  // namespace kiln
