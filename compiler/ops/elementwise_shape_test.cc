// Shape rules of the elementwise family: each op's accepted element types,
// result types and the errors naming the rule broken.
#include <string>

#include "compiler/ir/opcode.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/testing/shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::testing::InferEntryRoot;
using ::kiln::testing::InferRootText;
using ::testing::HasSubstr;

std::string Unary(const std::string& op, const std::string& operand,
                  const std::string& declared = "f32[]") {
  return InferRootText("p0 = " + operand + " parameter(0)\nROOT r = " +
                       declared + " " + op + "(p0)");
}

std::string Binary(const std::string& op, const std::string& lhs,
                   const std::string& rhs, const std::string& extra = "",
                   const std::string& declared = "f32[]") {
  return InferRootText("p0 = " + lhs + " parameter(0)\np1 = " + rhs +
                       " parameter(1)\nROOT r = " + declared + " " + op +
                       "(p0, p1)" + extra);
}

TEST(ElementwiseShapeTest, FloatOrComplexUnaryOps) {
  for (const char* op : {"acos",
                         "acosh",
                         "asin",
                         "asinh",
                         "atan",
                         "atanh",
                         "cbrt",
                         "cosine",
                         "cosh",
                         "exponential",
                         "exponential-minus-one",
                         "log",
                         "log-plus-one",
                         "logistic",
                         "rsqrt",
                         "sine",
                         "sinh",
                         "sqrt",
                         "tan",
                         "tanh"}) {
    EXPECT_EQ(Unary(op, "f32[2,3]"), "f32[2,3]") << op;
    EXPECT_EQ(Unary(op, "bf16[4]"), "bf16[4]") << op;
    EXPECT_EQ(Unary(op, "c64[2]"), "c64[2]") << op;
    EXPECT_THAT(Unary(op, "s32[2]"),
                HasSubstr("expects a floating-point or complex element type, "
                          "got s32[2] for operand 0"))
        << op;
    EXPECT_THAT(Unary(op, "pred[2]"), HasSubstr("floating-point or complex"))
        << op;
  }
}

TEST(ElementwiseShapeTest, FloatOnlyUnaryOps) {
  for (const char* op :
       {"ceil", "floor", "round-nearest-afz", "round-nearest-even", "erf"}) {
    EXPECT_EQ(Unary(op, "f16[3]"), "f16[3]") << op;
    EXPECT_THAT(Unary(op, "c64[3]"),
                HasSubstr("expects a floating-point element type"))
        << op;
    EXPECT_THAT(Unary(op, "s8[3]"), HasSubstr("floating-point")) << op;
  }
  EXPECT_THAT(Unary("ceil", "s8[3]"), HasSubstr("(operation_semantics.md, "
                                                "Ceil)"));
}

TEST(ElementwiseShapeTest, IsFiniteGivesPred) {
  EXPECT_EQ(Unary("is-finite", "f32[2,3]"), "pred[2,3]");
  EXPECT_THAT(Unary("is-finite", "s32[2]"),
              HasSubstr("is-finite expects a floating-point element type"));
}

TEST(ElementwiseShapeTest, IntegralOnlyUnaryOps) {
  for (const char* op : {"count-leading-zeros", "popcnt"}) {
    EXPECT_EQ(Unary(op, "s32[5]"), "s32[5]") << op;
    EXPECT_EQ(Unary(op, "u8[5]"), "u8[5]") << op;
    EXPECT_THAT(Unary(op, "f32[5]"),
                HasSubstr("expects an integral element type"))
        << op;
    EXPECT_THAT(Unary(op, "pred[5]"), HasSubstr("integral")) << op;
  }
}

TEST(ElementwiseShapeTest, NotTakesPredOrIntegral) {
  EXPECT_EQ(Unary("not", "pred[2]"), "pred[2]");
  EXPECT_EQ(Unary("not", "u32[2]"), "u32[2]");
  EXPECT_THAT(Unary("not", "f32[2]"),
              HasSubstr("not expects a pred or integral element type"));
}

TEST(ElementwiseShapeTest, NegateSignAbs) {
  EXPECT_EQ(Unary("negate", "u32[2]"), "u32[2]");
  EXPECT_EQ(Unary("negate", "c128[2]"), "c128[2]");
  EXPECT_THAT(Unary("negate", "pred[2]"), HasSubstr("negate expects"));
  EXPECT_EQ(Unary("sign", "s32[2]"), "s32[2]");
  EXPECT_EQ(Unary("sign", "c64[2]"), "c64[2]");
  EXPECT_THAT(Unary("sign", "u32[2]"),
              HasSubstr("signed integral, floating-point or complex"));
  EXPECT_EQ(Unary("abs", "s8[2]"), "s8[2]");
  EXPECT_EQ(Unary("abs", "c64[2]"), "f32[2]");
  EXPECT_EQ(Unary("abs", "c128[]"), "f64[]");
  EXPECT_THAT(Unary("abs", "u8[2]"), HasSubstr("abs expects"));
}

TEST(ElementwiseShapeTest, RealAndImag) {
  EXPECT_EQ(Unary("real", "c64[2]"), "f32[2]");
  EXPECT_EQ(Unary("imag", "c128[2]"), "f64[2]");
  EXPECT_EQ(Unary("real", "f32[2]"), "f32[2]");
  EXPECT_THAT(Unary("imag", "s32[2]"), HasSubstr("imag expects"));
}

TEST(ElementwiseShapeTest, UnaryRejectsTuples) {
  EXPECT_THAT(Unary("cosine", "(f32[2], f32[])"),
              HasSubstr("operand 0 is (f32[2], f32[]), expected an array"));
}

TEST(ElementwiseShapeTest, CopyKeepsAnyShape) {
  EXPECT_EQ(Unary("copy", "(f32[2], s32[])"), "(f32[2], s32[])");
  EXPECT_EQ(Unary("copy", "u4[7]"), "u4[7]");
}

TEST(ElementwiseShapeTest, ResultGetsDefaultLayout) {
  absl::StatusOr<Shape> shape = testing::InferRoot(
      "p0 = f32[2,3]{0,1} parameter(0)\n"
      "ROOT r = f32[2,3]{0,1} negate(p0)");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(), "f32[2,3]{1,0}");
}

TEST(ElementwiseShapeTest, BinaryOpsNeedEqualElementTypes) {
  EXPECT_EQ(Binary("add", "s32[2]", "s32[2]"), "s32[2]");
  EXPECT_THAT(Binary("add", "f32[2]", "s32[2]"),
              HasSubstr("operand 1 is s32[2] but operand 0 is f32[2]"));
  EXPECT_THAT(Binary("multiply", "f32[2]", "f16[2]"),
              HasSubstr("element types must be equal "
                        "(operation_semantics.md, Mul)"));
}

TEST(ElementwiseShapeTest, BinaryElementTypeClasses) {
  EXPECT_EQ(Binary("add", "pred[2]", "pred[2]"), "pred[2]");
  EXPECT_EQ(Binary("maximum", "pred[2]", "pred[2]"), "pred[2]");
  for (const char* op : {"subtract", "divide", "remainder", "power"}) {
    EXPECT_THAT(Binary(op, "pred[2]", "pred[2]"), HasSubstr("expects")) << op;
  }
  for (const char* op : {"subtract", "divide", "power"}) {
    EXPECT_EQ(Binary(op, "c64[2]", "c64[2]"), "c64[2]") << op;
  }
  // XLA defines no order on complex numbers, nor their remainder.
  for (const char* op : {"remainder", "maximum", "minimum"}) {
    EXPECT_THAT(Binary(op, "c64[2]", "c64[2]"),
                HasSubstr("integral or floating-point element type, got c64"))
        << op;
  }
  EXPECT_EQ(Binary("atan2", "f64[2]", "f64[2]"), "f64[2]");
  EXPECT_THAT(Binary("atan2", "s32[2]", "s32[2]"),
              HasSubstr("atan2 expects a floating-point or complex"));
  for (const char* op : {"and", "or", "xor"}) {
    EXPECT_EQ(Binary(op, "pred[2]", "pred[2]"), "pred[2]") << op;
    EXPECT_EQ(Binary(op, "u16[2]", "u16[2]"), "u16[2]") << op;
    EXPECT_THAT(Binary(op, "f32[2]", "f32[2]"), HasSubstr("pred or integral"))
        << op;
  }
  for (const char* op :
       {"shift-left", "shift-right-arithmetic", "shift-right-logical"}) {
    EXPECT_EQ(Binary(op, "s64[2]", "s64[2]"), "s64[2]") << op;
    EXPECT_THAT(Binary(op, "f32[2]", "f32[2]"),
                HasSubstr("expects an integral element type"))
        << op;
    EXPECT_THAT(Binary(op, "pred[2]", "pred[2]"), HasSubstr("integral")) << op;
  }
}

TEST(ElementwiseShapeTest, ComplexComposesFromF32OrF64) {
  EXPECT_EQ(Binary("complex", "f32[2]", "f32[2]"), "c64[2]");
  EXPECT_EQ(Binary("complex", "f64[]", "f64[]"), "c128[]");
  EXPECT_THAT(Binary("complex", "f16[2]", "f16[2]"),
              HasSubstr("complex builds c64 from f32 or c128 from f64"));
  EXPECT_THAT(Binary("complex", "f32[2]", "f64[2]"),
              HasSubstr("element types must be equal"));
}

TEST(ElementwiseShapeTest, CompareDirectionsAndTypes) {
  EXPECT_EQ(Binary("compare", "f32[2]", "f32[2]", ", direction=LT"), "pred[2]");
  EXPECT_EQ(Binary("compare", "c64[2]", "c64[2]", ", direction=EQ"), "pred[2]");
  for (const char* direction : {"LT", "LE", "GT", "GE"}) {
    EXPECT_THAT(Binary("compare", "c64[2]", "c64[2]",
                       std::string(", direction=") + direction),
                HasSubstr("does not order complex numbers"))
        << direction;
  }
  EXPECT_EQ(
      Binary("compare", "s32[2]", "s32[2]", ", direction=GE, type=SIGNED"),
      "pred[2]");
  EXPECT_EQ(
      Binary("compare", "f32[2]", "f32[2]", ", direction=GE, type=TOTALORDER"),
      "pred[2]");
  EXPECT_THAT(
      Binary("compare", "u32[2]", "u32[2]", ", direction=GE, type=SIGNED"),
      HasSubstr("comparison type SIGNED needs a signed integral "
                "element type, got u32"));
  EXPECT_THAT(
      Binary("compare", "f32[2]", "f32[2]", ", direction=GE, type=UNSIGNED"),
      HasSubstr("comparison type UNSIGNED"));
  EXPECT_THAT(
      Binary("compare", "s32[2]", "s32[2]", ", direction=GE, type=FLOAT"),
      HasSubstr("comparison type FLOAT"));
  EXPECT_THAT(Binary("compare", "f32[2]", "s32[2]", ", direction=EQ"),
              HasSubstr("element types must be equal"));
}

std::string Ternary(const std::string& op, const std::string& a,
                    const std::string& b, const std::string& c,
                    ShapeForm form = ShapeForm::kClient) {
  return InferRootText(
      "p0 = " + a + " parameter(0)\np1 = " + b + " parameter(1)\np2 = " + c +
          " parameter(2)\nROOT r = f32[] " + op + "(p0, p1, p2)",
      form);
}

TEST(ElementwiseShapeTest, Select) {
  EXPECT_EQ(Ternary("select", "pred[4]", "s32[4]", "s32[4]"), "s32[4]");
  EXPECT_EQ(
      Ternary("select", "pred[4]", "s32[4]", "s32[4]", ShapeForm::kStrict),
      "s32[4]");
  EXPECT_EQ(Ternary("select", "pred[]", "s32[4]", "s32[4]"), "s32[4]");
  EXPECT_THAT(Ternary("select", "s32[4]", "s32[4]", "s32[4]"),
              HasSubstr("pred must have element type pred, got s32[4]"));
  EXPECT_THAT(Ternary("select", "pred[4]", "s32[4]", "f32[4]"),
              HasSubstr("element types must be equal"));
  EXPECT_THAT(Ternary("select", "pred[4]", "s32[4]", "s32[5]"),
              HasSubstr("incompatible at dimension 0"));
  EXPECT_THAT(Ternary("select", "pred[5]", "s32[4]", "s32[4]"),
              HasSubstr("incompatible at dimension 0"));
}

TEST(ElementwiseShapeTest, SelectOfTuplesNeedsScalarPred) {
  EXPECT_EQ(Ternary("select", "pred[]", "(f32[2], s32[])", "(f32[2], s32[])"),
            "(f32[2], s32[])");
  EXPECT_THAT(
      Ternary("select", "pred[2]", "(f32[2], s32[])", "(f32[2], s32[])"),
      HasSubstr("selecting tuples needs a scalar pred"));
  EXPECT_THAT(Ternary("select", "pred[]", "(f32[2], s32[])", "(f32[2])"),
              HasSubstr("must have the same shape"));
  EXPECT_THAT(
      Ternary("select", "pred[]", "(f32[2])", "(f32[2])", ShapeForm::kStrict),
      HasSubstr("strict HLO select takes arrays"));
}

TEST(ElementwiseShapeTest, Clamp) {
  EXPECT_EQ(Ternary("clamp", "s32[]", "s32[3]", "s32[]"), "s32[3]");
  EXPECT_EQ(Ternary("clamp", "f32[3]", "f32[3]", "f32[3]", ShapeForm::kStrict),
            "f32[3]");
  EXPECT_THAT(
      Ternary("clamp", "f32[2]", "f32[3]", "f32[3]", ShapeForm::kStrict),
      HasSubstr("strict HLO needs equal dimensions"));
  EXPECT_THAT(Ternary("clamp", "s32[]", "f32[3]", "f32[]"),
              HasSubstr("element types must be equal"));
  EXPECT_THAT(Ternary("clamp", "c64[]", "c64[3]", "c64[]"),
              HasSubstr("clamp expects"));
}

TEST(ElementwiseShapeTest, ConvertTakesTheDeclaredElementType) {
  EXPECT_EQ(Unary("convert", "s32[3]", "f32[3]"), "f32[3]");
  EXPECT_EQ(Unary("convert", "f32[2,<=4]", "bf16[2,<=4]"), "bf16[2,<=4]");
  EXPECT_EQ(Unary("convert", "f32[2]", "c64[2]"), "c64[2]");
  EXPECT_THAT(Unary("convert", "c64[2]", "f32[2]"),
              HasSubstr("converting complex c64[2] to real f32"));
  EXPECT_THAT(Unary("convert", "f32[2]", "(f32[2])"),
              HasSubstr("declared result shape"));
}

TEST(ElementwiseShapeTest, BitcastConvertChangesMinorDimensionWithWidth) {
  EXPECT_EQ(Unary("bitcast-convert", "s32[3]", "f32[3]"), "f32[3]");
  EXPECT_EQ(Unary("bitcast-convert", "f32[10]", "f16[10,2]"), "f16[10,2]");
  EXPECT_EQ(Unary("bitcast-convert", "f32[]", "f16[2]"), "f16[2]");
  EXPECT_EQ(Unary("bitcast-convert", "f16[10,2]", "f32[10]"), "f32[10]");
  EXPECT_EQ(Unary("bitcast-convert", "s32[3]", "s8[3,4]"), "s8[3,4]");
  EXPECT_EQ(Unary("bitcast-convert", "s8[2]", "s4[2,2]"), "s4[2,2]");
  EXPECT_THAT(Unary("bitcast-convert", "f16[10,3]", "f32[10]"),
              HasSubstr("needs a static last dimension of size 2"));
  EXPECT_THAT(Unary("bitcast-convert", "f16[]", "f32[]"),
              HasSubstr("needs a static last dimension"));
  EXPECT_THAT(Unary("bitcast-convert", "f32[3]", "f6e2m3fn[3]"),
              HasSubstr("are not multiples"));
}

TEST(ElementwiseShapeTest, StochasticConvert) {
  EXPECT_EQ(Binary("stochastic-convert", "f32[4]", "u32[4]", "", "s8[4]"),
            "s8[4]");
  EXPECT_THAT(Binary("stochastic-convert", "f32[4]", "u16[4]", "", "s8[4]"),
              HasSubstr("must match operand f32[4] in dimensions and bit "
                        "width"));
  EXPECT_THAT(Binary("stochastic-convert", "f32[4]", "u32[5]", "", "s8[4]"),
              HasSubstr("in dimensions and bit width"));
  EXPECT_THAT(Binary("stochastic-convert", "f32[4]", "s32[4]", "", "s8[4]"),
              HasSubstr("unsigned integral"));
  EXPECT_THAT(Binary("stochastic-convert", "s32[4]", "u32[4]", "", "s8[4]"),
              HasSubstr("floating-point"));
  EXPECT_THAT(Binary("stochastic-convert", "f32[4]", "u32[4]", "", "pred[4]"),
              HasSubstr("XLA converts to integer types only"));
  EXPECT_THAT(Binary("stochastic-convert", "f32[4]", "u32[4]", "", "f16[4]"),
              HasSubstr("XLA converts to integer types only"));
}

TEST(ElementwiseShapeTest, ReducePrecision) {
  const std::string op = "p0 = f32[3] parameter(0)\nROOT r = f32[3] ";
  EXPECT_EQ(InferRootText(op + "reduce-precision(p0), exponent_bits=5, "
                               "mantissa_bits=10"),
            "f32[3]");
  EXPECT_EQ(InferRootText(op + "reduce-precision(p0), exponent_bits=1, "
                               "mantissa_bits=0"),
            "f32[3]");
  EXPECT_THAT(InferRootText(op + "reduce-precision(p0), exponent_bits=0, "
                                 "mantissa_bits=10"),
              HasSubstr("need at least 1 exponent bit"));
  EXPECT_THAT(InferRootText(op + "reduce-precision(p0), exponent_bits=5, "
                                 "mantissa_bits=-1"),
              HasSubstr("non-negative number of mantissa bits"));
  EXPECT_THAT(InferRootText("p0 = s32[3] parameter(0)\nROOT r = s32[3] "
                            "reduce-precision(p0), exponent_bits=5, "
                            "mantissa_bits=10"),
              HasSubstr("floating-point"));
}

std::string MapModule(const std::string& operands, const std::string& args,
                      const std::string& extra = "") {
  return "HloModule m\n\n"
         "to_s32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  s = f32[] add(a, b)\n  ROOT c = s32[] convert(s)\n}\n\n"
         "ENTRY e {\n" +
         operands + "  ROOT m = s32[] map(" + args + ")" + extra +
         ", to_apply=to_s32\n}\n";
}

std::string MapText(const std::string& module) {
  absl::StatusOr<Shape> shape = InferEntryRoot(module);
  if (!shape.ok()) return std::string(shape.status().message());
  return shape->ToString(/*print_layout=*/false);
}

TEST(ElementwiseShapeTest, MapTakesItsElementTypeFromToApply) {
  const std::string two =
      "  p0 = f32[2,3] parameter(0)\n"
      "  p1 = f32[2,3] parameter(1)\n";
  EXPECT_EQ(MapText(MapModule(two, "p0, p1")), "s32[2,3]");
  EXPECT_EQ(MapText(MapModule(two, "p0, p1", ", dimensions={0,1}")),
            "s32[2,3]");
  EXPECT_THAT(MapText(MapModule(two, "p0, p1", ", dimensions={1,0}")),
              HasSubstr("must list every operand dimension in order"));
  EXPECT_THAT(MapText(MapModule(two, "p0")),
              HasSubstr("to_apply takes 2 parameters but map has 1"));
  EXPECT_THAT(MapText(MapModule("  p0 = f32[2,3] parameter(0)\n"
                                "  p1 = f32[3,2] parameter(1)\n",
                                "p0, p1")),
              HasSubstr("map operands need equal dimensions"));
}

TEST(ShapeInferenceTest, OperandCountIsCheckedFirst) {
  Instruction add(Opcode::kAdd, Shape::Array(ElementType::kF32, {}), "add.1");
  EXPECT_EQ(InferShape(add).status().message(),
            "add.1: add takes 2 operands, got 0 (operation_semantics.md, "
            "operand count)");
}

TEST(ShapeInferenceTest, OpsWithoutARuleSaySo) {
  for (Opcode opcode : AllOpcodes()) {
    if (HasShapeRule(opcode)) continue;
    Instruction instruction(opcode, Shape::Array(ElementType::kF32, {}), "x");
    absl::StatusOr<Shape> shape = InferShape(instruction);
    if (absl::IsUnimplemented(shape.status())) {
      EXPECT_EQ(shape.status().message(), std::string("no shape rule for ") +
                                              std::string(OpcodeName(opcode)) +
                                              " yet");
    }
  }
}

TEST(ShapeInferenceTest, EveryElementwiseOpHasARule) {
  for (const char* name : {"abs",
                           "add",
                           "and",
                           "atan2",
                           "bitcast-convert",
                           "cbrt",
                           "ceil",
                           "clamp",
                           "count-leading-zeros",
                           "compare",
                           "complex",
                           "convert",
                           "copy",
                           "cosine",
                           "divide",
                           "erf",
                           "exponential",
                           "floor",
                           "imag",
                           "is-finite",
                           "map",
                           "maximum",
                           "minimum",
                           "multiply",
                           "negate",
                           "not",
                           "or",
                           "popcnt",
                           "power",
                           "real",
                           "reduce-precision",
                           "remainder",
                           "rsqrt",
                           "select",
                           "shift-left",
                           "sign",
                           "stochastic-convert",
                           "subtract",
                           "xor"}) {
    std::optional<Opcode> opcode = OpcodeFromName(name);
    ASSERT_TRUE(opcode.has_value()) << name;
    EXPECT_TRUE(HasShapeRule(*opcode)) << name;
  }
}

}  // namespace
}  // namespace kiln
