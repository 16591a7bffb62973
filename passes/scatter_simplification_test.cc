// scatter-simplification: trivial scatters become dynamic-update-slice
// (with the update computation mapped over a dynamic-slice, and a select on
// a per-element mask that drops out-of-bounds elements), others XLA's
// canonical form;
// the reference evaluator gives the same values before and after.
#include "passes/scatter_simplification.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
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

constexpr char kPass[] = "scatter-simplification";

int CountOf(absl::string_view text, absl::string_view what) {
  int count = 0;
  for (size_t at = text.find(what); at != absl::string_view::npos;
       at = text.find(what, at + what.size())) {
    ++count;
  }
  return count;
}

ValueCheck Unchanged() {
  ValueCheck check;
  check.expect_change = false;
  return check;
}

TEST(ScatterSimplificationTest, IsRegistered) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(kPass);
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), kPass);
}

// --- One index vector ---

TEST(ScatterSimplificationTest, SingleOverwriteIsGuardedDynamicUpdateSlice) {
  ValueCheck check;
  check.int_low = -4;
  check.int_high = 7;
  check.random_sets = 20;
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[1]", "f32[1,3]"},
                  "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=assign",
                  kOverwrite),
      kPass, check);
  EXPECT_TRUE(
      ContainsInOrder(out, {"compare(reshape, ", "direction=GE", "direction=LE",
                            "and(", "dynamic-slice(p0, reshape, ", "select(",
                            "dynamic-update-slice(p0, select, reshape, "}));
  EXPECT_THAT(out, Not(HasSubstr("map(")));
  EXPECT_THAT(out, Not(HasSubstr(" scatter(")));
}

// Each update element out of bounds is dropped, the rest of its window
// applies (the spec; XLA drops the whole window): the window at 4 writes
// element 4 only, the one at -1 element 0 only.
TEST(ScatterSimplificationTest, OutOfBoundsElementsAreDroppedNotClamped) {
  const std::string hlo =
      EntryModule({"s32[5]", "s32[1]", "s32[1,2]"},
                  "ROOT s = s32[5] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "s32", "add"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"s32[1] {4}", "s32[5] {0, 0, 0, 0, 1}"},
      {"s32[1] {-1}", "s32[5] {2, 0, 0, 0, 0}"},
      {"s32[1] {3}", "s32[5] {0, 0, 0, 1, 2}"},
      {"s32[1] {5}", "s32[5] {0, 0, 0, 0, 0}"},
      {"s32[1] {-2147483648}", "s32[5] {0, 0, 0, 0, 0}"},
      {"s32[1] {2147483647}", "s32[5] {0, 0, 0, 0, 0}"}};
  for (const auto& [index, expected] : cases) {
    const auto values = EvaluateAround(
        hlo, kPass, {"s32[5] {0, 0, 0, 0, 0}", index, "s32[1,2] {{1, 2}}"});
    EXPECT_EQ(values.before, expected) << index;
    EXPECT_EQ(values.after, values.before) << index;
    EXPECT_TRUE(ContainsInOrder(
        values.printed, {"iota(", "concatenate(", "dynamic-slice(concatenate",
                         "map(", "select(", "dynamic-update-slice("}))
        << values.printed;
  }
}

// Only indexed dims of window size > 1 are realigned (one concatenate, for
// dim 1); dim 0 (window size 1) is the scalar check 0 <= start < 6.
TEST(ScatterSimplificationTest, SizeOneWindowDimsNeedNoRealignment) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[2]", "f32[1,3]"},
                  "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                  "update_window_dims={0,1}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={0,1}, index_vector_dim=0, "
                  "to_apply=add",
                  Combiner("add", "f32", "add")),
      kPass);
  EXPECT_EQ(CountOf(out, "concatenate("), 1) << out;
  EXPECT_TRUE(
      ContainsInOrder(out, {"constant(5)", "direction=LE", "iota(", "select("}))
      << out;
}

TEST(ScatterSimplificationTest, UnsignedIndexNeedsNoLowerBoundCheck) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[300]", "u8[1]", "f32[1]"},
                  "ROOT s = f32[300] scatter(p0, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "f32", "add")),
      kPass);
  // Every u8 value fits in f32[300]: no predicate at all.
  EXPECT_THAT(out, Not(HasSubstr("compare(")));
  EXPECT_THAT(out, Not(HasSubstr("select(")));
  ValueCheck check;
  check.fixed_sets = {
      {"f32[4] {1, 2, 3, 4}", "u64[1] {18446744073709551615}", "f32[1] {5}"}};
  RunAndCompare(EntryModule({"f32[4]", "u64[1]", "f32[1]"},
                            "ROOT s = f32[4] scatter(p0, p1, p2), "
                            "update_window_dims={}, inserted_window_dims={0}, "
                            "scatter_dims_to_operand_dims={0}, "
                            "index_vector_dim=1, to_apply=add",
                            Combiner("add", "f32", "add")),
                kPass, check);
}

TEST(ScatterSimplificationTest, ConstantIndexInAndOutOfBounds) {
  const std::string in_bounds = RunAndCompare(
      EntryModule({"f32[6,3]", "f32[1,3]"},
                  "i = s32[1] constant({2})\n"
                  "  ROOT s = f32[6,3] scatter(p0, i, p1), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=mul",
                  Combiner("mul", "f32", "multiply")),
      kPass);
  EXPECT_THAT(in_bounds, HasSubstr("map("));
  EXPECT_THAT(in_bounds, Not(HasSubstr("select(")));
  const std::string out_of_bounds = RunAndCompare(
      EntryModule({"f32[6,3]", "f32[1,3]"},
                  "i = s32[1] constant({6})\n"
                  "  n = f32[6,3] negate(p0)\n"
                  "  ROOT s = f32[6,3] scatter(n, i, p1), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=mul",
                  Combiner("mul", "f32", "multiply")),
      kPass);
  EXPECT_THAT(out_of_bounds, HasSubstr("ROOT n = f32[6,3]{1,0} negate(p0)"));
}

// A constant index whose window is partly inside: the part inside (a slice
// of the update window) is written at its start; no run-time mask.
TEST(ScatterSimplificationTest, ConstantIndexPartlyInBounds) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"4", "s32[6] {0, 1, 2, 3, 5, 7}"},
      {"-2", "s32[6] {3, 1, 2, 3, 4, 5}"},
      {"6", "s32[6] {0, 1, 2, 3, 4, 5}"},
      {"-3", "s32[6] {0, 1, 2, 3, 4, 5}"}};
  for (const auto& [index, expected] : cases) {
    const std::string hlo =
        EntryModule({"s32[6]", "s32[1,3]"},
                    "i = s32[1] constant({" + index +
                        "})\n"
                        "  ROOT s = s32[6] scatter(p0, i, p1), "
                        "update_window_dims={1}, inserted_window_dims={}, "
                        "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                        "to_apply=add",
                    Combiner("add", "s32", "add"));
    const auto values = EvaluateAround(
        hlo, kPass, {"s32[6] {0, 1, 2, 3, 4, 5}", "s32[1,3] {{1, 2, 3}}"});
    EXPECT_EQ(values.before, expected) << index;
    EXPECT_EQ(values.after, values.before) << index;
    EXPECT_THAT(values.printed, Not(HasSubstr("select("))) << index;
    EXPECT_THAT(values.printed, Not(HasSubstr(" scatter("))) << index;
  }
}

TEST(ScatterSimplificationTest, SingleVariadicScatterWithWindow) {
  const std::string combiner =
      "pair {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
      "  m = f32[] maximum(a, c)\n  n = s32[] subtract(b, d)\n"
      "  ROOT t = (f32[], s32[]) tuple(m, n)\n}\n";
  const std::string out = RunAndCompare(
      EntryModule(
          {"f32[5,4]", "s32[5,4]", "s32[1,2]", "f32[1,2,3]", "s32[1,2,3]"},
          "ROOT s = (f32[5,4], s32[5,4]) scatter(p0, p1, p2, p3, p4), "
          "update_window_dims={1,2}, inserted_window_dims={}, "
          "scatter_dims_to_operand_dims={1,0}, index_vector_dim=1, "
          "to_apply=pair",
          combiner),
      kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"pair.output0", "pair.output1", "ENTRY",
                                    "map(", "map(", "ROOT tuple"}));
}

// --- No updates ---

TEST(ScatterSimplificationTest, EmptyUpdatesLeaveTheOperands) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4]", "s32[0,1]", "f32[0]"},
                  "ROOT s = f32[4] scatter(p0, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=add",
                  Combiner("add", "f32", "add")),
      kPass);
  EXPECT_THAT(out, HasSubstr("ROOT p0 = f32[4]{0} parameter(0)"));
}

// --- Canonical form ---

TEST(ScatterSimplificationTest, RowScatterIsCanonicalized) {
  ValueCheck check;
  check.int_low = -2;
  check.int_high = 7;
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[5]", "f32[5,3]"},
                  "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                  "update_window_dims={1}, inserted_window_dims={0}, "
                  "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                  "to_apply=sub",
                  Combiner("sub", "f32", "subtract")),
      kPass, check);
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = s32[5,1]{1,0} reshape(p1)",
            "reshape.1 = f32[5,1,3]{2,1,0} reshape(p2)",
            "ROOT s.1 = f32[6,3]{1,0} scatter(p0, reshape, reshape.1), "
            "update_window_dims={1,2}, inserted_window_dims={}, "
            "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
            "to_apply=sub"}));
}

TEST(ScatterSimplificationTest, CanonicalScatterIsLeftAlone) {
  RunAndCompare(EntryModule({"f32[6,3]", "s32[5,1]", "f32[5,1,3]"},
                            "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                            "update_window_dims={1,2}, "
                            "inserted_window_dims={}, "
                            "scatter_dims_to_operand_dims={0}, "
                            "index_vector_dim=1, to_apply=add",
                            Combiner("add", "f32", "add")),
                kPass, Unchanged());
}

TEST(ScatterSimplificationTest, PermutedMapAndWindowBeforeScatterDims) {
  const std::string out = RunAndCompare(
      EntryModule({"s32[5,6]", "s64[2,2,3]", "s32[3,2,2,3]"},
                  "ROOT s = s32[5,6] scatter(p0, p1, p2), "
                  "update_window_dims={0,2}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={1,0}, "
                  "index_vector_dim=1, to_apply=max",
                  Combiner("max", "s32", "maximum")),
      kPass);
  EXPECT_TRUE(
      ContainsInOrder(out, {"transpose(p0), dimensions={1,0}", "scatter(",
                            "scatter_dims_to_operand_dims={0,1}",
                            "transpose(s.1), "
                            "dimensions={1,0}"}));
}

TEST(ScatterSimplificationTest, VariadicCanonicalization) {
  const std::string combiner =
      "pair {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
      "  m = f32[] add(a, c)\n  n = s32[] subtract(b, d)\n"
      "  ROOT t = (f32[], s32[]) tuple(m, n)\n}\n";
  RunAndCompare(
      EntryModule({"f32[4,5]", "s32[4,5]", "s32[3]", "f32[4,3]", "s32[4,3]"},
                  "ROOT s = (f32[4,5], s32[4,5]) scatter(p0, p1, p2, p3, p4), "
                  "update_window_dims={0}, inserted_window_dims={1}, "
                  "scatter_dims_to_operand_dims={1}, index_vector_dim=1, "
                  "to_apply=pair",
                  combiner),
      kPass);
}

TEST(ScatterSimplificationTest, JaxSpecExampleWithBatchingDims) {
  const std::string out = CheckJaxScatterSpecExample(kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"iota(", "concatenate(", "scatter("}));
  EXPECT_THAT(out, Not(HasSubstr("batching_dims")));
}

TEST(ScatterSimplificationTest, JaxDumpScatters) {
  // compiler/text/xla_dumps/{gather_scatter,batched_gather_scatter}.hlo.
  RunAndCompare(
      EntryModule({"f32[4,6]", "s32[4,2,1]", "f32[4,2]"},
                  "ROOT s = f32[4,6] scatter(p0, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={1}, "
                  "scatter_dims_to_operand_dims={1}, input_batching_dims={0}, "
                  "scatter_indices_batching_dims={0}, index_vector_dim=2, "
                  "to_apply=assign",
                  kOverwrite),
      kPass);
  RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4,2]", "f32[4]"},
                  "ROOT s = f32[6,3] scatter(p0, p1, p2), "
                  "update_window_dims={}, inserted_window_dims={0,1}, "
                  "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, "
                  "to_apply=max",
                  Combiner("max", "f32", "maximum")),
      kPass);
}

TEST(ScatterSimplificationTest, SecondRunChangesNothing) {
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(
      EntryModule({"s32[5,6]", "s64[2,2,3]", "s32[3,2,2,3]"},
                  "ROOT s = s32[5,6] scatter(p0, p1, p2), "
                  "update_window_dims={0,2}, inserted_window_dims={}, "
                  "scatter_dims_to_operand_dims={1,0}, "
                  "index_vector_dim=1, to_apply=max",
                  Combiner("max", "s32", "maximum")));
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(*pass_test::RunPass(kPass, **module));
  const std::string once = pass_test::Print(**module);
  absl::StatusOr<bool> again = pass_test::RunPass(kPass, **module);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  EXPECT_EQ(pass_test::Print(**module), once);
}

TEST(ScatterSimplificationTest, NoScatterAndDynamicShapesAreUnchanged) {
  RunAndCompare(EntryModule({"f32[3]"}, "ROOT n = f32[3] negate(p0)"), kPass,
                Unchanged());
}

// Random valid configurations (batching dims, index_vector_dim anywhere,
// permuted maps, offset/window dims anywhere, several index types) with
// out-of-bounds and repeated indices: values never change.
TEST(ScatterSimplificationRandomTest, RandomConfigurationsKeepTheirValues) {
  ValueCheck check;
  check.check_change = false;
  check.random_sets = 4;
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    const std::string hlo = gather_scatter_testing::RandomScatterModule(seed);
    SCOPED_TRACE(hlo);
    const std::string out = RunAndCompare(hlo, kPass, check);
    // Whatever is left is canonical: no batching dims, [B,K] indices.
    for (absl::string_view line : absl::StrSplit(out, '\n')) {
      if (!absl::StrContains(line, " scatter(")) continue;
      EXPECT_THAT(line, HasSubstr("inserted_window_dims={}"));
      EXPECT_THAT(line, HasSubstr("index_vector_dim=1"));
      EXPECT_THAT(line, Not(HasSubstr("batching_dims")));
    }
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace kiln
