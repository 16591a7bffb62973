// Client-form implicit broadcasting (broadcasting.md and its translations
// in shared/seeds 000-002, plus the TF broadcasting note in seed 002): every
// example with its exact result shape, and strict form rejecting each.
#include <string>

#include "compiler/ir/module.h"
#include "compiler/ops/testing/shape_test_util.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::testing::InferRootText;
using ::testing::HasSubstr;

// add.5 of parameters `lhs` and `rhs`, with broadcast_dimensions=`dims`
// when given, in `form`.
std::string Binary(const std::string& op, const std::string& lhs,
                   const std::string& rhs, const std::string& dims = "",
                   ShapeForm form = ShapeForm::kClient) {
  std::string body = "p0 = " + lhs + " parameter(0)\n" + "p1 = " + rhs +
                     " parameter(1)\n" + "ROOT " + op + ".5 = f32[] " + op +
                     "(p0, p1)";
  if (!dims.empty()) body += ", broadcast_dimensions=" + dims;
  return InferRootText(body, form);
}
std::string Add(const std::string& lhs, const std::string& rhs,
                const std::string& dims = "") {
  return Binary("add", lhs, rhs, dims);
}
std::string StrictAdd(const std::string& lhs, const std::string& rhs,
                      const std::string& dims = "") {
  return Binary("add", lhs, rhs, dims, ShapeForm::kStrict);
}

TEST(BroadcastingTest, ScalarWithArrayNeedsNoDimensions) {
  EXPECT_EQ(Add("f32[2,3]", "f32[]"), "f32[2,3]");
  EXPECT_EQ(Add("f32[]", "f32[2,3]"), "f32[2,3]");
  EXPECT_EQ(Add("f32[]", "f32[]"), "f32[]");
}

TEST(BroadcastingTest, MatrixPlusVectorAlongColumns) {
  EXPECT_EQ(Add("f32[2,3]", "f32[3]", "{1}"), "f32[2,3]");
  EXPECT_EQ(Add("f32[3]", "f32[2,3]", "{1}"), "f32[2,3]");
}

TEST(BroadcastingTest, DifferentRanksWithoutDimensionsIsInvalid) {
  EXPECT_THAT(Add("f32[2,3]", "f32[3]"),
              HasSubstr("arrays of different rank need broadcast_dimensions "
                        "(broadcasting.md, InDim broadcasting)"));
}

TEST(BroadcastingTest, TwoByThreePlusThreeVectorOnDimZeroIsInvalid) {
  EXPECT_EQ(Add("f32[2,3]", "f32[3]", "{0}"),
            "error: add.5: broadcast_dimensions {0} maps operand 1 dim 0 "
            "(size 3) to result dim 0 (size 2); sizes must match "
            "(broadcasting.md, InDim broadcasting)");
}

TEST(BroadcastingTest, ThreeVectorIntoThreeByThreeEitherWay) {
  EXPECT_EQ(Add("f32[3,3]", "f32[3]", "{0}"), "f32[3,3]");
  EXPECT_EQ(Add("f32[3,3]", "f32[3]", "{1}"), "f32[3,3]");
}

TEST(BroadcastingTest, MatrixIntoCuboid) {
  EXPECT_EQ(Add("f32[2,3,4]", "f32[3,4]", "{1,2}"), "f32[2,3,4]");
  EXPECT_THAT(Add("f32[2,3,4]", "f32[3,4]", "{0,1}"),
              HasSubstr("maps operand 1 dim 0 (size 3) to result dim 0"));
}

// MxNxPxQ = 2x3x4x5: a vector T matched at each dimension.
TEST(BroadcastingTest, VectorMatchedAtEachDimensionOfRank4) {
  const std::string big = "f32[2,3,4,5]";
  EXPECT_EQ(Add(big, "f32[2]", "{0}"), big);
  EXPECT_EQ(Add(big, "f32[3]", "{1}"), big);
  EXPECT_EQ(Add(big, "f32[4]", "{2}"), big);
  EXPECT_EQ(Add(big, "f32[5]", "{3}"), big);
  // T has to equal the matched dimension.
  EXPECT_THAT(Add(big, "f32[5]", "{2}"), HasSubstr("sizes must match"));
}

// A TxV matrix matched at dimension pairs of MxNxPxQ.
TEST(BroadcastingTest, MatrixMatchedAtDimensionPairsOfRank4) {
  const std::string big = "f32[2,3,4,5]";
  EXPECT_EQ(Add(big, "f32[4,5]", "{2,3}"), big);
  EXPECT_EQ(Add(big, "f32[3,4]", "{1,2}"), big);
  EXPECT_EQ(Add(big, "f32[2,5]", "{0,3}"), big);
  EXPECT_EQ(Add(big, "f32[2,3]", "{0,1}"), big);
  EXPECT_EQ(Add(big, "f32[3,5]", "{1,3}"), big);
}

TEST(BroadcastingTest, BroadcastDimensionsMustBeStrictlyIncreasing) {
  // Matching V to N and T to P is illegal, as is V to both P and N.
  EXPECT_EQ(Add("f32[2,3,4,5]", "f32[4,3]", "{2,1}"),
            "error: add.5: broadcast_dimensions {2,1} must be strictly "
            "increasing (broadcasting.md, InDim broadcasting)");
  EXPECT_THAT(Add("f32[2,3,4,5]", "f32[4,4]", "{2,2}"),
              HasSubstr("must be strictly increasing"));
}

TEST(BroadcastingTest, BroadcastDimensionsOutOfRangeOrWrongLength) {
  EXPECT_THAT(Add("f32[2,3]", "f32[3]", "{2}"),
              HasSubstr("broadcast_dimensions {2} has dimension 2 out of "
                        "range [0, 2)"));
  EXPECT_THAT(Add("f32[2,3]", "f32[3]", "{0,1}"),
              HasSubstr("broadcast_dimensions {0,1} has 2 entries but "
                        "operand 1 f32[3] has rank 1"));
  EXPECT_THAT(Add("f32[2,3]", "f32[3]", "{-1}"), HasSubstr("out of range"));
  EXPECT_THAT(Add("f32[2,3]", "f32[]", "{0}"),
              HasSubstr("broadcast_dimensions {0} must be empty or the "
                        "identity when no operand is a lower-rank array"));
}

TEST(BroadcastingTest, EqualRanksAcceptOnlyEmptyOrIdentityDimensions) {
  EXPECT_EQ(Add("f32[2,3]", "f32[2,3]", "{0,1}"), "f32[2,3]");
  EXPECT_EQ(Add("f32[2,3]", "f32[2,3]", "{}"), "f32[2,3]");
  EXPECT_THAT(Add("f32[2,3]", "f32[2,3]", "{1,0}"),
              HasSubstr("must be empty or the identity"));
}

TEST(BroadcastingTest, DegenerateDimensionExamples) {
  EXPECT_EQ(Add("f32[2,1]", "f32[2,3]"), "f32[2,3]");
  EXPECT_EQ(Add("f32[1,2,5]", "f32[7,2,5]"), "f32[7,2,5]");
  EXPECT_EQ(Add("f32[7,2,5]", "f32[7,1,5]"), "f32[7,2,5]");
  EXPECT_EQ(Add("f32[7,2,5]", "f32[7,2,6]"),
            "error: add.5: operand 1 f32[7,2,6] is incompatible at dimension "
            "2 (size 6 vs 5); sizes must be equal or one of them 1 "
            "(broadcasting.md, degenerate dimensions)");
}

TEST(BroadcastingTest, OuterOperation) {
  EXPECT_EQ(Add("f32[2,1]", "f32[1,3]"), "f32[2,3]");
  EXPECT_EQ(Binary("multiply", "f32[2,1]", "f32[1,3]"), "f32[2,3]");
}

TEST(BroadcastingTest, CompositionVectorWithOneByTwo) {
  EXPECT_EQ(Add("f32[4]", "f32[1,2]", "{0}"), "f32[4,2]");
  EXPECT_EQ(Add("f32[1,2]", "f32[4]", "{0}"), "f32[4,2]");
}

TEST(BroadcastingTest, CompositionOneByTwoWithFourByThreeByOne) {
  EXPECT_EQ(Add("f32[1,2]", "f32[4,3,1]", "{1,2}"), "f32[4,3,2]");
  EXPECT_EQ(Add("f32[4,3,1]", "f32[1,2]", "{1,2}"), "f32[4,3,2]");
  EXPECT_THAT(Add("f32[4,3,1]", "f32[2,2]", "{1,2}"),
              HasSubstr("maps operand 1 dim 0 (size 2) to result dim 1 "
                        "(size 3)"));
}

// The TensorFlow broadcasting note (seed 002): TF aligns from the last
// dimension implicitly; XLA spells the alignment with broadcast_dimensions.
TEST(BroadcastingTest, TensorFlowNoteExamples) {
  EXPECT_EQ(Add("f32[4,32,14,14]", "f32[1,32,1,1]"), "f32[4,32,14,14]");
  EXPECT_EQ(Add("f32[4,3]", "f32[4,1]"), "f32[4,3]");
  EXPECT_EQ(Add("f32[4,3]", "f32[4,3]"), "f32[4,3]");
  EXPECT_EQ(Add("f32[4,3]", "f32[1,3]"), "f32[4,3]");
  EXPECT_EQ(Add("f32[4,1]", "f32[1,3]"), "f32[4,3]");
  EXPECT_EQ(Add("f32[4,32,14,14]", "f32[14,14]", "{2,3}"), "f32[4,32,14,14]");
  EXPECT_THAT(Add("f32[4,32,14,14]", "f32[14,14]"),
              HasSubstr("need broadcast_dimensions"));
  EXPECT_THAT(Add("f32[4,32,14,14]", "f32[2,32,14,14]"),
              HasSubstr("incompatible at dimension 0 (size 2 vs 4)"));
  EXPECT_EQ(Add("f32[4,32,14,14]", "f32[1,32,14,14]"), "f32[4,32,14,14]");
  EXPECT_EQ(Add("f32[4,32,32,3]", "f32[3]", "{3}"), "f32[4,32,32,3]");
  EXPECT_EQ(Add("f32[4,32,32,3]", "f32[32,32,1]", "{1,2,3}"), "f32[4,32,32,3]");
  EXPECT_EQ(Add("f32[4,32,32,3]", "f32[4,1,1,1]"), "f32[4,32,32,3]");
  EXPECT_EQ(Add("f32[4,16,16,32]", "f32[32]", "{3}"), "f32[4,16,16,32]");
  // [b,784]@[784,10] + [10] -> [b,10] with b = 8.
  EXPECT_EQ(Add("f32[8,10]", "f32[10]", "{1}"), "f32[8,10]");
}

TEST(BroadcastingTest, DynamicDimensionsBroadcast) {
  EXPECT_EQ(Add("f32[<=4,3]", "f32[3]", "{1}"), "f32[<=4,3]");
  EXPECT_EQ(Add("f32[?,3]", "f32[1,3]"), "f32[?,3]");
  EXPECT_EQ(Add("f32[?,3]", "f32[5,3]"), "f32[5,3]");
}

TEST(BroadcastingTest, StrictFormRejectsEveryImplicitBroadcast) {
  EXPECT_EQ(StrictAdd("f32[2,3]", "f32[2,3]"), "f32[2,3]");
  EXPECT_THAT(StrictAdd("f32[2,3]", "f32[]"),
              HasSubstr("strict HLO needs equal dimensions"));
  EXPECT_THAT(StrictAdd("f32[2,1]", "f32[2,3]"),
              HasSubstr("strict HLO needs equal dimensions "
                        "(no implicit broadcasting) (broadcasting.md, "
                        "Principles)"));
  EXPECT_THAT(StrictAdd("f32[2,3]", "f32[3]", "{1}"),
              HasSubstr("broadcast_dimensions is client-form implicit "
                        "broadcasting"));
  EXPECT_THAT(StrictAdd("f32[2,3]", "f32[2,3]", "{0,1}"),
              HasSubstr("client-form"));
}

TEST(BroadcastingTest, AppliesToEveryNaryElementwiseOp) {
  for (const char* op : {"add", "subtract", "multiply", "divide", "remainder",
                         "maximum", "minimum", "power", "atan2"}) {
    EXPECT_EQ(Binary(op, "f32[2,3]", "f32[3]", "{1}"), "f32[2,3]") << op;
    EXPECT_THAT(Binary(op, "f32[2,3]", "f32[3]", "{0}"),
                HasSubstr("sizes must match"))
        << op;
  }
  for (const char* op : {"and", "or", "xor", "shift-left",
                         "shift-right-arithmetic", "shift-right-logical"}) {
    EXPECT_EQ(Binary(op, "s32[2,3]", "s32[2,1]"), "s32[2,3]") << op;
    EXPECT_EQ(Binary(op, "s32[2,3]", "s32[2]", "{0}"), "s32[2,3]") << op;
  }
  EXPECT_EQ(Binary("complex", "f32[2,3]", "f32[3]", "{1}"), "c64[2,3]");
}

TEST(BroadcastingTest, CompareBroadcastsToPred) {
  EXPECT_EQ(InferRootText("p0 = f32[2,3] parameter(0)\n"
                          "p1 = f32[3] parameter(1)\n"
                          "ROOT c = pred[2,3] compare(p0, p1), direction=LT, "
                          "broadcast_dimensions={1}"),
            "pred[2,3]");
}

TEST(BroadcastingTest, SelectBroadcastsScalarAndLowerRankOperands) {
  const std::string operands =
      "p0 = pred[] parameter(0)\n"
      "p1 = f32[2,3] parameter(1)\n"
      "p2 = f32[3] parameter(2)\n";
  EXPECT_EQ(InferRootText(operands + "ROOT s = f32[2,3] select(p0, p1, p2), "
                                     "broadcast_dimensions={1}"),
            "f32[2,3]");
  EXPECT_EQ(InferRootText(operands + "ROOT s = f32[2,3] select(p0, p1, p1)"),
            "f32[2,3]");
  EXPECT_THAT(InferRootText(operands + "ROOT s = f32[2,3] select(p0, p1, p1)",
                            ShapeForm::kStrict),
              HasSubstr("strict HLO needs equal dimensions"));
}

TEST(BroadcastingTest, ClampBroadcastsInClientForm) {
  const std::string operands =
      "p0 = f32[3] parameter(0)\n"
      "p1 = f32[2,3] parameter(1)\n"
      "p2 = f32[] parameter(2)\n";
  EXPECT_EQ(InferRootText(operands + "ROOT c = f32[2,3] clamp(p0, p1, p2), "
                                     "broadcast_dimensions={1}"),
            "f32[2,3]");
  // Scalar min/max are XLA's own restricted broadcasting: strict accepts.
  EXPECT_EQ(InferRootText(operands + "ROOT c = f32[2,3] clamp(p2, p1, p2)",
                          ShapeForm::kStrict),
            "f32[2,3]");
  EXPECT_THAT(InferRootText(operands + "ROOT c = f32[2,3] clamp(p0, p1, p2), "
                                       "broadcast_dimensions={1}",
                            ShapeForm::kStrict),
              HasSubstr("client-form"));
}

TEST(BroadcastingTest, BroadcastDimensionsRoundTripThroughText) {
  const std::string text =
      "HloModule m\n\nENTRY e {\n"
      "  p0 = f32[2,3]{1,0} parameter(0)\n"
      "  p1 = f32[3]{0} parameter(1)\n"
      "  a = f32[2,3]{1,0} add(p0, p1), broadcast_dimensions={1}\n"
      "  ROOT c = pred[2,3]{1,0} compare(a, p1), direction=LT, "
      "type=TOTALORDER, "
      "broadcast_dimensions={1}\n"
      "}\n";
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string printed =
      PrintModule(**module, ShortParsablePrintOptions());
  EXPECT_THAT(printed, HasSubstr("add(p0, p1), broadcast_dimensions={1}"));
  EXPECT_THAT(printed,
              HasSubstr("compare(a, p1), direction=LT, type=TOTALORDER, "
                        "broadcast_dimensions={1}"));
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(printed);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status();
  EXPECT_EQ(PrintModule(**reparsed, ShortParsablePrintOptions()), printed);
}

}  // namespace
}  // namespace kiln
