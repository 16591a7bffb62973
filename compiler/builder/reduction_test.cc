#include "compiler/builder/reduction.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/builder/computations.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;

constexpr ElementType kF32 = ElementType::kF32;
constexpr ElementType kS32 = ElementType::kS32;

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(kF32, std::move(dims));
}
Shape S32(std::vector<int64_t> dims) {
  return Shape::Array(kS32, std::move(dims));
}

// The op's inferred shape, or the builder's error, as text.
std::string ShapeOf(const XlaBuilder& b, XlaOp op) {
  if (!op.valid()) return "error: " + std::string(b.first_error().message());
  return op.instruction()->shape().ToString(false);
}

std::string ErrorOf(const XlaBuilder& b) {
  return std::string(b.first_error().message());
}

XlaOp ZeroF32(XlaBuilder* b) {
  return ConstantLiteral(b, Literal::ScalarF32(0));
}

// Prints the built module, reparses it with every declared shape checked,
// verifies it, and checks that it prints back identically. Returns the
// text (empty on failure, with the failure recorded).
std::string RoundTrip(XlaBuilder* b, std::unique_ptr<Module>* out = nullptr) {
  absl::StatusOr<XlaComputation> built = b->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return "";
  absl::Status verified = VerifyModule(**reparsed);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  EXPECT_EQ(PrintModule(**reparsed), text);
  if (out != nullptr) *out = std::move(module);
  return text;
}

// (f32 acc, s32 idx, f32 x, s32 i) -> (max, its index): the combiner of a
// variadic argmax-style reduce, written by hand.
XlaComputation ArgMaxCombiner(XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("argmax");
  XlaOp acc = Parameter(sub.get(), 0, F32({}), "acc");
  XlaOp idx = Parameter(sub.get(), 1, S32({}), "idx");
  XlaOp x = Parameter(sub.get(), 2, F32({}), "x");
  XlaOp i = Parameter(sub.get(), 3, S32({}), "i");
  AttributeMap ge;
  ge.Set("direction", EnumValue{"GE"});
  XlaOp keep = sub->AddInstruction(Opcode::kCompare, {acc, x}, std::move(ge));
  XlaOp value = sub->AddInstruction(Opcode::kSelect, {keep, acc, x}, {});
  XlaOp index = sub->AddInstruction(Opcode::kSelect, {keep, idx, i}, {});
  sub->AddInstruction(Opcode::kTuple, {value, index}, {});
  absl::StatusOr<XlaComputation> built = sub->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  return *std::move(built);
}

TEST(ReduceTest, SingleOperandDropsTheReducedDimensions) {
  XlaBuilder b("reduce");
  XlaOp x = Parameter(&b, 0, F32({4, 5, 6}), "x");
  XlaOp sum =
      Reduce(x, ZeroF32(&b), CreateScalarAddComputation(kF32, &b), {0, 2});
  EXPECT_EQ(ShapeOf(b, sum), "f32[5]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("dimensions={0,2}"));
}

TEST(ReduceTest, VariadicReturnsATupleOfResults) {
  XlaBuilder b("argmax");
  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  XlaOp i = Parameter(&b, 1, S32({4, 5}), "i");
  XlaOp lowest = ConstantLiteral(&b, Literal::ScalarF32(-1e30f));
  XlaOp none = ConstantLiteral(&b, Literal::ScalarS32(-1));
  XlaOp both = Reduce(&b, {x, i}, {lowest, none}, ArgMaxCombiner(&b), {1});
  EXPECT_EQ(ShapeOf(b, both), "(f32[4], s32[4])");
  RoundTrip(&b);
}

TEST(ReduceTest, ReduceAllGivesAScalar) {
  XlaBuilder b("all");
  XlaOp x = Parameter(&b, 0, S32({2, 3, 4}), "x");
  XlaOp one = ConstantLiteral(&b, Literal::ScalarS32(1));
  XlaOp product = ReduceAll(x, one, CreateScalarMultiplyComputation(kS32, &b));
  EXPECT_EQ(ShapeOf(b, product), "s32[]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("dimensions={0,1,2}"));
}

TEST(ReduceTest, RejectsACombinerOfTheWrongSignature) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  // An s32 adder for f32 data.
  XlaOp sum = Reduce(x, ZeroF32(&b), CreateScalarAddComputation(kS32, &b), {1});
  EXPECT_FALSE(sum.valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("reduce: to_apply="));
  EXPECT_THAT(ErrorOf(b), HasSubstr("expected (f32[], f32[]) -> f32[] "
                                    "(operation_semantics.md, Reduce)"));
  EXPECT_EQ(b.Build().status(), b.first_error());
}

TEST(ReduceTest, RejectsAnInitOfTheWrongType) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  XlaOp zero = ConstantLiteral(&b, Literal::ScalarS32(0));
  EXPECT_FALSE(
      Reduce(x, zero, CreateScalarAddComputation(kF32, &b), {1}).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("init value 0 is s32[], expected a scalar "
                                    "of input 0's type f32"));
  EXPECT_THAT(ErrorOf(b), HasSubstr("(operation_semantics.md, Reduce)"));
}

TEST(ReduceTest, RejectsAnOutOfRangeDimension) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  EXPECT_FALSE(Reduce(x, ZeroF32(&b), CreateScalarAddComputation(kF32, &b), {2})
                   .valid());
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("dimensions {2} has dimension 2 out of range [0, 2) "
                        "(operation_semantics.md, Reduce)"));
}

TEST(ReduceTest, RejectsOperandsWithoutOneInitEach) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  XlaOp y = Parameter(&b, 1, F32({4}), "y");
  XlaOp zero = ZeroF32(&b);
  EXPECT_FALSE(Reduce(&b, {x, y}, {zero, zero, zero},
                      CreateScalarAddComputation(kF32, &b), {0})
                   .valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("reduce: 2 operands and 3 init values"));
  EXPECT_THAT(ErrorOf(b), HasSubstr("(operation_semantics.md, Reduce)"));
}

TEST(MakePaddingTest, ValidPadsNothingAndSamePadsToCeilOfInputOverStride) {
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(MakePadding({5, 6}, {3, 2}, {2, 2}, Padding::kValid),
            (Pairs{{0, 0}, {0, 0}}));
  // 5 by 2 -> 3 outputs: (3 - 1) * 2 + 3 - 5 = 2, split 1 and 1. 6 by 2
  // with a 2-window -> 3 outputs, no padding. 4 by 1 with a 4-window ->
  // 3 of padding, the odd one high.
  EXPECT_EQ(MakePadding({5, 6, 4}, {3, 2, 4}, {2, 2, 1}, Padding::kSame),
            (Pairs{{1, 1}, {0, 0}, {1, 2}}));
}

TEST(ReduceWindowTest, ValidPaddingShrinksEachDimension) {
  XlaBuilder b("pool");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  XlaOp pooled =
      ReduceWindow(x, ZeroF32(&b), CreateScalarMaxComputation(kF32, &b), {2, 2},
                   {2, 2}, Padding::kValid);
  EXPECT_EQ(ShapeOf(b, pooled), "f32[2,3]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("window={size=2x2 stride=2x2}"));
}

TEST(ReduceWindowTest, SamePaddingKeepsCeilOfInputOverStride) {
  XlaBuilder b("pool");
  XlaOp x = Parameter(&b, 0, F32({5}), "x");
  XlaOp pooled =
      ReduceWindow(x, ZeroF32(&b), CreateScalarAddComputation(kF32, &b), {3},
                   {2}, Padding::kSame);
  EXPECT_EQ(ShapeOf(b, pooled), "f32[3]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("window={size=3 stride=2 pad=1_1}"));
}

TEST(ReduceWindowTest, GeneralPaddingTakesDilations) {
  XlaBuilder b("dilated");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  // Base 4 dilated by 2 is 7, padded 1+1 is 9; a 2-window dilated by 2
  // spans 3, so 7 positions.
  XlaOp out = ReduceWindowWithGeneralPadding(
      x, ZeroF32(&b), CreateScalarAddComputation(kF32, &b), {2}, {1}, {2}, {2},
      {{1, 1}});
  EXPECT_EQ(ShapeOf(b, out), "f32[7]");
  EXPECT_THAT(RoundTrip(&b),
              HasSubstr("window={size=2 pad=1_1 lhs_dilate=2 rhs_dilate=2}"));
}

TEST(ReduceWindowTest, VariadicReturnsATuple) {
  XlaBuilder b("pool2");
  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  XlaOp i = Parameter(&b, 1, S32({4, 5}), "i");
  XlaOp lowest = ConstantLiteral(&b, Literal::ScalarF32(-1e30f));
  XlaOp none = ConstantLiteral(&b, Literal::ScalarS32(-1));
  XlaOp out = ReduceWindow({x, i}, {lowest, none}, ArgMaxCombiner(&b), {2, 2},
                           {1, 1}, Padding::kValid);
  EXPECT_EQ(ShapeOf(b, out), "(f32[3,4], s32[3,4])");
  RoundTrip(&b);
}

TEST(ReduceWindowTest, RejectsAWindowOfTheWrongRank) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  EXPECT_FALSE(ReduceWindow(x, ZeroF32(&b),
                            CreateScalarMaxComputation(kF32, &b), {2}, {2},
                            Padding::kSame)
                   .valid());
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("reduce-window: window has 1 dimensions, expected 2 "
                        "(operation_semantics.md, ReduceWindow)"));
}

TEST(ReduceWindowTest, RejectsStridesOfAnotherLength) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  EXPECT_FALSE(ReduceWindowWithGeneralPadding(
                   x, ZeroF32(&b), CreateScalarMaxComputation(kF32, &b), {2, 2},
                   {1}, {}, {}, {{0, 0}, {0, 0}})
                   .valid());
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("reduce-window: window_strides has 1 entries but "
                        "window_dimensions has 2"));
  EXPECT_THAT(ErrorOf(b), HasSubstr("(operation_semantics.md, ReduceWindow)"));
}

TEST(SelectAndScatterTest, ScattersBackToTheOperandShape) {
  XlaBuilder b("scatter");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  XlaOp source = Parameter(&b, 1, F32({2, 3}), "source");
  XlaOp out = SelectAndScatter(x, CreateScalarGtComputation({kF32}, &b), {2, 2},
                               {2, 2}, Padding::kValid, source, ZeroF32(&b),
                               CreateScalarAddComputation(kF32, &b));
  EXPECT_EQ(ShapeOf(b, out), "f32[4,6]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("select-and-scatter("));
}

TEST(SelectAndScatterTest, GeneralPaddingAndASourceOfTheWrongShape) {
  XlaBuilder good("padded");
  XlaOp x = Parameter(&good, 0, F32({5}), "x");
  XlaOp source = Parameter(&good, 1, F32({3}), "source");
  XlaOp out = SelectAndScatterWithGeneralPadding(
      x, CreateScalarGtComputation({kF32}, &good), {3}, {2}, {{1, 1}}, source,
      ZeroF32(&good), CreateScalarAddComputation(kF32, &good));
  EXPECT_EQ(ShapeOf(good, out), "f32[5]");
  RoundTrip(&good);

  XlaBuilder bad("bad");
  XlaOp y = Parameter(&bad, 0, F32({5}), "y");
  XlaOp wrong = Parameter(&bad, 1, F32({2}), "wrong");
  EXPECT_FALSE(SelectAndScatterWithGeneralPadding(
                   y, CreateScalarGtComputation({kF32}, &bad), {3}, {2},
                   {{1, 1}}, wrong, ZeroF32(&bad),
                   CreateScalarAddComputation(kF32, &bad))
                   .valid());
  EXPECT_THAT(ErrorOf(bad),
              HasSubstr("source is f32[2], expected the windowed operand "
                        "shape f32[3] (operation_semantics.md, "
                        "SelectAndScatter)"));
}

TEST(SortTest, DefaultsToTheLastDimension) {
  XlaBuilder b("sort");
  XlaOp x = Parameter(&b, 0, F32({3, 4}), "x");
  XlaOp sorted = Sort({x}, CreateScalarLtComputation({kF32}, &b));
  EXPECT_EQ(ShapeOf(b, sorted), "f32[3,4]");
  const std::string text = RoundTrip(&b);
  EXPECT_THAT(text, HasSubstr("dimensions={1}"));
  EXPECT_EQ(text.find("is_stable"), std::string::npos) << text;
}

TEST(SortTest, VariadicStableSortReturnsATuple) {
  XlaBuilder b("sort");
  XlaOp keys = Parameter(&b, 0, F32({3, 4}), "keys");
  XlaOp values = Parameter(&b, 1, S32({3, 4}), "values");
  XlaOp sorted = Sort({keys, values},
                      CreateScalarGtComputation({kF32, kS32}, &b), 0, true);
  EXPECT_EQ(ShapeOf(b, sorted), "(f32[3,4], s32[3,4])");
  const std::string text = RoundTrip(&b);
  EXPECT_THAT(text, HasSubstr("dimensions={0}, is_stable=true"));
  EXPECT_THAT(text, HasSubstr("direction=GT"));
}

TEST(SortTest, RejectsAComparatorNotReturningPred) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  EXPECT_FALSE(Sort({x}, CreateScalarAddComputation(kF32, &b)).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("sort: to_apply="));
  EXPECT_THAT(ErrorOf(b), HasSubstr("expected (f32[], f32[]) -> pred[] "
                                    "(operation_semantics.md, Sort)"));
}

TEST(SortTest, RejectsAComparatorWithNoOperandTypes) {
  XlaBuilder b("bad");
  XlaComputation comparator = CreateScalarLtComputation({}, &b);
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("a sort comparator needs at least one operand type "
                        "(operation_semantics.md, Sort)"));
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  EXPECT_FALSE(Sort({x}, comparator).valid());
  EXPECT_FALSE(b.Build().ok());
}

TEST(TopKTest, ReturnsValuesAndS32Indices) {
  XlaBuilder b("topk");
  XlaOp x = Parameter(&b, 0, F32({3, 10}), "x");
  XlaOp top = TopK(x, 4, /*largest=*/false);
  EXPECT_EQ(ShapeOf(b, top), "(f32[3,4], s32[3,4])");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("k=4, largest=false"));

  XlaBuilder bad("bad");
  XlaOp y = Parameter(&bad, 0, F32({3, 10}), "y");
  EXPECT_FALSE(TopK(y, 11).valid());
  EXPECT_THAT(ErrorOf(bad),
              HasSubstr("k=11 must be in [0, size of the last dimension 10] "
                        "(operation_semantics.md, TopK)"));
}

TEST(MapTest, AppliesTheComputationElementwise) {
  XlaBuilder b("map");
  XlaOp x = Parameter(&b, 0, S32({2, 3}), "x");
  XlaOp y = Parameter(&b, 1, S32({2, 3}), "y");
  XlaOp out = Map(&b, {x, y}, CreateScalarMaxComputation(kS32, &b), {});
  EXPECT_EQ(ShapeOf(b, out), "s32[2,3]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("dimensions={0,1}"));
}

TEST(MapTest, RejectsPermutedDimensionsAndStaticOperands) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, S32({2, 3}), "x");
  EXPECT_FALSE(
      Map(&b, {x, x}, CreateScalarMaxComputation(kS32, &b), {1, 0}).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("dimensions={1,0} must list every operand "
                                    "dimension in order"));

  XlaBuilder b2("bad2");
  XlaOp y = Parameter(&b2, 0, S32({2, 3}), "y");
  EXPECT_FALSE(
      Map(&b2, {y, y}, CreateScalarMaxComputation(kS32, &b2), {0, 1}, {y})
          .valid());
  EXPECT_THAT(ErrorOf(b2), HasSubstr("map: 1 static operands given; HLO's map "
                                     "takes none (operation_semantics.md, "
                                     "Map)"));
}

// (f32[3] x, f32[3] carry) -> (f32[3] sum, f32[3] sum): a running sum.
XlaComputation RunningSum(XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("running_sum");
  XlaOp x = Parameter(sub.get(), 0, F32({3}), "x");
  XlaOp carry = Parameter(sub.get(), 1, F32({3}), "carry");
  XlaOp sum = sub->AddInstruction(Opcode::kAdd, {x, carry}, {});
  sub->AddInstruction(Opcode::kTuple, {sum, sum}, {});
  absl::StatusOr<XlaComputation> built = sub->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  return *std::move(built);
}

TEST(ScanTest, ReturnsStackedOutputsAndTheFinalCarry) {
  XlaBuilder b("scan");
  XlaOp x = Parameter(&b, 0, F32({5, 3}), "x");
  XlaOp init = Parameter(&b, 1, F32({3}), "init");
  XlaOp out = Scan({x}, {init}, RunningSum(&b), 0, /*is_reverse=*/true,
                   /*is_associative=*/true);
  EXPECT_EQ(ShapeOf(b, out), "(f32[5,3], f32[3])");
  EXPECT_THAT(RoundTrip(&b),
              HasSubstr("dimensions={0}, num_carries=1, is_reverse=true, "
                        "is_associative=true"));

  XlaBuilder bad("bad");
  XlaOp y = Parameter(&bad, 0, F32({5, 3}), "y");
  XlaOp wrong = Parameter(&bad, 1, F32({4}), "wrong");
  EXPECT_FALSE(Scan({y}, {wrong}, RunningSum(&bad), 0).valid());
  EXPECT_THAT(ErrorOf(bad), HasSubstr("(operation_semantics.md, Scan)"));
}

// One module calling several sub-computations, one of them twice. The
// computations are named so that they outlive the ops that import them
// (see the disabled test below for temporaries).
TEST(ReductionRoundTripTest, ImportsEachSubComputationOnce) {
  XlaBuilder b("several");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  const XlaComputation add = CreateScalarAddComputation(kF32, &b);
  const XlaComputation max = CreateScalarMaxComputation(kF32, &b);
  const XlaComputation lt = CreateScalarLtComputation({kF32}, &b);
  XlaOp rows = Reduce(x, ZeroF32(&b), add, {1});
  XlaOp cols = Reduce(x, ZeroF32(&b), add, {0});
  XlaOp pooled =
      ReduceWindow(x, ZeroF32(&b), max, {2, 3}, {2, 3}, Padding::kValid);
  XlaOp sorted = Sort({rows}, lt);
  b.AddInstruction(Opcode::kTuple, {sorted, cols, pooled}, {});
  ASSERT_TRUE(b.ok()) << b.first_error();
  std::unique_ptr<Module> module;
  const std::string text = RoundTrip(&b, &module);
  ASSERT_NE(module, nullptr);
  // add, max, lt and the entry.
  EXPECT_EQ(module->computations().size(), 4u) << text;
  const std::string add_name = module->computations()[0]->name();
  EXPECT_THAT(add_name, HasSubstr("add_f32"));
  size_t uses = 0;
  for (size_t at = text.find("to_apply=%" + add_name); at != std::string::npos;
       at = text.find("to_apply=%" + add_name, at + 1)) {
    ++uses;
  }
  EXPECT_EQ(uses, 2u) << text;
}

// XlaBuilder code passes temporaries: each statement below destroys its
// computation, and the next one's module may reuse the address. The
// builder's import cache (builder.cc, keyed by the source Module's address)
// then hands back the earlier copy: the sort gets the max combiner and
// fails. Disabled until the cache is keyed by something that outlives the
// computation (see the helper-3 report); enable it with that fix.
TEST(ReductionRoundTripTest, TemporaryComputationsAreNotConfused) {
  XlaBuilder b("temporaries");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  XlaOp pooled =
      ReduceWindow(x, ZeroF32(&b), CreateScalarMaxComputation(kF32, &b), {2, 3},
                   {2, 3}, Padding::kValid);
  XlaOp rows =
      Reduce(x, ZeroF32(&b), CreateScalarAddComputation(kF32, &b), {1});
  XlaOp sorted = Sort({rows}, CreateScalarLtComputation({kF32}, &b));
  b.AddInstruction(Opcode::kTuple, {sorted, pooled}, {});
  ASSERT_TRUE(b.ok()) << b.first_error();
  std::unique_ptr<Module> module;
  RoundTrip(&b, &module);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->computations().size(), 4u);
}

}  // namespace
}  // namespace kiln
