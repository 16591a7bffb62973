#include "compiler/builder/numpy.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/data_movement.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kF32, std::move(dims));
}

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

// broadcast_dimensions of `op`, or "none".
std::string BroadcastDimsOf(XlaOp op) {
  const Int64List* dims =
      op.instruction()->attrs().Get<Int64List>("broadcast_dimensions");
  if (dims == nullptr) return "none";
  std::string text;
  for (int64_t d : *dims) text += std::to_string(d) + ",";
  return text;
}

// The opcodes from `op` back through operand 0 to a parameter, in the
// order they were added.
std::vector<std::string> OpcodeChain(XlaOp op) {
  std::vector<std::string> chain;
  for (const Instruction* i = op.instruction(); i != nullptr;
       i = i->operand_count() > 0 ? i->operand(0) : nullptr) {
    chain.insert(chain.begin(), std::string(OpcodeName(i->opcode())));
  }
  return chain;
}

void ExpectError(XlaBuilder& b, std::vector<std::string> parts) {
  absl::Status error = b.first_error();
  ASSERT_FALSE(error.ok());
  for (const std::string& part : parts) {
    EXPECT_THAT(std::string(error.message()), HasSubstr(part));
  }
  EXPECT_EQ(b.Build().status(), error);
}

// Builds, prints, re-parses and verifies; returns the printed text.
std::string RoundTrip(XlaBuilder& b) {
  absl::StatusOr<XlaComputation> built = b.Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  absl::Status verified = VerifyModule(**reparsed);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

// NumPy's result of a + b, or the error text.
std::string Broadcast(std::vector<int64_t> a, std::vector<int64_t> b) {
  absl::StatusOr<std::vector<int64_t>> dims = numpy::BroadcastShapes(a, b);
  if (!dims.ok()) return std::string(dims.status().message());
  std::string text = "[";
  for (size_t i = 0; i < dims->size(); ++i) {
    text += (i == 0 ? "" : ",") + std::to_string((*dims)[i]);
  }
  return text + "]";
}

TEST(BroadcastShapesTest, NumpyExamples) {
  EXPECT_EQ(Broadcast({4, 32, 14, 14}, {1, 32, 1, 1}), "[4,32,14,14]");
  EXPECT_EQ(Broadcast({4, 3}, {4, 1}), "[4,3]");
  EXPECT_EQ(Broadcast({4, 3}, {1, 3}), "[4,3]");
  EXPECT_EQ(Broadcast({4, 1}, {1, 3}), "[4,3]");
  EXPECT_EQ(Broadcast({3}, {4, 1}), "[4,3]");
  EXPECT_EQ(Broadcast({4, 32, 32, 3}, {32, 32, 1}), "[4,32,32,3]");
  EXPECT_EQ(Broadcast({4, 32, 32, 3}, {4, 1, 1, 1}), "[4,32,32,3]");
  EXPECT_EQ(Broadcast({}, {2, 3}), "[2,3]");
  EXPECT_EQ(Broadcast({2, 0}, {1, 1}), "[2,0]");
}

TEST(BroadcastShapesTest, IncompatibleSizesNameBothShapesAndTheDimension) {
  const std::string error = Broadcast({7, 2, 5}, {7, 2, 6});
  EXPECT_THAT(error, HasSubstr("shapes [7,2,5] and [7,2,6]"));
  EXPECT_THAT(error, HasSubstr("dimension 2"));
  EXPECT_THAT(error, HasSubstr("sizes 5 and 6"));
  EXPECT_THAT(error, HasSubstr("broadcasting.md, NumPy rules"));
  // Aligned from the last dimension: [1,4,1,1] meets 32 at dimension 1.
  EXPECT_THAT(Broadcast({4, 32, 32, 3}, {1, 4, 1, 1}),
              HasSubstr("dimension 1 of the result (sizes 32 and 4)"));
  EXPECT_THAT(Broadcast({4, 32, 14, 14}, {2, 32, 14, 14}),
              HasSubstr("dimension 0"));
}

TEST(NumpyBinaryTest, EqualRanksUseDegenerateBroadcasting) {
  XlaBuilder b("bias");
  XlaOp x = Parameter(&b, 0, F32({4, 32, 14, 14}), "x");
  XlaOp bias = Parameter(&b, 1, F32({1, 32, 1, 1}), "bias");
  XlaOp y = numpy::Add(x, bias);
  EXPECT_EQ(ShapeOf(y), "f32[4,32,14,14]");
  EXPECT_EQ(BroadcastDimsOf(y), "none");
  XlaOp p = Parameter(&b, 2, F32({4, 3}), "p");
  XlaOp q = Parameter(&b, 3, F32({4, 1}), "q");
  EXPECT_EQ(ShapeOf(numpy::Add(p, q)), "f32[4,3]");
  RoundTrip(b);
}

TEST(NumpyBinaryTest, LowerRankAlignsFromTheLastDimension) {
  XlaBuilder b("promote");
  XlaOp v = Parameter(&b, 0, F32({3}), "v");
  XlaOp col = Parameter(&b, 1, F32({4, 1}), "col");
  XlaOp y = numpy::Add(v, col);
  EXPECT_EQ(ShapeOf(y), "f32[4,3]");
  EXPECT_EQ(BroadcastDimsOf(y), "1,");
  XlaOp x = Parameter(&b, 2, F32({4, 16, 16, 32}), "x");
  XlaOp m = Parameter(&b, 3, F32({16, 1}), "m");
  XlaOp z = numpy::Mul(x, m);
  EXPECT_EQ(ShapeOf(z), "f32[4,16,16,32]");
  EXPECT_EQ(BroadcastDimsOf(z), "2,3,");
  // The lower-rank operand may come first.
  XlaOp c = Parameter(&b, 4, F32({32}), "c");
  XlaOp w = numpy::Sub(c, x);
  EXPECT_EQ(ShapeOf(w), "f32[4,16,16,32]");
  EXPECT_EQ(BroadcastDimsOf(w), "3,");
  // Scalars need no broadcast_dimensions.
  XlaOp s = numpy::Div(x, Parameter(&b, 5, F32({}), "s"));
  EXPECT_EQ(ShapeOf(s), "f32[4,16,16,32]");
  EXPECT_EQ(BroadcastDimsOf(s), "none");
  EXPECT_THAT(RoundTrip(b), HasSubstr("broadcast_dimensions={2,3}"));
}

TEST(NumpyBinaryTest, IncompatibleShapesAreAnErrorNamingBoth) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({7, 2, 5}), "x");
  XlaOp y = Parameter(&b, 1, F32({7, 2, 6}), "y");
  EXPECT_FALSE(numpy::Add(x, y).valid());
  ExpectError(b, {"numpy.add", "[7,2,5]", "[7,2,6]", "dimension 2"});
}

TEST(NumpyBinaryTest, RankPromotionDoesNotAlignFromTheFront) {
  // [4] against [4,3] aligns with the 3, not the 4, as NumPy does.
  XlaBuilder b("front");
  XlaOp x = Parameter(&b, 0, F32({4, 3}), "x");
  XlaOp v = Parameter(&b, 1, F32({4}), "v");
  numpy::Add(x, v);
  ExpectError(b, {"numpy.add", "[4,3] and [4]", "sizes 3 and 4"});
}

TEST(NumpyBinaryTest, MixedElementTypesAreAnError) {
  XlaBuilder b("types");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  XlaOp y = Parameter(&b, 1, Shape::Array(ElementType::kS32, {2}), "y");
  numpy::Add(x, y);
  ExpectError(b, {"add"});
}

TEST(NumpyBinaryTest, EveryArithmeticOpEmitsItsOpcode) {
  struct Case {
    XlaOp (*fn)(XlaOp, XlaOp);
    Opcode opcode;
  };
  const std::vector<Case> cases = {
      {numpy::Add, Opcode::kAdd},       {numpy::Sub, Opcode::kSubtract},
      {numpy::Mul, Opcode::kMultiply},  {numpy::Div, Opcode::kDivide},
      {numpy::Rem, Opcode::kRemainder}, {numpy::Max, Opcode::kMaximum},
      {numpy::Min, Opcode::kMinimum},   {numpy::Pow, Opcode::kPower},
      {numpy::Atan2, Opcode::kAtan2},
  };
  for (const Case& c : cases) {
    XlaBuilder b("arith");
    XlaOp v = Parameter(&b, 0, F32({3}), "v");
    XlaOp col = Parameter(&b, 1, F32({4, 1}), "col");
    XlaOp y = c.fn(col, v);
    ASSERT_TRUE(y.valid()) << OpcodeName(c.opcode) << ": " << b.first_error();
    EXPECT_EQ(y.instruction()->opcode(), c.opcode);
    EXPECT_EQ(ShapeOf(y), "f32[4,3]");
    RoundTrip(b);
  }
}

TEST(NumpyBinaryTest, LogicalOpsOnPredicates) {
  XlaBuilder b("logic");
  XlaOp p = Parameter(&b, 0, Shape::Array(ElementType::kPred, {2, 1}), "p");
  XlaOp q = Parameter(&b, 1, Shape::Array(ElementType::kPred, {5}), "q");
  EXPECT_EQ(numpy::And(p, q).instruction()->opcode(), Opcode::kAnd);
  EXPECT_EQ(numpy::Or(p, q).instruction()->opcode(), Opcode::kOr);
  XlaOp x = numpy::Xor(p, q);
  EXPECT_EQ(x.instruction()->opcode(), Opcode::kXor);
  EXPECT_EQ(ShapeOf(x), "pred[2,5]");
  RoundTrip(b);
}

TEST(NumpyCompareTest, ComparisonsBroadcastAndYieldPred) {
  XlaBuilder b("compare");
  XlaOp v = Parameter(&b, 0, F32({3}), "v");
  XlaOp col = Parameter(&b, 1, F32({4, 1}), "col");
  const std::vector<XlaOp> results = {numpy::Eq(v, col), numpy::Ne(v, col),
                                      numpy::Lt(v, col), numpy::Le(v, col),
                                      numpy::Gt(v, col), numpy::Ge(v, col)};
  std::vector<std::string> directions;
  for (XlaOp r : results) {
    ASSERT_TRUE(r.valid()) << b.first_error();
    EXPECT_EQ(ShapeOf(r), "pred[4,3]");
    directions.push_back(
        r.instruction()->attrs().Get<EnumValue>("direction")->spelling);
  }
  EXPECT_THAT(directions, ElementsAre("EQ", "NE", "LT", "LE", "GT", "GE"));
  EXPECT_THAT(RoundTrip(b),
              HasSubstr("direction=LT, broadcast_dimensions={1}"));
}

TEST(NumpyCompareTest, IncompatibleShapesNameTheComparison) {
  XlaBuilder b("compare_bad");
  numpy::Lt(Parameter(&b, 0, F32({2}), "x"), Parameter(&b, 1, F32({3}), "y"));
  ExpectError(b, {"numpy.less", "[2] and [3]", "dimension 0"});
}

TEST(BroadcastToTest, OneBroadcastWithoutCopy) {
  XlaBuilder b("broadcast_to");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp y = numpy::BroadcastTo(x, {2, 3});
  EXPECT_EQ(ShapeOf(y), "f32[2,3]");
  EXPECT_THAT(OpcodeChain(y), ElementsAre("parameter", "broadcast"));
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("broadcast(f32[3]{0} %x), dimensions={1}"));
  EXPECT_THAT(text, Not(HasSubstr("reshape")));
}

TEST(BroadcastToTest, StretchedSizeOneDimensionsAreReshapedAwayFirst) {
  XlaBuilder b("broadcast_to_ones");
  XlaOp x = Parameter(&b, 0, F32({4, 1, 1, 1}), "x");
  XlaOp y = numpy::BroadcastTo(x, {4, 32, 32, 3});
  EXPECT_EQ(ShapeOf(y), "f32[4,32,32,3]");
  EXPECT_THAT(OpcodeChain(y), ElementsAre("parameter", "reshape", "broadcast"));
  EXPECT_EQ(ShapeOf(XlaOp(y)), "f32[4,32,32,3]");
  EXPECT_THAT(RoundTrip(b), HasSubstr("f32[4]{0} reshape("));
}

TEST(BroadcastToTest, SameShapeAddsNothing) {
  XlaBuilder b("broadcast_to_same");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp y = numpy::BroadcastTo(x, {2, 3});
  EXPECT_EQ(y.instruction(), x.instruction());
}

TEST(BroadcastToTest, IncompatibleTargetsAreErrors) {
  XlaBuilder b("broadcast_to_bad");
  numpy::BroadcastTo(Parameter(&b, 0, F32({4, 1, 1, 1}), "x"), {3, 32, 32, 3});
  ExpectError(b, {"numpy.broadcast_to", "[4,1,1,1] to [3,32,32,3]",
                  "dimension 0 (size 4) meets size 3"});

  XlaBuilder c("broadcast_to_rank");
  numpy::BroadcastTo(Parameter(&c, 0, F32({2, 3}), "x"), {3});
  ExpectError(c, {"numpy.broadcast_to", "rank too high"});
}

TEST(TileTest, RepeatsDataThroughBroadcastAndReshape) {
  XlaBuilder b("tile");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp y = numpy::Tile(x, {2});
  EXPECT_EQ(ShapeOf(y), "f32[6]");
  EXPECT_THAT(OpcodeChain(y), ElementsAre("parameter", "broadcast", "reshape"));
  // The copy dimension is major: [2,3] holds x twice, row-major, so the
  // reshape yields x, x (not each element twice).
  const Instruction* broadcast = y.instruction()->operand(0);
  EXPECT_EQ(broadcast->shape().ToString(false), "f32[2,3]");
  EXPECT_EQ(*broadcast->attrs().Get<Int64List>("dimensions"), Int64List{1});
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("f32[2,3]{1,0} broadcast(f32[3]{0} %x), "
                              "dimensions={1}"));
  EXPECT_THAT(text, HasSubstr("f32[6]{0} reshape("));
}

TEST(TileTest, InterleavesCopyDimensionsOnlyWhereMultiplesExceedOne) {
  XlaBuilder b("tile2d");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp rows = numpy::Tile(x, {2, 1});
  EXPECT_EQ(ShapeOf(rows), "f32[4,3]");
  EXPECT_EQ(rows.instruction()->operand(0)->shape().ToString(false),
            "f32[2,2,3]");
  XlaOp cols = numpy::Tile(x, {1, 2});
  EXPECT_EQ(ShapeOf(cols), "f32[2,6]");
  const Instruction* broadcast = cols.instruction()->operand(0);
  EXPECT_EQ(broadcast->shape().ToString(false), "f32[2,2,3]");
  EXPECT_EQ(*broadcast->attrs().Get<Int64List>("dimensions"),
            (Int64List{0, 2}));
  XlaOp both = numpy::Tile(x, {3, 2});
  EXPECT_EQ(ShapeOf(both), "f32[6,6]");
  EXPECT_EQ(both.instruction()->operand(0)->shape().ToString(false),
            "f32[3,2,2,3]");
  // As in the TensorFlow note: broadcast_to and expand_dims + tile agree
  // in shape; only tile materialises the copies.
  XlaOp expanded = numpy::Tile(Reshape(x, {1, 2, 3}), {2, 1, 1});
  EXPECT_EQ(ShapeOf(expanded), ShapeOf(numpy::BroadcastTo(x, {2, 2, 3})));
  RoundTrip(b);
}

TEST(TileTest, AllOnesAddsNothingAndZeroEmpties) {
  XlaBuilder b("tile_ones");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  EXPECT_EQ(numpy::Tile(x, {1, 1}).instruction(), x.instruction());
  EXPECT_EQ(ShapeOf(numpy::Tile(x, {0, 1})), "f32[0,3]");
  RoundTrip(b);
}

TEST(TileTest, WrongLengthOrNegativeMultiplesAreErrors) {
  XlaBuilder b("tile_len");
  numpy::Tile(Parameter(&b, 0, F32({2, 3}), "x"), {2});
  ExpectError(b, {"numpy.tile", "has 1 entries but f32[2,3] has rank 2"});

  XlaBuilder c("tile_neg");
  numpy::Tile(Parameter(&c, 0, F32({2, 3}), "x"), {1, -2});
  ExpectError(c, {"numpy.tile", "negative entry at dimension 1"});
}

TEST(NumpyTest, WholeComputationRoundTrips) {
  XlaBuilder b("layer");
  XlaOp x = Parameter(&b, 0, F32({4, 32, 14, 14}), "x");
  XlaOp scale = Parameter(&b, 1, F32({1, 32, 1, 1}), "scale");
  XlaOp bias = Parameter(&b, 2, F32({14}), "bias");
  XlaOp zero = Parameter(&b, 3, F32({}), "zero");
  XlaOp y = numpy::Add(numpy::Mul(x, scale), bias);
  XlaOp relu = numpy::Max(y, zero);
  XlaOp mask = numpy::Gt(relu, numpy::BroadcastTo(bias, {14, 14}));
  EXPECT_EQ(ShapeOf(mask), "pred[4,32,14,14]");
  XlaOp tiled = numpy::Tile(bias, {3});
  EXPECT_EQ(ShapeOf(tiled), "f32[42]");
  XlaOp root = b.AddInstruction(Opcode::kTuple, {relu, mask, tiled}, {});
  EXPECT_EQ(ShapeOf(root), "(f32[4,32,14,14], pred[4,32,14,14], f32[42])");
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("broadcast_dimensions={3}"));
  EXPECT_THAT(text, HasSubstr("broadcast_dimensions={2,3}"));
}

}  // namespace
}  // namespace kiln
