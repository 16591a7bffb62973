// Dead code is not evaluated: an instruction that does not feed the ROOT
// and has no side effect costs no step, no memory and no time (a dead
// infinite loop does not hang the run); a side-effecting one (outfeed,
// rng, a custom-call flagged so, a call of a computation holding one)
// still runs, dead or not.
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::LiteralText;
using eval_test::RunToText;

// A loop whose condition is always true; its value is never used.
constexpr char kDeadInfiniteLoop[] = R"(
HloModule m
forever {
  s = s32[] parameter(0)
  ROOT t = pred[] constant(true)
}
step {
  s = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT n = s32[] add(s, one)
}
ENTRY e {
  p = f32[2] parameter(0)
  zero = s32[] constant(0)
  w = s32[] while(zero), condition=forever, body=step
  ROOT r = f32[2] negate(p)
}
)";

TEST(DeadCodeTest, DeadInfiniteLoopDoesNotRun) {
  EvalOptions options;
  // No cap would stop it: only not running it ends the run.
  options.max_while_iterations = int64_t{1} << 62;
  options.max_steps = int64_t{1} << 62;
  EXPECT_EQ(RunToText(kDeadInfiniteLoop, {"f32[2] {1, -2}"}, options),
            "f32[2] {-1, 2}");
}

TEST(DeadCodeTest, UnusedWorkCostsNoStepsAndNoMemory) {
  // A 4 GiB broadcast and a chain of work on it, all dead: the run takes
  // one step (the negate) and none of the memory.
  const std::string hlo = R"(
HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  c = f32[] constant(1)
  big = f32[1073741824] broadcast(c), dimensions={}
  e = f32[1073741824] exponential(big)
  s = f32[1073741824] add(e, big)
  ROOT r = f32[2] negate(p)
}
)";
  EvalOptions options;
  options.max_steps = 1;
  options.max_live_bytes = 1 << 20;
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, -2}"}, options), "f32[2] {-1, 2}");
}

TEST(DeadCodeTest, DeadOutfeedStillWrites) {
  const std::string hlo = R"(
HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  t0 = token[] after-all()
  t1 = token[] outfeed(p, t0), outfeed_shape=f32[2]
  ROOT r = f32[2] negate(p)
}
)";
  std::vector<Literal> outfeed;
  EvalOptions options;
  options.outfeed = &outfeed;
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, -2}"}, options), "f32[2] {-1, 2}");
  ASSERT_EQ(outfeed.size(), 1u);
  EXPECT_EQ(LiteralText(outfeed[0]), "f32[2] {1, -2}");
}

TEST(DeadCodeTest, DeadOutfeedInsideACalledComputationStillWrites) {
  const std::string hlo = R"(
HloModule m
emit {
  x = f32[2] parameter(0)
  t0 = token[] after-all()
  ROOT t1 = token[] outfeed(x, t0), outfeed_shape=f32[2]
}
ENTRY e {
  p = f32[2] parameter(0)
  c = token[] call(p), to_apply=emit
  ROOT r = f32[2] negate(p)
}
)";
  std::vector<Literal> outfeed;
  EvalOptions options;
  options.outfeed = &outfeed;
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, -2}"}, options), "f32[2] {-1, 2}");
  EXPECT_EQ(outfeed.size(), 1u);
}

TEST(DeadCodeTest, DeadRngStillAdvancesTheGenerator) {
  // The live rng after a dead one draws the second values, exactly as when
  // both are used.
  const std::string dead_first = R"(
HloModule m
ENTRY e {
  a = f32[] constant(0)
  b = f32[] constant(1)
  x = f32[4] rng(a, b), distribution=rng_uniform
  ROOT y = f32[4] rng(a, b), distribution=rng_uniform
}
)";
  const std::string both = R"(
HloModule m
ENTRY e {
  a = f32[] constant(0)
  b = f32[] constant(1)
  x = f32[4] rng(a, b), distribution=rng_uniform
  y = f32[4] rng(a, b), distribution=rng_uniform
  ROOT t = (f32[4], f32[4]) tuple(x, y)
}
)";
  absl::StatusOr<Literal> second = eval_test::Run(dead_first);
  absl::StatusOr<Literal> pair = eval_test::Run(both);
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(LiteralText(*second), LiteralText(pair->tuple_elements()[1]));
}

TEST(DeadCodeTest, CustomCallRunsWhenDeadOnlyIfFlaggedAsSideEffecting) {
  int calls = 0;
  CustomCallRegistry registry;
  registry.Register("count", [&calls](absl::Span<const Literal* const>,
                                      const Shape&, absl::string_view) {
    ++calls;
    return absl::StatusOr<Literal>(Literal::ScalarF32(0));
  });
  EvalOptions options;
  options.custom_calls = &registry;
  const auto module = [](const std::string& flag) {
    return "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n"
           "  c = f32[] custom-call(p), custom_call_target=\"count\"" +
           flag + "\n  ROOT r = f32[2] negate(p)\n}\n";
  };
  EXPECT_EQ(RunToText(module(""), {"f32[2] {1, 2}"}, options),
            "f32[2] {-1, -2}");
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(RunToText(module(", custom_call_has_side_effect=true"),
                      {"f32[2] {1, 2}"}, options),
            "f32[2] {-1, -2}");
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace kiln
