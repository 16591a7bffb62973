#include "passes/constant_folding.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

// Parses `hlo`, evaluates it on `arguments` (literal texts), runs
// constant-folding (or `pass` when given), checks that it reports
// `expect_change` (and leaves the text alone when not), that the module
// verifies, round-trips and computes the same value bit for bit; returns
// the printed module.
std::string Fold(const std::string& hlo,
                 const std::vector<std::string>& arguments, bool expect_change,
                 Pass* pass = nullptr) {
  return pass_test::RunAndCheckValues("constant-folding", hlo, arguments,
                                      expect_change, pass);
}

// --- Positive cases ---

TEST(ConstantFoldingTest, ElementwiseChainFoldsToOneConstant) {
  const std::string out = Fold(EntryModule({"f32[2]"},
                                           "a = f32[2] constant({1.5, -2})\n"
                                           "  b = f32[2] constant({0.25, 4})\n"
                                           "  s = f32[2] add(a, b)\n"
                                           "  n = f32[2] negate(s)\n"
                                           "  ROOT r = f32[2] multiply(p0, n)"),
                               {"f32[2] {2, 3}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"constant.1 = f32[2]{0} constant({-1.75, "
                                    "-2})",
                                    "ROOT r = f32[2]{0} multiply(p0, "
                                    "constant.1)"}));
  // The folded operands are gone.
  EXPECT_THAT(out, Not(HasSubstr("a = ")));
  EXPECT_THAT(out, Not(HasSubstr("add(")));
  EXPECT_THAT(out, Not(HasSubstr("negate(")));
}

TEST(ConstantFoldingTest, IntegerDivisionByZeroFoldsToXlaValue) {
  const std::string out = Fold(EntryModule({},
                                           "a = s32[3] constant({7, -8, 5})\n"
                                           "  z = s32[3] constant({0, 0, 2})\n"
                                           "  ROOT d = s32[3] divide(a, z)"),
                               {}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"ROOT constant = s32[3]{0} constant({-1, -1, 2})"}));
}

TEST(ConstantFoldingTest, ConstantWithBroadcastOfConstantFolds) {
  const std::string out =
      Fold(EntryModule({},
                       "a = f32[3] constant({1, 2, 3})\n"
                       "  h = f32[] constant(0.5)\n"
                       "  b = f32[3] broadcast(h), dimensions={}\n"
                       "  ROOT m = f32[3] multiply(a, b)"),
           {}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"ROOT constant = f32[3]{0} constant({0.5, 1, 1.5})"}));
  EXPECT_THAT(out, Not(HasSubstr("broadcast")));
}

TEST(ConstantFoldingTest, ReduceAndPureCallFold) {
  const std::string prelude =
      "sum {\n"
      "  x = s32[] parameter(0)\n"
      "  y = s32[] parameter(1)\n"
      "  ROOT z = s32[] add(x, y)\n"
      "}\n"
      "twice {\n"
      "  v = s32[] parameter(0)\n"
      "  ROOT w = s32[] add(v, v)\n"
      "}\n";
  const std::string out =
      Fold(EntryModule({"s32[]"},
                       "c = s32[2,2] constant({{1, 2}, {3, 4}})\n"
                       "  zero = s32[] constant(0)\n"
                       "  r = s32[2] reduce(c, zero), dimensions={0}, "
                       "to_apply=sum\n"
                       "  k = s32[] constant(21)\n"
                       "  t = s32[] call(k), to_apply=twice\n"
                       "  b = s32[2] broadcast(t), dimensions={}\n"
                       "  ROOT o = s32[2] add(r, b)",
                       prelude),
           {"s32[] 0"}, true);
  // reduce folds to {4, 6}, the call to 42; the add of a constant and a
  // broadcast of a constant folds too.
  EXPECT_TRUE(ContainsInOrder(out, {"constant({46, 48})"}));
  EXPECT_THAT(out, Not(HasSubstr("reduce(")));
  EXPECT_THAT(out, Not(HasSubstr("call(")));
}

TEST(ConstantFoldingTest, GteOfConstantTupleAndDimensionSizeFold) {
  const std::string out =
      Fold(EntryModule({},
                       "t = (s32[], f32[2]) constant((5, {1, 2}))\n"
                       "  g = f32[2] get-tuple-element(t), index=1\n"
                       "  c = f32[3] constant({1, 2, 3})\n"
                       "  d = s32[] get-dimension-size(c), dimensions={0}\n"
                       "  ROOT r = (f32[2], s32[]) tuple(g, d)"),
           {}, true);
  EXPECT_TRUE(
      ContainsInOrder(out, {"f32[2]{0} constant({1, 2})", "s32[] constant(3)",
                            "ROOT r = (f32[2]{0}, s32[]) tuple("}));
}

TEST(ConstantFoldingTest, FoldsInsideCalledComputations) {
  const std::string prelude =
      "f {\n"
      "  x = f32[2] parameter(0)\n"
      "  one = f32[] constant(1)\n"
      "  two = f32[] constant(2)\n"
      "  three = f32[] add(one, two)\n"
      "  b = f32[2] broadcast(three), dimensions={}\n"
      "  ROOT y = f32[2] multiply(x, b)\n"
      "}\n";
  const std::string out = Fold(
      EntryModule({"f32[2]"}, "ROOT c = f32[2] call(p0), to_apply=f", prelude),
      {"f32[2] {1, -1}"}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"constant = f32[] constant(3)", "broadcast(constant)"}));
}

TEST(ConstantFoldingTest, ConditionalOnConstantsFolds) {
  const std::string prelude =
      "yes {\n"
      "  y = s32[] parameter(0)\n"
      "  ROOT yn = s32[] negate(y)\n"
      "}\n"
      "no {\n"
      "  n = s32[] parameter(0)\n"
      "  ROOT nn = s32[] add(n, n)\n"
      "}\n";
  const std::string out =
      Fold(EntryModule({},
                       "t = pred[] constant(true)\n"
                       "  v = s32[] constant(5)\n"
                       "  ROOT c = s32[] conditional(t, v, v), "
                       "true_computation=yes, false_computation=no",
                       prelude),
           {}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT constant = s32[] constant(-5)"}));
}

TEST(ConstantFoldingTest, KeepsMetadataAndLayout) {
  const std::string out =
      Fold(EntryModule({"f32[2,2]"},
                       "a = f32[2,2]{1,0} constant({{1, 2}, {3, 4}})\n"
                       "  t = f32[2,2]{0,1} transpose(a), dimensions={1,0}, "
                       "metadata={op_name=\"tr\"}\n"
                       "  ROOT r = f32[2,2]{1,0} add(p0, t)"),
           {"f32[2,2] {{1, 1}, {1, 1}}"}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"constant = f32[2,2]{0,1} constant({ { 1, 3 }, { 2, 4 } }), "
            "metadata={op_name=\"tr\"}",
            "ROOT r = f32[2,2]{1,0} add(p0, constant)"}));
}

// --- Negative cases: must not fire ---

TEST(ConstantFoldingTest, NonConstantOperandsStay) {
  Fold(EntryModule({"f32[2]"},
                   "a = f32[2] constant({1, 2})\n"
                   "  ROOT s = f32[2] add(p0, a)"),
       {"f32[2] {3, 4}"}, false);
}

TEST(ConstantFoldingTest, BroadcastIotaAndBroadcastOnlyOperandsStay) {
  Fold(EntryModule({},
                   "h = f32[] constant(0.5)\n"
                   "  b = f32[3] broadcast(h), dimensions={}\n"
                   "  i = f32[3] iota(), iota_dimension=0\n"
                   "  b2 = f32[3] broadcast(h), dimensions={}\n"
                   "  n = f32[3] negate(b)\n"
                   "  s = f32[3] add(b, b2)\n"
                   "  ROOT r = (f32[3], f32[3], f32[3]) tuple(i, n, s)"),
       {}, false);
}

TEST(ConstantFoldingTest, ResultOrOperandOverTheCapStays) {
  ConstantFoldingOptions options;
  options.max_elements = 3;
  ConstantFoldingPass pass(options);
  Fold(EntryModule({},
                   "a = f32[4] constant({1, 2, 3, 4})\n"
                   "  n = f32[4] negate(a)\n"
                   "  zero = f32[] constant(0)\n"
                   "  s = f32[2] slice(a), slice={[0:2]}\n"
                   "  ROOT r = (f32[4], f32[2]) tuple(n, s)"),
       {}, false, &pass);
}

TEST(ConstantFoldingTest, TupleResultsStay) {
  const std::string prelude =
      "less {\n"
      "  a = s32[] parameter(0)\n"
      "  b = s32[] parameter(1)\n"
      "  c = s32[] parameter(2)\n"
      "  d = s32[] parameter(3)\n"
      "  ROOT lt = pred[] compare(a, b), direction=LT\n"
      "}\n";
  Fold(EntryModule({},
                   "k = s32[3] constant({3, 1, 2})\n"
                   "  v = s32[3] constant({30, 10, 20})\n"
                   "  ROOT s = (s32[3], s32[3]) sort(k, v), dimensions={0}, "
                   "to_apply=less",
                   prelude),
       {}, false);
}

TEST(ConstantFoldingTest, RandomSideEffectsLoopsAndCollectivesStay) {
  const std::string prelude =
      "noisy {\n"
      "  x = f32[] parameter(0)\n"
      "  one = f32[] constant(1)\n"
      "  ROOT r = f32[] rng(x, one), distribution=rng_uniform\n"
      "}\n"
      "body {\n"
      "  p = s32[] parameter(0)\n"
      "  one = s32[] constant(1)\n"
      "  ROOT n = s32[] add(p, one)\n"
      "}\n"
      "cond {\n"
      "  q = s32[] parameter(0)\n"
      "  ten = s32[] constant(10)\n"
      "  ROOT lt = pred[] compare(q, ten), direction=LT\n"
      "}\n"
      "sum {\n"
      "  x = f32[] parameter(0)\n"
      "  y = f32[] parameter(1)\n"
      "  ROOT z = f32[] add(x, y)\n"
      "}\n";
  Fold(EntryModule(
           {},
           "zero = f32[] constant(0)\n"
           "  one = f32[] constant(1)\n"
           "  r = f32[] rng(zero, one), distribution=rng_uniform\n"
           "  c = f32[] call(zero), to_apply=noisy\n"
           "  s = s32[] constant(0)\n"
           "  w = s32[] while(s), condition=cond, body=body\n"
           "  a = f32[] all-reduce(one), replica_groups={}, to_apply=sum\n"
           "  state = u64[2] constant({1, 2})\n"
           "  g = (u64[2], u32[2]) rng-bit-generator(state), "
           "algorithm=rng_default\n"
           "  ROOT t = (f32[], f32[], s32[], f32[], (u64[2], u32[2])) "
           "tuple(r, c, w, a, g)",
           prelude),
       {}, false);
}

TEST(ConstantFoldingTest, DynamicResultsStay) {
  Fold(EntryModule({},
                   "c = f32[4] constant({1, 2, 3, 4})\n"
                   "  n = s32[] constant(2)\n"
                   "  ROOT d = f32[<=4] set-dimension-size(c, n), "
                   "dimensions={0}"),
       {}, false);
}

TEST(ConstantFoldingTest, FusedComputationsStay) {
  const std::string prelude =
      "fused {\n"
      "  x = f32[2] parameter(0)\n"
      "  one = f32[] constant(1)\n"
      "  two = f32[] constant(2)\n"
      "  three = f32[] add(one, two)\n"
      "  b = f32[2] broadcast(three), dimensions={}\n"
      "  ROOT y = f32[2] multiply(x, b)\n"
      "}\n";
  Fold(EntryModule({"f32[2]"},
                   "ROOT f = f32[2] fusion(p0), kind=kLoop, calls=fused",
                   prelude),
       {"f32[2] {1, 2}"}, false);
}

TEST(ConstantFoldingTest, EvaluatorErrorLeavesTheInstructionAlone) {
  // Shape checks off: the add's operands disagree, which the evaluator
  // refuses; the pass must neither fold it nor fail.
  ParseOptions options;
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(EntryModule({},
                              "a = f32[2] constant({1, 2})\n"
                              "  b = f32[3] constant({1, 2, 3})\n"
                              "  ROOT s = f32[2] add(a, b)"),
                  options);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string original = Print(**module);
  absl::StatusOr<bool> changed = RunPass("constant-folding", **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(Print(**module), original);
}

}  // namespace
}  // namespace kiln
