// Shape rules of the data-movement family: valid cases with their exact
// result shapes and one invalid case per constraint.
#include <string>

#include "compiler/ir/instruction.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/testing/shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::testing::InferRootText;
using ::testing::HasSubstr;

// ROOT r = <declared> <op>(p0)<attrs> with p0 of shape `operand`.
std::string Unary(const std::string& op, const std::string& operand,
                  const std::string& attrs,
                  const std::string& declared = "f32[]",
                  ShapeForm form = ShapeForm::kClient) {
  return InferRootText("p0 = " + operand + " parameter(0)\nROOT r = " +
                           declared + " " + op + "(p0)" + attrs,
                       form);
}

TEST(DataMovementShapeTest, Broadcast) {
  EXPECT_EQ(Unary("broadcast", "f32[3]", ", dimensions={1}", "f32[2,3]"),
            "f32[2,3]");
  EXPECT_EQ(Unary("broadcast", "s32[]", ", dimensions={}", "f32[2,3]"),
            "s32[2,3]");
  EXPECT_EQ(Unary("broadcast", "f32[1,3]", ", dimensions={0,2}", "f32[4,2,3]"),
            "f32[4,2,3]");
  EXPECT_THAT(Unary("broadcast", "f32[1,3]", ", dimensions={0,2}", "f32[4,2,3]",
                    ShapeForm::kStrict),
              HasSubstr("operand dim 0 (size 1) maps to result dim 0 (size "
                        "4); sizes must match (operation_semantics.md, "
                        "Broadcast)"));
  EXPECT_THAT(Unary("broadcast", "f32[3]", ", dimensions={0}", "f32[2,3]"),
              HasSubstr("sizes must match"));
  EXPECT_THAT(Unary("broadcast", "f32[3,2]", ", dimensions={1,0}", "f32[2,3]"),
              HasSubstr("must be strictly increasing"));
  EXPECT_THAT(Unary("broadcast", "f32[3]", ", dimensions={2}", "f32[2,3]"),
              HasSubstr("out of range"));
  EXPECT_THAT(Unary("broadcast", "f32[3]", ", dimensions={0,1}", "f32[2,3]"),
              HasSubstr("has 2 entries but operand f32[3] has rank 1"));
}

TEST(DataMovementShapeTest, Transpose) {
  EXPECT_EQ(Unary("transpose", "f32[2,3,4]", ", dimensions={2,0,1}"),
            "f32[4,2,3]");
  EXPECT_EQ(Unary("transpose", "f32[<=2,3]", ", dimensions={1,0}"),
            "f32[3,<=2]");
  EXPECT_THAT(Unary("transpose", "f32[2,3]", ", dimensions={0,0}"),
              HasSubstr("dimensions {0,0} repeats dimension 0"));
  EXPECT_THAT(Unary("transpose", "f32[2,3]", ", dimensions={0}"),
              HasSubstr("expected a permutation of the 2 dimensions"));
  EXPECT_THAT(Unary("transpose", "f32[2,3]", ", dimensions={0,2}"),
              HasSubstr("out of range [0, 2)"));
}

TEST(DataMovementShapeTest, Reverse) {
  EXPECT_EQ(Unary("reverse", "f32[2,3]", ", dimensions={1,0}"), "f32[2,3]");
  EXPECT_EQ(Unary("reverse", "f32[2,3]", ", dimensions={}"), "f32[2,3]");
  EXPECT_THAT(Unary("reverse", "f32[2,3]", ", dimensions={1,1}"),
              HasSubstr("repeats dimension 1"));
  EXPECT_THAT(Unary("reverse", "f32[2,3]", ", dimensions={3}"),
              HasSubstr("out of range"));
}

TEST(DataMovementShapeTest, Slice) {
  EXPECT_EQ(Unary("slice", "f32[10,8]", ", slice={[2:5], [0:8:3]}"),
            "f32[3,3]");
  EXPECT_EQ(Unary("slice", "f32[10]", ", slice={[4:4]}"), "f32[0]");
  EXPECT_EQ(Unary("slice", "f32[10]", ", slice={[1:10:4]}"), "f32[3]");
  EXPECT_THAT(Unary("slice", "f32[10]", ", slice={[2:11]}"),
              HasSubstr("slice dim 0 [2:11:1]: limit exceeds the dimension "
                        "size 10"));
  EXPECT_THAT(Unary("slice", "f32[10]", ", slice={[5:2]}"),
              HasSubstr("needs 0 <= start <= limit"));
  EXPECT_THAT(Unary("slice", "f32[10]", ", slice={[0:2:0]}"),
              HasSubstr("stride must be positive"));
  EXPECT_THAT(Unary("slice", "f32[10,2]", ", slice={[0:2]}"),
              HasSubstr("slice has 1 ranges but operand f32[10,2] has rank 2"));
}

TEST(DataMovementShapeTest, Concatenate) {
  const std::string operands =
      "p0 = f32[2,3] parameter(0)\n"
      "p1 = f32[2,5] parameter(1)\n"
      "p2 = f32[4,3] parameter(2)\n"
      "p3 = s32[2,3] parameter(3)\n";
  EXPECT_EQ(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p1, p0), "
                                     "dimensions={1}"),
            "f32[2,11]");
  EXPECT_EQ(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p2), "
                                     "dimensions={0}"),
            "f32[6,3]");
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p1), "
                                       "dimensions={0}"),
              HasSubstr("operand 1 f32[2,5] does not match operand 0 f32[2,3] "
                        "in element type and every dimension but 0"));
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p3), "
                                       "dimensions={1}"),
              HasSubstr("does not match"));
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p0), "
                                       "dimensions={2}"),
              HasSubstr("out of range"));
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] concatenate(p0, p0), "
                                       "dimensions={0,1}"),
              HasSubstr("must name exactly one dimension"));
}

std::string Pad(const std::string& operand, const std::string& value,
                const std::string& padding) {
  return InferRootText(
      "p0 = " + operand + " parameter(0)\np1 = " + value +
      " parameter(1)\nROOT r = f32[] pad(p0, p1), padding=" + padding);
}

TEST(DataMovementShapeTest, Pad) {
  EXPECT_EQ(Pad("f32[5]", "f32[]", "1_2"), "f32[8]");
  EXPECT_EQ(Pad("f32[5,3]", "f32[]", "0_0_1x2_1"), "f32[9,6]");
  EXPECT_EQ(Pad("f32[5]", "f32[]", "-1_-2"), "f32[2]");
  EXPECT_EQ(Pad("f32[5]", "f32[]", "-2_0_1"), "f32[7]");
  EXPECT_EQ(Pad("f32[0]", "f32[]", "1_1_3"), "f32[2]");
  EXPECT_THAT(Pad("f32[5]", "f32[]", "-4_-2"),
              HasSubstr("padding -4_-2_0 of dim 0 (size 5) needs interior >= "
                        "0 and a result size in [0, 2^63)"));
  EXPECT_THAT(Pad("f32[5]", "f32[]", "0_0_-1"), HasSubstr("interior >= 0"));
  EXPECT_THAT(Pad("f32[5]", "f32[]", "9223372036854775807_1"),
              HasSubstr("result size in [0, 2^63)"));
  EXPECT_THAT(Pad("f32[5]", "s32[]", "1_1"),
              HasSubstr("padding value s32[] must be a scalar of the "
                        "operand's type f32"));
  EXPECT_THAT(Pad("f32[5]", "f32[1]", "1_1"), HasSubstr("must be a scalar"));
  EXPECT_THAT(Pad("f32[5,2]", "f32[]", "1_1"),
              HasSubstr("for each of the 2 operand dimensions"));
}

TEST(DataMovementShapeTest, Iota) {
  EXPECT_EQ(InferRootText("ROOT r = s32[4,8] iota(), iota_dimension=1"),
            "s32[4,8]");
  EXPECT_EQ(InferRootText("ROOT r = f32[4] iota(), iota_dimension=0"),
            "f32[4]");
  EXPECT_THAT(InferRootText("ROOT r = s32[4,8] iota(), iota_dimension=2"),
              HasSubstr("iota_dimension=2 is out of range for s32[4,8]"));
  EXPECT_THAT(InferRootText("ROOT r = s32[] iota(), iota_dimension=0"),
              HasSubstr("out of range"));
  EXPECT_THAT(InferRootText("ROOT r = pred[4] iota(), iota_dimension=0"),
              HasSubstr("iota cannot count in pred"));
}

TEST(DataMovementShapeTest, Reshape) {
  EXPECT_EQ(Unary("reshape", "f32[2,3]", "", "f32[3,2]"), "f32[3,2]");
  EXPECT_EQ(Unary("reshape", "f32[6]", "", "f32[1,6,1]"), "f32[1,6,1]");
  EXPECT_EQ(Unary("reshape", "f32[<=6]", "", "f32[<=2,3]"), "f32[<=2,3]");
  EXPECT_EQ(Unary("reshape", "f32[?,3]", "", "f32[?]"), "f32[?]");
  EXPECT_EQ(Unary("reshape", "f32[2,3]", ", inferred_dimension=0", "f32[3,2]"),
            "f32[3,2]");
  EXPECT_THAT(Unary("reshape", "f32[2,3]", "", "f32[7]"),
              HasSubstr("reshape from f32[2,3] to f32[7] changes the element "
                        "count"));
  EXPECT_THAT(Unary("reshape", "f32[2,3]", "", "s32[6]"),
              HasSubstr("must be an array of the operand's type f32"));
  EXPECT_THAT(
      Unary("reshape", "f32[2,3]", ", inferred_dimension=2", "f32[3,2]"),
      HasSubstr("inferred_dimension=2 is out of range"));
}

TEST(DataMovementShapeTest, DynamicReshape) {
  const std::string operands =
      "p0 = f32[<=6] parameter(0)\n"
      "a = s32[] parameter(1)\n"
      "b = s32[] parameter(2)\n"
      "c = s64[] parameter(3)\n";
  EXPECT_EQ(InferRootText(operands +
                          "ROOT r = f32[<=2,<=3] dynamic-reshape(p0, a, b)"),
            "f32[<=2,<=3]");
  EXPECT_THAT(
      InferRootText(operands + "ROOT r = f32[<=2,<=3] dynamic-reshape(p0, a)"),
      HasSubstr("one size operand per dimension (1 given)"));
  EXPECT_THAT(InferRootText(operands +
                            "ROOT r = f32[<=2,<=3] dynamic-reshape(p0, a, c)"),
              HasSubstr("size operand 2 is s64[], expected s32[]"));
}

TEST(DataMovementShapeTest, Bitcast) {
  EXPECT_EQ(Unary("bitcast", "f32[2,3]", "", "s32[6]"), "s32[6]");
  EXPECT_EQ(Unary("bitcast", "f32[4]", "", "f16[8]"), "f16[8]");
  EXPECT_THAT(Unary("bitcast", "f32[2,3]", "", "f32[5]"),
              HasSubstr("bitcast from f32[2,3] to f32[5] changes the byte "
                        "size"));
}

TEST(DataMovementShapeTest, TupleAndGetTupleElement) {
  EXPECT_EQ(InferRootText("a = f32[2] parameter(0)\nb = s32[] parameter(1)\n"
                          "ROOT t = (f32[2], s32[]) tuple(a, b)"),
            "(f32[2], s32[])");
  EXPECT_EQ(InferRootText("ROOT t = () tuple()"), "()");
  const std::string tuple = "p = (f32[2], (s32[], u8[3])) parameter(0)\n";
  EXPECT_EQ(InferRootText(tuple + "ROOT g = f32[] get-tuple-element(p), "
                                  "index=1"),
            "(s32[], u8[3])");
  EXPECT_THAT(InferRootText(tuple + "ROOT g = f32[] get-tuple-element(p), "
                                    "index=2"),
              HasSubstr("index=2 is not an element of (f32[2], (s32[], "
                        "u8[3]))"));
  EXPECT_THAT(Unary("get-tuple-element", "f32[2]", ", index=0"),
              HasSubstr("is not an element of f32[2]"));
}

TEST(DataMovementShapeTest, ConstantAndParameter) {
  EXPECT_EQ(InferRootText("ROOT c = f32[2] constant({1, 2})"), "f32[2]");
  EXPECT_EQ(InferRootText("ROOT p = (f32[2], s32[]) parameter(0)"),
            "(f32[2], s32[])");
}

TEST(DataMovementShapeTest, ConstantNeedsALiteralAndParameterAShape) {
  Instruction constant(Opcode::kConstant, Shape::Array(ElementType::kF32, {2}),
                       "c.1");
  EXPECT_EQ(InferShape(constant).status().message(),
            "c.1: constant has no literal value (operation_semantics.md, "
            "Constant)");
  Instruction parameter(Opcode::kParameter, Shape(), "p.1");
  EXPECT_THAT(std::string(InferShape(parameter).status().message()),
              HasSubstr("a parameter's shape must be declared"));
}

TEST(DataMovementShapeTest, DeclaredShapeOpsNeedADeclaredArray) {
  Instruction iota(Opcode::kIota, Shape(), "iota.1");
  iota.mutable_attrs()->Set("iota_dimension", int64_t{0});
  EXPECT_THAT(std::string(InferShape(iota).status().message()),
              HasSubstr("the result sizes come from the declared shape"));
}

TEST(DataMovementShapeTest, CopyStartAndDone) {
  EXPECT_EQ(Unary("copy-start", "f32[2,3]", "", "(f32[2,3], f32[2,3], u32[])"),
            "(f32[2,3], f32[2,3], u32[])");
  EXPECT_EQ(InferRootText("p = f32[2,3] parameter(0)\n"
                          "s = (f32[2,3], f32[2,3], u32[]) copy-start(p)\n"
                          "ROOT d = f32[2,3] copy-done(s)"),
            "f32[2,3]");
  EXPECT_THAT(Unary("copy-done", "f32[2,3]", ""),
              HasSubstr("copy-done takes copy-start's"));
}

TEST(DataMovementShapeTest, GetAndSetDimensionSize) {
  EXPECT_EQ(Unary("get-dimension-size", "f32[2,<=5]", ", dimensions={1}"),
            "s32[]");
  EXPECT_THAT(Unary("get-dimension-size", "f32[2,5]", ", dimensions={2}"),
              HasSubstr("out of range"));
  EXPECT_THAT(Unary("get-dimension-size", "f32[2,5]", ", dimensions={0,1}"),
              HasSubstr("must name exactly one dimension"));
  const std::string operands =
      "p = f32[2,5] parameter(0)\n"
      "s = s32[] parameter(1)\n"
      "u = u32[] parameter(2)\n";
  EXPECT_EQ(InferRootText(operands + "ROOT r = f32[] set-dimension-size(p, s), "
                                     "dimensions={1}"),
            "f32[2,<=5]");
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] set-dimension-size(p, "
                                       "u), dimensions={1}"),
              HasSubstr("size operand is u32[], expected s32[]"));
  EXPECT_THAT(InferRootText(operands + "ROOT r = f32[] set-dimension-size(p, "
                                       "s), dimensions={5}"),
              HasSubstr("out of range"));
}

}  // namespace
}  // namespace kiln
