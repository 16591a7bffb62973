#include "passes/cse.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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

// Parses `hlo`, evaluates it on `arguments` (literal texts), runs cse (or
// `pass` when given), checks that it reports `expect_change`, that the
// module verifies, round-trips and computes the same value bit for bit;
// returns the printed module.
std::string RunCse(const std::string& hlo,
                   const std::vector<std::string>& arguments,
                   bool expect_change, Pass* pass = nullptr) {
  return pass_test::RunAndCheckValues("cse", hlo, arguments, expect_change,
                                      pass);
}

const std::vector<std::string> kTwoVectors = {"f32[3] {1, -2, 3.5}",
                                              "f32[3] {-0, 4, 0.25}"};

// --- Positive cases ---

TEST(CseTest, IdenticalInstructionsMerge) {
  const std::string out = RunCse(EntryModule({"f32[3]"},
                                             "a = f32[3] negate(p0)\n"
                                             "  b = f32[3] negate(p0)\n"
                                             "  ROOT r = f32[3] add(a, b)"),
                                 {"f32[3] {1, 2, 3}"}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"a = f32[3]{0} negate(p0)", "ROOT r = f32[3]{0} add(a, a)"}));
  EXPECT_THAT(out, Not(HasSubstr("b = ")));
}

TEST(CseTest, ChainsMergeTransitively) {
  const std::string out =
      RunCse(EntryModule({"f32[3]", "f32[3]"},
                         "a1 = f32[3] multiply(p0, p1)\n"
                         "  b1 = f32[3] exponential(a1)\n"
                         "  a2 = f32[3] multiply(p0, p1)\n"
                         "  b2 = f32[3] exponential(a2)\n"
                         "  ROOT r = f32[3] subtract(b1, b2)"),
             kTwoVectors, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[3]{0} subtract(b1, b1)"}));
  EXPECT_THAT(out, Not(HasSubstr("a2")));
  EXPECT_THAT(out, Not(HasSubstr("b2")));
}

TEST(CseTest, CommutativeOperandsInEitherOrderMerge) {
  const std::string out = RunCse(EntryModule({"f32[3]", "f32[3]"},
                                             "a = f32[3] add(p0, p1)\n"
                                             "  b = f32[3] add(p1, p0)\n"
                                             "  ROOT r = f32[3] divide(a, b)"),
                                 kTwoVectors, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[3]{0} divide(a, a)"}));
}

TEST(CseTest, IntegerMaximumIsCommutative) {
  const std::string out =
      RunCse(EntryModule({"s32[2]", "s32[2]"},
                         "a = s32[2] maximum(p0, p1)\n"
                         "  b = s32[2] maximum(p1, p0)\n"
                         "  ROOT r = s32[2] subtract(a, b)"),
             {"s32[2] {1, -5}", "s32[2] {0, 7}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = s32[2]{0} subtract(a, a)"}));
}

TEST(CseTest, EqualConstantsMerge) {
  const std::string out =
      RunCse(EntryModule({"f32[2]"},
                         "c1 = f32[2] constant({1.5, -2})\n"
                         "  c2 = f32[2] constant({1.5, -2})\n"
                         "  a = f32[2] add(p0, c1)\n"
                         "  ROOT m = f32[2] multiply(a, c2)"),
             {"f32[2] {3, 4}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"c1 = f32[2]{0} constant({1.5, -2})",
                                    "ROOT m = f32[2]{0} multiply(a, c1)"}));
  EXPECT_THAT(out, Not(HasSubstr("c2")));
}

TEST(CseTest, IotasAndReplicaIdsMerge) {
  const std::string out =
      RunCse(EntryModule({},
                         "i1 = s32[4] iota(), "
                         "iota_dimension=0\n"
                         "  i2 = s32[4] iota(), "
                         "iota_dimension=0\n"
                         "  r1 = u32[] replica-id()\n"
                         "  r2 = u32[] replica-id()\n"
                         "  s = s32[4] add(i1, i2)\n"
                         "  ROOT t = (s32[4], u32[], u32[]) "
                         "tuple(s, r1, r2)"),
             {}, true);
  EXPECT_TRUE(
      ContainsInOrder(out, {"s = s32[4]{0} add(i1, i1)", "tuple(s, r1, r1)"}));
}

TEST(CseTest, TuplesAndGetTupleElementsMerge) {
  const std::string out =
      RunCse(EntryModule({"f32[3]", "f32[3]"},
                         "t1 = (f32[3], f32[3]) tuple(p0, p1)\n"
                         "  t2 = (f32[3], f32[3]) tuple(p0, p1)\n"
                         "  g1 = f32[3] get-tuple-element(t1), index=1\n"
                         "  g2 = f32[3] get-tuple-element(t2), index=1\n"
                         "  g3 = f32[3] get-tuple-element(t2), index=0\n"
                         "  ROOT r = f32[3] add(g1, g2)\n"
                         "  s = f32[3] negate(g3)"),
             kTwoVectors, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[3]{0} add(g1, g1)"}));
  EXPECT_TRUE(ContainsInOrder(out, {"get-tuple-element(t1), index=0"}));
}

TEST(CseTest, RootDuplicateMovesRoot) {
  const std::string out = RunCse(EntryModule({"f32[3]"},
                                             "a = f32[3] sine(p0)\n"
                                             "  u = f32[3] cosine(a)\n"
                                             "  ROOT b = f32[3] sine(p0)"),
                                 {"f32[3] {1, 2, 3}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT a = f32[3]{0} sine(p0)"}));
}

TEST(CseTest, MergesInsideCalledComputations) {
  const std::string prelude =
      "body {\n"
      "  bp = (s32[], f32[3]) parameter(0)\n"
      "  i = s32[] get-tuple-element(bp), index=0\n"
      "  v = f32[3] get-tuple-element(bp), index=1\n"
      "  one = s32[] constant(1)\n"
      "  one.b = s32[] constant(1)\n"
      "  n = s32[] add(i, one)\n"
      "  e1 = f32[3] exponential(v)\n"
      "  e2 = f32[3] exponential(v)\n"
      "  h = f32[3] multiply(e1, e2)\n"
      "  k = f32[3] subtract(h, v)\n"
      "  ROOT bt = (s32[], f32[3]) tuple(n, k)\n"
      "}\n"
      "cond {\n"
      "  cp = (s32[], f32[3]) parameter(0)\n"
      "  ci = s32[] get-tuple-element(cp), index=0\n"
      "  three = s32[] constant(3)\n"
      "  ROOT lt = pred[] compare(ci, three), direction=LT\n"
      "}\n";
  const std::string out =
      RunCse(EntryModule({"f32[3]"},
                         "zero = s32[] constant(0)\n"
                         "  init = (s32[], f32[3]) tuple(zero, p0)\n"
                         "  ROOT w = (s32[], f32[3]) while(init), "
                         "condition=cond, body=body",
                         prelude),
             {"f32[3] {0.5, -1, 0.125}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"h = f32[3]{0} multiply(e1, e1)"}));
  EXPECT_THAT(out, Not(HasSubstr("e2")));
  EXPECT_THAT(out, Not(HasSubstr("one.b")));
}

TEST(CseTest, CallsOfTheSamePureComputationMerge) {
  const std::string prelude =
      "f {\n"
      "  x = f32[3] parameter(0)\n"
      "  ROOT y = f32[3] tanh(x)\n"
      "}\n";
  const std::string out =
      RunCse(EntryModule({"f32[3]"},
                         "c1 = f32[3] call(p0), to_apply=f\n"
                         "  c2 = f32[3] call(p0), to_apply=f\n"
                         "  ROOT r = f32[3] add(c1, c2)",
                         prelude),
             {"f32[3] {1, 2, 3}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[3]{0} add(c1, c1)"}));
}

TEST(CseTest, DynamicShapesMerge) {
  const std::string out = RunCse(
      EntryModule({"f32[4]", "s32[]"},
                  "d1 = f32[<=4] set-dimension-size(p0, p1), dimensions={0}\n"
                  "  d2 = f32[<=4] set-dimension-size(p0, p1), dimensions={0}\n"
                  "  ROOT r = f32[<=4] add(d1, d2)"),
      {"f32[4] {1, 2, 3, 4}", "s32[] 3"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[<=4]{0} add(d1, d1)"}));
}

TEST(CseTest, LongChainOfDistinctSlicesStaysFast) {
  // 20000 slices of one operand differ only in their ranges: they hash to
  // different buckets, so the pass stays linear.
  std::string body;
  for (int i = 0; i < 20000; ++i) {
    absl::StrAppend(&body, "s", i, " = f32[1] slice(p0), slice={[", i % 100,
                    ":", i % 100 + 1, "]}\n  ");
  }
  body += "ROOT r = f32[1] add(s0, s100)";
  std::string values;
  for (int i = 0; i < 100; ++i) absl::StrAppend(&values, i == 0 ? "" : ",", i);
  const std::string out =
      RunCse(EntryModule({"f32[100]"}, body),
             {absl::StrCat("f32[100] {", values, "}")}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[1]{0} add(s0, s0)"}));
  EXPECT_THAT(out, Not(HasSubstr("s199 =")));
  EXPECT_THAT(out, HasSubstr("s99 ="));
}

TEST(CseTest, RngBitGeneratorIsAFunctionOfItsStateAndMerges) {
  const std::string out =
      RunCse(EntryModule({"u64[2]"},
                         "g1 = (u64[2], u32[4]) rng-bit-generator(p0), "
                         "algorithm=rng_default\n"
                         "  g2 = (u64[2], u32[4]) rng-bit-generator(p0), "
                         "algorithm=rng_default\n"
                         "  ROOT t = ((u64[2], u32[4]), (u64[2], u32[4])) "
                         "tuple(g1, g2)"),
             {"u64[2] {1, 2}"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"tuple(g1, g1)"}));
}

// --- Negative cases: must not fire ---

TEST(CseTest, DifferentOperandOrderOfNonCommutativeOpsStaysApart) {
  RunCse(EntryModule({"f32[3]", "f32[3]"},
                     "a = f32[3] subtract(p0, p1)\n"
                     "  b = f32[3] subtract(p1, p0)\n"
                     "  ROOT r = f32[3] add(a, b)"),
         kTwoVectors, false);
}

TEST(CseTest, FloatMaximumIsNotReordered) {
  // maximum(-0, +0) is -0 but maximum(+0, -0) is +0.
  RunCse(EntryModule({"f32[1]", "f32[1]"},
                     "a = f32[1] maximum(p0, p1)\n"
                     "  b = f32[1] maximum(p1, p0)\n"
                     "  ROOT r = (f32[1], f32[1]) tuple(a, b)"),
         {"f32[1] {-0}", "f32[1] {0}"}, false);
}

TEST(CseTest, CommutativeCanonicalizationCanBeTurnedOff) {
  CseOptions options;
  options.canonicalize_commutative = false;
  CsePass pass(options);
  RunCse(EntryModule({"f32[3]", "f32[3]"},
                     "a = f32[3] add(p0, p1)\n"
                     "  b = f32[3] add(p1, p0)\n"
                     "  ROOT r = f32[3] divide(a, b)"),
         kTwoVectors, false, &pass);
}

TEST(CseTest, DifferentAttributesShapesOrConstantsStayApart) {
  RunCse(EntryModule({"f32[4]"},
                     "s1 = f32[2] slice(p0), slice={[0:2]}\n"
                     "  s2 = f32[2] slice(p0), slice={[2:4]}\n"
                     "  c1 = f32[] constant(0)\n"
                     "  c2 = f32[] constant(-0)\n"
                     "  c3 = f64[] constant(0)\n"
                     "  b1 = f32[2] broadcast(c1), dimensions={}\n"
                     "  b2 = f32[2] broadcast(c2), dimensions={}\n"
                     "  t = f32[2,2] broadcast(s1), dimensions={0}\n"
                     "  u = f32[2,2] broadcast(s1), dimensions={1}\n"
                     "  ROOT r = (f32[2], f32[2], f32[2], f32[2], f64[], "
                     "f32[2,2], f32[2,2]) tuple(s1, s2, b1, b2, c3, t, u)"),
         {"f32[4] {1, 2, 3, 4}"}, false);
}

TEST(CseTest, ParametersAndSideEffectsAreNeverMerged) {
  GlobalCustomCallRegistry().Register(
      "t",
      [](absl::Span<const Literal* const> operands, const Shape&,
         absl::string_view) -> absl::StatusOr<Literal> {
        return *operands[0];
      });
  const std::string prelude =
      "noisy {\n"
      "  x = f32[] parameter(0)\n"
      "  one = f32[] constant(1)\n"
      "  r = f32[] rng(x, one), distribution=rng_uniform\n"
      "  ROOT y = f32[] add(x, r)\n"
      "}\n";
  RunCse(
      EntryModule({"f32[]", "f32[]"},
                  "one = f32[] constant(1)\n"
                  "  r1 = f32[] rng(p0, one), distribution=rng_uniform\n"
                  "  r2 = f32[] rng(p0, one), distribution=rng_uniform\n"
                  "  k1 = f32[] custom-call(p0), custom_call_target=\"t\", "
                  "custom_call_has_side_effect=true\n"
                  "  k2 = f32[] custom-call(p0), custom_call_target=\"t\", "
                  "custom_call_has_side_effect=true\n"
                  "  c1 = f32[] call(p0), to_apply=noisy\n"
                  "  c2 = f32[] call(p0), to_apply=noisy\n"
                  "  tok = token[] after-all()\n"
                  "  tok2 = token[] after-all()\n"
                  "  ROOT t = (f32[], f32[], f32[], f32[], token[], token[]) "
                  "tuple(p0, p1, c1, c2, tok, tok2)",
                  prelude),
      {"f32[] 0", "f32[] 0"}, false);
}

TEST(CseTest, InstructionsWithControlDependenciesStayApart) {
  // Merging b into a would need n -> a, and n uses a: a cycle.
  RunCse(EntryModule({"f32[3]"},
                     "a = f32[3] negate(p0)\n"
                     "  n = f32[3] exponential(a)\n"
                     "  b = f32[3] negate(p0), control-predecessors={n}\n"
                     "  ROOT r = f32[3] add(n, b)"),
         {"f32[3] {1, 2, 3}"}, false);
}

TEST(CseTest, ComputationsAreNotMergedAcrossEachOther) {
  // The same instruction in two computations stays in both.
  const std::string prelude =
      "f {\n"
      "  x = f32[3] parameter(0)\n"
      "  ROOT y = f32[3] tanh(x)\n"
      "}\n"
      "g {\n"
      "  x.g = f32[3] parameter(0)\n"
      "  ROOT y.g = f32[3] tanh(x.g)\n"
      "}\n";
  RunCse(EntryModule({"f32[3]"},
                     "c1 = f32[3] call(p0), to_apply=f\n"
                     "  c2 = f32[3] call(p0), to_apply=g\n"
                     "  ROOT r = f32[3] add(c1, c2)",
                     prelude),
         {"f32[3] {1, 2, 3}"}, false);
}

TEST(CseTest, DomainsAndConstantsNextToThemStayApart) {
  RunCse(EntryModule({"f32[2]"},
                     "d1 = f32[2] domain(p0), domain={kind=\"sharding\", "
                     "entry={maximal device=0}, exit={maximal device=1}}\n"
                     "  d2 = f32[2] domain(p0), domain={kind=\"sharding\", "
                     "entry={maximal device=0}, exit={maximal device=1}}\n"
                     "  c1 = f32[2] constant({1, 2})\n"
                     "  c2 = f32[2] constant({1, 2})\n"
                     "  a = f32[2] add(d1, c1)\n"
                     "  b = f32[2] add(d2, c2)\n"
                     "  ROOT r = (f32[2], f32[2]) tuple(a, b)"),
         {"f32[2] {1, 2}"}, false);
}

TEST(CseTest, AsyncStartsStayApart) {
  const std::string prelude =
      "f {\n"
      "  x = f32[3] parameter(0)\n"
      "  ROOT y = f32[3] tanh(x)\n"
      "}\n";
  RunCse(EntryModule({"f32[3]"},
                     "s1 = ((f32[3]), f32[3], s32[]) async-start(p0), "
                     "calls=f\n"
                     "  s2 = ((f32[3]), f32[3], s32[]) async-start(p0), "
                     "calls=f\n"
                     "  d1 = f32[3] async-done(s1)\n"
                     "  d2 = f32[3] async-done(s2)\n"
                     "  ROOT r = f32[3] add(d1, d2)",
                     prelude),
         {"f32[3] {1, 2, 3}"}, false);
}

}  // namespace
}  // namespace kiln
