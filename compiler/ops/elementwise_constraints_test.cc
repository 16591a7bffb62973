// One valid case per elementwise op, and for each constraint its section of
// operation_semantics.md states, one invalid case whose error names the op,
// the constraint and the section ("(operation_semantics.md, <Heading>)").
// The table of ops, constraints and tests is
// docs/shape_rule_coverage_elementwise_data.md; in short:
//
// op group            | constraint                          | test
// --------------------|-------------------------------------|-----------------
// every unary math op | operand is an array                 |
// UnaryOperandMustBeAnArray
//                     | accepted element types (per op)     |
//                     UnaryOpsAcceptTheirTypes | result type
//                     (same/pred/component)   | UnaryOpsAcceptTheirTypes
// every binary op     | lhs, rhs arrays of one type T       |
// BinaryOperandsAreArraysOfOneType
//                     | accepted element types (per op)     |
//                     BinaryOpsAcceptTheirTypes | shapes similar or compatible
//                     | BinaryShapesMustBeCompatible
// compare             | EQ/NE only for complex; type= class |
// CompareDirectionAndType complex             | f32 -> c64, f64 -> c128 |
// ComplexTakesF32OrF64 select              | pred is PRED, same dims; on_true
// ==  | SelectConstraints
//                     | on_false; tuples need scalar pred   |
// clamp               | same type; same shape or scalar     | ClampConstraints
//                     | min/max; orderable element type     |
// convert             | dims match; no tuples; complex->real|
// ConvertConstraints bitcast-convert     | dims match but the last; widths |
// BitcastConvertConstraints stochastic-convert  | float operand; unsigned
// random bits | StochasticConvertConstraints
//                     | of its width and dims (XLA)         |
// reduce-precision    | float; exponent >= 1; mantissa >= 0 |
// ReducePrecisionConstraints
#include <string>
#include <vector>

#include "compiler/ops/shape_inference.h"
#include "compiler/ops/testing/shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::testing::InferRootText;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// "(operation_semantics.md, <heading>)", the tail every rule error carries.
std::string Spec(const std::string& heading) {
  return "(operation_semantics.md, " + heading + ")";
}

std::string Unary(const std::string& op, const std::string& operand,
                  const std::string& declared = "f32[]",
                  const std::string& attrs = "",
                  ShapeForm form = ShapeForm::kClient) {
  return InferRootText("p0 = " + operand + " parameter(0)\nROOT r = " +
                           declared + " " + op + "(p0)" + attrs,
                       form);
}

std::string Nary(const std::string& op, const std::vector<std::string>& shapes,
                 const std::string& attrs = "",
                 const std::string& declared = "f32[]",
                 ShapeForm form = ShapeForm::kClient) {
  std::string body;
  std::string args;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::string name = "p" + std::to_string(i);
    body +=
        name + " = " + shapes[i] + " parameter(" + std::to_string(i) + ")\n";
    args += (i == 0 ? "" : ", ") + name;
  }
  return InferRootText(
      body + "ROOT r = " + declared + " " + op + "(" + args + ")" + attrs,
      form);
}

struct UnaryCase {
  const char* op;
  const char* section;  // Full "(... )" tail of its errors.
  const char* valid;    // An accepted operand...
  const char* result;   // ...and its result.
  const char* invalid;  // A rejected operand.
  const char* accepts;  // The accepted classes, as the error words them.
};

// Every unary op of the family, with its section. The inverse trigonometric
// and hyperbolic ops and sinh have no section in operation_semantics.md;
// their rule follows XLA and their errors say so.
std::vector<UnaryCase> UnaryCases() {
  return {
      {"abs", "(operation_semantics.md, Abs)", "c64[2]", "f32[2]", "u8[2]",
       "signed integral, floating-point or complex"},
      {"acos", "(XLA semantics, Acos)", "f32[2]", "f32[2]", "s32[2]",
       "floating-point or complex"},
      {"acosh", "(XLA semantics, Acosh)", "f64[2]", "f64[2]", "s32[2]",
       "floating-point or complex"},
      {"asin", "(XLA semantics, Asin)", "c64[2]", "c64[2]", "u32[2]",
       "floating-point or complex"},
      {"asinh", "(XLA semantics, Asinh)", "bf16[2]", "bf16[2]", "pred[2]",
       "floating-point or complex"},
      {"atan", "(XLA semantics, Atan)", "f16[2]", "f16[2]", "s8[2]",
       "floating-point or complex"},
      {"atanh", "(XLA semantics, Atanh)", "f32[2]", "f32[2]", "s64[2]",
       "floating-point or complex"},
      {"cbrt", "(operation_semantics.md, Cbrt)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"ceil", "(operation_semantics.md, Ceil)", "f32[3]", "f32[3]", "c64[3]",
       "floating-point element"},
      {"count-leading-zeros", "(operation_semantics.md, Clz)", "u16[3]",
       "u16[3]", "f32[3]", "integral element"},
      {"cosine", "(operation_semantics.md, Cos)", "c128[3]", "c128[3]",
       "s32[3]", "floating-point or complex"},
      {"cosh", "(operation_semantics.md, Cosh)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"erf", "(operation_semantics.md, Erf)", "f32[3]", "f32[3]", "c64[3]",
       "floating-point element"},
      {"exponential", "(operation_semantics.md, Exp)", "f32[3]", "f32[3]",
       "s32[3]", "floating-point or complex"},
      {"exponential-minus-one", "(operation_semantics.md, Expm1)", "f32[3]",
       "f32[3]", "s32[3]", "floating-point or complex"},
      {"floor", "(operation_semantics.md, Floor)", "bf16[3]", "bf16[3]",
       "s32[3]", "floating-point element"},
      {"imag", "(operation_semantics.md, Imag)", "c64[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"is-finite", "(operation_semantics.md, IsFinite)", "f16[3]", "pred[3]",
       "c64[3]", "floating-point element"},
      {"log", "(operation_semantics.md, Log)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"log-plus-one", "(operation_semantics.md, Log1p)", "f32[3]", "f32[3]",
       "s32[3]", "floating-point or complex"},
      {"logistic", "(operation_semantics.md, Logistic)", "f32[3]", "f32[3]",
       "s32[3]", "floating-point or complex"},
      {"negate", "(operation_semantics.md, Neg)", "s32[3]", "s32[3]", "pred[3]",
       "integral, floating-point or complex"},
      {"not", "(operation_semantics.md, Not)", "pred[3]", "pred[3]", "f32[3]",
       "pred or integral"},
      {"popcnt", "(operation_semantics.md, PopulationCount)", "s8[3]", "s8[3]",
       "f32[3]", "integral element"},
      {"real", "(operation_semantics.md, Real)", "c128[3]", "f64[3]", "s32[3]",
       "floating-point or complex"},
      {"round-nearest-afz", "(operation_semantics.md, RoundNearestAfz)",
       "f32[3]", "f32[3]", "s32[3]", "floating-point element"},
      {"round-nearest-even", "(operation_semantics.md, RoundNearestEven)",
       "f32[3]", "f32[3]", "s32[3]", "floating-point element"},
      {"rsqrt", "(operation_semantics.md, Rsqrt)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"sign", "(operation_semantics.md, Sign)", "s32[3]", "s32[3]", "u32[3]",
       "signed integral, floating-point or complex"},
      {"sine", "(operation_semantics.md, Sin)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"sinh", "(XLA semantics, Sinh)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"sqrt", "(operation_semantics.md, Sqrt)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"tan", "(operation_semantics.md, Tan)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
      {"tanh", "(operation_semantics.md, Tanh)", "f32[3]", "f32[3]", "s32[3]",
       "floating-point or complex"},
  };
}

TEST(ElementwiseConstraintsTest, UnaryOpsAcceptTheirTypes) {
  for (const UnaryCase& c : UnaryCases()) {
    EXPECT_EQ(Unary(c.op, c.valid), c.result) << c.op;
    EXPECT_THAT(
        Unary(c.op, c.invalid),
        AllOf(StartsWith(std::string("error: r: ") + c.op + " expects a"),
              HasSubstr(c.accepts),
              HasSubstr(std::string("got ") + c.invalid + " for operand 0 " +
                        c.section)))
        << c.op;
  }
}

TEST(ElementwiseConstraintsTest, UnaryOperandMustBeAnArray) {
  for (const UnaryCase& c : UnaryCases()) {
    EXPECT_THAT(Unary(c.op, "(f32[3])"),
                AllOf(HasSubstr("operand 0 is (f32[3]), expected an array"),
                      HasSubstr(c.section)))
        << c.op;
  }
  EXPECT_THAT(Unary("is-finite", "token[]"),
              HasSubstr("expected an array " + Spec("IsFinite")));
}

struct BinaryCase {
  const char* op;
  const char* heading;
  const char* valid;    // Accepted element type.
  const char* invalid;  // Rejected element type.
  const char* accepts;
};

std::vector<BinaryCase> BinaryCases() {
  return {
      {"add", "Add", "pred", "token", "pred, integral, floating-point"},
      {"subtract", "Sub", "c64", "pred", "integral, floating-point or complex"},
      {"multiply", "Mul", "u8", "token", "pred, integral"},
      {"divide", "Div", "s32", "pred", "integral, floating-point or complex"},
      // No complex remainder, maximum or minimum: XLA defines none.
      {"remainder", "Rem", "f32", "c64", "integral or floating-point"},
      {"maximum", "Max", "pred", "c64", "pred, integral or floating-point"},
      {"minimum", "Min", "bf16", "c128", "pred, integral or floating-point"},
      {"power", "Pow", "c128", "pred", "integral, floating-point or complex"},
      {"atan2", "Atan2", "f64", "s32", "floating-point or complex"},
      {"and", "And", "pred", "f32", "pred or integral"},
      {"or", "Or", "u64", "f32", "pred or integral"},
      {"xor", "Xor", "s4", "c64", "pred or integral"},
      {"shift-left", "ShiftLeft", "s32", "pred", "integral element"},
      {"shift-right-arithmetic", "ShiftRightArithmetic", "u32", "f32",
       "integral element"},
      {"shift-right-logical", "ShiftRightLogical", "s8", "f16",
       "integral element"},
  };
}

TEST(ElementwiseConstraintsTest, BinaryOpsAcceptTheirTypes) {
  for (const BinaryCase& c : BinaryCases()) {
    const std::string valid = std::string(c.valid) + "[2,3]";
    EXPECT_EQ(Nary(c.op, {valid, valid}), valid) << c.op;
    if (std::string(c.invalid) == "token") {
      // Tokens are not arrays: the array rule fires.
      EXPECT_THAT(Nary(c.op, {"token[]", "token[]"}),
                  HasSubstr("operand 0 is token[], expected an array " +
                            Spec(c.heading)))
          << c.op;
      continue;
    }
    const std::string invalid = std::string(c.invalid) + "[2]";
    EXPECT_THAT(
        Nary(c.op, {invalid, invalid}),
        AllOf(
            HasSubstr(std::string(c.op) + " expects a"), HasSubstr(c.accepts),
            HasSubstr("got " + invalid + " for operand 0 " + Spec(c.heading))))
        << c.op;
  }
}

TEST(ElementwiseConstraintsTest, BinaryOperandsAreArraysOfOneType) {
  for (const BinaryCase& c : BinaryCases()) {
    const std::string t = std::string(c.valid) + "[2]";
    const std::string other =
        std::string(c.valid) == "s32" ? "u32[2]" : "s32[2]";
    EXPECT_THAT(Nary(c.op, {t, other}),
                HasSubstr("operand 1 is " + other + " but operand 0 is " + t +
                          "; element types must be equal " + Spec(c.heading)))
        << c.op;
    EXPECT_THAT(Nary(c.op, {t, "(" + t + ")"}),
                HasSubstr("operand 1 is (" + t + "), expected an array " +
                          Spec(c.heading)))
        << c.op;
  }
}

TEST(ElementwiseConstraintsTest, BinaryShapesMustBeCompatible) {
  for (const BinaryCase& c : BinaryCases()) {
    const std::string t = c.valid;
    // Scalars broadcast anywhere in client form; XLA's HLO (strict form)
    // needs equal shapes.
    EXPECT_EQ(Nary(c.op, {t + "[2,3]", t + "[]"}), t + "[2,3]") << c.op;
    EXPECT_THAT(
        Nary(c.op, {t + "[]", t + "[2,3]"}, "", "f32[]", ShapeForm::kStrict),
        HasSubstr("strict HLO needs equal dimensions (no implicit "
                  "broadcasting) (broadcasting.md, Principles)"))
        << c.op;
    EXPECT_THAT(Nary(c.op, {t + "[2,3]", t + "[2,4]"}),
                HasSubstr("(broadcasting.md"))
        << c.op;
    EXPECT_THAT(Nary(c.op, {t + "[2,3]", t + "[3]"}),
                HasSubstr("arrays of different rank need broadcast_dimensions "
                          "(broadcasting.md, InDim broadcasting)"))
        << c.op;
  }
}

TEST(ElementwiseConstraintsTest, CompareDirectionAndType) {
  EXPECT_EQ(Nary("compare", {"s32[2]", "s32[2]"}, ", direction=LT"), "pred[2]");
  EXPECT_EQ(Nary("compare", {"c64[2]", "c64[2]"}, ", direction=NE"), "pred[2]");
  EXPECT_EQ(
      Nary("compare", {"pred[2]", "pred[2]"}, ", direction=LT, type=UNSIGNED"),
      "pred[2]");
  EXPECT_THAT(Nary("compare", {"c64[2]", "c64[2]"}, ", direction=GT"),
              HasSubstr("direction GT does not order complex numbers; only EQ "
                        "and NE compare c64 " +
                        Spec("Compare")));
  EXPECT_THAT(
      Nary("compare", {"f32[2]", "f32[2]"}, ", direction=EQ, type=SIGNED"),
      HasSubstr("comparison type SIGNED needs a signed integral element "
                "type, got f32 " +
                Spec("Compare")));
  EXPECT_THAT(
      Nary("compare", {"s32[2]", "s32[2]"}, ", direction=EQ, type=TOTALORDER"),
      HasSubstr("comparison type TOTALORDER needs a floating-point or "
                "complex element type, got s32 " +
                Spec("Compare")));
  EXPECT_THAT(Nary("compare", {"s32[2]", "s64[2]"}, ", direction=EQ"),
              HasSubstr("element types must be equal " + Spec("Compare")));
  EXPECT_THAT(Nary("compare", {"s32[2]", "(s32[2])"}, ", direction=EQ"),
              HasSubstr("expected an array " + Spec("Compare")));
  EXPECT_THAT(Nary("compare", {"s32[2]", "s32[3]"}, ", direction=EQ"),
              HasSubstr("(broadcasting.md"));
}

TEST(ElementwiseConstraintsTest, ComplexTakesF32OrF64) {
  EXPECT_EQ(Nary("complex", {"f32[2]", "f32[]"}), "c64[2]");
  EXPECT_THAT(Nary("complex", {"bf16[2]", "bf16[2]"}),
              HasSubstr("complex builds c64 from f32 or c128 from f64, got "
                        "bf16[2] " +
                        Spec("Complex")));
  EXPECT_THAT(Nary("complex", {"f64[2]", "f32[2]"}),
              HasSubstr("element types must be equal " + Spec("Complex")));
  EXPECT_THAT(Nary("complex", {"f32[2]", "f32[3]"}),
              HasSubstr("(broadcasting.md"));
}

TEST(ElementwiseConstraintsTest, SelectConstraints) {
  EXPECT_EQ(Nary("select", {"pred[2,3]", "f32[2,3]", "f32[2,3]"}), "f32[2,3]");
  // The spec's scalar pred is client form; XLA's HLO needs pred's shape.
  EXPECT_EQ(Nary("select", {"pred[]", "s8[2,3]", "s8[2,3]"}), "s8[2,3]");
  EXPECT_THAT(Nary("select", {"pred[]", "s8[2,3]", "s8[2,3]"}, "", "f32[]",
                   ShapeForm::kStrict),
              HasSubstr("strict HLO needs equal dimensions"));
  EXPECT_THAT(Nary("select", {"u8[2]", "f32[2]", "f32[2]"}),
              HasSubstr("pred must have element type pred, got u8[2] " +
                        Spec("Select")));
  EXPECT_THAT(Nary("select", {"pred[2]", "f32[2]", "s32[2]"}),
              HasSubstr("element types must be equal " + Spec("Select")));
  EXPECT_THAT(Nary("select", {"pred[2]", "f32[2]", "f32[3]"}),
              HasSubstr("(broadcasting.md"));
  // pred must have the dimensionality of on_true and on_false.
  EXPECT_THAT(Nary("select", {"pred[3]", "f32[2]", "f32[2]"}, "", "f32[]",
                   ShapeForm::kStrict),
              HasSubstr("(broadcasting.md"));
  EXPECT_THAT(Nary("select", {"pred[2]", "(f32[2])", "(f32[2])"}),
              HasSubstr("selecting tuples needs a scalar pred, got pred[2] " +
                        Spec("Select")));
  EXPECT_THAT(Nary("select", {"pred[]", "(f32[2])", "(s32[2])"}),
              HasSubstr("must have the same shape " + Spec("Select")));
  EXPECT_THAT(
      Nary("select", {"(pred[])", "f32[2]", "f32[2]"}),
      HasSubstr("operand 0 is (pred[]), expected an array " + Spec("Select")));
}

TEST(ElementwiseConstraintsTest, ClampConstraints) {
  EXPECT_EQ(Nary("clamp", {"s32[]", "s32[3]", "s32[]"}, "", "f32[]",
                 ShapeForm::kStrict),
            "s32[3]");
  EXPECT_EQ(Nary("clamp", {"f32[3]", "f32[3]", "f32[]"}), "f32[3]");
  EXPECT_THAT(Nary("clamp", {"f32[]", "s32[3]", "f32[]"}),
              HasSubstr("element types must be equal " + Spec("Clamp")));
  EXPECT_THAT(Nary("clamp", {"f32[2]", "f32[3]", "f32[3]"}, "", "f32[]",
                   ShapeForm::kStrict),
              HasSubstr("strict HLO needs equal dimensions"));
  EXPECT_THAT(Nary("clamp", {"c64[3]", "c64[3]", "c64[3]"}),
              HasSubstr("clamp expects a pred, integral or floating-point "
                        "element type, got c64[3] for operand 1 " +
                        Spec("Clamp")));
  EXPECT_THAT(Nary("clamp", {"f32[]", "(f32[3])", "f32[]"}),
              HasSubstr("expected an array " + Spec("Clamp")));
}

TEST(ElementwiseConstraintsTest, ConvertConstraints) {
  EXPECT_EQ(Unary("convert", "s32[2,3]", "f16[2,3]"), "f16[2,3]");
  EXPECT_EQ(Unary("convert", "pred[]", "c128[]"), "c128[]");
  EXPECT_THAT(Unary("convert", "s32[2,3]", "f16[3,2]"),
              HasSubstr("declared result f16[3,2] must have the dimensions "
                        "{2,3} that operand s32[2,3] gives " +
                        Spec("ConvertElementType")));
  EXPECT_THAT(Unary("convert", "(s32[2])", "f32[2]"),
              HasSubstr("expected an array " + Spec("ConvertElementType")));
  EXPECT_THAT(Unary("convert", "s32[2]", "(f32[2])"),
              HasSubstr("expected an array " + Spec("ConvertElementType")));
  EXPECT_THAT(Unary("convert", "c128[2]", "f64[2]"),
              HasSubstr("use real or imag " + Spec("ConvertElementType")));
}

TEST(ElementwiseConstraintsTest, BitcastConvertConstraints) {
  EXPECT_EQ(Unary("bitcast-convert", "u64[4]", "f64[4]"), "f64[4]");
  EXPECT_EQ(Unary("bitcast-convert", "s8[4,4]", "s32[4]"), "s32[4]");
  EXPECT_THAT(Unary("bitcast-convert", "u64[4]", "f64[5]"),
              HasSubstr("must have the dimensions {4} that operand u64[4] "
                        "gives " +
                        Spec("BitcastConvertType")));
  EXPECT_THAT(
      Unary("bitcast-convert", "f32[4]", "f16[4,3]"),
      HasSubstr("must have the dimensions {4,2} that operand f32[4] gives " +
                Spec("Bitcast-converting to primitive type of different "
                     "width")));
  EXPECT_THAT(
      Unary("bitcast-convert", "f16[4,4]", "f32[4]"),
      HasSubstr("needs a static last dimension of size 2 " +
                Spec("Bitcast-converting to primitive type of different "
                     "width")));
  EXPECT_THAT(Unary("bitcast-convert", "f32[4]", "f6e3m2fn[4]"),
              HasSubstr("are not multiples " + Spec("BitcastConvertType")));
  EXPECT_THAT(Unary("bitcast-convert", "(f32[4])", "s32[4]"),
              HasSubstr("expected an array " + Spec("BitcastConvertType")));
  EXPECT_THAT(Unary("bitcast-convert", "f32[4]", "(s32[4])"),
              HasSubstr("expected an array " + Spec("BitcastConvertType")));
}

TEST(ElementwiseConstraintsTest, StochasticConvertConstraints) {
  const std::string xla = "(XLA semantics, StochasticConvert)";
  EXPECT_EQ(Nary("stochastic-convert", {"f16[2,3]", "u16[2,3]"}, "", "s8[2,3]"),
            "s8[2,3]");
  EXPECT_THAT(Nary("stochastic-convert", {"s16[2]", "u16[2]"}, "", "s8[2]"),
              HasSubstr("expects a floating-point element type, got s16[2] "
                        "for operand 0 " +
                        xla));
  EXPECT_THAT(Nary("stochastic-convert", {"f16[2]", "s16[2]"}, "", "s8[2]"),
              HasSubstr("unsigned integral element type, got s16[2] for "
                        "operand 1 " +
                        xla));
  EXPECT_THAT(Nary("stochastic-convert", {"f16[2]", "u16[3]"}, "", "s8[2]"),
              HasSubstr("in dimensions and bit width " + xla));
  EXPECT_THAT(Nary("stochastic-convert", {"f16[2]", "u16[2]"}, "", "c64[2]"),
              HasSubstr("stochastic-convert to c64: XLA converts to integer "
                        "types only " +
                        xla));
  EXPECT_THAT(Nary("stochastic-convert", {"f16[2]", "u16[2]"}, "", "s8[3]"),
              HasSubstr("must have the dimensions {2} that operand f16[2] "
                        "gives " +
                        xla));
}

TEST(ElementwiseConstraintsTest, ReducePrecisionConstraints) {
  const std::string body = "p0 = f16[3] parameter(0)\nROOT r = f16[3] ";
  EXPECT_EQ(InferRootText(body + "reduce-precision(p0), exponent_bits=8, "
                                 "mantissa_bits=23"),
            "f16[3]");
  EXPECT_THAT(InferRootText(body + "reduce-precision(p0), exponent_bits=0, "
                                   "mantissa_bits=2"),
              HasSubstr("need at least 1 exponent bit and a non-negative "
                        "number of mantissa bits " +
                        Spec("ReducePrecision")));
  EXPECT_THAT(InferRootText(body + "reduce-precision(p0), exponent_bits=3, "
                                   "mantissa_bits=-2"),
              HasSubstr("mantissa_bits=-2: need at least 1 exponent bit"));
  EXPECT_THAT(InferRootText("p0 = c64[3] parameter(0)\nROOT r = c64[3] "
                            "reduce-precision(p0), exponent_bits=5, "
                            "mantissa_bits=2"),
              HasSubstr("reduce-precision expects a floating-point element "
                        "type, got c64[3] for operand 0 " +
                        Spec("ReducePrecision")));
}

}  // namespace
}  // namespace kiln
