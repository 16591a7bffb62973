// The evaluator's run-wide limits: the step budget (EvalOptions::max_steps),
// the budget of bytes alive together (EvalOptions::max_live_bytes, checked
// from the declared shapes before a computation runs and again as values
// are made) and the range checks of the options themselves.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

// (i, v) -> (i + 1, v + 1.5) while i < `limit`. Steps: 3 in the entry
// (zero, init, loop), 3 per condition (i, n, lt) and 7 per body.
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

TEST(StepBudgetTest, CountsEveryInstructionOfTheRun) {
  // 10 iterations: 3 + 10 * (3 + 7) + 3 = 106 steps.
  EvalOptions options;
  options.max_steps = 106;
  EXPECT_EQ(RunToText(CountingLoop(10), {"f32[] 1"}, options),
            "(s32[], f32[]) ( 10, 16 )");
  options.max_steps = 105;
  const std::string result = RunToText(CountingLoop(10), {"f32[] 1"}, options);
  EXPECT_TRUE(absl::StartsWith(result, "error: test.hlo:")) << result;
  EXPECT_TRUE(absl::StrContains(result,
                                "the run did not finish within 105 steps "
                                "(EvalOptions::max_steps"))
      << result;
}

// Loops nested inside each other each stay under the per-loop cap; the
// step budget bounds their product.
TEST(StepBudgetTest, BoundsNestedLoopsUnderThePerLoopCap) {
  const std::string prelude =
      "icond {\n  s = s32[] parameter(0)\n  n = s32[] constant(1000)\n"
      "  ROOT lt = pred[] compare(s, n), direction=LT\n}\n"
      "ibody {\n  s = s32[] parameter(0)\n  one = s32[] constant(1)\n"
      "  ROOT j = s32[] add(s, one)\n}\n"
      "ocond {\n  s = s32[] parameter(0)\n  n = s32[] constant(1000)\n"
      "  ROOT lt = pred[] compare(s, n), direction=LT\n}\n"
      "obody {\n  s = s32[] parameter(0)\n  z = s32[] constant(0)\n"
      "  inner = s32[] while(z), condition=icond, body=ibody\n"
      "  one = s32[] constant(1)\n  i = s32[] add(s, one)\n"
      // The inner loop's value is used (as 0), so that it is not dead.
      "  none = s32[] minimum(inner, z)\n  ROOT j = s32[] add(i, none)\n}\n";
  const std::string hlo = EntryModule(
      {"s32[]"}, "ROOT outer = s32[] while(p0), condition=ocond, body=obody",
      prelude);
  EvalOptions options;
  options.max_while_iterations = 1000;
  options.max_steps = 100000;
  const std::string result = RunToText(hlo, {"s32[] 0"}, options);
  EXPECT_TRUE(absl::StrContains(result, "within 100000 steps")) << result;
}

TEST(LiveBytesTest, TheDeclaredPeakIsRefusedBeforeRunning) {
  // a and b (400 bytes each) are alive together at b, then b and c.
  const std::string hlo = EntryModule({"f32[100]"},
                                      "a = f32[100] negate(p0)\n"
                                      "  b = f32[100] negate(a)\n"
                                      "  ROOT c = f32[100] negate(b)");
  std::string values;
  for (int i = 0; i < 100; ++i) absl::StrAppend(&values, i == 0 ? "" : ", ", i);
  const std::vector<std::string> arguments = {
      absl::StrCat("f32[100] {", values, "}")};
  EvalOptions options;
  options.max_live_bytes = 800;
  EXPECT_TRUE(absl::StartsWith(RunToText(hlo, arguments, options), "f32[100]"))
      << RunToText(hlo, arguments, options);
  options.max_live_bytes = 799;
  const std::string result = RunToText(hlo, arguments, options);
  EXPECT_TRUE(absl::StrContains(
      result,
      "error: b: estimated before running, here the values alive together "
      "would take 800 bytes, over the evaluator's budget of 799 bytes "
      "(EvalOptions::max_live_bytes"))
      << result;
}

TEST(LiveBytesTest, ValuesOfCallersCountInTheirCallees) {
  // The entry alone peaks at 800 bytes (a and c), f alone at 800 too (y
  // and z); but while f runs, the caller's a (400) is alive as well.
  const std::string prelude =
      "f {\n  x = f32[100] parameter(0)\n  y = f32[100] negate(x)\n"
      "  ROOT z = f32[100] negate(y)\n}\n";
  const std::string hlo = EntryModule({"f32[100]"},
                                      "a = f32[100] negate(p0)\n"
                                      "  ROOT c = f32[100] call(a), to_apply=f",
                                      prelude);
  std::string values;
  for (int i = 0; i < 100; ++i) absl::StrAppend(&values, i == 0 ? "" : ", ", 1);
  const std::vector<std::string> arguments = {
      absl::StrCat("f32[100] {", values, "}")};
  EvalOptions options;
  options.max_live_bytes = 1200;
  EXPECT_TRUE(absl::StartsWith(RunToText(hlo, arguments, options), "f32[100]"))
      << RunToText(hlo, arguments, options);
  options.max_live_bytes = 1199;
  const std::string result = RunToText(hlo, arguments, options);
  EXPECT_TRUE(absl::StrContains(result, "error: z: estimated before running"))
      << result;
  EXPECT_TRUE(absl::StrContains(result, "would take 1200 bytes")) << result;
}

TEST(LiveBytesTest, SimulatedDevicesShareTheBudget) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(EntryModule({},
                              "z = f32[] constant(0)\n"
                              "  a = f32[100] broadcast(z), dimensions={}\n"
                              "  ROOT b = f32[100] negate(a)"));
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<std::vector<Literal>> arguments(2);
  EvalOptions options;
  // Per device: a and b at once (z is freed once a is made).
  options.max_live_bytes = 2 * 800;
  EXPECT_TRUE(EvaluateReplicated(**module, arguments, 2, 1, options).ok());
  options.max_live_bytes = 2 * 800 - 1;
  absl::StatusOr<std::vector<Literal>> refused =
      EvaluateReplicated(**module, arguments, 2, 1, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(
      absl::StrContains(refused.status().message(), "799 bytes per device"))
      << refused.status();
}

TEST(EvalOptionsTest, OutOfRangeOptionsAreErrors) {
  const std::string hlo = CountingLoop(1);
  EvalOptions options;
  options.max_while_iterations = -1;
  EXPECT_TRUE(absl::StrContains(RunToText(hlo, {"f32[] 1"}, options),
                                "max_while_iterations is -1; it must be >= 0"));
  options = EvalOptions();
  options.max_steps = 0;
  EXPECT_TRUE(absl::StrContains(RunToText(hlo, {"f32[] 1"}, options),
                                "max_steps is 0; it must be >= 1"));
  options = EvalOptions();
  options.max_live_bytes = 0;
  EXPECT_TRUE(absl::StrContains(RunToText(hlo, {"f32[] 1"}, options),
                                "max_live_bytes is 0; it must be >= 1"));
  EXPECT_GT(DefaultMaxLiveBytes(), 0);
  EXPECT_LE(DefaultMaxLiveBytes(), int64_t{16} << 30);
}

}  // namespace
}  // namespace kiln
