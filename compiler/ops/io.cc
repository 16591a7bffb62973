// Host and device transfers: infeed, outfeed, send/recv and their -done
// halves. Infeed and recv take their data shape from the declared result
// (XLA's infeed_shape / recv shape); the rules check its form.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

std::vector<AttrSpec> SendRecvAttrs() {
  return {Optional("channel_id", AttrKind::kInt64),
          Optional("is_host_transfer", AttrKind::kBool)};
}

constexpr absl::string_view kInfeed = "operation_semantics.md, Infeed";
constexpr absl::string_view kOutfeed = "operation_semantics.md, Outfeed";
constexpr absl::string_view kSend = "operation_semantics.md, Send";
constexpr absl::string_view kSendDone = "operation_semantics.md, SendDone";
constexpr absl::string_view kRecv = "operation_semantics.md, Recv";
constexpr absl::string_view kRecvDone = "operation_semantics.md, RecvDone";

// A copy of `shape` with default layouts.
Shape WithDefaultLayout(Shape shape) {
  shape.clear_layout();
  shape.SetDefaultLayoutIfMissing();
  return shape;
}

// True when `shape` is an array or a (nested) tuple of arrays: what a
// transfer can carry (no token or opaque inside).
bool IsTransferData(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (!IsTransferData(element)) return false;
    }
    return true;
  }
  return shape.IsArray();
}

absl::Status CheckTokenOperand(const Instruction& instruction, int64_t index,
                               absl::string_view section) {
  const Shape& shape = instruction.operand(index)->shape();
  if (shape.IsToken()) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("operand ", index, " is ", ShapeText(shape),
                                ", expected token[]"),
                   section);
}

absl::Status CheckDataOperand(const Instruction& instruction,
                              absl::string_view section) {
  const Shape& shape = instruction.operand(0)->shape();
  if (IsTransferData(shape)) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("operand 0 is ", ShapeText(shape),
                                ", expected an array or tuple of arrays"),
                   section);
}

// The declared result must be (data, <middle...>, token[]) with
// `middle` the shapes between data and token; infeed and recv take their
// data shape from it (the op has no operand that carries it).
absl::StatusOr<Shape> DeclaredTransferResult(const Instruction& instruction,
                                             const std::vector<Shape>& middle,
                                             absl::string_view section) {
  const Shape& declared = instruction.shape();
  const size_t arity = middle.size() + 2;
  bool ok = declared.IsTuple() && declared.tuple_shapes().size() == arity &&
            IsTransferData(declared.tuple_shape(0)) &&
            declared.tuple_shapes().back().IsToken();
  for (size_t i = 0; ok && i < middle.size(); ++i) {
    ok = declared.tuple_shape(i + 1).SameDimensionsAndType(middle[i]);
  }
  if (!ok) {
    std::string expected = "(data";
    for (const Shape& shape : middle) {
      absl::StrAppend(&expected, ", ", ShapeText(shape));
    }
    absl::StrAppend(&expected, ", token[])");
    return RuleError(instruction,
                     absl::StrCat("declared shape ", ShapeText(declared),
                                  " is not ", expected),
                     section);
  }
  return WithDefaultLayout(declared);
}

// The (data, u32[] context, token[]) tuple send and recv produce.
absl::Status CheckTransferContext(const Instruction& instruction,
                                  absl::string_view section) {
  const Shape& shape = instruction.operand(0)->shape();
  const bool ok = shape.IsTuple() && shape.tuple_shapes().size() == 3 &&
                  IsTransferData(shape.tuple_shape(0)) &&
                  shape.tuple_shape(1).SameDimensionsAndType(
                      Shape::Scalar(ElementType::kU32)) &&
                  shape.tuple_shape(2).IsToken();
  if (ok) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("operand 0 is ", ShapeText(shape),
                                ", expected (data, u32[], token[])"),
                   section);
}

// The spec: "Nested tuple shapes are not supported": the data is an array
// or a tuple of arrays.
absl::Status CheckInfeedDataNotNested(const Instruction& instruction,
                                      const Shape& data) {
  if (!data.IsTuple()) return absl::OkStatus();
  for (const Shape& element : data.tuple_shapes()) {
    if (element.IsTuple()) {
      return RuleError(instruction,
                       absl::StrCat("data ", ShapeText(data),
                                    " is a nested tuple; expected an array "
                                    "or a tuple of arrays"),
                       kInfeed);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> InfeedShape(const Instruction& instruction,
                                  ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckTokenOperand(instruction, 0, kInfeed));
  absl::StatusOr<Shape> result =
      DeclaredTransferResult(instruction, {}, kInfeed);
  if (!result.ok()) return result;
  KILN_RULE_RETURN_IF_ERROR(
      CheckInfeedDataNotNested(instruction, result->tuple_shape(0)));
  return result;
}

absl::StatusOr<Shape> OutfeedShape(const Instruction& instruction,
                                   ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckDataOperand(instruction, kOutfeed));
  KILN_RULE_RETURN_IF_ERROR(CheckTokenOperand(instruction, 1, kOutfeed));
  const Shape* outfeed_shape =
      instruction.attrs().Get<Shape>(attr::kOutfeedShape);
  const Shape& data = instruction.operand(0)->shape();
  if (outfeed_shape != nullptr && !outfeed_shape->Compatible(data)) {
    return RuleError(instruction,
                     absl::StrCat("outfeed_shape=", ShapeText(*outfeed_shape),
                                  " differs from operand 0 ", ShapeText(data)),
                     kOutfeed);
  }
  return Shape::Token();
}

absl::StatusOr<Shape> SendShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckDataOperand(instruction, kSend));
  KILN_RULE_RETURN_IF_ERROR(CheckTokenOperand(instruction, 1, kSend));
  return Shape::Tuple({WithDefaultLayout(instruction.operand(0)->shape()),
                       Shape::Scalar(ElementType::kU32), Shape::Token()});
}

absl::StatusOr<Shape> SendDoneShape(const Instruction& instruction,
                                    ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckTransferContext(instruction, kSendDone));
  return Shape::Token();
}

absl::StatusOr<Shape> RecvShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckTokenOperand(instruction, 0, kRecv));
  return DeclaredTransferResult(instruction, {Shape::Scalar(ElementType::kU32)},
                                kRecv);
}

absl::StatusOr<Shape> RecvDoneShape(const Instruction& instruction,
                                    ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckTransferContext(instruction, kRecvDone));
  return Shape::Tuple(
      {WithDefaultLayout(instruction.operand(0)->shape().tuple_shape(0)),
       Shape::Token()});
}

}  // namespace

void RegisterIoSchemas(SchemaTable* table) {
  // Operand: the token.
  Define(table, Opcode::kInfeed, 1, 1,
         {Optional("infeed_config", AttrKind::kString)});
  // Operands: the data and the token.
  Define(table, Opcode::kOutfeed, 2, 2,
         {Optional("outfeed_shape", AttrKind::kShape),
          Optional("outfeed_config", AttrKind::kString)});
  Define(table, Opcode::kSend, 2, 2, SendRecvAttrs());
  Define(table, Opcode::kSendDone, 1, 1, SendRecvAttrs());
  Define(table, Opcode::kRecv, 1, 1, SendRecvAttrs());
  Define(table, Opcode::kRecvDone, 1, 1, SendRecvAttrs());

  SetShapeRule(table, Opcode::kInfeed, InfeedShape);
  SetShapeRule(table, Opcode::kOutfeed, OutfeedShape);
  SetShapeRule(table, Opcode::kSend, SendShape);
  SetShapeRule(table, Opcode::kSendDone, SendDoneShape);
  SetShapeRule(table, Opcode::kRecv, RecvShape);
  SetShapeRule(table, Opcode::kRecvDone, RecvDoneShape);
}

}  // namespace ops_internal
}  // namespace kiln
