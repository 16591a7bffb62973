// The parser's use of shape inference: omitted shapes are inferred where
// XLA allows leaving them out, and declared shapes are checked against the
// op's rule unless ParseOptions::check_shapes is off.
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

absl::StatusOr<std::unique_ptr<Module>> Parse(absl::string_view text,
                                              bool check_shapes = true) {
  ParseOptions options;
  options.filename = "m.hlo";
  options.check_shapes = check_shapes;
  return ParseModule(text, options);
}

std::string ShapeOf(const Module& module, absl::string_view name) {
  for (const Computation* computation : module.computations()) {
    if (const Instruction* i = computation->FindInstruction(name)) {
      return i->shape().ToString();
    }
  }
  return "<none>";
}

TEST(ParserShapesTest, InfersOmittedElementwiseShapes) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  v = f32[3] parameter(1)
  s = add(x, x)
  b = add(x, v), broadcast_dimensions={1}
  c = compare(s, b), direction=LT
  ROOT t = tuple(s, b, c)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(ShapeOf(**module, "s"), "f32[2,3]{1,0}");
  EXPECT_EQ(ShapeOf(**module, "b"), "f32[2,3]{1,0}");
  EXPECT_EQ(ShapeOf(**module, "c"), "pred[2,3]{1,0}");
  EXPECT_EQ(ShapeOf(**module, "t"),
            "(f32[2,3]{1,0}, f32[2,3]{1,0}, pred[2,3]{1,0})");
  // The printed module writes every shape, and the entry layout follows
  // the inferred root.
  const std::string printed = PrintModule(**module);
  EXPECT_TRUE(absl::StrContains(printed, "%s = f32[2,3]{1,0} add(")) << printed;
  EXPECT_TRUE(absl::StrContains(
      printed, "->(f32[2,3]{1,0}, f32[2,3]{1,0}, pred[2,3]{1,0})}"))
      << printed;
  absl::StatusOr<std::unique_ptr<Module>> reparsed = Parse(printed);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status();
  EXPECT_EQ(PrintModule(**reparsed), printed);
}

TEST(ParserShapesTest, InfersThroughCalledComputationsDefinedLater) {
  // The reduce's combiner is defined after the entry; callees are inferred
  // first whatever the text order.
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  x = f32[4,5] parameter(0)
  zero = f32[] constant(0)
  r = reduce(x, zero), dimensions={1}, to_apply=sum
  ROOT c = call(r), to_apply=twice
}
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = add(a, b)
}
twice {
  p = f32[4] parameter(0)
  ROOT d = add(p, p)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(ShapeOf(**module, "s"), "f32[]");
  EXPECT_EQ(ShapeOf(**module, "r"), "f32[4]{0}");
  EXPECT_EQ(ShapeOf(**module, "c"), "f32[4]{0}");
}

TEST(ParserShapesTest, InfersDataMovementAndControlFlow) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
cond {
  p = (s32[], f32[3]) parameter(0)
  i = get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT lt = compare(i, n), direction=LT
}
body {
  p = (s32[], f32[3]) parameter(0)
  i = get-tuple-element(p), index=0
  v = get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = add(i, one)
  ROOT t = tuple(j, v)
}
ENTRY e {
  x = f32[3] parameter(0)
  zero = s32[] constant(0)
  init = tuple(zero, x)
  w = while(init), condition=cond, body=body
  v = get-tuple-element(w), index=1
  b = f32[1,3] broadcast(v), dimensions={1}
  tr = transpose(b), dimensions={1,0}
  ROOT cat = concatenate(tr, tr), dimensions={0}
})");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ(ShapeOf(**module, "w"), "(s32[], f32[3]{0})");
  EXPECT_EQ(ShapeOf(**module, "b"), "f32[1,3]{1,0}");
  EXPECT_EQ(ShapeOf(**module, "cat"), "f32[6,1]{1,0}");
}

TEST(ParserShapesTest, OpsWhoseShapeTheTextChoosesMustWriteIt) {
  for (const char* line :
       {"c = constant(1)", "c = convert(x)", "c = reshape(x)",
        "c = broadcast(x), dimensions={0}", "c = slice(x), slice={[0:1]}",
        "c = all-reduce-start(x), to_apply=add"}) {
    absl::StatusOr<std::unique_ptr<Module>> module =
        Parse(absl::StrCat("HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
                           "  ROOT ",
                           line, "\n}\n"));
    ASSERT_FALSE(module.ok()) << line;
    EXPECT_TRUE(absl::StrContains(module.status().message(),
                                  "must be written before the opcode"))
        << module.status();
    EXPECT_TRUE(
        absl::StartsWith(module.status().message(), "m.hlo:4:12: error: "))
        << module.status();
  }
}

TEST(ParserShapesTest, OmittedShapeThatCannotBeInferredIsAnError) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  v = f32[7] parameter(1)
  ROOT bad = add(x, v), broadcast_dimensions={1}
})");
  ASSERT_FALSE(module.ok());
  EXPECT_TRUE(
      absl::StartsWith(module.status().message(), "m.hlo:5:8: error: bad: "))
      << module.status();
  EXPECT_TRUE(absl::StrContains(module.status().message(), "broadcasting.md"))
      << module.status();
}

TEST(ParserShapesTest, DeclaredShapeMustMatchTheRule) {
  constexpr absl::string_view kText = R"(HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  ROOT t = f32[2,2] transpose(x), dimensions={1,0}
})";
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(kText);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().message(),
            "m.hlo:4:8: error: t: declared shape f32[2,2] does not match the "
            "shape the op's rule gives, f32[3,2] (shape.inferred)");
  // Tools that report every error at once parse without the check.
  EXPECT_TRUE(Parse(kText, /*check_shapes=*/false).ok());
}

TEST(ParserShapesTest, RuleViolationNamesTheRule) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  ROOT a = f32[2] and(x, x)
})");
  ASSERT_FALSE(module.ok());
  EXPECT_TRUE(
      absl::StartsWith(module.status().message(), "m.hlo:4:8: error: a: "))
      << module.status();
  EXPECT_TRUE(
      absl::StrContains(module.status().message(), "(operation_semantics.md"))
      << module.status();
}

TEST(ParserShapesTest, LongFormOperandOfAnOmittedShapeIsCheckedLater) {
  constexpr absl::string_view kGood = R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  n = negate(x)
  ROOT a = f32[2] add(f32[2] n, f32[2] x)
})";
  EXPECT_TRUE(Parse(kGood).ok()) << Parse(kGood).status();
  absl::StatusOr<std::unique_ptr<Module>> bad = Parse(R"(HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  n = negate(x)
  ROOT a = f32[2] add(s32[2] n, f32[2] x)
})");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(),
                                "m.hlo:5:23: error: the declared operand "
                                "shape s32[2] is not compatible"))
      << bad.status();
}

}  // namespace
}  // namespace kiln
