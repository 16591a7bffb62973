#include "compiler/builder/data_movement.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kF32, std::move(dims));
}
Shape S32Scalar() { return Shape::Scalar(ElementType::kS32); }

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

// Every opcode of the computation built so far, in order, from the printed
// text of the op chain ending at `op` (operand 0 first).
std::vector<std::string> OpcodeChain(XlaOp op) {
  std::vector<std::string> chain;
  for (const Instruction* i = op.instruction(); i != nullptr;
       i = i->operand_count() > 0 ? i->operand(0) : nullptr) {
    chain.insert(chain.begin(), std::string(OpcodeName(i->opcode())));
  }
  return chain;
}

// Expects the builder's deferred error (and Build()'s) to contain each of
// `parts`.
void ExpectError(XlaBuilder& b, std::vector<std::string> parts) {
  absl::Status error = b.first_error();
  ASSERT_FALSE(error.ok());
  for (const std::string& part : parts) {
    EXPECT_THAT(std::string(error.message()), HasSubstr(part));
  }
  EXPECT_EQ(b.Build().status(), error);
}

// Builds `b`, prints, re-parses, verifies; the reparsed module must print
// the same text. Returns the text.
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

TEST(BroadcastTest, AddsMajorDimensions) {
  XlaBuilder b("broadcast");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp y = Broadcast(x, {4, 5});
  EXPECT_EQ(ShapeOf(y), "f32[4,5,2,3]");
  EXPECT_EQ(*y.instruction()->attrs().Get<Int64List>("dimensions"),
            (Int64List{2, 3}));
  EXPECT_THAT(RoundTrip(b), HasSubstr("dimensions={2,3}"));
}

TEST(BroadcastTest, NegativeSizeIsAnError) {
  XlaBuilder b("broadcast_bad");
  Broadcast(Parameter(&b, 0, F32({2}), "x"), {-1});
  ExpectError(b, {"broadcast", "invalid result shape", "Broadcast"});
}

TEST(BroadcastTest, KeepsDynamicDimensionsOfTheOperand) {
  XlaBuilder b("broadcast_dynamic");
  XlaOp x = Parameter(&b, 0, F32({10}), "x");
  XlaOp dynamic = SetDimensionSize(x, GetDimensionSize(x, 0), 0);
  EXPECT_EQ(ShapeOf(Broadcast(dynamic, {2})), "f32[2,<=10]");
  RoundTrip(b);
}

TEST(BroadcastTest, TupleOperandIsAnError) {
  XlaBuilder b("broadcast_tuple");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  Broadcast(Tuple(&b, {x}), {3});
  ExpectError(b, {"broadcast", "expected an array", "Broadcast"});
}

TEST(BroadcastInDimTest, MapsDimensionsAndStretchesSizeOne) {
  XlaBuilder b("bid");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp y = BroadcastInDim(x, {2, 3}, {1});
  EXPECT_EQ(ShapeOf(y), "f32[2,3]");
  EXPECT_EQ(OpcodeChain(y),
            (std::vector<std::string>{"parameter", "broadcast"}));
  // A size-1 dimension that grows is dropped by a reshape first.
  XlaOp z = Parameter(&b, 1, F32({4, 1}), "z");
  XlaOp w = BroadcastInDim(z, {4, 5}, {0, 1});
  EXPECT_EQ(ShapeOf(w), "f32[4,5]");
  EXPECT_EQ(OpcodeChain(w),
            (std::vector<std::string>{"parameter", "reshape", "broadcast"}));
  EXPECT_EQ(ShapeOf(XlaOp(w)), "f32[4,5]");
  RoundTrip(b);
}

TEST(BroadcastInDimTest, MismatchedSizeIsAnError) {
  XlaBuilder b("bid_bad");
  BroadcastInDim(Parameter(&b, 0, F32({3}), "x"), {2, 4}, {1});
  ExpectError(b, {"broadcast", "sizes must match"});
}

TEST(BroadcastInDimTest, WrongDimensionCountIsAnError) {
  XlaBuilder b("bid_count");
  BroadcastInDim(Parameter(&b, 0, F32({3}), "x"), {2, 3}, {0, 1});
  ExpectError(b, {"broadcast", "has rank 1"});
}

TEST(ReshapeTest, ToSizesToShapeAndAfterTranspose) {
  XlaBuilder b("reshape");
  XlaOp x = Parameter(&b, 0, F32({4, 2, 3}), "x");
  EXPECT_EQ(ShapeOf(Reshape(x, {8, 3})), "f32[8,3]");
  EXPECT_EQ(ShapeOf(Reshape(F32({24}), x)), "f32[24]");
  XlaOp t = Reshape(x, {2, 0, 1}, {6, 4});
  EXPECT_EQ(ShapeOf(t), "f32[6,4]");
  EXPECT_EQ(OpcodeChain(t),
            (std::vector<std::string>{"parameter", "transpose", "reshape"}));
  // The identity permutation adds no transpose.
  EXPECT_EQ(OpcodeChain(Reshape(x, {0, 1, 2}, {24})),
            (std::vector<std::string>{"parameter", "reshape"}));
  RoundTrip(b);
}

TEST(ReshapeTest, ChangingTheElementCountIsAnError) {
  XlaBuilder b("reshape_bad");
  Reshape(Parameter(&b, 0, F32({4, 2}), "x"), {3, 3});
  ExpectError(b, {"reshape", "changes the element count"});
}

TEST(DynamicReshapeTest, DeclaresBoundsAndDynamism) {
  XlaBuilder b("dyn_reshape");
  XlaOp x = Parameter(&b, 0, F32({6}), "x");
  XlaOp n = Parameter(&b, 1, S32Scalar(), "n");
  XlaOp m = Parameter(&b, 2, S32Scalar(), "m");
  XlaOp y = DynamicReshape(x, {n, m}, {2, 3}, {true, false});
  EXPECT_EQ(ShapeOf(y), "f32[<=2,3]");
  RoundTrip(b);
}

TEST(DynamicReshapeTest, InconsistentListsAreAnError) {
  XlaBuilder b("dyn_reshape_bad");
  XlaOp x = Parameter(&b, 0, F32({6}), "x");
  XlaOp n = Parameter(&b, 1, S32Scalar(), "n");
  DynamicReshape(x, {n}, {2, 3}, {true, false});
  ExpectError(b, {"dynamic-reshape", "one entry per result dimension"});
}

TEST(DynamicReshapeTest, SizeOperandMustBeS32) {
  XlaBuilder b("dyn_reshape_type");
  XlaOp x = Parameter(&b, 0, F32({6}), "x");
  XlaOp n = Parameter(&b, 1, F32({}), "n");
  DynamicReshape(x, {n}, {6}, {true});
  ExpectError(b, {"dynamic-reshape", "expected s32[]"});
}

TEST(CollapseTest, MergesConsecutiveDimensions) {
  XlaBuilder b("collapse");
  XlaOp v = Parameter(&b, 0, F32({4, 2, 3}), "v");
  EXPECT_EQ(ShapeOf(Collapse(v, {0, 1, 2})), "f32[24]");
  EXPECT_EQ(ShapeOf(Collapse(v, {0, 1})), "f32[8,3]");
  EXPECT_EQ(ShapeOf(Collapse(v, {1, 2})), "f32[4,6]");
  RoundTrip(b);
}

TEST(CollapseTest, NonConsecutiveDimensionsAreAnError) {
  XlaBuilder b("collapse_bad");
  Collapse(Parameter(&b, 0, F32({4, 2, 3}), "v"), {0, 2});
  ExpectError(b, {"reshape", "consecutive", "Collapse"});
}

TEST(TransposeTest, PermutesDimensions) {
  XlaBuilder b("transpose");
  XlaOp x = Parameter(&b, 0, F32({2, 3, 5}), "x");
  EXPECT_EQ(ShapeOf(Transpose(x, {2, 0, 1})), "f32[5,2,3]");
  RoundTrip(b);
}

TEST(TransposeTest, NonPermutationIsAnError) {
  XlaBuilder b("transpose_bad");
  Transpose(Parameter(&b, 0, F32({2, 3}), "x"), {0, 0});
  ExpectError(b, {"transpose", "dimensions"});
}

TEST(RevTest, KeepsTheShape) {
  XlaBuilder b("rev");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  EXPECT_EQ(ShapeOf(Rev(x, {0, 1})), "f32[2,3]");
  RoundTrip(b);
}

TEST(RevTest, OutOfRangeDimensionIsAnError) {
  XlaBuilder b("rev_bad");
  Rev(Parameter(&b, 0, F32({2, 3}), "x"), {2});
  ExpectError(b, {"reverse"});
}

TEST(SliceTest, StridedSliceAndSliceInDim) {
  XlaBuilder b("slice");
  XlaOp x = Parameter(&b, 0, F32({4, 10}), "x");
  EXPECT_EQ(ShapeOf(Slice(x, {0, 1}, {2, 10}, {1, 3})), "f32[2,3]");
  XlaOp s = SliceInDim(x, 2, 8, 2, 1);
  EXPECT_EQ(ShapeOf(s), "f32[4,3]");
  EXPECT_THAT(RoundTrip(b), HasSubstr("slice={[0:4:1], [2:8:2]}"));
}

TEST(SliceTest, UnequalListsAreAnError) {
  XlaBuilder b("slice_lists");
  Slice(Parameter(&b, 0, F32({4, 10}), "x"), {0, 0}, {2}, {1, 1});
  ExpectError(b, {"slice", "one entry per dimension"});
}

TEST(SliceTest, LimitBeyondTheOperandIsAnError) {
  XlaBuilder b("slice_limit");
  Slice(Parameter(&b, 0, F32({4}), "x"), {0}, {5}, {1});
  ExpectError(b, {"slice"});
}

TEST(SliceTest, SliceInDimOutOfRangeDimensionIsAnError) {
  XlaBuilder b("slice_in_dim");
  SliceInDim(Parameter(&b, 0, F32({4}), "x"), 0, 2, 1, 1);
  ExpectError(b, {"slice", "SliceInDim dimension 1 is out of range"});
}

TEST(DynamicSliceTest, SlicesAtScalarIndices) {
  XlaBuilder b("dynamic_slice");
  XlaOp x = Parameter(&b, 0, F32({8, 6}), "x");
  XlaOp i = Parameter(&b, 1, S32Scalar(), "i");
  XlaOp j = Parameter(&b, 2, S32Scalar(), "j");
  EXPECT_EQ(ShapeOf(DynamicSlice(x, {i, j}, {2, 3})), "f32[2,3]");
  EXPECT_THAT(RoundTrip(b), HasSubstr("dynamic_slice_sizes={2,3}"));
}

TEST(DynamicSliceTest, OversizedSliceIsAnError) {
  XlaBuilder b("dynamic_slice_bad");
  XlaOp x = Parameter(&b, 0, F32({8}), "x");
  XlaOp i = Parameter(&b, 1, S32Scalar(), "i");
  DynamicSlice(x, {i}, {9});
  ExpectError(b, {"dynamic-slice", "dynamic_slice_sizes[0]=9"});
}

TEST(DynamicSliceTest, WrongIndexCountIsAnError) {
  XlaBuilder b("dynamic_slice_count");
  XlaOp x = Parameter(&b, 0, F32({8, 6}), "x");
  XlaOp i = Parameter(&b, 1, S32Scalar(), "i");
  DynamicSlice(x, {i}, {2, 3});
  ExpectError(b, {"dynamic-slice", "one start index per operand dimension"});
}

TEST(DynamicUpdateSliceTest, KeepsTheOperandShape) {
  XlaBuilder b("dus");
  XlaOp x = Parameter(&b, 0, F32({8, 6}), "x");
  XlaOp u = Parameter(&b, 1, F32({2, 6}), "u");
  XlaOp i = Parameter(&b, 2, S32Scalar(), "i");
  XlaOp j = Parameter(&b, 3, S32Scalar(), "j");
  EXPECT_EQ(ShapeOf(DynamicUpdateSlice(x, u, {i, j})), "f32[8,6]");
  RoundTrip(b);
}

TEST(DynamicUpdateSliceTest, LargerUpdateIsAnError) {
  XlaBuilder b("dus_bad");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  XlaOp u = Parameter(&b, 1, F32({3}), "u");
  XlaOp i = Parameter(&b, 2, S32Scalar(), "i");
  DynamicUpdateSlice(x, u, {i});
  ExpectError(b, {"dynamic-update-slice", "more than the operand's 2"});
}

TEST(ConcatInDimTest, JoinsAlongADimension) {
  XlaBuilder b("concat");
  XlaOp a = Parameter(&b, 0, F32({3, 2}), "a");
  XlaOp c = Parameter(&b, 1, F32({1, 2}), "c");
  EXPECT_EQ(ShapeOf(ConcatInDim(&b, {a, c}, 0)), "f32[4,2]");
  RoundTrip(b);
}

TEST(ConcatInDimTest, RaggedOperandsAndNoOperandsAreErrors) {
  XlaBuilder b("concat_bad");
  XlaOp a = Parameter(&b, 0, F32({3, 2}), "a");
  XlaOp c = Parameter(&b, 1, F32({1, 3}), "c");
  ConcatInDim(&b, {a, c}, 0);
  ExpectError(b, {"concatenate"});

  XlaBuilder empty("concat_empty");
  ConcatInDim(&empty, {}, 0);
  ExpectError(empty, {"concatenate", "at least one operand"});
}

TEST(PadTest, EdgeAndInteriorPadding) {
  XlaBuilder b("pad");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp zero = Parameter(&b, 1, F32({}), "zero");
  PaddingConfig config;
  config.dimensions = {{1, 2, 0}, {0, -1, 1}};
  EXPECT_EQ(ShapeOf(Pad(x, zero, config)), "f32[5,4]");
  EXPECT_EQ(ShapeOf(PadInDim(x, zero, 1, 2, 3)), "f32[2,8]");
  EXPECT_THAT(RoundTrip(b), AllOf(HasSubstr("padding=1_2_0x0_-1_1"),
                                  HasSubstr("padding=0_0x2_3")));
}

TEST(PadTest, NegativeInteriorAndBadPadValueAreErrors) {
  XlaBuilder b("pad_bad");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  XlaOp zero = Parameter(&b, 1, F32({}), "zero");
  PaddingConfig config;
  config.dimensions = {{0, 0, -1}};
  Pad(x, zero, config);
  ExpectError(b, {"pad"});

  XlaBuilder c("pad_in_dim_bad");
  PadInDim(Parameter(&c, 0, F32({2}), "x"), Parameter(&c, 1, F32({}), "z"), 3,
           1, 1);
  ExpectError(c, {"pad", "PadInDim dimension 3 is out of range"});
}

TEST(DimensionSizeTest, GetAndSetDimensionSize) {
  XlaBuilder b("dim_size");
  XlaOp x = Parameter(&b, 0, F32({10, 4}), "x");
  XlaOp n = GetDimensionSize(x, 0);
  EXPECT_EQ(ShapeOf(n), "s32[]");
  XlaOp y = SetDimensionSize(x, n, 0);
  EXPECT_EQ(ShapeOf(y), "f32[<=10,4]");
  EXPECT_EQ(ShapeOf(GetDimensionSize(y, 0)), "s32[]");
  RoundTrip(b);
}

TEST(DimensionSizeTest, BadDimensionAndSizeTypeAreErrors) {
  XlaBuilder b("get_bad");
  GetDimensionSize(Parameter(&b, 0, F32({10}), "x"), 1);
  ExpectError(b, {"get-dimension-size", "dimensions"});

  XlaBuilder c("set_bad");
  XlaOp x = Parameter(&c, 0, F32({10}), "x");
  SetDimensionSize(x, Parameter(&c, 1, F32({}), "n"), 0);
  ExpectError(c, {"set-dimension-size", "expected s32[]"});
}

TEST(TupleTest, BuildsAndTakesApartATuple) {
  XlaBuilder b("tuple");
  XlaOp v = Parameter(&b, 0, F32({10}), "v");
  XlaOp s = Parameter(&b, 1, S32Scalar(), "s");
  XlaOp t = Tuple(&b, {v, s});
  EXPECT_EQ(ShapeOf(t), "(f32[10], s32[])");
  EXPECT_EQ(ShapeOf(GetTupleElement(t, 1)), "s32[]");
  RoundTrip(b);
}

TEST(TupleTest, IndexOutOfRangeIsAnError) {
  XlaBuilder b("gte_bad");
  XlaOp v = Parameter(&b, 0, F32({10}), "v");
  GetTupleElement(Tuple(&b, {v}), 1);
  ExpectError(b, {"get-tuple-element", "index=1"});
}

TEST(DataMovementTest, WholeComputationRoundTrips) {
  XlaBuilder b("pipeline");
  XlaOp x = Parameter(&b, 0, F32({4, 2, 3}), "x");
  XlaOp zero = Parameter(&b, 1, F32({}), "zero");
  XlaOp flat = Collapse(Transpose(x, {1, 0, 2}), {1, 2});  // f32[2,12]
  XlaOp padded = PadInDim(flat, zero, 1, 0, 4);            // f32[2,16]
  XlaOp halves = Reshape(padded, {4, 8});
  XlaOp reversed = Rev(SliceInDim(halves, 1, 4, 1, 0), {1});  // f32[3,8]
  XlaOp wide = BroadcastInDim(reversed, {2, 3, 8}, {1, 2});
  XlaOp joined = ConcatInDim(&b, {wide, Broadcast(reversed, {1})}, 0);
  XlaOp root = Tuple(&b, {joined, GetDimensionSize(joined, 0)});
  EXPECT_EQ(ShapeOf(root), "(f32[3,3,8], s32[])");
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("ROOT"));
  EXPECT_THAT(text, HasSubstr("concatenate("));
}

}  // namespace
}  // namespace kiln
