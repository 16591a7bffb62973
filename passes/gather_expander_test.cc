// gather-expander: every gather becomes a while loop of dynamic slices; the
// reference evaluator gives the same values before and after, including
// out-of-bounds (clamped) and repeated indices.
#include "passes/gather_expander.h"

#include <string>
#include <vector>

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

constexpr char kPass[] = "gather-expander";

TEST(GatherExpanderTest, IsRegistered) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(kPass);
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), kPass);
}

TEST(GatherExpanderTest, RowGatherBecomesALoop) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4]"},
                  "ROOT g = f32[4,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(
      out, {"g.body", "dynamic-slice(", "dynamic_slice_sizes={1,1}",
            "dynamic-slice(", "dynamic_slice_sizes={1,3}",
            "dynamic-update-slice(", "g.condition", "direction=LT", "ENTRY",
            "reshape = s32[4,1]{1,0} reshape(p1)",
            "convert = s64[4,1]{1,0} convert(reshape)", "while(",
            "condition=g.condition, body=g.body",
            "ROOT get-tuple-element.5 = f32[4,3]{1,0} "
            "get-tuple-element(while), index=2"}));
  EXPECT_THAT(out, Not(HasSubstr(" gather(")));
}

TEST(GatherExpanderTest, OutOfBoundsStartsAreClampedAsGatherDoes) {
  const std::string hlo =
      EntryModule({"s32[5]", "s32[3,1]"},
                  "ROOT g = s32[3,2] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={2}");
  const auto values = EvaluateAround(
      hlo, kPass, {"s32[5] {10, 11, 12, 13, 14}", "s32[3,1] {{-7}, {4}, {2}}"});
  EXPECT_EQ(values.before, "s32[3,2] { { 10, 11 }, { 13, 14 }, { 12, 13 } }");
  EXPECT_EQ(values.after, values.before);
  EXPECT_THAT(values.printed, HasSubstr("while("));
}

TEST(GatherExpanderTest, OffsetDimsBeforeBatchDimsAndPermutedIndexMap) {
  RunAndCompare(
      EntryModule({"f32[5,6,4]", "s64[3,2]"},
                  "ROOT g = f32[2,3,6,3] gather(p0, p1), offset_dims={0,2,3}, "
                  "collapsed_slice_dims={}, start_index_map={2,0}, "
                  "index_vector_dim=1, slice_sizes={2,6,3}"),
      kPass);
}

TEST(GatherExpanderTest, IndexVectorDimFirstAndImplicit) {
  RunAndCompare(
      EntryModule({"f32[4,5]", "s32[2,3,2]"},
                  "ROOT g = f32[3,2,2] gather(p0, p1), offset_dims={2}, "
                  "collapsed_slice_dims={0}, start_index_map={0,1}, "
                  "index_vector_dim=0, slice_sizes={1,2}"),
      kPass);
  RunAndCompare(
      EntryModule({"f32[4,5]", "s32[2,3]"},
                  "ROOT g = f32[2,3,4] gather(p0, p1), offset_dims={2}, "
                  "collapsed_slice_dims={1}, start_index_map={1}, "
                  "index_vector_dim=2, slice_sizes={4,1}"),
      kPass);
}

TEST(GatherExpanderTest, JaxBatchingDimsAndIndexVectorDimInTheMiddle) {
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
  RunAndCompare(hlo, kPass);
}

TEST(GatherExpanderTest, JaxDumpBatchedGather) {
  // compiler/text/xla_dumps/batched_gather_scatter.hlo (take_along_axis).
  RunAndCompare(
      EntryModule({"f32[4,6]", "s32[4,2,1]"},
                  "ROOT g = f32[4,2] gather(p0, p1), offset_dims={}, "
                  "collapsed_slice_dims={1}, start_index_map={1}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={0}, "
                  "index_vector_dim=2, slice_sizes={1,1}"),
      kPass);
}

TEST(GatherExpanderTest, UnsignedIndicesIncludingHugeU64) {
  ValueCheck check;
  check.fixed_sets = {{"f32[5] {1, 2, 3, 4, 5}",
                       "u64[3,1] {{18446744073709551615}, "
                       "{9223372036854775808}, {1}}"}};
  const std::string hlo =
      EntryModule({"f32[5]", "u64[3,1]"},
                  "ROOT g = f32[3,2] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={2}");
  const std::string out = RunAndCompare(hlo, kPass, check);
  EXPECT_THAT(out, HasSubstr("minimum("));
  const auto values = EvaluateAround(hlo, kPass, check.fixed_sets[0]);
  EXPECT_EQ(values.after, "f32[3,2] { { 4, 5 }, { 4, 5 }, { 2, 3 } }");
  RunAndCompare(EntryModule({"s8[7,2]", "u8[4,1]"},
                            "ROOT g = s8[4,2] gather(p0, p1), offset_dims={1}, "
                            "collapsed_slice_dims={0}, start_index_map={0}, "
                            "index_vector_dim=1, slice_sizes={1,2}"),
                kPass);
}

TEST(GatherExpanderTest, EmptyIndexVectorAndOtherElementTypes) {
  RunAndCompare(
      EntryModule({"pred[4,2]", "s32[3,0]"},
                  "ROOT g = pred[3,2,2] gather(p0, p1), offset_dims={1,2}, "
                  "collapsed_slice_dims={}, start_index_map={}, "
                  "index_vector_dim=1, slice_sizes={2,2}"),
      kPass);
  RunAndCompare(
      EntryModule({"c64[3,3]", "s16[2,2]"},
                  "ROOT g = c64[2] gather(p0, p1), offset_dims={}, "
                  "collapsed_slice_dims={0,1}, start_index_map={1,0}, "
                  "index_vector_dim=1, slice_sizes={1,1}"),
      kPass);
}

TEST(GatherExpanderTest, EmptyResultIsABroadcastZero) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[4,3]", "s32[0]"},
                  "ROOT g = f32[0,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"),
      kPass);
  EXPECT_THAT(out, HasSubstr("f32[0,3]{1,0} broadcast("));
  EXPECT_THAT(out, Not(HasSubstr("while(")));
}

TEST(GatherExpanderTest, GatherInACalledComputationAndTupleRoot) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6,3]", "s32[4]"},
                  "c = f32[4,3] call(p0, p1), to_apply=callee\n"
                  "  ROOT t = (f32[4,3], f32[6,3]) tuple(c, p0)",
                  "callee {\n  x = f32[6,3] parameter(0)\n"
                  "  i = s32[4] parameter(1)\n"
                  "  ROOT g = f32[4,3] gather(x, i), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}\n}"),
      kPass);
  EXPECT_TRUE(ContainsInOrder(out, {"callee", "while(", "ENTRY"}));
}

TEST(GatherExpanderTest, KeepsMetadata) {
  const std::string out = RunAndCompare(
      EntryModule({"f32[6]", "s32[2]"},
                  "ROOT g = f32[2] gather(p0, p1), offset_dims={}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1}, "
                  "metadata={op_name=\"jit/gather\"}"),
      kPass);
  EXPECT_THAT(out, HasSubstr("while(tuple), condition=g.condition, "
                             "body=g.body, metadata={op_name=\"jit/gather\"}"));
}

TEST(GatherExpanderTest, ModuleWithoutGatherIsUnchanged) {
  ValueCheck check;
  check.expect_change = false;
  RunAndCompare(EntryModule({"f32[3]"}, "ROOT n = f32[3] negate(p0)"), kPass,
                check);
}

TEST(GatherExpanderTest, DynamicShapesAreLeftAlone) {
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(
      EntryModule({"f32[6,3]", "s32[<=4]"},
                  "ROOT g = f32[<=4,3] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={0}, start_index_map={0}, "
                  "index_vector_dim=1, slice_sizes={1,3}"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = pass_test::RunPass(kPass, **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
}

// Random valid configurations (batching dims, index_vector_dim anywhere,
// permuted maps, offset/window dims anywhere, several index types) with
// out-of-bounds and repeated indices: values never change.
TEST(GatherExpanderRandomTest, RandomConfigurationsKeepTheirValues) {
  ValueCheck check;
  check.check_change = false;
  check.random_sets = 4;
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    const std::string hlo = gather_scatter_testing::RandomGatherModule(seed);
    SCOPED_TRACE(hlo);
    const std::string out = RunAndCompare(hlo, kPass, check);
    EXPECT_THAT(out, Not(HasSubstr(" gather("))) << out;
    EXPECT_THAT(out, HasSubstr("while(")) << out;
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace kiln
