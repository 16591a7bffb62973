// Tests of algebraic-simplifier: arithmetic, logic and edge cases.
#include "passes/algebraic_simplifier.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/algebraic_simplifier_test_util.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::algsimp_test::EntryRoot;
using ::kiln::algsimp_test::ExpectSimplified;
using ::kiln::algsimp_test::ExpectUnchanged;
using ::kiln::algsimp_test::kFastMath;
using ::kiln::algsimp_test::kPass;
using ::kiln::algsimp_test::Outcome;
using ::kiln::algsimp_test::RunOn;
using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

// --- Registration ---

TEST(AlgebraicSimplifierTest, BothVariantsAreRegistered) {
  std::unique_ptr<Pass> exact = PassRegistry::Global().Create(kPass);
  std::unique_ptr<Pass> fast = PassRegistry::Global().Create(kFastMath);
  ASSERT_NE(exact, nullptr);
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(exact->name(), kPass);
  EXPECT_EQ(fast->name(), kFastMath);
}

// --- add ---

TEST(AlgebraicSimplifierTest, IntegerAddZeroOnEitherSide) {
  ExpectSimplified({"s32[4]"},
                   "z = s32[4] constant({0, 0, 0, 0})\n"
                   "  a = s32[4] add(p0, z)\n"
                   "  ROOT b = s32[4] add(z, a)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, FloatAddNegativeZeroIsExact) {
  ExpectSimplified({"f32[4]"},
                   "z = f32[] constant(-0)\n"
                   "  b = f32[4] broadcast(z), dimensions={}\n"
                   "  ROOT a = f32[4] add(b, p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, FloatAddPositiveZeroDoesNotFire) {
  // -0 + +0 is +0: dropping the add would change a -0 input.
  ExpectUnchanged({"f32[4]"},
                  "z = f32[] constant(0)\n"
                  "  b = f32[4] broadcast(z), dimensions={}\n"
                  "  ROOT a = f32[4] add(p0, b)");
}

TEST(AlgebraicSimplifierTest, FastMathAddPositiveZeroChangesNegativeZero) {
  const Outcome outcome =
      RunOn(EntryModule({"f32[4]"},
                        "z = f32[4] constant({0, 0, 0, 0})\n"
                        "  ROOT a = f32[4] add(p0, z)"),
            kFastMath);
  EXPECT_TRUE(outcome.changed);
  // The checker sees the -0 input come back as -0 instead of +0.
  EXPECT_FALSE(outcome.semantics.ok());
  EXPECT_THAT(outcome.semantics.message(), HasSubstr("expected 0"));
}

TEST(AlgebraicSimplifierTest, FloatWithoutNegativeZeroAddsPositiveZeroExactly) {
  // f8e4m3fnuz has no -0 (that pattern is its NaN): +0 is the identity.
  ExpectSimplified({"f8e4m3fnuz[3]"},
                   "z = f8e4m3fnuz[] constant(0)\n"
                   "  ROOT a = f8e4m3fnuz[3] add(p0, z)",
                   "ROOT p0 = f8e4m3fnuz[3]{0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, ComplexAddNeedsBothPartsNegativeZero) {
  ExpectSimplified({"c64[2]"},
                   "z = c64[] constant((-0, -0))\n"
                   "  ROOT a = c64[2] add(p0, z)",
                   "ROOT p0 = c64[2]{0} parameter(0)");
  ExpectUnchanged({"c64[2]"},
                  "z = c64[] constant((-0, 0))\n"
                  "  ROOT a = c64[2] add(p0, z)");
}

TEST(AlgebraicSimplifierTest, ClientFormScalarZeroFiresOnTheFullOperand) {
  ExpectSimplified({"s32[2,3]"},
                   "z = s32[] constant(0)\n"
                   "  ROOT a = s32[2,3] add(p0, z)",
                   "ROOT p0 = s32[2,3]{1,0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, ClientFormBroadcastOperandDoesNotFire) {
  // x is the smaller operand: the result has the zero's shape, not x's.
  ExpectUnchanged({"s32[3]"},
                  "z = s32[2,3] constant({{0, 0, 0}, {0, 0, 0}})\n"
                  "  ROOT a = s32[2,3] add(p0, z), broadcast_dimensions={1}");
}

TEST(AlgebraicSimplifierTest, AddOfNonConstantOrNonZeroDoesNotFire) {
  ExpectUnchanged({"s32[4]", "s32[4]"}, "ROOT a = s32[4] add(p0, p1)");
  ExpectUnchanged({"s32[4]"},
                  "z = s32[4] constant({0, 0, 1, 0})\n"
                  "  ROOT a = s32[4] add(p0, z)");
}

// --- subtract ---

TEST(AlgebraicSimplifierTest, FloatSubtractPositiveZeroIsExact) {
  ExpectSimplified({"f32[4]"},
                   "z = f32[] constant(0)\n"
                   "  ROOT s = f32[4] subtract(p0, z)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  // x - (-0) is x + 0, which turns -0 into +0.
  ExpectUnchanged({"f32[4]"},
                  "z = f32[] constant(-0)\n"
                  "  ROOT s = f32[4] subtract(p0, z)");
  // 0 - x is not x.
  ExpectUnchanged({"s32[4]"},
                  "z = s32[] constant(0)\n"
                  "  ROOT s = s32[4] subtract(z, p0)");
}

TEST(AlgebraicSimplifierTest, SubtractSelfIsZeroForIntegersOnly) {
  ExpectSimplified({"s32[2,2]"}, "ROOT s = s32[2,2] subtract(p0, p0)",
                   "ROOT broadcast = s32[2,2]{1,0} broadcast(constant)");
  // inf - inf and NaN - NaN are NaN, not 0.
  ExpectUnchanged({"f32[4]"}, "ROOT s = f32[4] subtract(p0, p0)");
}

TEST(AlgebraicSimplifierTest, FastMathSubtractSelfBreaksOnInfinity) {
  const Outcome outcome = RunOn(
      EntryModule({"f32[4]"}, "ROOT s = f32[4] subtract(p0, p0)"), kFastMath);
  EXPECT_TRUE(outcome.changed);
  EXPECT_FALSE(outcome.semantics.ok());
}

// --- multiply and divide ---

TEST(AlgebraicSimplifierTest, MultiplyOneForIntegersFloatsAndPred) {
  ExpectSimplified({"f32[4]"},
                   "one = f32[] constant(1)\n"
                   "  ROOT m = f32[4] multiply(one, p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"u8[4]"},
                   "one = u8[4] constant({1, 1, 1, 1})\n"
                   "  ROOT m = u8[4] multiply(p0, one)",
                   "ROOT p0 = u8[4]{0} parameter(0)");
  ExpectSimplified({"pred[2]"},
                   "t = pred[] constant(true)\n"
                   "  ROOT m = pred[2] multiply(p0, t)",
                   "ROOT p0 = pred[2]{0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, ComplexMultiplyOneDoesNotFire) {
  ExpectUnchanged({"c64[2]"},
                  "one = c64[] constant((1, 0))\n"
                  "  ROOT m = c64[2] multiply(p0, one)");
}

TEST(AlgebraicSimplifierTest, IntegerMultiplyZeroKeepsTheZero) {
  ExpectSimplified({"s32[3]"},
                   "z = s32[3] constant({0, 0, 0})\n"
                   "  ROOT m = s32[3] multiply(p0, z)",
                   "ROOT z = s32[3]{0} constant({0, 0, 0})");
  // Client form: a scalar zero becomes a broadcast of the result's shape.
  ExpectSimplified({"s32[3]"},
                   "z = s32[] constant(0)\n"
                   "  ROOT m = s32[3] multiply(z, p0)",
                   "ROOT broadcast = s32[3]{0} broadcast(constant)");
}

TEST(AlgebraicSimplifierTest, FloatMultiplyZeroOnlyInFastMath) {
  const std::string body =
      "z = f32[] constant(0)\n"
      "  b = f32[4] broadcast(z), dimensions={}\n"
      "  ROOT m = f32[4] multiply(p0, b)";
  // NaN * 0 and inf * 0 are NaN; -1 * 0 is -0.
  ExpectUnchanged({"f32[4]"}, body);
  const Outcome outcome = RunOn(EntryModule({"f32[4]"}, body), kFastMath);
  EXPECT_TRUE(outcome.changed);
  EXPECT_THAT(EntryRoot(outcome.text), HasSubstr("ROOT b = "));
  EXPECT_FALSE(outcome.semantics.ok());
}

TEST(AlgebraicSimplifierTest, DivideByOne) {
  ExpectSimplified({"s32[4]"},
                   "one = s32[] constant(1)\n"
                   "  ROOT d = s32[4] divide(p0, one)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
  ExpectSimplified({"f16[4]"},
                   "one = f16[] constant(1)\n"
                   "  ROOT d = f16[4] divide(p0, one)",
                   "ROOT p0 = f16[4]{0} parameter(0)");
  // 1 / x is not x.
  ExpectUnchanged({"s32[4]"},
                  "one = s32[] constant(1)\n"
                  "  ROOT d = s32[4] divide(one, p0)");
}

TEST(AlgebraicSimplifierTest, DivideByPowerOfTwoBecomesExactMultiply) {
  const Outcome outcome = RunOn(EntryModule({"f32[4]"},
                                            "c = f32[] constant(4)\n"
                                            "  b = f32[4] broadcast(c), "
                                            "dimensions={}\n"
                                            "  ROOT d = f32[4] divide(p0, b)"));
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics;
  EXPECT_TRUE(ContainsInOrder(
      outcome.text, {"constant = f32[] constant(0.25)",
                     "broadcast = f32[4]{0} broadcast(constant), dimensions={}",
                     "ROOT multiply = f32[4]{0} multiply(p0, broadcast)"}));
}

TEST(AlgebraicSimplifierTest, DivideByThreeOnlyInFastMath) {
  const std::string body =
      "c = f32[] constant(3)\n"
      "  ROOT d = f32[4] divide(p0, c)";
  ExpectUnchanged({"f32[4]"}, body);
  // 2^-140 has no f32 reciprocal: 2^140 overflows.
  ExpectUnchanged({"f32[4]"},
                  "c = f32[] constant(7.17464814e-43)\n"
                  "  ROOT d = f32[4] divide(p0, c)");
  const Outcome fast = RunOn(EntryModule({"f32[4]"}, body), kFastMath);
  EXPECT_TRUE(fast.changed);
  EXPECT_THAT(EntryRoot(fast.text), HasSubstr("multiply(p0, constant)"));
}

// --- unary ---

TEST(AlgebraicSimplifierTest, DoubleNegationAndNot) {
  ExpectSimplified({"f32[4]"},
                   "n = f32[4] negate(p0)\n"
                   "  ROOT m = f32[4] negate(n)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"u32[4]"},
                   "n = u32[4] negate(p0)\n"
                   "  ROOT m = u32[4] negate(n)",
                   "ROOT p0 = u32[4]{0} parameter(0)");
  ExpectSimplified({"pred[4]"},
                   "n = pred[4] not(p0)\n"
                   "  ROOT m = pred[4] not(n)",
                   "ROOT p0 = pred[4]{0} parameter(0)");
  ExpectSimplified({"s8[4]"},
                   "n = s8[4] not(p0)\n"
                   "  ROOT m = s8[4] not(n)",
                   "ROOT p0 = s8[4]{0} parameter(0)");
  // Three negations leave one.
  ExpectSimplified({"s32[4]"},
                   "a = s32[4] negate(p0)\n"
                   "  b = s32[4] negate(a)\n"
                   "  ROOT c = s32[4] negate(b)",
                   "ROOT c = s32[4]{0} negate(p0)");
}

TEST(AlgebraicSimplifierTest, AbsOfNegateAndAbsOfAbs) {
  ExpectSimplified({"f32[4]"},
                   "n = f32[4] negate(p0)\n"
                   "  ROOT a = f32[4] abs(n)",
                   "ROOT a = f32[4]{0} abs(p0)");
  ExpectSimplified({"s32[4]"},
                   "a = s32[4] abs(p0)\n"
                   "  ROOT b = s32[4] abs(a)",
                   "ROOT a = s32[4]{0} abs(p0)");
  // Both results stay when the negation has another user.
  ExpectSimplified({"f32[4]"},
                   "n = f32[4] negate(p0)\n"
                   "  a = f32[4] abs(n)\n"
                   "  ROOT t = (f32[4], f32[4]) tuple(a, n)",
                   "ROOT t = (f32[4]{0}, f32[4]{0}) tuple(a, n)");
}

TEST(AlgebraicSimplifierTest, PowerOfOne) {
  ExpectSimplified({"f32[4]"},
                   "one = f32[] constant(1)\n"
                   "  ROOT p = f32[4] power(p0, one)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectUnchanged({"f32[4]"},
                  "one = f32[] constant(1)\n"
                  "  ROOT p = f32[4] power(one, p0)");
}

TEST(AlgebraicSimplifierTest, NegatedOperandsFoldIntoTheOp) {
  ExpectSimplified({"f32[4]", "f32[4]"},
                   "n = f32[4] negate(p1)\n"
                   "  ROOT a = f32[4] add(p0, n)",
                   "ROOT subtract = f32[4]{0} subtract(p0, p1)");
  ExpectSimplified({"f32[4]", "f32[4]"},
                   "n = f32[4] negate(p0)\n"
                   "  ROOT a = f32[4] add(n, p1)",
                   "ROOT subtract = f32[4]{0} subtract(p1, p0)");
  ExpectSimplified({"s32[4]", "s32[4]"},
                   "n = s32[4] negate(p1)\n"
                   "  ROOT s = s32[4] subtract(p0, n)",
                   "ROOT add = s32[4]{0} add(p0, p1)");
  ExpectSimplified({"c64[2]", "c64[2]"},
                   "n = c64[2] negate(p1)\n"
                   "  ROOT s = c64[2] subtract(p0, n)",
                   "ROOT add = c64[2]{0} add(p0, p1)");
  ExpectSimplified({"f32[4]", "f32[4]"},
                   "a = f32[4] negate(p0)\n"
                   "  b = f32[4] negate(p1)\n"
                   "  ROOT m = f32[4] multiply(a, b)",
                   "ROOT m = f32[4]{0} multiply(p0, p1)");
  // (-x) - y is not x - y; a client-form scalar operand keeps its place.
  ExpectUnchanged({"f32[4]", "f32[4]"},
                  "n = f32[4] negate(p0)\n"
                  "  ROOT s = f32[4] subtract(n, p1)");
  ExpectUnchanged({"f32[4]", "f32[]"},
                  "n = f32[] negate(p1)\n"
                  "  ROOT a = f32[4] add(p0, n)");
}

// --- maximum, minimum ---

TEST(AlgebraicSimplifierTest, MaxMinOfTheSameOperandIncludingNaN) {
  ExpectSimplified({"f32[4]"}, "ROOT m = f32[4] maximum(p0, p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"f32[4]"}, "ROOT m = f32[4] minimum(p0, p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, MaxWithLowestAndMinWithHighest) {
  ExpectSimplified({"f32[4]"},
                   "c = f32[] constant(-inf)\n"
                   "  ROOT m = f32[4] maximum(c, p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"f32[4]"},
                   "c = f32[] constant(inf)\n"
                   "  ROOT m = f32[4] minimum(p0, c)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"s32[4]"},
                   "c = s32[] constant(-2147483648)\n"
                   "  ROOT m = s32[4] maximum(p0, c)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
  ExpectSimplified({"u8[4]"},
                   "c = u8[] constant(255)\n"
                   "  ROOT m = u8[4] minimum(p0, c)",
                   "ROOT p0 = u8[4]{0} parameter(0)");
  // max(x, 0) clamps negatives.
  ExpectUnchanged({"f32[4]"},
                  "c = f32[] constant(0)\n"
                  "  ROOT m = f32[4] maximum(p0, c)");
}

// --- reassociation ---

TEST(AlgebraicSimplifierTest, IntegerConstantsReassociate) {
  const Outcome outcome = RunOn(EntryModule({"s32[4]"},
                                            "c1 = s32[] constant(2147483647)\n"
                                            "  c2 = s32[] constant(3)\n"
                                            "  a = s32[4] add(p0, c1)\n"
                                            "  ROOT b = s32[4] add(c2, a)"));
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics;
  // 2147483647 + 3 wraps.
  EXPECT_TRUE(
      ContainsInOrder(outcome.text, {"constant = s32[] constant(-2147483646)",
                                     "ROOT b = s32[4]{0} add(constant, p0)"}));
}

TEST(AlgebraicSimplifierTest, FloatConstantsReassociateOnlyInFastMath) {
  const std::string body =
      "c1 = f32[] constant(1e30)\n"
      "  c2 = f32[] constant(-1e30)\n"
      "  a = f32[4] add(p0, c1)\n"
      "  ROOT b = f32[4] add(a, c2)";
  ExpectUnchanged({"f32[4]"}, body);
  const Outcome fast = RunOn(EntryModule({"f32[4]"}, body), kFastMath);
  EXPECT_TRUE(fast.changed);
  EXPECT_FALSE(fast.semantics.ok());  // (x + 1e30) - 1e30 loses x.
}

TEST(AlgebraicSimplifierTest, ReassociationNeedsASingleUse) {
  ExpectUnchanged({"s32[4]"},
                  "c1 = s32[] constant(2)\n"
                  "  c2 = s32[] constant(3)\n"
                  "  a = s32[4] multiply(p0, c1)\n"
                  "  b = s32[4] multiply(a, c2)\n"
                  "  ROOT t = (s32[4], s32[4]) tuple(a, b)");
}

// --- logic ---

TEST(AlgebraicSimplifierTest, AndOrXorWithConstants) {
  ExpectSimplified({"pred[4]"},
                   "t = pred[] constant(true)\n"
                   "  ROOT a = pred[4] and(p0, t)",
                   "ROOT p0 = pred[4]{0} parameter(0)");
  ExpectSimplified({"s32[4]"},
                   "m = s32[4] constant({-1, -1, -1, -1})\n"
                   "  ROOT a = s32[4] and(m, p0)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
  ExpectSimplified({"u16[4]"},
                   "z = u16[4] constant({0, 0, 0, 0})\n"
                   "  ROOT a = u16[4] and(p0, z)",
                   "ROOT z = u16[4]{0} constant({0, 0, 0, 0})");
  ExpectSimplified({"pred[4]"},
                   "f = pred[4] constant({0, 0, 0, 0})\n"
                   "  ROOT o = pred[4] or(f, p0)",
                   "ROOT p0 = pred[4]{0} parameter(0)");
  ExpectSimplified({"u8[2]"},
                   "m = u8[2] constant({255, 255})\n"
                   "  ROOT o = u8[2] or(p0, m)",
                   "ROOT m = u8[2]{0} constant({255, 255})");
  ExpectSimplified({"s32[4]"},
                   "z = s32[] constant(0)\n"
                   "  ROOT x = s32[4] xor(p0, z)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
  ExpectSimplified({"s32[4]"}, "ROOT x = s32[4] xor(p0, p0)",
                   "broadcast(constant)");
  ExpectSimplified({"s32[4]"}, "ROOT o = s32[4] or(p0, p0)",
                   "ROOT p0 = s32[4]{0} parameter(0)");
  // 0x7f is not all ones.
  ExpectUnchanged({"s8[2]"},
                  "m = s8[2] constant({127, 127})\n"
                  "  ROOT a = s8[2] and(p0, m)");
}

TEST(AlgebraicSimplifierTest, SelectWithConstantPredicate) {
  ExpectSimplified({"f32[4]", "f32[4]"},
                   "t = pred[] constant(true)\n"
                   "  ROOT s = f32[4] select(t, p0, p1)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"f32[4]", "f32[4]"},
                   "f = pred[4] constant({0, 0, 0, 0})\n"
                   "  ROOT s = f32[4] select(f, p0, p1)",
                   "ROOT p1 = f32[4]{0} parameter(1)");
  ExpectUnchanged({"f32[4]", "f32[4]"},
                  "m = pred[4] constant({0, 1, 0, 0})\n"
                  "  ROOT s = f32[4] select(m, p0, p1)");
  // The chosen operand is a scalar (client form): it cannot stand for
  // the f32[4] result.
  ExpectUnchanged({"f32[]", "f32[4]"},
                  "t = pred[] constant(true)\n"
                  "  ROOT s = f32[4] select(t, p0, p1)");
}

TEST(AlgebraicSimplifierTest, SelectOfTheSameValueAndOfTuples) {
  ExpectSimplified({"pred[4]", "f32[4]"}, "ROOT s = f32[4] select(p0, p1, p1)",
                   "ROOT p1 = f32[4]{0} parameter(1)");
  ExpectSimplified({"f32[2]", "s32[]"},
                   "a = (f32[2], s32[]) tuple(p0, p1)\n"
                   "  b = (f32[2], s32[]) tuple(p0, p1)\n"
                   "  f = pred[] constant(false)\n"
                   "  ROOT s = (f32[2], s32[]) select(f, a, b)",
                   "ROOT b = (f32[2]{0}, s32[]) tuple(p0, p1)");
}

TEST(AlgebraicSimplifierTest, SelectOfNotSwapsTheBranches) {
  ExpectSimplified({"pred[4]", "f32[4]", "f32[4]"},
                   "n = pred[4] not(p0)\n"
                   "  ROOT s = f32[4] select(n, p1, p2)",
                   "ROOT s = f32[4]{0} select(p0, p2, p1)");
  // Branches of different shapes (client form) stay where they are.
  ExpectUnchanged({"pred[4]", "f32[]", "f32[4]"},
                  "n = pred[4] not(p0)\n"
                  "  ROOT s = f32[4] select(n, p1, p2)");
}

TEST(AlgebraicSimplifierTest, CompareSelfForIntegersAndTotalOrder) {
  ExpectSimplified({"s32[4]"}, "ROOT c = pred[4] compare(p0, p0), direction=GE",
                   "ROOT broadcast = pred[4]{0} broadcast(constant)");
  const Outcome lt = RunOn(
      EntryModule({"u8[]"}, "ROOT c = pred[] compare(p0, p0), direction=LT"));
  EXPECT_TRUE(lt.changed);
  EXPECT_THAT(EntryRoot(lt.text), HasSubstr("pred[] constant(false)"));
  // NaN == NaN is false under the default FLOAT order.
  ExpectUnchanged({"f32[4]"}, "ROOT c = pred[4] compare(p0, p0), direction=EQ");
  ExpectSimplified(
      {"f32[4]"},
      "ROOT c = pred[4] compare(p0, p0), direction=EQ, type=TOTALORDER",
      "broadcast(constant)");
}

// --- edge cases ---

TEST(AlgebraicSimplifierTest, ControlDependenciesBlockTheRewrite) {
  ExpectUnchanged({"s32[4]"},
                  "z = s32[4] constant({0, 0, 0, 0})\n"
                  "  n = s32[4] negate(p0)\n"
                  "  a = s32[4] add(p0, z), control-predecessors={n}\n"
                  "  ROOT t = (s32[4], s32[4]) tuple(a, n)");
}

TEST(AlgebraicSimplifierTest, ShardingIsNotLost) {
  // The add asks for a sharding its operand does not have.
  ExpectUnchanged({"s32[4]"},
                  "z = s32[] constant(0)\n"
                  "  a = s32[4] add(p0, z), sharding={maximal device=1}\n"
                  "  ROOT n = s32[4] negate(a)");
  ExpectSimplified({"s32[4]"},
                   "x = s32[4] negate(p0), sharding={maximal device=1}\n"
                   "  z = s32[] constant(0)\n"
                   "  a = s32[4] add(x, z), sharding={maximal device=1}\n"
                   "  ROOT n = s32[4] popcnt(a)",
                   "ROOT n = s32[4]{0} popcnt(x)");
  // A new instruction standing for a sharded one takes its sharding.
  const Outcome outcome = RunOn(EntryModule(
      {"f32[4,6]"},
      "i = s32[] constant(1)\n"
      "  j = s32[] constant(2)\n"
      "  ROOT d = f32[2,3] dynamic-slice(p0, i, j), dynamic_slice_sizes={2,3}, "
      "sharding={maximal device=0}"));
  EXPECT_THAT(EntryRoot(outcome.text),
              HasSubstr("slice(p0), slice={[1:3], [2:5]}, "
                        "sharding={maximal device=0}"));
}

TEST(AlgebraicSimplifierTest, RewritesInsideCalledComputations) {
  const std::string hlo =
      "HloModule m\n\n"
      "body {\n  x = s32[4] parameter(0)\n  n = s32[4] negate(x)\n"
      "  ROOT m = s32[4] negate(n)\n}\n\n"
      "ENTRY e {\n  p0 = s32[4] parameter(0)\n"
      "  ROOT c = s32[4] call(p0), to_apply=body\n}\n";
  const Outcome outcome = RunOn(hlo);
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics;
  EXPECT_TRUE(ContainsInOrder(outcome.text,
                              {"body", "ROOT x = s32[4]{0} parameter(0)"}));
  EXPECT_THAT(outcome.text, Not(HasSubstr("negate")));
}

TEST(AlgebraicSimplifierTest, DynamicShapesAreLeftAlone) {
  // The evaluator's add writes the elements past the dynamic size
  // differently from the parameter it would be replaced by.
  ExpectUnchanged({"f32[<=4]"}, "ROOT r = f32[<=4] reshape(p0)");
  ExpectUnchanged({"s32[<=4]"},
                  "z = s32[] constant(0)\n"
                  "  ROOT a = s32[<=4] add(p0, z)");
}

TEST(AlgebraicSimplifierTest, NewInstructionsKeepMetadataAndDefinitionOrder) {
  const Outcome outcome = RunOn(EntryModule(
      {"f32[4,6]"},
      "i = s32[] constant(1)\n"
      "  j = s32[] constant(2)\n"
      "  d = f32[2,3] dynamic-slice(p0, i, j), dynamic_slice_sizes={2,3}, "
      "metadata={op_name=\"ds\"}\n"
      "  ROOT n = f32[2,3] negate(d)"));
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(ContainsInOrder(
      outcome.text, {"slice = f32[2,3]{1,0} slice(p0), slice={[1:3], [2:5]}, "
                     "metadata={op_name=\"ds\"}",
                     "ROOT n = f32[2,3]{1,0} negate(slice)"}));
  // The constant indices went with the dynamic-slice.
  EXPECT_THAT(outcome.text, Not(HasSubstr("constant")));
}

TEST(AlgebraicSimplifierTest, LongChainsStayLinearAndSettle) {
  std::string body;
  std::string previous = "p0";
  constexpr int kLength = 20000;
  for (int i = 0; i < kLength; ++i) {
    const std::string name = absl::StrCat("n", i);
    absl::StrAppend(&body, i + 1 == kLength ? "ROOT " : "", name,
                    " = s32[4] negate(", previous, ")\n  ");
    previous = name;
  }
  absl::StatusOr<std::unique_ptr<Module>> module =
      Parse(EntryModule({"s32[4]"}, body));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = RunPass(kPass, **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ((*module)->entry()->instruction_count(), 1);
  EXPECT_TRUE(VerifyModule(**module).ok());
}

}  // namespace
}  // namespace kiln
