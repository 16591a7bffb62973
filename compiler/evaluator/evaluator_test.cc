// The driver: argument binding, structural ops, value lifetimes and the
// errors that name the instruction.
#include "compiler/evaluator/evaluator.h"

#include "absl/strings/match.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

TEST(EvaluatorTest, ParametersConstantsAndTuples) {
  const std::string hlo =
      EntryModule({"f32[2]", "(s32[], pred[])"},
                  "c = s8[3] constant({1, -2, 3})\n"
                  "  g = pred[] get-tuple-element(p1), index=1\n"
                  "  ROOT t = (s8[3], f32[2], pred[]) tuple(c, p0, g)");
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1.5, -0}", "(s32[], pred[]) (7, true)"}),
            "(s8[3], f32[2], pred[]) ( {1, -2, 3}, {1.5, -0}, true )");
}

TEST(EvaluatorTest, RootMayBeAParameterUsedElsewhere) {
  const std::string hlo =
      EntryModule({"f32[2]"},
                  "t = (f32[2]) tuple(p0)\n  ROOT r = f32[2] "
                  "get-tuple-element(t), index=0");
  EXPECT_EQ(RunToText(hlo, {"f32[2] {1, 2}"}), "f32[2] {1, 2}");
}

TEST(EvaluatorTest, ArgumentCountAndShapesAreChecked) {
  const std::string hlo =
      EntryModule({"f32[2]"}, "ROOT t = (f32[2]) tuple(p0)");
  EXPECT_TRUE(
      absl::StrContains(RunToText(hlo, {}), "takes 1 arguments but got 0"))
      << RunToText(hlo, {});
  const std::string wrong = RunToText(hlo, {"s32[2] {1, 2}"});
  EXPECT_TRUE(absl::StrContains(wrong,
                                "p0: argument of shape s32[2] does not "
                                "match the parameter's shape f32[2]"))
      << wrong;
}

TEST(EvaluatorTest, MissingKernelIsAnErrorNamingTheInstruction) {
  const std::string hlo = EntryModule(
      {"f32[2]"}, "ROOT n = f32[2] custom-call(p0), custom_call_target=\"x\"");
  const std::string result = RunToText(hlo, {"f32[2] {1, 2}"});
  EXPECT_TRUE(absl::StartsWith(result, "error: test.hlo:")) << result;
  EXPECT_TRUE(absl::StrContains(result, "n: ")) << result;
}

TEST(EvaluatorTest, NoEntryIsAnError) {
  Module module("empty");
  absl::StatusOr<Literal> result = Evaluate(module, {});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(absl::StrContains(result.status().message(), "no entry"));
}

TEST(EvaluatorTest, LiteralCapIsEnforced) {
  const std::string hlo = EntryModule(
      {}, "c = s32[4] constant({1, 2, 3, 4})\n  ROOT t = (s32[4]) tuple(c)");
  EvalOptions options;
  options.max_literal_bytes = 8;
  // The constant exists already; the cap applies to what kernels allocate
  // through EvalContext::NewLiteral, which tuple does not. So this runs.
  EXPECT_EQ(RunToText(hlo, {}, options), "(s32[4]) ( {1, 2, 3, 4} )");
}

TEST(EvaluatorTest, CustomCallRegistryFindsRegisteredTargets) {
  CustomCallRegistry registry;
  EXPECT_EQ(registry.Find("f"), nullptr);
  registry.Register("f",
                    [](absl::Span<const Literal* const>, const Shape&,
                       absl::string_view) -> absl::StatusOr<Literal> {
                      return Literal::ScalarS32(42);
                    });
  const CustomCallFn* fn = registry.Find("f");
  ASSERT_NE(fn, nullptr);
  absl::StatusOr<Literal> result =
      (*fn)({}, Shape::Scalar(ElementType::kS32), "");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->GetInt64(0), 42);
}

}  // namespace
}  // namespace kiln
