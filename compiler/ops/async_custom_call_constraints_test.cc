// One invalid case per constraint of the async wrappers (async_ops.md: the
// async-start/update/done forms and late binding of operands and outputs)
// and of custom-call (operation_semantics.md, CustomCall, which defers to
// XLA's custom-call contract), each checking that the error names the
// instruction and the rule, plus valid cases. The table in
// docs/shape_rule_coverage_compute_control.md maps constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::InferError;
using shape_test::InferText;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// What an invalid case's error must say: `what` (the broken constraint with
// its values), the instruction's name first ("<name>: ") and the rule's
// reference "(<document>, <section>)" last.
struct Expected {
  std::string name;
  std::string what;
  std::string reference;
};

// An invalid case: the constraint it breaks (shown when it fails), the
// module, and the error it must give.
struct RuleCase {
  const char* constraint;
  std::string hlo;
  Expected error;
};

void ExpectRuleErrors(const std::vector<RuleCase>& cases) {
  for (const RuleCase& c : cases) {
    SCOPED_TRACE(c.constraint);
    const std::string error = InferError(c.hlo);
    EXPECT_THAT(error, StartsWith(absl::StrCat(c.error.name, ": ")));
    EXPECT_THAT(error, HasSubstr(c.error.what));
    EXPECT_THAT(error, HasSubstr(absl::StrCat("(", c.error.reference, ")")));
  }
}

constexpr absl::string_view kAsyncForm = "async_ops.md, Async HLO Instructions";
constexpr absl::string_view kLateBinding = "async_ops.md, Late Binding";
constexpr absl::string_view kCustomCall = "operation_semantics.md, CustomCall";

Expected Rule(absl::string_view name, absl::string_view what,
              absl::string_view reference) {
  return {std::string(name), std::string(what), std::string(reference)};
}

// add2: (f32[2], f32[2]) -> f32[2]. The entry has x = f32[2], k = s32[3],
// t = (f32[2], s32[3]) and then the instruction lines `body` (the last one
// the ROOT).
std::string Module(absl::string_view body) {
  return absl::StrCat(R"(HloModule m
add2 {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT s = f32[2] add(a, b)
}
ENTRY e {
  x = f32[2] parameter(0)
  k = s32[3] parameter(1)
  t = (f32[2], s32[3]) parameter(2)
)",
                      body, "\n}\n");
}

constexpr absl::string_view kStartAll =
    "st = ((f32[2], f32[2]), f32[2], s32[]) async-start(x, x), calls=add2\n";
constexpr absl::string_view kStartOne =
    "st = ((f32[2]), (), s32[]) async-start(x), calls=add2\n";

TEST(AsyncConstraintsTest, ValidChains) {
  EXPECT_EQ(
      *InferText(Module(absl::StrCat(kStartAll,
                                     "up = ((f32[2], f32[2]), f32[2], "
                                     "s32[]) async-update(st)\n",
                                     "ROOT done = f32[2] async-done(up)"))),
      "f32[2]");
  // Late binding: p1 bound at the update, the output at done.
  EXPECT_EQ(
      *InferText(Module(absl::StrCat(
          kStartOne, "up = ((f32[2], f32[2]), (), s32[]) async-update(st, x)\n",
          "ROOT done = f32[2] async-done(up)"))),
      "f32[2]");
  // Nothing bound at start.
  EXPECT_EQ(*InferText(Module("ROOT st = ((), (), s32[]) async-start(), "
                              "calls=add2")),
            "((), (), s32[])");
}

TEST(AsyncConstraintsTest, EachConstraint) {
  ExpectRuleErrors({
      {"start's shape is ((operands...), result, context...)",
       Module("ROOT st = f32[2] async-start(x, x), calls=add2"),
       Rule("st",
            "the shape is f32[2], expected ((operands...), result, "
            "context...)",
            kAsyncForm)},
      {"start binds parameters P_0.. in order, of their types",
       Module("ROOT st = ((s32[3]), (), s32[]) async-start(k), calls=add2"),
       Rule("st",
            "bound operand 0 is s32[3], expected f32[2] (parameter 0 "
            "of add2)",
            kLateBinding)},
      {"start binds K <= N operands",
       Module("ROOT st = ((f32[2], f32[2], f32[2]), f32[2], s32[]) "
              "async-start(x, x, x), calls=add2"),
       Rule("st", "3 operands bound but calls=add2 takes 2", kLateBinding)},
      {"start's result slot is () or the computation's root",
       Module("ROOT st = ((f32[2], f32[2]), s32[3], s32[]) async-start(x, x), "
              "calls=add2"),
       Rule("st",
            "output slot is s32[3], expected () or the computation's "
            "root f32[2]",
            kAsyncForm)},
      {"update follows an async-start or async-update",
       Module("ROOT up = ((f32[2]), f32[2], s32[]) async-update(x)"),
       Rule("up", "operand 0 is x, expected an async-start or async-update",
            kAsyncForm)},
      {"update binds the next parameters left to right",
       Module(absl::StrCat(kStartOne,
                           "ROOT up = ((f32[2], s32[3]), f32[2], s32[]) "
                           "async-update(st, k)")),
       Rule("up",
            "bound operand 1 is s32[3], expected f32[2] (parameter 1 "
            "of add2)",
            kLateBinding)},
      {"an output is bound once",
       Module(absl::StrCat(kStartAll,
                           "ROOT up = ((f32[2], f32[2]), f32[2], s32[]) "
                           "async-update(st, x)")),
       Rule("up", "operand 1 binds an output, but the output is already bound",
            kLateBinding)},
      {"a bound output stays bound",
       Module(absl::StrCat(kStartAll,
                           "ROOT up = ((f32[2], f32[2]), (), s32[]) "
                           "async-update(st)")),
       Rule("up", "output slot is (), but the previous step bound f32[2]",
            kLateBinding)},
      {"done needs every parameter bound",
       Module(absl::StrCat(kStartOne, "ROOT done = f32[2] async-done(st)")),
       Rule("done", "only 1 of the 2 operands of add2 are bound",
            kLateBinding)},
      {"done's result is the computation's root",
       Module(absl::StrCat(
           kStartOne,
           "up = ((f32[2], f32[2]), (), s32[]) async-update(st, x)\n",
           "ROOT done = s32[3] async-done(up)")),
       Rule("done",
            "binds output s32[3], expected the computation's root "
            "f32[2]",
            kLateBinding)},
      {"done follows an async-start or async-update",
       Module("ROOT done = f32[2] async-done(t)"),
       Rule("done", "operand 0 is t, expected an async-start or async-update",
            kAsyncForm)},
  });
}

TEST(CustomCallConstraintsTest, EachConstraint) {
  // The target decides the result: the declared shape, any shape.
  EXPECT_EQ(*InferText(Module("ROOT cc = (f32[7], s32[]) custom-call(x, k), "
                              "custom_call_target=\"t\"")),
            "(f32[7], s32[])");
  ExpectRuleErrors({
      {"one layout constraint per operand",
       Module("ROOT cc = f32[1] custom-call(x, k), custom_call_target=\"t\", "
              "operand_layout_constraints={f32[2]{0}}"),
       Rule("cc", "operand_layout_constraints has 1 shapes for 2 operands",
            kCustomCall)},
      {"a layout constraint has its operand's shape",
       Module("ROOT cc = f32[1] custom-call(x, k), custom_call_target=\"t\", "
              "operand_layout_constraints={f32[2]{0}, s32[4]{0}}"),
       Rule("cc",
            "operand_layout_constraints shape 1 is s32[4], but operand "
            "1 is s32[3]",
            kCustomCall)},
      {"aliased output and operand pieces have one shape",
       Module("ROOT cc = f32[2] custom-call(t), custom_call_target=\"t\", "
              "output_to_operand_aliasing={{}: (0, {1})}"),
       Rule("cc",
            "aliases output {} (f32[2]) with operand 0 index {1} of "
            "(f32[2], s32[3])",
            kCustomCall)},
      {"aliasing names an existing operand",
       Module("ROOT cc = f32[2] custom-call(x), custom_call_target=\"t\", "
              "output_to_operand_aliasing={{}: (1, {})}"),
       Rule("cc", "output_to_operand_aliasing operand 1 is not in [0, 1)",
            kCustomCall)},
      {"aliasing names an existing output piece",
       Module("ROOT cc = f32[2] custom-call(x), custom_call_target=\"t\", "
              "output_to_operand_aliasing={{0}: (0, {})}"),
       Rule("cc",
            "output_to_operand_aliasing output index {0} is not in "
            "f32[2]",
            kCustomCall)},
  });
}

}  // namespace
}  // namespace kiln
