// reduce and map: the spec's worked examples (operation_semantics.md,
// Reduce and Map; expected values from the spec's text, or worked by hand
// where noted), the variadic form, the fold order, the fast path agreeing
// bit for bit with the general path, and recognised float sums being
// accurate (reduction_wide.h).
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

// `name` = (a, b) -> op(a, b) on T[]; `name`_slow computes the same with an
// extra dead instruction, which keeps it off the fast path.
std::string Combiner(const std::string& name, const std::string& op,
                     const std::string& type) {
  return absl::StrCat(name, " {\n  a = ", type, "[] parameter(0)\n  b = ", type,
                      "[] parameter(1)\n  ROOT r = ", type, "[] ", op,
                      "(a, b)\n}\n", name, "_slow {\n  a = ", type,
                      "[] parameter(0)\n  b = ", type,
                      "[] parameter(1)\n  unused = ", type, "[] ", op,
                      "(b, a)\n  ROOT r = ", type, "[] ", op, "(a, b)\n}\n");
}

// reduce(p0, init) over `dims` with `combiner`, on an input of `shape`.
std::string ReduceModule(const std::string& shape, const std::string& result,
                         const std::string& dims, const std::string& init,
                         const std::string& combiner,
                         const std::string& prelude) {
  const std::string type = shape.substr(0, shape.find('['));
  return EntryModule(
      {shape},
      absl::StrCat("init = ", type, "[] constant(", init,
                   ")\n  ROOT r = ", result, " reduce(p0, init), dimensions={",
                   dims, "}, to_apply=", combiner),
      prelude);
}

// Runs the reduce on the fast combiner and on its _slow twin; both must
// give `expected`.
void ExpectReduce(const std::string& shape, const std::string& result,
                  const std::string& dims, const std::string& init,
                  const std::string& op, const std::string& argument,
                  const std::string& expected) {
  const std::string type = shape.substr(0, shape.find('['));
  const std::string prelude = Combiner("f", op, type);
  for (const char* combiner : {"f", "f_slow"}) {
    EXPECT_EQ(
        RunToText(ReduceModule(shape, result, dims, init, combiner, prelude),
                  {argument}),
        expected)
        << op << " " << combiner << " dims={" << dims << "}";
  }
}

// The spec's 2D example: [[1,2,3],[4,5,6]] reduced over 0 or 1 with add.
TEST(ReduceTest, SpecMatrixExample) {
  const std::string matrix = "f32[2,3] {{1, 2, 3}, {4, 5, 6}}";
  ExpectReduce("f32[2,3]", "f32[3]", "0", "0", "add", matrix,
               "f32[3] {5, 7, 9}");
  ExpectReduce("f32[2,3]", "f32[2]", "1", "0", "add", matrix, "f32[2] {6, 15}");
}

// The spec's 3D example: [4,2,3] holding 1..6 replicated across dimension
// 0; its results are quoted in the spec.
TEST(ReduceTest, Spec3DExample) {
  const std::string slab = "{{1, 2, 3}, {4, 5, 6}}";
  const std::string input = absl::StrCat("s32[4,2,3] {", slab, ", ", slab, ", ",
                                         slab, ", ", slab, "}");
  ExpectReduce("s32[4,2,3]", "s32[2,3]", "0", "0", "add", input,
               "s32[2,3] { { 4, 8, 12 }, { 16, 20, 24 } }");
  ExpectReduce("s32[4,2,3]", "s32[4,2]", "2", "0", "add", input,
               "s32[4,2] { { 6, 15 }, { 6, 15 }, { 6, 15 }, "
               "{ 6, 15 } }");
  ExpectReduce("s32[4,2,3]", "s32[3]", "0,1", "0", "add", input,
               "s32[3] {20, 28, 36}");
  ExpectReduce("s32[4,2,3]", "s32[]", "0,1,2", "0", "add", input, "s32[] 84");
  // Unordered dimension lists mean the same.
  ExpectReduce("s32[4,2,3]", "s32[3]", "1,0", "0", "add", input,
               "s32[3] {20, 28, 36}");
}

// A recognised float add (the single-op combiner `f`) accumulates wide
// and rounds once (reduction_wide.h): 1e8 + 1 - 1e8 + 1 = 2 exactly. Any
// other combiner (`f_slow`) folds sequentially in row-major order in f32:
// ((((0 + 1e8) + 1) - 1e8) + 1) = 1 (the first 1 is absorbed by 1e8, the
// last is not).
void ExpectAccurateAndSequential(const std::string& shape,
                                 const std::string& result,
                                 const std::string& dims,
                                 const std::string& argument,
                                 const std::string& accurate,
                                 const std::string& sequential) {
  const std::string prelude = Combiner("f", "add", "f32");
  EXPECT_EQ(RunToText(ReduceModule(shape, result, dims, "0", "f", prelude),
                      {argument}),
            accurate)
      << "dims={" << dims << "}";
  EXPECT_EQ(RunToText(ReduceModule(shape, result, dims, "0", "f_slow", prelude),
                      {argument}),
            sequential)
      << "dims={" << dims << "}";
}

TEST(ReduceTest, FloatAdditionIsAccurateOrSequentialInRowMajorOrder) {
  ExpectAccurateAndSequential("f32[4]", "f32[]", "0",
                              "f32[4] {1e8, 1, -1e8, 1}", "f32[] 2", "f32[] 1");
  // Over an outer dimension: each column folds down the rows in order.
  ExpectAccurateAndSequential(
      "f32[4,2]", "f32[2]", "0",
      "f32[4,2] {{1e8, 1}, {1, 1e8}, {-1e8, -1e8}, {1, 1}}", "f32[2] {2, 2}",
      "f32[2] {1, 1}");
  // A middle dimension reduced, the outer and inner kept.
  ExpectAccurateAndSequential(
      "f32[2,4,1]", "f32[2,1]", "1",
      "f32[2,4,1] {{{1e8}, {1}, {-1e8}, {1}}, {{1}, {2}, {3}, {4}}}",
      "f32[2,1] { {2}, {10} }", "f32[2,1] { {1}, {10} }");
}

// Edge values: NaN propagates through maximum/minimum, signed zeros, inf.
TEST(ReduceTest, MaximumMinimumEdgeValuesAgreeOnBothPaths) {
  ExpectReduce("f32[3]", "f32[]", "0", "-inf", "maximum", "f32[3] {1, nan, 2}",
               "f32[] nan");
  ExpectReduce("f32[3]", "f32[]", "0", "inf", "minimum", "f32[3] {1, nan, 2}",
               "f32[] nan");
  ExpectReduce("f32[2]", "f32[]", "0", "-inf", "maximum", "f32[2] {-0, 0}",
               "f32[] -0");
  ExpectReduce("f32[2]", "f32[]", "0", "inf", "minimum", "f32[2] {0, -0}",
               "f32[] 0");
  ExpectReduce("f64[3]", "f64[]", "0", "-inf", "maximum",
               "f64[3] {-inf, 1e308, inf}", "f64[] inf");
  // inf - inf is the machine's default NaN (negative on x86), on both paths.
  ExpectReduce("f32[2]", "f32[]", "0", "0", "add", "f32[2] {inf, -inf}",
               "f32[] -nan");
}

// Integer sums and products wrap; extremes of each width.
TEST(ReduceTest, IntegersWrapOnBothPaths) {
  ExpectReduce("s8[2]", "s8[]", "0", "0", "add", "s8[2] {100, 100}",
               "s8[] -56");
  ExpectReduce("s32[2]", "s32[]", "0", "0", "add", "s32[2] {2147483647, 1}",
               "s32[] -2147483648");
  ExpectReduce("u16[2]", "u16[]", "0", "1", "multiply", "u16[2] {65535, 65535}",
               "u16[] 1");
  ExpectReduce("s64[2]", "s64[]", "0", "0", "minimum",
               "s64[2] {-9223372036854775808, 5}",
               "s64[] -9223372036854775808");
  ExpectReduce("u8[3]", "u8[]", "0", "0", "maximum", "u8[3] {1, 255, 7}",
               "u8[] 255");
  ExpectReduce("u32[3]", "u32[]", "0", "4294967295", "and", "u32[3] {7, 6, 14}",
               "u32[] 6");
  ExpectReduce("pred[3]", "pred[]", "0", "false", "or",
               "pred[3] {false, true, false}", "pred[] true");
  ExpectReduce("pred[3]", "pred[]", "0", "true", "and",
               "pred[3] {true, true, false}", "pred[] false");
}

// Types off the fast path's native storage.
TEST(ReduceTest, NarrowTypes) {
  // bf16: the recognised add sums wide, 256 + 1 + 1 = 258; folded in bf16
  // (8 significant bits), 256 + 1 rounds back to 256 at each step.
  const std::string bf16 = Combiner("f", "add", "bf16");
  EXPECT_EQ(RunToText(ReduceModule("bf16[3]", "bf16[]", "0", "0", "f", bf16),
                      {"bf16[3] {256, 1, 1}"}),
            "bf16[] 258");
  EXPECT_EQ(
      RunToText(ReduceModule("bf16[3]", "bf16[]", "0", "0", "f_slow", bf16),
                {"bf16[3] {256, 1, 1}"}),
      "bf16[] 256");
  ExpectReduce("s4[3]", "s4[]", "0", "0", "add", "s4[3] {7, 1, 1}", "s4[] -7");
  ExpectReduce("c64[2]", "c64[]", "0", "(0, 0)", "add",
               "c64[2] {(1, 2), (3, -4)}", "c64[] (4, -2)");
}

// A zero-sized reduced dimension leaves the init value; a zero-sized kept
// dimension gives an empty result.
TEST(ReduceTest, EmptyDimensions) {
  ExpectReduce("f32[0,3]", "f32[3]", "0", "7", "add", "f32[0,3] {}",
               "f32[3] {7, 7, 7}");
  ExpectReduce("f32[3,0]", "f32[3]", "1", "-1", "maximum",
               "f32[3,0] {{}, {}, {}}", "f32[3] {-1, -1, -1}");
  ExpectReduce("f32[]", "f32[]", "", "2", "add", "f32[] 3", "f32[] 5");
}

// The spec's variadic example: (max, argmax) with ties going to the later
// index ("if value >= max: return (value, index)").
TEST(ReduceTest, VariadicArgmax) {
  const std::string prelude =
      "argmax {\n  m = f32[] parameter(0)\n  i = s32[] parameter(1)\n"
      "  v = f32[] parameter(2)\n  k = s32[] parameter(3)\n"
      "  ge = pred[] compare(v, m), direction=GE\n"
      "  nm = f32[] select(ge, v, m)\n  ni = s32[] select(ge, k, i)\n"
      "  ROOT t = (f32[], s32[]) tuple(nm, ni)\n}\n";
  const std::string hlo = EntryModule(
      {"f32[2,5]"},
      "idx = s32[2,5] iota(), iota_dimension=1\n"
      "  m0 = f32[] constant(-inf)\n  i0 = s32[] constant(-1)\n"
      "  ROOT r = (f32[2], s32[2]) reduce(p0, idx, m0, i0), dimensions={1}, "
      "to_apply=argmax",
      prelude);
  EXPECT_EQ(RunToText(hlo, {"f32[2,5] {{1, 5, 3, 5, 2}, {-1, -3, -2, -5, "
                            "-4}}"}),
            "(f32[2], s32[2]) ( {5, -1}, {3, 0} )");
}

TEST(ReduceTest, CombinerErrorsNameTheFailingInstruction) {
  // The combiner calls a custom-call target nobody registered.
  const std::string prelude =
      "bad {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = f32[] custom-call(a, b), custom_call_target=\"nowhere\" }\n";
  const std::string result =
      RunToText(ReduceModule("f32[2]", "f32[]", "0", "0", "bad", prelude),
                {"f32[2] {1, 2}"});
  EXPECT_TRUE(absl::StartsWith(result, "error: ")) << result;
  EXPECT_TRUE(absl::StrContains(result, "c: ")) << result;
  EXPECT_TRUE(absl::StrContains(result, "nowhere")) << result;
}

// Spec, Map: the computation applied at each index.
TEST(MapTest, AppliesTheComputationElementwise) {
  const std::string prelude =
      "fma {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  z = f32[] parameter(2)\n  m = f32[] multiply(x, y)\n"
      "  ROOT s = f32[] add(m, z)\n}\n";
  const std::string hlo = EntryModule(
      {"f32[2,2]", "f32[2,2]", "f32[2,2]"},
      "ROOT r = f32[2,2] map(p0, p1, p2), dimensions={0,1}, to_apply=fma",
      prelude);
  EXPECT_EQ(
      RunToText(hlo, {"f32[2,2] {{1, 2}, {3, 4}}", "f32[2,2] {{2, 2}, {2, 2}}",
                      "f32[2,2] {{0.5, 0}, {-1, 10}}"}),
      "f32[2,2] { { 2.5, 4 }, { 5, 18 } }");
}

TEST(MapTest, ChangesTheElementType) {
  const std::string prelude =
      "positive {\n  x = s32[] parameter(0)\n  zero = s32[] constant(0)\n"
      "  ROOT p = pred[] compare(x, zero), direction=GT }\n";
  const std::string hlo = EntryModule(
      {"s32[3]"}, "ROOT r = pred[3] map(p0), dimensions={0}, to_apply=positive",
      prelude);
  EXPECT_EQ(RunToText(hlo, {"s32[3] {-2147483648, 0, 2147483647}"}),
            "pred[3] {0, 0, 1}");
}

}  // namespace
}  // namespace kiln
