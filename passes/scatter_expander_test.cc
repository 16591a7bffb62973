// scatter-expander: every scatter becomes a while loop of dynamic slices,
// maps of the update computation and dynamic updates; the reference
// evaluator gives the same values before and after, including skipped
// out-of-bounds windows, repeated indices with a non-commutative
// computation, variadic scatters and batching dims.
#include "passes/scatter_expander.h"

#include <string>
#include <vector>

#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/pass/pass.h"
#include "compiler/text/parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/gather_simplification_testing.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::gather_scatter_testing::CheckJaxScatterSpecExample;
using ::kiln::gather_scatter_testing::Combiner;
using ::kiln::gather_scatter_testing::EvaluateAround;
using ::kiln::gather_scatter_testing::kOverwrite;
using ::kiln::gather_scatter_testing::RunAndCompare;
using ::kiln::gather_scatter_testing::ValueCheck;
using ::kiln::pass_test::ContainsInOrder;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPass[] = "scatter-expander";

TEST(ScatterExpanderTest, IsRegistered) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(kPass);
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), kPass);
}

TEST(ScatterExpanderTest, ScatterAddRowsWithRepeatedAndOutOfBoundsIndices) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[5]", "f32[5,3]"},
                  "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "f32", "add")),
      kPass);
  EXPECT_TRUE(
      ContainsInOrder(out, {"dynamic-slice(", "map(", "to_apply=add", "select(",
                            "dynamic-update-slice(", "ENTRY", "while("}));
  EXPECT_THAT(out, Not(HasSubstr(" scatter(")));
}

TEST(ScatterExpanderTest, OutOfBoundsElementsAreDroppedNotClamped) {
  const std::string hlo =
      EntryModule({"s32[5]", "s32[3,1]", "s32[3,2]"},
                  "ROOT s = s32[5] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "s32", "add"));
  const auto values =
      EvaluateAround(hlo, kPass,
                     {"s32[5] {0, 0, 0, 0, 0}", "s32[3,1] {{4}, {-1}, {3}}",
                      "s32[3,2] {{1, 2}, {10, 20}, {100, 200}}"});
  // Per element (the spec; XLA would drop the windows at 4 and -1 whole):
  // the window at 4 writes 1 to element 4 and drops its element 5, the one
  // at -1 drops element -1 and writes 20 to element 0, the one at 3 fits.
  EXPECT_EQ(values.before, "s32[5] {20, 0, 0, 100, 201}");
  EXPECT_EQ(values.after, values.before);
  // The window is realigned to the clamped one and masked per element.
  EXPECT_TRUE(ContainsInOrder(
      values.printed, {"iota(", "concatenate(", "dynamic-slice(concatenate",
                       "map(", "select(", "dynamic-update-slice("}));
}

// A window partly out of bounds in two dims at once, on either side, wider
// than half the operand, and wholly outside, with a non-commutative
// computation: the evaluator and the loop agree element by element.
TEST(ScatterExpanderTest, PartlyOutOfBoundsWindowsIn2d) {
  const std::string hlo =
      EntryModule({"s32[4,5]", "s32[5,2]", "s32[5,3,4]"},
                  "ROOT s = s32[4,5] scatter(p0, p1, p2), "
                  "update_window_dims={1,2}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, "
                  "to_apply=sub",
                  Combiner("sub", "s32", "subtract"));
  std::string updates = "s32[5,3,4] {";
  for (int i = 0; i < 5; ++i) {
    updates += i == 0 ? "{" : ", {";
    for (int r = 0; r < 3; ++r) {
      updates += r == 0 ? "{" : ", {";
      for (int c = 0; c < 4; ++c) {
        updates += (c == 0 ? "" : ", ") + std::to_string(100 * i + 10 * r + c);
      }
      updates += "}";
    }
    updates += "}";
  }
  updates += "}";
  const auto values = EvaluateAround(
      hlo, kPass,
      {"s32[4,5] {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, "
       "{0, 0, 0, 0, 0}}",
       "s32[5,2] {{-2, -3}, {3, 3}, {1, 2}, {-3, 0}, {4, 0}}", updates});
  // (-2,-3): rows 0 (r=2), cols 0 (c=3) -> -23. (3,3): row 3, cols 3-4
  // (r=0, c=0..1) -> -100, -101. (1,2): rows 1-3, cols 2-4 (c=0..2).
  // (-3,0) and (4,0) lie wholly outside.
  EXPECT_EQ(values.before,
            "s32[4,5] { { -23, 0, 0, 0, 0 }, { 0, 0, -200, -201, -202 }, "
            "{ 0, 0, -210, -211, -212 }, { 0, 0, -220, -321, -323 } }");
  EXPECT_EQ(values.after, values.before);
}

TEST(ScatterExpanderTest, NonCommutativeCombinerSeesUpdatesInOrder) {
  ValueCheck check;
  check.int_low = -1;
  check.int_high = 3;  // Many repeats.
  RunAndCompare(EntryModule({"f32[3]", "s32[8,1]", "f32[8]"},
                            "ROOT s = f32[3] scatter(p0, p1, p2), "
                            "update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, "
                            "index_vector_dim=1, to_apply=sub",
                            Combiner("sub", "f32", "subtract")),
                kPass, check);
}

TEST(ScatterExpanderTest, OverwriteNeedsNoMap) {
  ValueCheck check;
  check.int_high = 4;
  const std::string out = RunAndCompare(
      EntryModule({"f32[4,2]", "s32[6]", "f32[6,2]"},
                  "ROOT s = f32[4,2] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=assign",
                  kOverwrite),
      kPass, check);
  EXPECT_THAT(out, Not(HasSubstr("map(")));
  EXPECT_THAT(out, HasSubstr("select("));
}

TEST(ScatterExpanderTest, VariadicScatter) {
  const std::string combiner =
      "pair {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
      "  m = f32[] subtract(a, c)\n  n = s32[] multiply(b, d)\n"
      "  ROOT t = (f32[], s32[]) tuple(m, n)\n}\n";
  const std::string out = RunAndCompare(
      EntryModule({"f32[5,2]", "s32[5,2]", "s32[4,1]", "f32[4,2]", "s32[4,2]"},
                  "ROOT s = (f32[5,2], s32[5,2]) scatter(p0, p1, p2, p3, p4), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=pair",
                  combiner),
      kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"pair.output0", "call(", "to_apply=pair",
                                    "get-tuple-element(", "index=0"}));
}

TEST(ScatterExpanderTest, PartialWindowsIn2dWithPermutedIndexMap) {
  RunAndCompare(
      EntryModule({"s32[5,6]", "s64[2,3,2]", "s32[2,3,3,2]"},
                  "ROOT s = s32[5,6] scatter(p0, p1, p2), "
                  "update_window_dims={2,3}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={1,0}, "
                  "index_vector_dim=2, to_apply=max",
                  Combiner("max", "s32", "maximum")),
      kPass);
}

TEST(ScatterExpanderTest, ImplicitIndexVectorDimAndWindowBeforeScatterDims) {
  RunAndCompare(EntryModule({"f32[4,5]", "s32[3]", "f32[4,3]"},
                            "ROOT s = f32[4,5] scatter(p0, p1, p2), "
                            "update_window_dims={0}, inserted_window_dims={1}, "
                            "scatter_dims_to_operand_dims={1}, "
                            "index_vector_dim=1, to_apply=mul",
                            Combiner("mul", "f32", "multiply")),
                kPass);
}

TEST(ScatterExpanderTest, JaxSpecExampleWithBatchingDims) {
  CheckJaxScatterSpecExample(kPass);
}

TEST(ScatterExpanderTest, JaxDumpBatchedScatterOverwrite) {
  // compiler/text/xla_dumps/batched_gather_scatter.hlo.
  RunAndCompare(
      EntryModule({"f32[4,6]", "s32[4,2,1]", "f32[4,2]"},
                  "ROOT s = f32[4,6] scatter(p0, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={1}, "
                  "scatter_dims_to_operand_dims={1}, input_batching_dims={0}, "
                  "scatter_indices_batching_dims={0}, index_vector_dim=2, "
                  "to_apply=assign",
                  kOverwrite),
      kPass);
}

TEST(ScatterExpanderTest, UnsignedAndHugeIndices) {
  ValueCheck check;
  check.fixed_sets = {{"f32[4] {1, 2, 3, 4}",
                       "u64[3,1] {{18446744073709551615}, "
                       "{9223372036854775807}, {2}}",
                       "f32[3] {10, 20, 30}"}};
  RunAndCompare(EntryModule({"f32[4]", "u64[3,1]", "f32[3]"},
                            "ROOT s = f32[4] scatter(p0, p1, p2), "
                            "update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, "
                            "index_vector_dim=1, to_apply=add",
                            Combiner("add", "f32", "add")),
                kPass, check);
  RunAndCompare(EntryModule({"s32[300]", "u8[5,1]", "s32[5]"},
                            "ROOT s = s32[300] scatter(p0, p1, p2), "
                            "update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, "
                            "index_vector_dim=1, to_apply=add",
                            Combiner("add", "s32", "add")),
                kPass);
}

TEST(ScatterExpanderTest, NoUpdateElementsLeavesTheOperand) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4]", "s32[0,1]", "f32[0]"},
                  "n = f32[4] negate(p0)\n"
                  "  ROOT s = f32[4] scatter(n, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "f32", "add")),
      kPass);
  EXPECT_THAT(out, HasSubstr("ROOT n = f32[4]{0} negate(p0)"));
}

TEST(ScatterExpanderTest, ModuleWithoutScatterIsUnchanged) {
  ValueCheck check;
  check.expect_change = false;
  RunAndCompare(EntryModule({"f32[3]"}, "ROOT n = f32[3] negate(p0)"), kPass,
                check);
}

// Random valid configurations (batching dims, index_vector_dim anywhere,
// permuted maps, offset/window dims anywhere, several index types) with
// out-of-bounds and repeated indices: values never change.
TEST(ScatterExpanderRandomTest, RandomConfigurationsKeepTheirValues) {
  ValueCheck check;
  check.check_change = false;
  check.random_sets = 4;
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    const std::string hlo = gather_scatter_testing::RandomScatterModule(seed);
    SCOPED_TRACE(hlo);
    const std::string out = RunAndCompare(hlo, kPass, check);
    EXPECT_THAT(out, Not(HasSubstr(" scatter("))) << out;
    EXPECT_THAT(out, HasSubstr("while(")) << out;
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace kiln
