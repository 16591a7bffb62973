// One invalid case per constraint the spec states for the control-flow ops
// (operation_semantics.md: While, Conditional in its predicate and indexed
// forms, Call, OptimizationBarrier, AfterAll, AddDependency, Domain,
// Fusion), each checking that the error names the op's section, plus a
// valid case per op. The table in docs/shape_rule_coverage_compute_control.md
// maps constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "compiler/ops/testing/rule_cases.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::ExpectRuleErrors;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::Rule;
using shape_test::RuleCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Computations over the loop state T = (s32[], f32[4]): cond (T -> pred),
// cond_s32 (T -> s32), body (T -> T), body_f32 (T -> f32[4]); branches
// negate4 (f32[4] -> f32[4]), from_s32 (s32[2] -> f32[4]), to_f64 (f32[4]
// -> f64[4]), add4 (f32[4], f32[4] -> f32[4]). The entry has x = f32[4],
// p = pred[], n = s32[], k = s32[2], state: T, tok = token[].
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
cond {
  cs = (s32[], f32[4]) parameter(0)
  c = s32[] get-tuple-element(cs), index=0
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(c, ten), direction=LT
}
cond_s32 {
  cs = (s32[], f32[4]) parameter(0)
  ROOT c = s32[] get-tuple-element(cs), index=0
}
body {
  ROOT bs = (s32[], f32[4]) parameter(0)
}
body_f32 {
  bs = (s32[], f32[4]) parameter(0)
  ROOT v = f32[4] get-tuple-element(bs), index=1
}
negate4 {
  a = f32[4] parameter(0)
  ROOT r = f32[4] negate(a)
}
from_s32 {
  a = s32[2] parameter(0)
  ROOT r = f32[4] constant({1, 2, 3, 4})
}
to_f64 {
  a = f32[4] parameter(0)
  ROOT r = f64[4] convert(a)
}
add4 {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = f32[4] add(a, b)
}
fused {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = f32[4] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  p = pred[] parameter(1)
  n = s32[] parameter(2)
  k = s32[2] parameter(3)
  zero = s32[] constant(0)
  state = (s32[], f32[4]) tuple(zero, x)
  tok = token[] after-all()
  ROOT result = )",
                      root, "\n}\n");
}

TEST(WhileConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("(s32[], f32[4]) while(state), condition=cond, "
                              "body=body")),
            "(s32[], f32[4])");
  ExpectRuleErrors(
      {
          {"condition is T -> PRED",
           Module(
               "(s32[], f32[4]) while(state), condition=cond_s32, body=body"),
           Rule("condition=cond_s32 has signature ((s32[], f32[4])) -> s32[], "
                "expected ((s32[], f32[4])) -> pred[]",
                "While")},
          {"body is T -> T (T the same across iterations)",
           Module(
               "(s32[], f32[4]) while(state), condition=cond, body=body_f32"),
           Rule("body=body_f32 has signature ((s32[], f32[4])) -> f32[4], "
                "expected ((s32[], f32[4])) -> (s32[], f32[4])",
                "While")},
          {"init has type T",
           Module("f32[4] while(x), condition=cond, body=body"),
           Rule("condition=cond has signature ((s32[], f32[4])) -> pred[], "
                "expected (f32[4]) -> pred[]",
                "While")},
      },
      "result");
}

TEST(ConditionalConstraintsTest, PredicateForm) {
  EXPECT_EQ(*InferText(Module("f32[4] conditional(p, x, k), "
                              "true_computation=negate4, "
                              "false_computation=from_s32")),
            "f32[4]");
  ExpectRuleErrors(
      {
          {"predicate is a PRED scalar (or an S32 index)",
           Module("f32[4] conditional(x, x, x), true_computation=negate4, "
                  "false_computation=negate4"),
           Rule("selector is f32[4], expected pred[] or s32[]", "Conditional")},
          {"true_operand has the type T_0 of true_computation",
           Module("f32[4] conditional(p, k, k), true_computation=negate4, "
                  "false_computation=from_s32"),
           Rule("branch 0=negate4 has signature (f32[4]) -> f32[4], expected "
                "(s32[2]) -> f32[4]",
                "Conditional")},
          {"false_operand has the type T_1 of false_computation",
           Module("f32[4] conditional(p, x, x), true_computation=negate4, "
                  "false_computation=from_s32"),
           Rule("branch 1=from_s32 has signature (s32[2]) -> f32[4], expected "
                "(f32[4]) -> f32[4]",
                "Conditional")},
          {"both computations return the same type S",
           Module("f32[4] conditional(p, x, x), true_computation=negate4, "
                  "false_computation=to_f64"),
           Rule("branch 1=to_f64 has signature (f32[4]) -> f64[4], expected "
                "(f32[4]) -> f32[4]",
                "Conditional")},
          {"each computation takes a single argument",
           Module("f32[4] conditional(p, x, x), true_computation=add4, "
                  "false_computation=negate4"),
           Rule("branch 0=add4 has signature (f32[4], f32[4]) -> f32[4], "
                "expected (f32[4]) -> f32[4]",
                "Conditional")},
          {"a pred selector takes two branches",
           Module("f32[4] conditional(p, x, x, x), "
                  "branch_computations={negate4, negate4, negate4}"),
           Rule("a pred selector takes 2 branches, got 3", "Conditional")},
      },
      "result");
}

TEST(ConditionalConstraintsTest, IndexedForm) {
  EXPECT_EQ(*InferText(Module("f32[4] conditional(n, x, k, x), "
                              "branch_computations={negate4, from_s32, "
                              "negate4}")),
            "f32[4]");
  ExpectRuleErrors(
      {
          {"one operand per branch computation",
           Module("f32[4] conditional(n, x, k), "
                  "branch_computations={negate4, from_s32, negate4}"),
           Rule("has 3 branches but 2 branch operands", "Conditional")},
          {"branch_operands[b] has the type T_b",
           Module("f32[4] conditional(n, x, x), "
                  "branch_computations={negate4, from_s32}"),
           Rule("branch 1=from_s32 has signature (s32[2]) -> f32[4], expected "
                "(f32[4]) -> f32[4]",
                "Conditional")},
          {"every branch returns the same type S",
           Module("f32[4] conditional(n, x, x), "
                  "branch_computations={negate4, to_f64}"),
           Rule("branch 1=to_f64 has signature (f32[4]) -> f64[4], expected "
                "(f32[4]) -> f32[4]",
                "Conditional")},
          {"an index selector takes a non-empty branch list",
           Module("f32[4] conditional(n, x), true_computation=negate4, "
                  "false_computation=negate4"),
           Rule("an s32 selector takes a non-empty", "Conditional")},
      },
      "result");
}

TEST(CallConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[4] call(x, x), to_apply=add4")), "f32[4]");
  ExpectRuleErrors(
      {
          {"operand arity matches the parameters",
           Module("f32[4] call(x), to_apply=add4"),
           Rule("to_apply=add4 has signature (f32[4], f32[4]) -> f32[4], "
                "expected (f32[4]) -> f32[4]",
                "Call")},
          {"operand types match the parameters",
           Module("f32[4] call(k), to_apply=negate4"),
           Rule("to_apply=negate4 has signature (f32[4]) -> f32[4], expected "
                "(s32[2]) -> f32[4]",
                "Call")},
      },
      "result");
}

TEST(FusionConstraintsTest, EachConstraint) {
  // The spec leaves fusion to XLA: operands match the fused parameters.
  EXPECT_EQ(*InferText(Module("f32[4] fusion(x, x), kind=kLoop, "
                              "calls=fused")),
            "f32[4]");
  ExpectRuleErrors(
      {
          {"operands match the fused computation's parameters (XLA)",
           Module("f32[4] fusion(x, k), kind=kLoop, calls=fused"),
           Rule(
               "calls=fused has signature (f32[4], f32[4]) -> f32[4], expected "
               "(f32[4], s32[2]) -> f32[4]",
               "Fusion")},
      },
      "result");
}

TEST(SchedulingConstraintsTest, AfterAllAddDependencyBarrierDomain) {
  EXPECT_EQ(*InferText(Module("token[] after-all(tok, tok)")), "token[]");
  EXPECT_EQ(*InferText(Module("token[] after-all()")), "token[]");
  EXPECT_EQ(*InferText(Module("f32[4] add-dependency(x, tok)")), "f32[4]");
  EXPECT_EQ(*InferText(Module("(s32[], f32[4]) opt-barrier(state)")),
            "(s32[], f32[4])");
  ExpectRuleErrors(
      {
          {"AfterAll takes tokens", Module("token[] after-all(tok, x)"),
           Rule("operand 1 is f32[4], expected token[]", "AfterAll")},
          {"AddDependency: operand 1 is a token (XLA)",
           Module("f32[4] add-dependency(x, x)"),
           Rule("operand 1 is f32[4], expected token[]", "AddDependency")},
          {"OptimizationBarrier: operand is a tuple (XLA's HLO form)",
           Module("f32[4] opt-barrier(x)"),
           Rule("operand is f32[4], expected a tuple", "OptimizationBarrier")},
      },
      "result");
}

}  // namespace
}  // namespace kiln
