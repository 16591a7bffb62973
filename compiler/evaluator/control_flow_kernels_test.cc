// Control flow: while (with the iteration cap), conditional (pred and
// indexed, out-of-range index), call, fusion, the async wrappers with late
// binding (async_ops.md's examples), and the scheduling helpers.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

// The spec's While example shrunk: (i, v) -> (i + 1, v + 1.5) while
// i < limit.
std::string CountingLoop(int limit) {
  const std::string prelude = absl::StrCat(
      "cond {\n  s = (s32[], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(",
      limit,
      ")\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n  s = (s32[], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  v = f32[] get-tuple-element(s), index=1\n"
      "  one = s32[] constant(1)\n  step = f32[] constant(1.5)\n"
      "  j = s32[] add(i, one)\n  w = f32[] add(v, step)\n"
      "  ROOT t = (s32[], f32[]) tuple(j, w)\n}\n");
  return EntryModule({"f32[]"},
                     "zero = s32[] constant(0)\n"
                     "  init = (s32[], f32[]) tuple(zero, p0)\n"
                     "  ROOT loop = (s32[], f32[]) while(init), "
                     "condition=cond, body=body",
                     prelude);
}

TEST(WhileTest, CountingLoop) {
  EXPECT_EQ(RunToText(CountingLoop(10), {"f32[] 1"}),
            "(s32[], f32[]) ( 10, 16 )");
  // A condition false at once returns the init value.
  EXPECT_EQ(RunToText(CountingLoop(0), {"f32[] 1"}), "(s32[], f32[]) ( 0, 1 )");
}

TEST(WhileTest, IterationCapIsAnErrorNamingTheLoop) {
  EvalOptions options;
  options.max_while_iterations = 5;
  EXPECT_EQ(RunToText(CountingLoop(5), {"f32[] 0"}, options),
            "(s32[], f32[]) ( 5, 7.5 )");
  const std::string result = RunToText(CountingLoop(6), {"f32[] 0"}, options);
  EXPECT_TRUE(absl::StartsWith(result, "error: test.hlo:")) << result;
  EXPECT_TRUE(absl::StrContains(
      result,
      "loop: the while loop did not finish within 5 iterations "
      "(EvalOptions::max_while_iterations)"))
      << result;
}

const char kBranches[] =
    "neg {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n"
    "twice {\n  x = f32[] parameter(0)\n  ROOT t = f32[] add(x, x)\n}\n"
    "keep {\n  x = f32[] parameter(0)\n  ROOT c = f32[] copy(x)\n}\n";

TEST(ConditionalTest, PredicateSelectsTrueOrFalse) {
  const std::string hlo = EntryModule(
      {"pred[]", "f32[]"},
      "ROOT c = f32[] conditional(p0, p1, p1), true_computation=neg, "
      "false_computation=twice",
      kBranches);
  EXPECT_EQ(RunToText(hlo, {"pred[] true", "f32[] 3"}), "f32[] -3");
  EXPECT_EQ(RunToText(hlo, {"pred[] false", "f32[] 3"}), "f32[] 6");
}

// An index outside [0, N) runs the last branch (spec, Conditional).
TEST(ConditionalTest, IndexedBranchesAndOutOfRangeIndex) {
  const std::string hlo =
      EntryModule({"s32[]", "f32[]"},
                  "two = f32[] constant(2)\n"
                  "  ROOT c = f32[] conditional(p0, p1, two, p1), "
                  "branch_computations={neg, twice, keep}",
                  kBranches);
  EXPECT_EQ(RunToText(hlo, {"s32[] 0", "f32[] 5"}), "f32[] -5");
  EXPECT_EQ(RunToText(hlo, {"s32[] 1", "f32[] 5"}), "f32[] 4");
  EXPECT_EQ(RunToText(hlo, {"s32[] 2", "f32[] 5"}), "f32[] 5");
  EXPECT_EQ(RunToText(hlo, {"s32[] 3", "f32[] 5"}), "f32[] 5");
  EXPECT_EQ(RunToText(hlo, {"s32[] -1", "f32[] 5"}), "f32[] 5");
  EXPECT_EQ(RunToText(hlo, {"s32[] -2147483648", "f32[] 5"}), "f32[] 5");
}

// Only the selected branch runs: the other would fail (an unregistered
// custom-call target).
TEST(ConditionalTest, OnlyTheSelectedBranchRuns) {
  const std::string prelude =
      absl::StrCat(kBranches,
                   "fail {\n  x = f32[] parameter(0)\n"
                   "  ROOT boom = f32[] custom-call(x), "
                   "custom_call_target=\"nowhere\"\n}\n");
  const std::string hlo = EntryModule(
      {"s32[]", "f32[]"},
      "ROOT c = f32[] conditional(p0, p1, p1), branch_computations={neg, fail}",
      prelude);
  EXPECT_EQ(RunToText(hlo, {"s32[] 0", "f32[] 5"}), "f32[] -5");
  const std::string failed = RunToText(hlo, {"s32[] 1", "f32[] 5"});
  EXPECT_TRUE(absl::StrContains(failed, "boom: ")) << failed;
  EXPECT_TRUE(absl::StrContains(failed, "nowhere")) << failed;
}

const char kAdd2[] =
    "add2 {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n"
    "  ROOT s = f32[2] add(a, b)\n}\n";

TEST(CallTest, CallAndFusionRunTheirComputations) {
  const std::vector<std::string> args = {"f32[2] {1, 2}", "f32[2] {10, 20}"};
  EXPECT_EQ(RunToText(EntryModule({"f32[2]", "f32[2]"},
                                  "ROOT c = f32[2] call(p0, p1), to_apply=add2",
                                  kAdd2),
                      args),
            "f32[2] {11, 22}");
  EXPECT_EQ(RunToText(EntryModule({"f32[2]", "f32[2]"},
                                  "ROOT f = f32[2] fusion(p0, p1), kind=kLoop, "
                                  "calls=add2",
                                  kAdd2),
                      args),
            "f32[2] {11, 22}");
}

// async_ops.md's first example shape: ((operands), result, context).
TEST(AsyncTest, StartUpdateDoneWrappingAnAdd) {
  const std::string hlo =
      EntryModule({"f32[2]", "f32[2]"},
                  "s = ((f32[2], f32[2]), f32[2], s32[]) async-start(p0, p1), "
                  "calls=add2\n"
                  "  u = ((f32[2], f32[2]), f32[2], s32[]) async-update(s)\n"
                  "  ROOT d = f32[2] async-done(u)",
                  kAdd2);
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, 2}", "f32[2] {10, 20}"}),
            "f32[2] {11, 22}");
  // The start's own value: operands, result and a zero context.
  const std::string start = EntryModule(
      {"f32[2]", "f32[2]"},
      "ROOT s = ((f32[2], f32[2]), f32[2], s32[]) async-start(p0, p1), "
      "calls=add2",
      kAdd2);
  EXPECT_EQ(RunToText(start, {"f32[2] {1, 2}", "f32[2] {10, 20}"}),
            "((f32[2], f32[2]), f32[2], s32[]) ( ( {1, 2}, {10, 20} ), "
            "{11, 22}, 0 )");
}

// async_ops.md, Late Binding: p0 bound at start, p1 at update; the output
// bound at update, or only at done.
TEST(AsyncTest, LateBoundOperandsAndOutputs) {
  const std::string at_update = EntryModule(
      {"f32[2]", "f32[2]"},
      "s = ((f32[2]), (), s32[]) async-start(p0), calls=add2\n"
      "  u = ((f32[2], f32[2]), f32[2], s32[]) async-update(s, p1)\n"
      "  ROOT d = f32[2] async-done(u)",
      kAdd2);
  EXPECT_EQ(RunToText(at_update, {"f32[2] {1, 2}", "f32[2] {10, 20}"}),
            "f32[2] {11, 22}");
  const std::string at_done = EntryModule(
      {"f32[2]", "f32[2]"},
      "s = ((), (), s32[]) async-start(), calls=add2\n"
      "  u = ((f32[2], f32[2]), (), s32[]) async-update(s, p0, p1)\n"
      "  ROOT d = (f32[2]) async-done(u)",
      kAdd2);
  EXPECT_EQ(RunToText(at_done, {"f32[2] {1, 2}", "f32[2] {10, 20}"}),
            "(f32[2]) ( {11, 22} )");
}

TEST(SchedulingTest, BarriersTokensAndDomainsPassValuesThrough) {
  const std::string hlo =
      EntryModule({"f32[2]", "s32[]"},
                  "t = (f32[2], s32[]) tuple(p0, p1)\n"
                  "  b = (f32[2], s32[]) opt-barrier(t)\n"
                  "  a = token[] after-all()\n  a2 = token[] after-all(a, a)\n"
                  "  x = f32[2] get-tuple-element(b), index=0\n"
                  "  dep = f32[2] add-dependency(x, a2)\n"
                  "  dom = f32[2] domain(dep), domain={kind=\"sharding\", "
                  "entry={maximal device=0}, exit={maximal device=1}}\n"
                  "  ROOT r = (f32[2], token[]) tuple(dom, a2)",
                  "");
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, -0}", "s32[] 4"}),
            "(f32[2], token[]) ( {1, -0}, token )");
}

}  // namespace
}  // namespace kiln
