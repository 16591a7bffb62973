#include "fuzz/oracle/reduce_steps.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/oracle/oracle.h"
#include "fuzz/oracle/reduce.h"
#include "gtest/gtest.h"

namespace kiln::fuzz {
namespace {

// `module` on one argument of `shape` holding 1, 2, 3, ..., reduced while
// the test pipeline (add becomes subtract) still changes its result.
absl::StatusOr<Reduced> ReduceAddToSubtract(const Module& module,
                                            const Shape& shape) {
  absl::StatusOr<Literal> argument = Literal::Create(shape);
  if (!argument.ok()) return argument.status();
  for (int64_t i = 0; i < argument->element_count(); ++i) {
    argument->SetDouble(i, i + 1);
  }
  Case c;
  c.module = &module;
  c.arguments.emplace_back();
  c.arguments[0].push_back(*std::move(argument));
  OracleOptions options;
  options.pipeline = "test-add-to-subtract";
  const Outcome outcome = RunOracle(OracleKind::kPipeline, c, nullptr, options);
  if (!outcome.finding()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no finding: ", outcome.detail));
  }
  return ReduceCase(OracleKind::kPipeline, c, nullptr, options, outcome);
}

TEST(CutLiteralTest, KeepsTheLeadingCorner) {
  absl::StatusOr<Literal> matrix =
      Literal::Create(Shape::Array(ElementType::kS32, {2, 3}));
  ASSERT_TRUE(matrix.ok());
  for (int64_t i = 0; i < 6; ++i) matrix->SetBits(i, i + 1);
  absl::StatusOr<Literal> cut =
      CutLiteral(*matrix, Shape::Array(ElementType::kS32, {2, 2}));
  ASSERT_TRUE(cut.ok()) << cut.status();
  ASSERT_EQ(cut->element_count(), 4);
  EXPECT_EQ(cut->GetBits(0), 1u);
  EXPECT_EQ(cut->GetBits(1), 2u);
  EXPECT_EQ(cut->GetBits(2), 4u);
  EXPECT_EQ(cut->GetBits(3), 5u);
  EXPECT_FALSE(
      CutLiteral(*matrix, Shape::Array(ElementType::kS32, {3, 3})).ok());
  EXPECT_FALSE(CutLiteral(*matrix, Shape::Array(ElementType::kS32, {6})).ok());
}

TEST(WithDimensionSizeTest, ResizesShapesConstantsAndLayout) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
ENTRY e {
  p0 = f32[4,3] parameter(0)
  c = f32[4,3] constant({{1,2,3},{4,5,6},{7,8,9},{10,11,12}})
  ROOT a = f32[4,3] add(p0, c)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(DimensionSizes(**module), (std::vector<int64_t>{4, 3}));
  absl::StatusOr<std::unique_ptr<Module>> smaller =
      WithDimensionSize(**module, 4, 1);
  ASSERT_TRUE(smaller.ok()) << smaller.status();
  EXPECT_TRUE(VerifyModule(**smaller).ok()) << PrintModule(**smaller);
  EXPECT_EQ((*smaller)->entry()->root()->shape().dimensions(),
            (std::vector<int64_t>{1, 3}));
  const Instruction* constant = (*smaller)->entry()->instructions()[1];
  ASSERT_TRUE(constant->has_literal());
  EXPECT_EQ(constant->literal().element_count(), 3);
}

// A pipeline finding inside a reduce body: the reducer shrinks the body
// (callee root step) and every dimension (dimension step).
TEST(ReduceStepsTest, ShrinksCalleesAndDimensions) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
body {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] multiply(a, b)
  s = f32[] add(a, b)
  ROOT x = f32[] maximum(s, m)
}
ENTRY e {
  p0 = f32[4,3] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[4] reduce(p0, c), dimensions={1}, to_apply=body
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Reduced> reduced =
      ReduceAddToSubtract(**module, Shape::Array(ElementType::kF32, {4, 3}));
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  const std::string text = PrintModule(*reduced->module);
  EXPECT_TRUE(DimensionSizes(*reduced->module).empty()) << text;
  EXPECT_LE(reduced->instructions_after, 6) << text;
  EXPECT_EQ(text.find("multiply"), std::string::npos) << text;
  EXPECT_NE(text.find("add"), std::string::npos) << text;
}

TEST(WithSimplerAttributeTest, SmallerWindowsCarryTheirShapeToTheRoot) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[8] parameter(0)
  c = f32[] constant(0)
  w = f32[4] reduce-window(p0, c), window={size=2 stride=2}, to_apply=add
  ROOT n = f32[4] negate(w)
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  const Instruction* window = (*module)->entry()->instructions()[2];
  ASSERT_EQ(AttributeEditCount(*window), 2);  // stride, size
  absl::StatusOr<std::unique_ptr<Module>> unit_stride =
      WithSimplerAttribute(**module, "e", 2, 0);
  ASSERT_TRUE(unit_stride.ok()) << unit_stride.status();
  EXPECT_TRUE(VerifyModule(**unit_stride).ok()) << PrintModule(**unit_stride);
  EXPECT_EQ((*unit_stride)->entry()->root()->shape().dimensions(),
            (std::vector<int64_t>{7}));
  EXPECT_NE(PrintModule(**unit_stride).find("window={size=2}"),
            std::string::npos)
      << PrintModule(**unit_stride);
  EXPECT_FALSE(WithSimplerAttribute(**module, "e", 2, 2).ok());
  EXPECT_EQ(AttributeEditCount(*(*module)->entry()->root()), 0);
}

TEST(WithSimplerAttributeTest, CalleeRootsKeepTheirShape) {
  // A smaller pad inside a map body would change the body's result: not
  // a candidate.
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
body {
  a = f32[2] parameter(0)
  c = f32[] constant(0)
  ROOT p = f32[3] pad(a, c), padding=0_1
}
ENTRY e {
  p0 = f32[2] parameter(0)
  ROOT k = f32[3] call(p0), to_apply=body
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_FALSE(WithSimplerAttribute(**module, "body", 2, 0).ok());
}

TEST(WithPlainFormTest, DropsLayoutsAndAnnotations) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY e {
  p0 = f32[2,3]{0,1} parameter(0)
  ROOT n = f32[2,3]{0,1} negate(p0), metadata={op_name="jit(f)/neg"}
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<std::unique_ptr<Module>> plain = WithPlainForm(**module, true);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_TRUE(VerifyModule(**plain).ok()) << PrintModule(**plain);
  const std::string text = PrintModule(**plain);
  EXPECT_EQ(text.find("{0,1}"), std::string::npos) << text;
  EXPECT_EQ(text.find("metadata"), std::string::npos) << text;
}

TEST(WithCalleeOperandTest, ReadsAParameterOrAZeroInstead) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
body {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  e = f32[] exponential(a)
  ROOT s = f32[] add(e, b)
}
ENTRY e {
  p0 = f32[4] parameter(0)
  c = f32[] constant(0)
  ROOT r = f32[] reduce(p0, c), dimensions={0}, to_apply=body
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<std::unique_ptr<Module>> read_a =
      WithCalleeOperand(**module, "body", 2, 0);
  ASSERT_TRUE(read_a.ok()) << read_a.status();
  EXPECT_TRUE(VerifyModule(**read_a).ok()) << PrintModule(**read_a);
  EXPECT_EQ(PrintModule(**read_a).find("exponential"), std::string::npos);
  absl::StatusOr<std::unique_ptr<Module>> zero =
      WithCalleeOperand(**module, "body", 2, -1);
  ASSERT_TRUE(zero.ok()) << zero.status();
  EXPECT_TRUE(VerifyModule(**zero).ok()) << PrintModule(**zero);
  EXPECT_NE(PrintModule(**zero).find("constant(0)"), std::string::npos);
  // Not a parameter, or not in a called computation.
  EXPECT_FALSE(WithCalleeOperand(**module, "body", 2, 3).ok());
  EXPECT_FALSE(WithCalleeOperand(**module, "e", 2, -1).ok());
}

// A backend finding on a strided reduce-window in a map-free module: the
// reducer takes the window to its simplest form that still fails.
TEST(ReduceStepsTest, SimplifiesAttributesWhileTheFindingStays) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
mul {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  x = f32[] multiply(a, b)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p0 = f32[6] parameter(0)
  c = f32[] constant(0)
  ROOT w = f32[3] reduce-window(p0, c), window={size=2 stride=2 pad=1_0}, to_apply=mul
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Reduced> reduced =
      ReduceAddToSubtract(**module, Shape::Array(ElementType::kF32, {6}));
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  const std::string text = PrintModule(*reduced->module);
  EXPECT_EQ(text.find("stride="), std::string::npos) << text;
  EXPECT_EQ(text.find("pad="), std::string::npos) << text;
  EXPECT_EQ(text.find("multiply"), std::string::npos) << text;
}

TEST(WithoutSortOperandTest, DropsAnOperandNobodyReads) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m
cmp {
  l0 = s32[] parameter(0)
  r0 = s32[] parameter(1)
  l1 = f32[] parameter(2)
  r1 = f32[] parameter(3)
  l2 = u8[] parameter(4)
  r2 = u8[] parameter(5)
  ROOT lt = pred[] compare(l2, r2), direction=LT
}
ENTRY e {
  k = s32[4] parameter(0)
  v = f32[4] parameter(1)
  w = u8[4] parameter(2)
  s = (s32[4], f32[4], u8[4]) sort(k, v, w), dimensions={0}, is_stable=true, to_apply=cmp
  ROOT g = u8[4] get-tuple-element(s), index=2
}
)");
  ASSERT_TRUE(module.ok()) << module.status();
  // Operand 2 is compared and read: it stays.
  EXPECT_FALSE(WithoutSortOperand(**module, "e", 3, 2).ok());
  absl::StatusOr<std::unique_ptr<Module>> two =
      WithoutSortOperand(**module, "e", 3, 1);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_TRUE(VerifyModule(**two).ok()) << PrintModule(**two);
  const std::string text = PrintModule(**two, ShortParsablePrintOptions());
  EXPECT_NE(text.find("(s32[4]{0}, u8[4]{0}) sort(k, w)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("get-tuple-element(s.1), index=1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("l2 = u8[] parameter(2)"), std::string::npos) << text;
  // Down to one operand: the sort's array replaces the get-tuple-element.
  absl::StatusOr<std::unique_ptr<Module>> one =
      WithoutSortOperand(**two, "e", 3, 0);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_TRUE(VerifyModule(**one).ok()) << PrintModule(**one);
  EXPECT_NE(PrintModule(**one, ShortParsablePrintOptions())
                .find("ROOT s.2 = u8[4]{0} sort(w)"),
            std::string::npos)
      << PrintModule(**one, ShortParsablePrintOptions());
}

TEST(WithoutParameterLinesTest, DropsAndRenumbersInOneComputationOnly) {
  const std::string text =
      "body {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = f32[] parameter(2)\n}\n\n"
      "ENTRY e {\n  p0 = f32[] parameter(0)\n  p1 = f32[] parameter(1)\n"
      "  ROOT p2 = f32[] parameter(2)\n}\n\n"
      "after {\n  q = f32[] parameter(1)\n}\n";
  const std::string entry = WithoutParameterLines(text, "ENTRY e {", 0, 1);
  EXPECT_NE(entry.find("p1 = f32[] parameter(0)"), std::string::npos) << entry;
  EXPECT_NE(entry.find("ROOT p2 = f32[] parameter(1)"), std::string::npos);
  EXPECT_EQ(entry.find("p0 ="), std::string::npos);
  // The other computations, before and after the entry, are unchanged.
  EXPECT_NE(entry.find("b = f32[] parameter(1)"), std::string::npos);
  EXPECT_NE(entry.find("q = f32[] parameter(1)"), std::string::npos);
  const std::string body = WithoutParameterLines(text, "body {", 0, 2);
  EXPECT_NE(body.find("ROOT c = f32[] parameter(0)"), std::string::npos)
      << body;
  EXPECT_EQ(body.find("a = f32[]"), std::string::npos);
}

}  // namespace
}  // namespace kiln::fuzz
