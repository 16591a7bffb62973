// Every elementwise and data-movement shape rule meets hostile input --
// tuple, token, scalar and empty operands, no attributes, no declared
// shape -- with a status, never a crash (run under ASan/UBSan too).
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/instruction.h"
#include "compiler/ops/op_schema.h"
#include "compiler/ops/shape_inference.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr Opcode kOpcodes[] = {
    Opcode::kAbs,
    Opcode::kAdd,
    Opcode::kAnd,
    Opcode::kAtan2,
    Opcode::kBitcastConvert,
    Opcode::kCeil,
    Opcode::kClamp,
    Opcode::kClz,
    Opcode::kCompare,
    Opcode::kComplex,
    Opcode::kConvert,
    Opcode::kCopy,
    Opcode::kIsFinite,
    Opcode::kMap,
    Opcode::kNot,
    Opcode::kPower,
    Opcode::kReal,
    Opcode::kReducePrecision,
    Opcode::kSelect,
    Opcode::kShiftLeft,
    Opcode::kStochasticConvert,
    Opcode::kBroadcast,
    Opcode::kTranspose,
    Opcode::kReverse,
    Opcode::kSlice,
    Opcode::kConcatenate,
    Opcode::kPad,
    Opcode::kIota,
    Opcode::kReshape,
    Opcode::kDynamicReshape,
    Opcode::kBitcast,
    Opcode::kTuple,
    Opcode::kGetTupleElement,
    Opcode::kCopyStart,
    Opcode::kCopyDone,
    Opcode::kGetDimensionSize,
    Opcode::kSetDimensionSize,
    Opcode::kConstant,
    Opcode::kParameter,
};

std::vector<Shape> HostileShapes() {
  return {
      Shape(),
      Shape::Token(),
      Shape::Tuple({}),
      Shape::Tuple({Shape::Scalar(ElementType::kF32), Shape::Token()}),
      Shape::Scalar(ElementType::kPred),
      Shape::Scalar(ElementType::kS32),
      Shape::Array(ElementType::kF32, {0}),
      Shape::Array(ElementType::kC64, {2, 3}),
      Shape::Array(ElementType::kU4, {1, 1, 1}),
      Shape::DynamicArray(ElementType::kF16, {Shape::kUnboundedSize, 4},
                          {true, false}),
      Shape::Array(ElementType::kS8, {int64_t{1} << 62, 4}),
  };
}

TEST(ShapeRuleRobustnessTest, HostileOperandsGiveStatusesNotCrashes) {
  const std::vector<Shape> shapes = HostileShapes();
  std::vector<std::unique_ptr<Instruction>> operands;
  for (size_t i = 0; i < shapes.size(); ++i) {
    operands.push_back(std::make_unique<Instruction>(
        Opcode::kParameter, shapes[i], "p" + std::to_string(i)));
  }
  int checked = 0;
  for (Opcode opcode : kOpcodes) {
    ASSERT_TRUE(HasShapeRule(opcode)) << OpcodeName(opcode);
    const OpSchema& schema = GetOpSchema(opcode);
    const int count = std::max(schema.min_operands, 1);
    for (const Shape& declared : shapes) {
      for (size_t first = 0; first < operands.size(); ++first) {
        Instruction instruction(opcode, declared, "x");
        for (int k = 0; k < count; ++k) {
          instruction.AppendOperand(
              operands[(first + k) % operands.size()].get());
        }
        for (ShapeForm form : {ShapeForm::kClient, ShapeForm::kStrict}) {
          absl::StatusOr<Shape> shape = InferShape(instruction, form);
          if (!shape.ok()) {
            EXPECT_FALSE(shape.status().message().empty());
          }
          ++checked;
        }
        instruction.DetachOperands();
      }
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace kiln
