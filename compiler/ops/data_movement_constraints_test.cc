// One valid case per data-movement op, and for each constraint its section
// of operation_semantics.md states, one invalid case whose error names the
// constraint and the section. The full table (with the constraints where the
// spec is silent and Kiln follows XLA) is
// docs/shape_rule_coverage_elementwise_data.md; in short:
//
// op                  | constraints                               | test
// --------------------|-------------------------------------------|-------------
// broadcast           | operand array; one dim per operand dim,   | Broadcast
//                     | in range, increasing; size 1 or equal     |
// reshape             | same element type; same element count;    | Reshape
//                     | one-element array <-> scalar              |
// dynamic-reshape     | one s32[] size per result dim; type T     |
// DynamicReshape transpose           | a permutation of the operand dims |
// Transpose reverse             | dims in range, no repeats                 |
// Reverse slice               | N ranges; 0 <= start <= limit <= size;    |
// Slice
//                     | positive strides                          |
// concatenate         | same rank and type; all dims equal but    | Concatenate
//                     | the one named, in [0, rank); no scalars   |
// pad                 | scalar padding value of T; one config per | Pad
//                     | dim; interior >= 0; result size >= 0      |
// iota                | iota_dimension in range; array; not pred  | Iota
// bitcast             | arrays of equal byte size                 | Bitcast
// get-dimension-size  | array operand; dimension in [0, n)        |
// GetDimensionSize set-dimension-size  | array operand; s32 size; dim in [0, n)
// | SetDimensionSize tuple, copy         | any shapes (no constraint) |
// TupleAndCopy get-tuple-element   | tuple operand; index in range |
// GetTupleElement
#include <string>

#include "compiler/ops/shape_inference.h"
#include "compiler/ops/testing/shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::testing::InferRootText;
using ::testing::HasSubstr;

std::string Spec(const std::string& heading) {
  return "(operation_semantics.md, " + heading + ")";
}

// ROOT r = <declared> <op>(p0)<attrs>, p0 of shape `operand`.
std::string Unary(const std::string& op, const std::string& operand,
                  const std::string& attrs,
                  const std::string& declared = "f32[]",
                  ShapeForm form = ShapeForm::kClient) {
  return InferRootText("p0 = " + operand + " parameter(0)\nROOT r = " +
                           declared + " " + op + "(p0)" + attrs,
                       form);
}

TEST(DataMovementConstraintsTest, Broadcast) {
  const std::string s = Spec("Broadcast");
  EXPECT_EQ(Unary("broadcast", "f32[2]", ", dimensions={0}", "f32[2,5]"),
            "f32[2,5]");
  EXPECT_EQ(Unary("broadcast", "f32[1,5]", ", dimensions={0,1}", "f32[3,5]"),
            "f32[3,5]");
  EXPECT_THAT(Unary("broadcast", "(f32[2])", ", dimensions={0}", "f32[2,5]"),
              HasSubstr("operand 0 is (f32[2]), expected an array " + s));
  EXPECT_THAT(Unary("broadcast", "f32[2]", ", dimensions={}", "f32[2,5]"),
              HasSubstr("has 0 entries but operand f32[2] has rank 1 " + s));
  EXPECT_THAT(Unary("broadcast", "f32[2]", ", dimensions={-1}", "f32[2,5]"),
              HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(Unary("broadcast", "f32[2,2]", ", dimensions={1,0}", "f32[2,2]"),
              HasSubstr("must be strictly increasing " + s));
  EXPECT_THAT(Unary("broadcast", "f32[3]", ", dimensions={1}", "f32[3,4]"),
              HasSubstr("operand dim 0 (size 3) maps to result dim 1 (size 4);"
                        " sizes must match " +
                        s));
  EXPECT_THAT(Unary("broadcast", "f32[2]", ", dimensions={0}", "(f32[2,5])"),
              HasSubstr(s));
}

TEST(DataMovementConstraintsTest, Reshape) {
  const std::string s = Spec("Reshape");
  EXPECT_EQ(Unary("reshape", "f32[4,2,3]", "", "f32[8,3]"), "f32[8,3]");
  EXPECT_EQ(Unary("reshape", "f32[1,1]", "", "f32[]"), "f32[]");
  EXPECT_EQ(Unary("reshape", "f32[]", "", "f32[1,1]"), "f32[1,1]");
  EXPECT_THAT(Unary("reshape", "f32[4,2,3]", "", "f32[5,5]"),
              HasSubstr("reshape from f32[4,2,3] to f32[5,5] changes the "
                        "element count " +
                        s));
  EXPECT_THAT(Unary("reshape", "f32[2]", "", "f32[]"),
              HasSubstr("changes the element count " + s));
  EXPECT_THAT(Unary("reshape", "f32[2]", "", "bf16[2]"),
              HasSubstr("must be an array of the operand's type f32 " + s));
  EXPECT_THAT(Unary("reshape", "(f32[2])", "", "f32[2]"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, DynamicReshape) {
  const std::string s = Spec("DynamicReshape");
  const std::string operands =
      "p0 = s8[<=12] parameter(0)\n"
      "a = s32[] parameter(1)\n"
      "b = s32[] parameter(2)\n"
      "v = s32[2] parameter(3)\n";
  EXPECT_EQ(InferRootText(operands +
                          "ROOT r = s8[<=3,<=4] dynamic-reshape(p0, a, b)"),
            "s8[<=3,<=4]");
  EXPECT_THAT(
      InferRootText(operands + "ROOT r = s8[<=3,<=4] dynamic-reshape(p0, a)"),
      HasSubstr("one size operand per dimension (1 given) " + s));
  EXPECT_THAT(InferRootText(operands +
                            "ROOT r = u8[<=3,<=4] dynamic-reshape(p0, a, b)"),
              HasSubstr("must be an array of the operand's type s8 " + s));
  EXPECT_THAT(InferRootText(operands +
                            "ROOT r = s8[<=3,<=4] dynamic-reshape(p0, a, v)"),
              HasSubstr("size operand 2 is s32[2], expected s32[] " + s));
}

TEST(DataMovementConstraintsTest, Transpose) {
  const std::string s = Spec("Transpose");
  EXPECT_EQ(Unary("transpose", "f32[2,3,4]", ", dimensions={1,2,0}"),
            "f32[3,4,2]");
  EXPECT_EQ(Unary("transpose", "f32[]", ", dimensions={}"), "f32[]");
  EXPECT_THAT(Unary("transpose", "f32[2,3,4]", ", dimensions={1,2}"),
              HasSubstr("has 2 entries, expected a permutation of the 3 "
                        "dimensions " +
                        s));
  EXPECT_THAT(Unary("transpose", "f32[2,3]", ", dimensions={1,1}"),
              HasSubstr("repeats dimension 1 " + s));
  EXPECT_THAT(Unary("transpose", "f32[2,3]", ", dimensions={-1,0}"),
              HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(Unary("transpose", "(f32[2,3])", ", dimensions={1,0}"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, Reverse) {
  const std::string s = Spec("Rev (reverse)");
  EXPECT_EQ(Unary("reverse", "s32[2,3,4]", ", dimensions={0,2}"), "s32[2,3,4]");
  EXPECT_THAT(Unary("reverse", "s32[2,3]", ", dimensions={0,0}"),
              HasSubstr("repeats dimension 0 " + s));
  EXPECT_THAT(Unary("reverse", "s32[2,3]", ", dimensions={2}"),
              HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(Unary("reverse", "(s32[2])", ", dimensions={0}"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, Slice) {
  const std::string s = Spec("Slice");
  // The spec's two examples.
  EXPECT_EQ(Unary("slice", "f32[5]", ", slice={[2:4]}"), "f32[2]");
  EXPECT_EQ(Unary("slice", "f32[4,3]", ", slice={[2:4], [1:3]}"), "f32[2,2]");
  EXPECT_EQ(Unary("slice", "f32[9]", ", slice={[0:9:4]}"), "f32[3]");
  EXPECT_THAT(
      Unary("slice", "f32[5]", ", slice={[-1:4]}"),
      HasSubstr("slice dim 0 [-1:4:1]: needs 0 <= start <= limit " + s));
  EXPECT_THAT(Unary("slice", "f32[5]", ", slice={[4:2]}"),
              HasSubstr("[4:2:1]: needs 0 <= start <= limit " + s));
  EXPECT_THAT(Unary("slice", "f32[4,3]", ", slice={[0:4], [1:4]}"),
              HasSubstr("slice dim 1 [1:4:1]: limit exceeds the dimension "
                        "size 3 " +
                        s));
  EXPECT_THAT(Unary("slice", "f32[5]", ", slice={[0:4:-1]}"),
              HasSubstr("stride must be positive " + s));
  EXPECT_THAT(
      Unary("slice", "f32[5]", ", slice={[0:4], [0:1]}"),
      HasSubstr("slice has 2 ranges but operand f32[5] has rank 1 " + s));
  EXPECT_THAT(Unary("slice", "(f32[5])", ", slice={[0:4]}"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, Concatenate) {
  const std::string s = Spec("ConcatInDim (Concatenate)");
  const std::string operands =
      "a = f32[3,2] parameter(0)\n"
      "b = f32[1,2] parameter(1)\n"
      "v = f32[2] parameter(2)\n"
      "x = f32[] parameter(3)\n"
      "t = (f32[3,2]) parameter(4)\n";
  auto concat = [&](const std::string& args, const std::string& dims) {
    return InferRootText(operands + "ROOT r = f32[] concatenate(" + args +
                         "), dimensions={" + dims + "}");
  };
  // The spec's 2-dimensional example, and one operand alone.
  EXPECT_EQ(concat("a, b", "0"), "f32[4,2]");
  EXPECT_EQ(concat("a", "1"), "f32[3,2]");
  EXPECT_THAT(concat("a, b", "1"),
              HasSubstr("operand 1 f32[1,2] does not match operand 0 "
                        "f32[3,2] in element type and every dimension but 1 " +
                        s));
  EXPECT_THAT(concat("a, v", "0"),
              HasSubstr("operand 1 f32[2] has rank 1 but operand 0 f32[3,2] "
                        "has rank 2; concatenated arrays need one rank " +
                        s));
  EXPECT_THAT(concat("a, b", "2"), HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(concat("x, x", "0"),
              HasSubstr("operand 0 is the scalar f32[]; 0-dimensional values "
                        "cannot be concatenated " +
                        s));
  EXPECT_THAT(concat("a, t", "0"),
              HasSubstr("operand 1 is (f32[3,2]), expected an array " + s));
  EXPECT_THAT(concat("a, a", "0,1"),
              HasSubstr("must name exactly one dimension " + s));
  EXPECT_THAT(InferRootText("a = f32[3,2] parameter(0)\n"
                            "b = s32[1,2] parameter(1)\n"
                            "ROOT r = f32[] concatenate(a, b), dimensions={0}"),
              HasSubstr("in element type and every dimension but 0 " + s));
}

std::string Pad(const std::string& operand, const std::string& value,
                const std::string& padding) {
  return InferRootText(
      "p0 = " + operand + " parameter(0)\np1 = " + value +
      " parameter(1)\nROOT r = f32[] pad(p0, p1), padding=" + padding);
}

TEST(DataMovementConstraintsTest, Pad) {
  const std::string s = Spec("Pad");
  EXPECT_EQ(Pad("s32[2,3]", "s32[]", "1_1_1x-1_0_0"), "s32[5,2]");
  EXPECT_EQ(Pad("s32[3]", "s32[]", "0_0"), "s32[3]");
  EXPECT_THAT(Pad("s32[3]", "s32[]", "0_0_-2"),
              HasSubstr("padding 0_0_-2 of dim 0 (size 3) needs interior >= 0 "
                        "and a result size in [0, 2^63) " +
                        s));
  EXPECT_THAT(Pad("s32[3]", "s32[]", "-2_-2"),
              HasSubstr("result size in [0, 2^63) " + s));
  EXPECT_THAT(Pad("s32[3]", "s32[1]", "0_0"),
              HasSubstr("padding value s32[1] must be a scalar of the "
                        "operand's type s32 " +
                        s));
  EXPECT_THAT(Pad("s32[3]", "u32[]", "0_0"),
              HasSubstr("must be a scalar of the operand's type s32 " + s));
  EXPECT_THAT(Pad("s32[3]", "s32[]", "0_0x0_0"),
              HasSubstr("for each of the 1 operand dimensions"));
  EXPECT_THAT(Pad("(s32[3])", "s32[]", "0_0"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, Iota) {
  const std::string s = Spec("Iota");
  // The spec's examples.
  EXPECT_EQ(InferRootText("ROOT r = s32[4,8] iota(), iota_dimension=0"),
            "s32[4,8]");
  EXPECT_EQ(InferRootText("ROOT r = bf16[4,8] iota(), iota_dimension=1"),
            "bf16[4,8]");
  EXPECT_THAT(InferRootText("ROOT r = s32[4,8] iota(), iota_dimension=-1"),
              HasSubstr("iota_dimension=-1 is out of range for s32[4,8] " + s));
  EXPECT_THAT(InferRootText("ROOT r = (s32[4]) iota(), iota_dimension=0"),
              HasSubstr(s));
  EXPECT_THAT(InferRootText("ROOT r = pred[4] iota(), iota_dimension=0"),
              HasSubstr("iota cannot count in pred " + s));
}

TEST(DataMovementConstraintsTest, Bitcast) {
  const std::string s = Spec("Bitcast");
  EXPECT_EQ(Unary("bitcast", "f32[2,3]{0,1}", "", "f32[3,2]"), "f32[3,2]");
  EXPECT_THAT(Unary("bitcast", "f32[2,3]", "", "f16[6]"),
              HasSubstr("bitcast from f32[2,3] to f16[6] changes the byte "
                        "size " +
                        s));
  EXPECT_THAT(Unary("bitcast", "(f32[2])", "", "f32[2]"),
              HasSubstr("needs arrays " + s));
}

TEST(DataMovementConstraintsTest, GetDimensionSize) {
  const std::string s = Spec("GetDimensionSize");
  EXPECT_EQ(Unary("get-dimension-size", "f32[<=3,4]", ", dimensions={0}"),
            "s32[]");
  EXPECT_THAT(Unary("get-dimension-size", "f32[3,4]", ", dimensions={2}"),
              HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(Unary("get-dimension-size", "f32[3,4]", ", dimensions={-1}"),
              HasSubstr("out of range [0, 2) " + s));
  EXPECT_THAT(Unary("get-dimension-size", "(f32[3])", ", dimensions={0}"),
              HasSubstr("expected an array " + s));
}

TEST(DataMovementConstraintsTest, SetDimensionSize) {
  const std::string s = Spec("SetDimensionSize");
  const std::string operands =
      "p = f32[10] parameter(0)\n"
      "five = s32[] parameter(1)\n"
      "wide = s64[] parameter(2)\n"
      "t = (f32[10]) parameter(3)\n";
  auto set = [&](const std::string& args, const std::string& dims) {
    return InferRootText(operands + "ROOT r = f32[] set-dimension-size(" +
                         args + "), dimensions={" + dims + "}");
  };
  // The spec's example keeps the static bound 10.
  EXPECT_EQ(set("p, five", "0"), "f32[<=10]");
  EXPECT_THAT(set("p, wide", "0"),
              HasSubstr("size operand is s64[], expected s32[] " + s));
  EXPECT_THAT(set("p, five", "1"), HasSubstr("out of range [0, 1) " + s));
  EXPECT_THAT(set("t, five", "0"), HasSubstr("expected an array " + s));
  // XLA: an unbounded dimension has no static bound to keep.
  EXPECT_THAT(InferRootText("p = f32[?] parameter(0)\nn = s32[] parameter(1)\n"
                            "ROOT r = f32[] set-dimension-size(p, n), "
                            "dimensions={0}"),
              HasSubstr("dimension 0 is unbounded; set-dimension-size needs a "
                        "bound " +
                        s));
}

TEST(DataMovementConstraintsTest, TupleAndCopy) {
  // The spec's tuple example; tuple and copy accept any shapes.
  EXPECT_EQ(InferRootText("v = f32[10] parameter(0)\ns = s32[] parameter(1)\n"
                          "ROOT t = (f32[10], s32[]) tuple(v, s)"),
            "(f32[10], s32[])");
  EXPECT_EQ(InferRootText("k = token[] after-all()\nv = f32[2] parameter(0)\n"
                          "ROOT t = (token[], f32[2]) tuple(k, v)"),
            "(token[], f32[2])");
  EXPECT_EQ(Unary("copy", "(f32[2], (s32[]))", ""), "(f32[2], (s32[]))");
  EXPECT_EQ(Unary("copy", "f32[<=4]", ""), "f32[<=4]");
}

TEST(DataMovementConstraintsTest, GetTupleElement) {
  const std::string s = Spec("GetTupleElement");
  const std::string tuple = "t = (f32[10], s32[]) parameter(0)\n";
  EXPECT_EQ(InferRootText(tuple + "ROOT g = f32[] get-tuple-element(t), "
                                  "index=1"),
            "s32[]");
  EXPECT_THAT(InferRootText(tuple + "ROOT g = f32[] get-tuple-element(t), "
                                    "index=-1"),
              HasSubstr("index=-1 is not an element of (f32[10], s32[]) " + s));
  EXPECT_THAT(InferRootText(tuple + "ROOT g = f32[] get-tuple-element(t), "
                                    "index=2"),
              HasSubstr("index=2 is not an element of (f32[10], s32[]) " + s));
  EXPECT_THAT(Unary("get-tuple-element", "f32[10]", ", index=0"),
              HasSubstr("is not an element of f32[10] " + s));
}

}  // namespace
}  // namespace kiln
