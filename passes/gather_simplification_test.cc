// gather-simplification: trivial gathers become slice / dynamic-slice /
// broadcast, others XLA's canonical form; the reference evaluator gives the
// same values before and after, including clamped out-of-bounds starts.
#include "passes/gather_simplification.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/pass/pass.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/gather_simplification_testing.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::gather_scatter_testing::EvaluateAround;
using ::kiln::gather_scatter_testing::RunAndCompare;
using ::kiln::gather_scatter_testing::ValueCheck;
using ::kiln::pass_test::ContainsInOrder;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPass[] = "gather-simplification";

ValueCheck Unchanged() {
  ValueCheck check;
  check.expect_change = false;
  return check;
}

TEST(GatherSimplificationTest, IsRegistered) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(kPass);
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), kPass);
}

// --- Trivial cases ---

TEST(GatherSimplificationTest, SingleIndexBecomesDynamicSlice) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[1]"},
                  "ROOT g = f32[1,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out, {"constant = s32[] constant(0)", "reshape = s32[] reshape(p1)",
            "ROOT dynamic-slice = f32[1,3]{1,0} dynamic-slice(p0, reshape, "
            "constant), dynamic_slice_sizes={1,3}"}));
  EXPECT_THAT(out, Not(HasSubstr("gather(")));
}

TEST(GatherSimplificationTest, SingleIndexOutOfBoundsClampsLikeGather) {
  const std::string hlo =
      EntryModule({"s32[3,4]", "s32[2]"},
                  "ROOT g = s32[2,2] gather(p0, p1), offset_dims={0,1}, "
                  "collapsed_slice_dims={}, start_index_map={1,0}, "
                  "index_vector_dim=0, slice_sizes={2,2}");
  for (const char* indices :
       {"s32[2] {9, -4}", "s32[2] {-1, 7}", "s32[2] {3, 1}"}) {
    const auto values = EvaluateAround(
        hlo, kPass,
        {"s32[3,4] {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}", indices});
    EXPECT_EQ(values.after, values.before) << indices;
    EXPECT_THAT(values.printed, HasSubstr("dynamic-slice("));
  }
  ValueCheck check;
  check.int_low = -6;
  check.int_high = 9;
  check.random_sets = 20;
  RunAndCompare(hlo, kPass, check);
}

TEST(GatherSimplificationTest, SingleIndexWithBatchingDimsAndU64) {
  RunAndCompare(
      EntryModule({"f32[1,5,3]", "s32[1,1]"},
                  "ROOT g = f32[1,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={1}, start_index_map={1}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                  "index_vector_dim=1, slice_sizes={1,1,3}"),
      kPass);
  ValueCheck check;
  check.fixed_sets = {
      {"f32[5] {1, 2, 3, 4, 5}", "u64[1] {18446744073709551615}"}};
  RunAndCompare(EntryModule({"f32[5]", "u64[1]"},
                            "ROOT g = f32[2] gather(p0, p1), offset_dims={0}, "
                            "collapsed_slice_dims={}, start_index_map={0}, "
                            "index_vector_dim=0, slice_sizes={2}"),
                kPass, check);
}

TEST(GatherSimplificationTest, ConstantIndexBecomesSliceAtClampedStart) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]"},
                  "i = s32[1,2] constant({{7, -1}})\n"
                  "  ROOT g = f32[1,2,2] gather(p0, i), offset_dims={1,2}, "
                  "collapsed_slice_dims={}, start_index_map={0,1}, "
                  "index_vector_dim=1, slice_sizes={2,2}"),
      kPass);
  EXPECT_THAT(out, HasSubstr("slice(p0), slice={[4:6], [0:2]}"));
  EXPECT_THAT(out, Not(HasSubstr("dynamic-slice")));
}

TEST(GatherSimplificationTest, FewConstantIndicesBecomeConcatenatedSlices) {
  // Out of bounds (clamped), repeated, index_vector_dim first.
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]"},
                  "i = s32[2,3] constant({{7, 1, 1}, {-1, 2, 2}})\n"
                  "  ROOT g = f32[2,2,3] gather(p0, i), offset_dims={0,1}, "
                  "collapsed_slice_dims={}, start_index_map={0,1}, "
                  "index_vector_dim=0, slice_sizes={2,2}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out,
      {"slice(p0), slice={[4:6], [0:2]}", "slice(p0), slice={[1:3], [1:3]}",
       "slice(p0), slice={[1:3], [1:3]}", "concatenate(", "transpose("}));
  EXPECT_THAT(out, Not(HasSubstr("gather(")));
  // With a batching dim: the batch coordinate is the start there.
  RunAndCompare(
      EntryModule({"s32[2,5,4]"},
                  "i = s32[3,2,2] constant({{{3, 0}, {1, 4}}, {{7, -2}, {0, "
                  "1}}, {{2, 2}, {4, 9}}})\n"
                  "  ROOT g = s32[3,3,2] gather(p0, i), offset_dims={1}, "
                  "collapsed_slice_dims={1}, start_index_map={1,2}, "
                  "operand_batching_dims={0}, "
                  "start_indices_batching_dims={2}, index_vector_dim=1, "
                  "slice_sizes={1,1,3}"),
      kPass);
}

TEST(GatherSimplificationTest, WholeIndexedDimsBecomeBroadcast) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4,3]", "s32[5,1]"},
                  "ROOT g = f32[5,4,2] gather(p0, p1), offset_dims={1,2}, "
                  "collapsed_slice_dims={}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={4,2}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"slice(p0), slice={[0:4], [0:2]}",
                                    "broadcast(slice), dimensions={1,2}"}));
  RunAndCompare(
      EntryModule({"f32[4,3]", "s32[5,0]"},
                  "ROOT g = f32[5,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
}

TEST(GatherSimplificationTest, EmptyResultIsABroadcastZero) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4,3]", "s32[0,2]"},
                  "ROOT g = f32[0,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0,1}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
  EXPECT_THAT(out, HasSubstr("ROOT broadcast = f32[0,3]{1,0} broadcast("));
}

// --- Canonical form ---

TEST(GatherSimplificationTest, RowGatherIsCanonicalized) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4]"},
                  "ROOT g = f32[4,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = s32[4,1]{1,0} reshape(p1)",
            "g.1 = f32[4,1,3]{2,1,0} gather(p0, reshape), offset_dims={1,2}, "
            "collapsed_slice_dims={}, start_index_map={0}, "
            "index_vector_dim=1, slice_sizes={1,3}",
            "ROOT reshape.1 = f32[4,3]{1,0} reshape(g.1)"}));
}

TEST(GatherSimplificationTest, CanonicalGatherIsLeftAlone) {
  RunAndCompare(EntryModule({"f32[6,3]", "s32[4,1]"},
                            "ROOT g = f32[4,1,3] gather(p0, p1), "
                            "offset_dims={1,2}, collapsed_slice_dims={}, "
                            "start_index_map={0}, index_vector_dim=1, "
                            "slice_sizes={1,3}"),
                kPass, Unchanged());
}

TEST(GatherSimplificationTest, PermutedIndexMapTransposesTheOperand) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[5,6,4]", "s64[3,2]"},
                  "ROOT g = f32[2,3,6,3] gather(p0, p1), offset_dims={0,2,3}, "
                  "collapsed_slice_dims={}, start_index_map={2,0}, "
                  "index_vector_dim=1, slice_sizes={2,6,3}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out, {"transpose(p0), dimensions={2,0,1}", "gather(",
            "start_index_map={0,1}", "slice_sizes={3,2,6}", "transpose("}));
}

TEST(GatherSimplificationTest, IndexVectorDimFirstBatchDimsFlattened) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4,5]", "s32[2,3,2]"},
                  "ROOT g = f32[3,2,2] gather(p0, p1), offset_dims={2}, "
                  "collapsed_slice_dims={0}, start_index_map={0,1}, "
                  "index_vector_dim=0, slice_sizes={1,2}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out, {"transpose(p1), dimensions={1,2,0}",
            "reshape = s32[6,2]{1,0} reshape(transpose)", "gather(",
            "ROOT reshape.1 = f32[3,2,2]{2,1,0} reshape(g.1)"}));
}

TEST(GatherSimplificationTest, JaxBatchingDimsBecomeExplicitIndices) {
  // compiler/evaluator/indexing_generated_test.cc: values from JAX.
  const std::string hlo =
      EntryModule({"s32[2,5,4]", "s32[3,2,2]"},
                  "ROOT g = s32[3,3,2] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={1}, start_index_map={1,2}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={2}, "
                  "index_vector_dim=1, slice_sizes={1,1,3}");
  const auto values = EvaluateAround(
      hlo, kPass,
      {"s32[2,5,4] {{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, "
       "{12, 13, 14, 15}, {16, 17, 18, 19}}, {{20, 21, 22, 23}, "
       "{24, 25, 26, 27}, {28, 29, 30, 31}, {32, 33, 34, 35}, "
       "{36, 37, 38, 39}}}",
       "s32[3,2,2] {{{3, 0}, {1, 4}}, {{7, -2}, {0, 1}}, {{2, 2}, {4, 9}}}"});
  EXPECT_EQ(values.after,
            "s32[3,3,2] { { { 13, 21 }, { 14, 22 }, { 15, 23 } }, { { 16, 21 "
            "}, { 17, 22 }, { 18, 23 } }, { { 9, 29 }, { 10, 30 }, { 11, 31 "
            "} } }");
  EXPECT_EQ(values.after, values.before);
  const std::string out = RunAndCompare(hlo, kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"iota(), iota_dimension=1", "concatenate(",
                                    "gather(", "start_index_map={0,1,2}"}));
  EXPECT_THAT(out, Not(HasSubstr("batching_dims")));
}

TEST(GatherSimplificationTest, JaxDumpGathers) {
  // compiler/text/xla_dumps/{gather_scatter,batched_gather_scatter}.hlo.
  RunAndCompare(
      EntryModule({"f32[4,6]", "s32[4,2,1]"},
                  "ROOT g = f32[4,2] gather(p0, p1), offset_dims={}, "
                  "collapsed_slice_dims={1}, start_index_map={1}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                  "index_vector_dim=2, slice_sizes={1,1}"),
      kPass);
  RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4,1]"},
                  "ROOT g = f32[4,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
}

TEST(GatherSimplificationTest, BatchingCoordinatesWiderThanTheIndexType) {
  // 300 batch positions do not fit s8: the indices are widened first.
  const std::string out = RunAndCompare(
      EntryModule({"f32[300,3]", "s8[300,1]"},
                  "ROOT g = f32[300] gather(p0, p1), offset_dims={}, "
                  "collapsed_slice_dims={1}, start_index_map={1}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                  "index_vector_dim=1, slice_sizes={1,1}"),
      kPass);
  EXPECT_THAT(out, HasSubstr("s64[300,1]{1,0} convert("));
}

TEST(GatherSimplificationTest, SecondRunChangesNothing) {
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(
      EntryModule({"f32[5,6,4]", "s64[3,2]"},
                  "ROOT g = f32[2,3,6,3] gather(p0, p1), offset_dims={0,2,3}, "
                  "collapsed_slice_dims={}, start_index_map={2,0}, "
                  "index_vector_dim=1, slice_sizes={2,6,3}"));
  ASSERT_TRUE(module.ok());
  ASSERT_TRUE(*pass_test::RunPass(kPass, **module));
  const std::string once = pass_test::Print(**module);
  absl::StatusOr<bool> again = pass_test::RunPass(kPass, **module);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  EXPECT_EQ(pass_test::Print(**module), once);
}

// --- Negative and edge cases ---

TEST(GatherSimplificationTest, NoGatherAndDynamicShapesAreUnchanged) {
  RunAndCompare(EntryModule({"f32[3]"}, "ROOT n = f32[3] negate(p0)"), kPass,
                Unchanged());
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(
      EntryModule({"f32[6,3]", "s32[<=4]"},
                  "ROOT g = f32[<=4,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = pass_test::RunPass(kPass, **module);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
}

TEST(GatherSimplificationTest, GatherInCalledComputationWithControlDeps) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4]"},
                  "n = f32[6,3] negate(p0)\n"
                  "  c = f32[4,3] call(p0, p1), to_apply=callee, "
                  "control-predecessors={n}\n"
                  "  ROOT t = (f32[4,3], f32[6,3]) tuple(c, n)",
                  "callee {\n  x = f32[6,3] parameter(0)\n"
                  "  i = s32[4] parameter(1)\n"
                  "  ROOT g = f32[4,3] gather(x, i), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}\n}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"callee", "offset_dims={1,2}", "ENTRY",
                                    "control-predecessors={n}"}));
}

// Random valid configurations (batching dims, index_vector_dim anywhere,
// permuted maps, offset/window dims anywhere, several index types) with
// out-of-bounds and repeated indices: values never change.
TEST(GatherSimplificationRandomTest, RandomConfigurationsKeepTheirValues) {
  ValueCheck check;
  check.check_change = false;
  check.random_sets = 4;
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    const std::string hlo = gather_scatter_testing::RandomGatherModule(seed);
    SCOPED_TRACE(hlo);
    const std::string out = RunAndCompare(hlo, kPass, check);
    // Whatever is left is canonical: no batching dims, [B,K] indices.
    for (absl::string_view line : absl::StrSplit(out, '\n')) {
      if (!absl::StrContains(line, " gather(")) continue;
      EXPECT_THAT(line, HasSubstr("collapsed_slice_dims={}"));
      EXPECT_THAT(line, HasSubstr("index_vector_dim=1"));
      EXPECT_THAT(line, Not(HasSubstr("batching_dims")));
    }
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace kiln
