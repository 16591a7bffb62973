#include "passes/tuple_simplification.h"

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

// Parses `hlo`, evaluates it on `arguments` (literal texts), runs the
// pass, checks that it reports `expect_change` (and leaves the text alone
// when not), that the module verifies in strict form, round-trips and
// computes the same value bit for bit; returns the printed module.
std::string Simplify(const std::string& hlo,
                     const std::vector<std::string>& arguments,
                     bool expect_change) {
  return pass_test::RunAndCheckValues("tuple-simplification", hlo, arguments,
                                      expect_change, nullptr,
                                      ShapeForm::kStrict);
}

const std::vector<std::string> kArgs = {"f32[2] {1, 2}", "s32[] 7"};

// --- Positive cases ---

TEST(TupleSimplificationTest, GteOfTupleIsTheElement) {
  const std::string out =
      Simplify(EntryModule({"f32[2]", "s32[]"},
                           "t = (f32[2], s32[]) tuple(p0, p1)\n"
                           "  g = s32[] get-tuple-element(t), index=1\n"
                           "  ROOT n = s32[] negate(g)"),
               kArgs, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = s32[] negate(p1)"}));
  EXPECT_THAT(out, Not(HasSubstr("get-tuple-element")));
}

TEST(TupleSimplificationTest, NestedTuplesFoldInOneRun) {
  const std::string out =
      Simplify(EntryModule({"f32[2]", "s32[]"},
                           "i = (f32[2], s32[]) tuple(p0, p1)\n"
                           "  o = ((f32[2], s32[]), f32[2]) tuple(i, p0)\n"
                           "  g0 = (f32[2], s32[]) get-tuple-element(o), "
                           "index=0\n"
                           "  g1 = s32[] get-tuple-element(g0), index=1\n"
                           "  ROOT n = s32[] negate(g1)"),
               kArgs, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = s32[] negate(p1)"}));
}

TEST(TupleSimplificationTest, TupleOfAllGtesInOrderIsTheSource) {
  const std::string out =
      Simplify(EntryModule({"(f32[2], s32[])"},
                           "a = f32[2] get-tuple-element(p0), index=0\n"
                           "  b = s32[] get-tuple-element(p0), index=1\n"
                           "  t = (f32[2], s32[]) tuple(a, b)\n"
                           "  ROOT u = ((f32[2], s32[]), f32[2]) tuple(t, a)"),
               {"(f32[2], s32[]) ({1, 2}, 7)"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT u = ((f32[2]{0}, s32[]), f32[2]{0}) "
                                    "tuple(p0, a)"}));
}

TEST(TupleSimplificationTest, RootTupleOfGtesBecomesTheParameter) {
  const std::string out =
      Simplify(EntryModule({"(f32[2], s32[])"},
                           "a = f32[2] get-tuple-element(p0), index=0\n"
                           "  b = s32[] get-tuple-element(p0), index=1\n"
                           "  ROOT t = (f32[2], s32[]) tuple(a, b)"),
               {"(f32[2], s32[]) ({1, 2}, 7)"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT p0 = (f32[2]{0}, s32[]) "
                                    "parameter(0)"}));
}

TEST(TupleSimplificationTest, GteOfCallSeesThroughPassedParameter) {
  const std::string prelude =
      "f {\n"
      "  x = f32[2] parameter(0)\n"
      "  y = s32[] parameter(1)\n"
      "  e = f32[2] exponential(x)\n"
      "  ROOT r = (f32[2], s32[]) tuple(e, y)\n"
      "}\n";
  const std::string out =
      Simplify(EntryModule({"f32[2]", "s32[]"},
                           "c = (f32[2], s32[]) call(p0, p1), to_apply=f\n"
                           "  g0 = f32[2] get-tuple-element(c), index=0\n"
                           "  g1 = s32[] get-tuple-element(c), index=1\n"
                           "  ROOT t = (f32[2], s32[]) tuple(g0, g1)",
                           prelude),
               kArgs, true);
  // Element 0 is computed inside f: it stays a get-tuple-element.
  EXPECT_TRUE(
      ContainsInOrder(out, {"g0 = f32[2]{0} get-tuple-element(c), index=0",
                            "ROOT t = (f32[2]{0}, s32[]) tuple(g0, p1)"}));
}

const char kLoop[] =
    "body {\n"
    "  bp = (s32[], f32[2], s32[]) parameter(0)\n"
    "  i = s32[] get-tuple-element(bp), index=0\n"
    "  v = f32[2] get-tuple-element(bp), index=1\n"
    "  k = s32[] get-tuple-element(bp), index=2\n"
    "  one = s32[] constant(1)\n"
    "  n = s32[] add(i, one)\n"
    "  w = f32[2] add(v, v)\n"
    "  ROOT bt = (s32[], f32[2], s32[]) tuple(n, w, k)\n"
    "}\n"
    "cond {\n"
    "  cp = (s32[], f32[2], s32[]) parameter(0)\n"
    "  ci = s32[] get-tuple-element(cp), index=0\n"
    "  three = s32[] constant(3)\n"
    "  ROOT lt = pred[] compare(ci, three), direction=LT\n"
    "}\n";

TEST(TupleSimplificationTest, LoopInvariantElementOfWhileIsItsInit) {
  const std::string out = Simplify(
      EntryModule({"f32[2]", "s32[]"},
                  "zero = s32[] constant(0)\n"
                  "  init = (s32[], f32[2], s32[]) tuple(zero, p0, p1)\n"
                  "  l = (s32[], f32[2], s32[]) while(init), condition=cond, "
                  "body=body\n"
                  "  g1 = f32[2] get-tuple-element(l), index=1\n"
                  "  g2 = s32[] get-tuple-element(l), index=2\n"
                  "  ROOT t = (f32[2], s32[]) tuple(g1, g2)",
                  kLoop),
      kArgs, true);
  // Element 1 changes in the loop; element 2 passes through.
  EXPECT_TRUE(
      ContainsInOrder(out, {"g1 = f32[2]{0} get-tuple-element(l), index=1",
                            "ROOT t = (f32[2]{0}, s32[]) tuple(g1, p1)"}));
}

TEST(TupleSimplificationTest, LoopInvariantOfNonTupleInitBecomesGteOfInit) {
  const std::string out = Simplify(
      EntryModule({"(s32[], f32[2], s32[])"},
                  "l = (s32[], f32[2], s32[]) while(p0), condition=cond, "
                  "body=body\n"
                  "  ROOT g2 = s32[] get-tuple-element(l), index=2",
                  kLoop),
      {"(s32[], f32[2], s32[]) (0, {1, 2}, 5)"}, true);
  EXPECT_TRUE(ContainsInOrder(
      out, {"ROOT g2.1 = s32[] get-tuple-element(p0), index=2"}));
}

TEST(TupleSimplificationTest, SimplifiesInsideCalledComputations) {
  const std::string prelude =
      "f {\n"
      "  x = f32[2] parameter(0)\n"
      "  y = s32[] parameter(1)\n"
      "  t = (f32[2], s32[]) tuple(x, y)\n"
      "  g = f32[2] get-tuple-element(t), index=0\n"
      "  ROOT r = f32[2] negate(g)\n"
      "}\n";
  const std::string out =
      Simplify(EntryModule({"f32[2]", "s32[]"},
                           "ROOT c = f32[2] call(p0, p1), to_apply=f", prelude),
               kArgs, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[2]{0} negate(x)"}));
}

TEST(TupleSimplificationTest, DynamicShapes) {
  const std::string out = Simplify(
      EntryModule({"f32[4]", "s32[]"},
                  "d = f32[<=4] set-dimension-size(p0, p1), dimensions={0}\n"
                  "  t = (f32[<=4], s32[]) tuple(d, p1)\n"
                  "  g = f32[<=4] get-tuple-element(t), index=0\n"
                  "  ROOT n = f32[<=4] negate(g)"),
      {"f32[4] {1, 2, 3, 4}", "s32[] 2"}, true);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = f32[<=4]{0} negate(d)"}));
}

// --- Negative cases: must not fire ---

TEST(TupleSimplificationTest, PartialOrReorderedOrMixedTuplesStay) {
  Simplify(
      EntryModule({"(f32[2], s32[], s32[])", "(f32[2], s32[], s32[])"},
                  "a = f32[2] get-tuple-element(p0), index=0\n"
                  "  b = s32[] get-tuple-element(p0), index=1\n"
                  "  c = s32[] get-tuple-element(p0), index=2\n"
                  "  c1 = s32[] get-tuple-element(p1), index=2\n"
                  "  partial = (f32[2], s32[]) tuple(a, b)\n"
                  "  swapped = (f32[2], s32[], s32[]) tuple(a, c, b)\n"
                  "  mixed = (f32[2], s32[], s32[]) tuple(a, b, c1)\n"
                  "  ROOT r = ((f32[2], s32[]), (f32[2], s32[], s32[]), "
                  "(f32[2], s32[], s32[])) tuple(partial, swapped, mixed)"),
      {"(f32[2], s32[], s32[]) ({1, 2}, 3, 4)",
       "(f32[2], s32[], s32[]) ({5, 6}, 7, 8)"},
      false);
}

TEST(TupleSimplificationTest, ComputedCallAndLoopElementsStay) {
  const std::string prelude = std::string(kLoop) +
                              "f {\n"
                              "  x = f32[2] parameter(0)\n"
                              "  e = f32[2] exponential(x)\n"
                              "  ROOT r = (f32[2]) tuple(e)\n"
                              "}\n";
  Simplify(EntryModule({"f32[2]", "s32[]"},
                       "c = (f32[2]) call(p0), to_apply=f\n"
                       "  gc = f32[2] get-tuple-element(c), index=0\n"
                       "  zero = s32[] constant(0)\n"
                       "  init = (s32[], f32[2], s32[]) tuple(zero, gc, p1)\n"
                       "  l = (s32[], f32[2], s32[]) while(init), "
                       "condition=cond, body=body\n"
                       "  ROOT g = f32[2] get-tuple-element(l), index=1",
                       prelude),
           kArgs, false);
}

TEST(TupleSimplificationTest, ControlDependenciesBlockTheRewrite) {
  Simplify(EntryModule({"f32[2]", "s32[]"},
                       "t = (f32[2], s32[]) tuple(p0, p1)\n"
                       "  n = f32[2] negate(p0)\n"
                       "  g = s32[] get-tuple-element(t), index=1, "
                       "control-predecessors={n}\n"
                       "  ROOT r = (s32[], f32[2]) tuple(g, n)"),
           kArgs, false);
}

}  // namespace
}  // namespace kiln
