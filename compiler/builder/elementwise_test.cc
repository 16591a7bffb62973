#include "compiler/builder/elementwise.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/builder/constants.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

Shape Arr(ElementType type, std::vector<int64_t> dims) {
  return Shape::Array(type, std::move(dims));
}
Shape F32(std::vector<int64_t> dims) {
  return Arr(ElementType::kF32, std::move(dims));
}

// "f32[2,3]", or "invalid" for an op that failed.
std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "invalid";
}

std::string Error(const XlaBuilder& b) {
  return std::string(b.first_error().message());
}

std::string OpcodeOf(XlaOp op) {
  return op.valid() ? std::string(OpcodeName(op.instruction()->opcode()))
                    : "invalid";
}

// Builds `b` with `root`, checks that the module verifies, prints, parses
// back (checking every declared shape) and prints identically; returns the
// text.
std::string RoundTrip(XlaBuilder& b, XlaOp root) {
  absl::StatusOr<XlaComputation> built = b.Build(root);
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  EXPECT_TRUE(VerifyModule(**reparsed).ok()) << VerifyModule(**reparsed);
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

struct UnaryCase {
  XlaOp (*build)(XlaOp);
  const char* opcode;
  ElementType operand;
  const char* result;
};

TEST(ElementwiseBuilderTest, UnaryOpsInferTheirResultShapes) {
  constexpr ElementType kF = ElementType::kF32;
  constexpr ElementType kS = ElementType::kS32;
  const UnaryCase cases[] = {
      {Abs, "abs", kF, "f32[2,3]"},
      {Acos, "acos", kF, "f32[2,3]"},
      {Acosh, "acosh", kF, "f32[2,3]"},
      {Asin, "asin", kF, "f32[2,3]"},
      {Asinh, "asinh", kF, "f32[2,3]"},
      {Atan, "atan", kF, "f32[2,3]"},
      {Atanh, "atanh", kF, "f32[2,3]"},
      {Cbrt, "cbrt", kF, "f32[2,3]"},
      {Ceil, "ceil", kF, "f32[2,3]"},
      {Clz, "count-leading-zeros", kS, "s32[2,3]"},
      {Copy, "copy", kF, "f32[2,3]"},
      {Cos, "cosine", kF, "f32[2,3]"},
      {Cosh, "cosh", kF, "f32[2,3]"},
      {Erf, "erf", kF, "f32[2,3]"},
      {Exp, "exponential", kF, "f32[2,3]"},
      {Expm1, "exponential-minus-one", kF, "f32[2,3]"},
      {Floor, "floor", kF, "f32[2,3]"},
      {Imag, "imag", kF, "f32[2,3]"},
      {IsFinite, "is-finite", kF, "pred[2,3]"},
      {Log, "log", kF, "f32[2,3]"},
      {Log1p, "log-plus-one", kF, "f32[2,3]"},
      {Logistic, "logistic", kF, "f32[2,3]"},
      {Neg, "negate", kS, "s32[2,3]"},
      {Not, "not", kS, "s32[2,3]"},
      {PopulationCount, "popcnt", kS, "s32[2,3]"},
      {Real, "real", kF, "f32[2,3]"},
      {RoundNearestAfz, "round-nearest-afz", kF, "f32[2,3]"},
      {RoundNearestEven, "round-nearest-even", kF, "f32[2,3]"},
      {Rsqrt, "rsqrt", kF, "f32[2,3]"},
      {Sign, "sign", kS, "s32[2,3]"},
      {Sin, "sine", kF, "f32[2,3]"},
      {Sinh, "sinh", kF, "f32[2,3]"},
      {Sqrt, "sqrt", kF, "f32[2,3]"},
      {Tan, "tan", kF, "f32[2,3]"},
      {Tanh, "tanh", kF, "f32[2,3]"},
  };
  for (const UnaryCase& c : cases) {
    XlaBuilder b("unary");
    XlaOp x = Parameter(&b, 0, Arr(c.operand, {2, 3}), "x");
    XlaOp y = c.build(x);
    EXPECT_EQ(ShapeOf(y), c.result) << c.opcode << ": " << b.first_error();
    EXPECT_EQ(OpcodeOf(y), c.opcode);
  }
}

TEST(ElementwiseBuilderTest, ComplexComponentsAndPredNot) {
  XlaBuilder b("components");
  XlaOp z = Parameter(&b, 0, Arr(ElementType::kC64, {4}), "z");
  XlaOp w = Parameter(&b, 1, Arr(ElementType::kC128, {}), "w");
  XlaOp p = Parameter(&b, 2, Arr(ElementType::kPred, {2}), "p");
  EXPECT_EQ(ShapeOf(Abs(z)), "f32[4]");
  EXPECT_EQ(ShapeOf(Real(z)), "f32[4]");
  EXPECT_EQ(ShapeOf(Imag(w)), "f64[]");
  EXPECT_EQ(ShapeOf(Exp(z)), "c64[4]");
  EXPECT_EQ(ShapeOf(Not(p)), "pred[2]");
  EXPECT_TRUE(b.ok()) << b.first_error();
}

TEST(ElementwiseBuilderTest, UnaryOpsRejectElementTypesOutsideTheirRule) {
  struct BadCase {
    XlaOp (*build)(XlaOp);
    ElementType operand;
    const char* section;
  };
  const BadCase cases[] = {
      {Clz, ElementType::kF32, "operation_semantics.md, Clz"},
      {Ceil, ElementType::kS32, "operation_semantics.md, Ceil"},
      {IsFinite, ElementType::kC64, "operation_semantics.md, IsFinite"},
      {Not, ElementType::kF32, "operation_semantics.md, Not"},
      {Sqrt, ElementType::kS32, "operation_semantics.md, Sqrt"},
      {Neg, ElementType::kPred, "operation_semantics.md, Neg"},
  };
  for (const BadCase& c : cases) {
    XlaBuilder b("bad_unary");
    XlaOp x = Parameter(&b, 0, Arr(c.operand, {3}), "x");
    EXPECT_FALSE(c.build(x).valid()) << c.section;
    EXPECT_THAT(Error(b), HasSubstr(c.section));
    EXPECT_EQ(b.Build().status(), b.first_error());
  }
}

TEST(ElementwiseBuilderTest, ReducePrecisionSetsBothBitCounts) {
  XlaBuilder b("rp");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp r = ReducePrecision(x, 5, 10);
  ASSERT_EQ(ShapeOf(r), "f32[3]") << b.first_error();
  EXPECT_EQ(*r.instruction()->attrs().Get<int64_t>("exponent_bits"), 5);
  EXPECT_EQ(*r.instruction()->attrs().Get<int64_t>("mantissa_bits"), 10);
  EXPECT_THAT(RoundTrip(b, r), HasSubstr("exponent_bits=5, mantissa_bits=10"));

  XlaBuilder bad("rp_bad");
  XlaOp y = Parameter(&bad, 0, F32({3}), "y");
  EXPECT_FALSE(ReducePrecision(y, 0, 10).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("exponent_bits=0"),
                                HasSubstr("ReducePrecision")));

  XlaBuilder ints("rp_ints");
  XlaOp i = Parameter(&ints, 0, Arr(ElementType::kS32, {3}), "i");
  EXPECT_FALSE(ReducePrecision(i, 5, 10).valid());
  EXPECT_THAT(Error(ints), HasSubstr("ReducePrecision"));
}

struct BinaryCase {
  XlaOp (*build)(XlaOp, XlaOp, absl::Span<const int64_t>);
  const char* opcode;
  ElementType type;
};

TEST(ElementwiseBuilderTest, BinaryOpsOfEqualShapes) {
  constexpr ElementType kF = ElementType::kF32;
  constexpr ElementType kS = ElementType::kS32;
  const BinaryCase cases[] = {
      {Add, "add", kF},
      {Sub, "subtract", kF},
      {Mul, "multiply", kF},
      {Div, "divide", kF},
      {Rem, "remainder", kS},
      {Max, "maximum", kF},
      {Min, "minimum", kS},
      {Pow, "power", kF},
      {Atan2, "atan2", kF},
      {And, "and", kS},
      {Or, "or", ElementType::kPred},
      {Xor, "xor", kS},
      {ShiftLeft, "shift-left", kS},
      {ShiftRightArithmetic, "shift-right-arithmetic", kS},
      {ShiftRightLogical, "shift-right-logical", ElementType::kU8},
  };
  for (const BinaryCase& c : cases) {
    XlaBuilder b("binary");
    XlaOp x = Parameter(&b, 0, Arr(c.type, {2, 3}), "x");
    XlaOp y = Parameter(&b, 1, Arr(c.type, {2, 3}), "y");
    XlaOp z = c.build(x, y, {});
    EXPECT_EQ(ShapeOf(z), Arr(c.type, {2, 3}).ToString(false))
        << c.opcode << ": " << b.first_error();
    EXPECT_EQ(OpcodeOf(z), c.opcode);
    EXPECT_FALSE(z.instruction()->attrs().Has("broadcast_dimensions"));
  }
}

TEST(ElementwiseBuilderTest, AddBroadcastsAVectorIntoAMatrix) {
  XlaBuilder b("in_dim");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp v = Parameter(&b, 1, F32({3}), "v");
  XlaOp sum = Add(m, v, {1});
  ASSERT_EQ(ShapeOf(sum), "f32[2,3]") << b.first_error();
  EXPECT_EQ(*sum.instruction()->attrs().Get<Int64List>("broadcast_dimensions"),
            Int64List{1});
  EXPECT_THAT(RoundTrip(b, sum), HasSubstr("%v), broadcast_dimensions={1}"));
}

TEST(ElementwiseBuilderTest, BroadcastDimensionsMustMatchTheSizes) {
  XlaBuilder b("in_dim_bad");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp v = Parameter(&b, 1, F32({3}), "v");
  EXPECT_FALSE(Add(m, v, {0}).valid());
  EXPECT_THAT(Error(b),
              AllOf(HasSubstr("broadcast_dimensions {0}"), HasSubstr("size 3"),
                    HasSubstr("size 2"), HasSubstr("InDim broadcasting")));
}

TEST(ElementwiseBuilderTest, DifferentRanksNeedBroadcastDimensions) {
  XlaBuilder b("no_dims");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp v = Parameter(&b, 1, F32({3}), "v");
  EXPECT_FALSE(Mul(m, v).valid());
  EXPECT_THAT(Error(b), HasSubstr("need broadcast_dimensions"));
}

TEST(ElementwiseBuilderTest, ScalarsBroadcastWithoutDimensions) {
  XlaBuilder b("scalar");
  XlaOp s = Parameter(&b, 0, F32({}), "s");
  XlaOp m = Parameter(&b, 1, F32({2, 3}), "m");
  XlaOp left = Add(s, m);
  XlaOp right = Sub(m, s);
  EXPECT_EQ(ShapeOf(left), "f32[2,3]") << b.first_error();
  EXPECT_EQ(ShapeOf(right), "f32[2,3]");
  EXPECT_FALSE(left.instruction()->attrs().Has("broadcast_dimensions"));
  EXPECT_THAT(RoundTrip(b, Mul(left, right)),
              ::testing::Not(HasSubstr("broadcast_dimensions")));
}

TEST(ElementwiseBuilderTest, DegenerateDimensionsBroadcast) {
  XlaBuilder b("degenerate");
  XlaOp col = Parameter(&b, 0, F32({2, 1}), "col");
  XlaOp row = Parameter(&b, 1, F32({1, 3}), "row");
  XlaOp sum = Add(col, row);
  EXPECT_EQ(ShapeOf(sum), "f32[2,3]") << b.first_error();
  RoundTrip(b, sum);

  XlaBuilder bad("degenerate_bad");
  XlaOp x = Parameter(&bad, 0, F32({2, 3}), "x");
  XlaOp y = Parameter(&bad, 1, F32({4, 3}), "y");
  EXPECT_FALSE(Max(x, y).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("dimension 0"),
                                HasSubstr("degenerate dimensions")));
}

TEST(ElementwiseBuilderTest, BinaryTypeErrorsNameTheRule) {
  XlaBuilder b("and_f32");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  XlaOp y = Parameter(&b, 1, F32({2}), "y");
  EXPECT_FALSE(And(x, y).valid());
  EXPECT_THAT(Error(b), AllOf(HasSubstr("and"),
                              HasSubstr("operation_semantics.md, And")));

  XlaBuilder mixed("mixed");
  XlaOp f = Parameter(&mixed, 0, F32({2}), "f");
  XlaOp i = Parameter(&mixed, 1, Arr(ElementType::kS32, {2}), "i");
  EXPECT_FALSE(Add(f, i).valid());
  EXPECT_THAT(Error(mixed), AllOf(HasSubstr("element types must be equal"),
                                  HasSubstr("operation_semantics.md, Add")));

  XlaBuilder shift("shift_f32");
  XlaOp a = Parameter(&shift, 0, F32({2}), "a");
  EXPECT_FALSE(ShiftLeft(a, a).valid());
  EXPECT_THAT(Error(shift), HasSubstr("ShiftLeft"));
}

TEST(ElementwiseBuilderTest, ComplexBuildsFromRealParts) {
  XlaBuilder b("complex");
  XlaOp re = Parameter(&b, 0, F32({3}), "re");
  XlaOp im = Parameter(&b, 1, F32({3}), "im");
  XlaOp d = Parameter(&b, 2, Arr(ElementType::kF64, {2, 3}), "d");
  XlaOp e = Parameter(&b, 3, Arr(ElementType::kF64, {3}), "e");
  EXPECT_EQ(ShapeOf(Complex(re, im)), "c64[3]") << b.first_error();
  EXPECT_EQ(ShapeOf(Complex(d, e, {1})), "c128[2,3]") << b.first_error();

  XlaBuilder bad("complex_bad");
  XlaOp i = Parameter(&bad, 0, Arr(ElementType::kS32, {3}), "i");
  EXPECT_FALSE(Complex(i, i).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("c64 from f32"),
                                HasSubstr("operation_semantics.md, Complex")));
}

std::string DirectionOf(XlaOp op) {
  if (!op.valid()) return "invalid";
  const EnumValue* direction =
      op.instruction()->attrs().Get<EnumValue>("direction");
  return direction == nullptr ? "none" : direction->spelling;
}

std::string TypeOf(XlaOp op) {
  if (!op.valid()) return "invalid";
  const EnumValue* type = op.instruction()->attrs().Get<EnumValue>("type");
  return type == nullptr ? "none" : type->spelling;
}

TEST(ElementwiseBuilderTest, ComparisonsSetDirectionAndOnlyNonDefaultTypes) {
  XlaBuilder b("compare");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp y = Parameter(&b, 1, F32({2, 3}), "y");
  XlaOp i = Parameter(&b, 2, Arr(ElementType::kS32, {4}), "i");
  const std::pair<XlaOp, const char*> directions[] = {
      {Eq(x, y), "EQ"}, {Ne(x, y), "NE"}, {Ge(x, y), "GE"},
      {Gt(x, y), "GT"}, {Le(x, y), "LE"}, {Lt(x, y), "LT"},
  };
  for (const auto& [op, direction] : directions) {
    ASSERT_EQ(ShapeOf(op), "pred[2,3]") << b.first_error();
    EXPECT_EQ(DirectionOf(op), direction);
    EXPECT_EQ(TypeOf(op), "none");
  }
  // FLOAT is f32's default: left out, as XLA prints it.
  EXPECT_EQ(TypeOf(Compare(x, y, {}, ComparisonDirection::kLt,
                           ComparisonType::kFloat)),
            "none");
  EXPECT_EQ(TypeOf(Compare(x, y, {}, ComparisonDirection::kLt,
                           ComparisonType::kTotalOrder)),
            "TOTALORDER");
  EXPECT_EQ(DirectionOf(Compare(i, i, ComparisonDirection::kGe)), "GE");
  // SIGNED is s32's default: left out too.
  EXPECT_EQ(TypeOf(Compare(i, i, {}, ComparisonDirection::kGe,
                           ComparisonType::kSigned)),
            "none");
  EXPECT_TRUE(b.ok()) << b.first_error();
}

TEST(ElementwiseBuilderTest, TotalOrderComparisonsOnlyTypeFloats) {
  XlaBuilder b("total_order");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp i = Parameter(&b, 1, Arr(ElementType::kS32, {3}), "i");
  using Fn = XlaOp (*)(XlaOp, XlaOp, absl::Span<const int64_t>);
  const std::pair<Fn, const char*> variants[] = {
      {EqTotalOrder, "EQ"}, {NeTotalOrder, "NE"}, {GeTotalOrder, "GE"},
      {GtTotalOrder, "GT"}, {LeTotalOrder, "LE"}, {LtTotalOrder, "LT"},
  };
  for (const auto& [fn, direction] : variants) {
    XlaOp on_floats = fn(x, x, {});
    ASSERT_EQ(ShapeOf(on_floats), "pred[3]") << b.first_error();
    EXPECT_EQ(DirectionOf(on_floats), direction);
    EXPECT_EQ(TypeOf(on_floats), "TOTALORDER");
    EXPECT_EQ(TypeOf(fn(i, i, {})), "none");
  }
}

TEST(ElementwiseBuilderTest, CompareBroadcastsAndChecksTypes) {
  XlaBuilder b("compare_bcast");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp v = Parameter(&b, 1, F32({2}), "v");
  EXPECT_EQ(ShapeOf(Gt(m, v, {0})), "pred[2,3]") << b.first_error();

  XlaBuilder mixed("compare_mixed");
  XlaOp f = Parameter(&mixed, 0, F32({2}), "f");
  XlaOp i = Parameter(&mixed, 1, Arr(ElementType::kS32, {2}), "i");
  EXPECT_FALSE(Eq(f, i).valid());
  EXPECT_THAT(Error(mixed),
              AllOf(HasSubstr("element types must be equal"),
                    HasSubstr("operation_semantics.md, Compare")));

  XlaBuilder order("compare_complex");
  XlaOp z = Parameter(&order, 0, Arr(ElementType::kC64, {2}), "z");
  EXPECT_TRUE(Ne(z, z).valid()) << order.first_error();
  EXPECT_FALSE(Lt(z, z).valid());
  EXPECT_THAT(Error(order), HasSubstr("does not order complex numbers"));

  XlaBuilder signed_float("compare_signed_f32");
  XlaOp g = Parameter(&signed_float, 0, F32({2}), "g");
  EXPECT_FALSE(
      Compare(g, g, {}, ComparisonDirection::kEq, ComparisonType::kSigned)
          .valid());
  EXPECT_THAT(Error(signed_float), HasSubstr("comparison type SIGNED"));
}

TEST(ElementwiseBuilderTest, SelectPicksElementsOrWholeValues) {
  XlaBuilder b("select");
  XlaOp p = Parameter(&b, 0, Arr(ElementType::kPred, {2, 3}), "p");
  XlaOp x = Parameter(&b, 1, F32({2, 3}), "x");
  XlaOp y = Parameter(&b, 2, F32({2, 3}), "y");
  XlaOp s = Parameter(&b, 3, Arr(ElementType::kPred, {}), "s");
  XlaOp v = Parameter(&b, 4, F32({3}), "v");
  EXPECT_EQ(ShapeOf(Select(p, x, y)), "f32[2,3]") << b.first_error();
  EXPECT_EQ(ShapeOf(Select(s, x, y)), "f32[2,3]") << b.first_error();
  XlaOp mapped = Select(p, x, v, {1});
  EXPECT_EQ(ShapeOf(mapped), "f32[2,3]") << b.first_error();
  RoundTrip(b, mapped);

  XlaBuilder bad("select_bad");
  XlaOp f = Parameter(&bad, 0, F32({2}), "f");
  EXPECT_FALSE(Select(f, f, f).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("pred must have element type pred"),
                                HasSubstr("operation_semantics.md, Select")));
}

TEST(ElementwiseBuilderTest, ClampTakesScalarBounds) {
  XlaBuilder b("clamp");
  XlaOp lo = Parameter(&b, 0, Arr(ElementType::kS32, {}), "lo");
  XlaOp x = Parameter(&b, 1, Arr(ElementType::kS32, {3}), "x");
  XlaOp hi = Parameter(&b, 2, Arr(ElementType::kS32, {}), "hi");
  XlaOp clamped = Clamp(lo, x, hi);
  EXPECT_EQ(ShapeOf(clamped), "s32[3]") << b.first_error();
  EXPECT_THAT(RoundTrip(b, clamped),
              HasSubstr("clamp(s32[] %lo, s32[3]{0} %x, s32[] %hi)"));

  XlaBuilder bad("clamp_bad");
  XlaOp f = Parameter(&bad, 0, F32({}), "f");
  XlaOp i = Parameter(&bad, 1, Arr(ElementType::kS32, {3}), "i");
  EXPECT_FALSE(Clamp(f, i, f).valid());
  EXPECT_THAT(Error(bad), HasSubstr("operation_semantics.md, Clamp"));
}

TEST(ElementwiseBuilderTest, ConvertElementTypeKeepsDimensions) {
  XlaBuilder b("convert");
  XlaOp i = Parameter(&b, 0, Arr(ElementType::kS32, {2, 3}), "i");
  XlaOp f = ConvertElementType(i, ElementType::kF32);
  EXPECT_EQ(ShapeOf(f), "f32[2,3]") << b.first_error();
  EXPECT_EQ(ShapeOf(ConvertElementType(f, ElementType::kBF16)), "bf16[2,3]");
  EXPECT_EQ(ShapeOf(ConvertElementType(f, ElementType::kC64)), "c64[2,3]");

  XlaBuilder complex("convert_complex");
  XlaOp z = Parameter(&complex, 0, Arr(ElementType::kC64, {2}), "z");
  EXPECT_FALSE(ConvertElementType(z, ElementType::kF32).valid());
  EXPECT_THAT(Error(complex), AllOf(HasSubstr("use real or imag"),
                                    HasSubstr("ConvertElementType")));

  XlaBuilder token("convert_token");
  XlaOp t = Parameter(&token, 0, F32({2}), "t");
  EXPECT_FALSE(ConvertElementType(t, ElementType::kToken).valid());
  EXPECT_THAT(Error(token),
              AllOf(HasSubstr("convert: the new element type token"),
                    HasSubstr("ConvertElementType")));
}

TEST(ElementwiseBuilderTest, BitcastConvertTypeChangesTheMinorDimension) {
  XlaBuilder b("bitcast");
  XlaOp x = Parameter(&b, 0, F32({10}), "x");
  XlaOp s = Parameter(&b, 1, F32({}), "s");
  XlaOp h = Parameter(&b, 2, Arr(ElementType::kF16, {10, 2}), "h");
  EXPECT_EQ(ShapeOf(BitcastConvertType(x, ElementType::kS32)), "s32[10]")
      << b.first_error();
  EXPECT_EQ(ShapeOf(BitcastConvertType(x, ElementType::kF16)), "f16[10,2]");
  EXPECT_EQ(ShapeOf(BitcastConvertType(s, ElementType::kU8)), "u8[4]");
  XlaOp wide = BitcastConvertType(h, ElementType::kF32);
  EXPECT_EQ(ShapeOf(wide), "f32[10]") << b.first_error();
  EXPECT_THAT(RoundTrip(b, wide),
              HasSubstr("bitcast-convert(f16[10,2]{1,0} %h)"));

  XlaBuilder bad("bitcast_bad");
  XlaOp odd = Parameter(&bad, 0, Arr(ElementType::kF16, {10, 3}), "odd");
  EXPECT_FALSE(BitcastConvertType(odd, ElementType::kF32).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("static last dimension of size 2"),
                                HasSubstr("different width")));
}

TEST(ElementwiseBuilderTest, StochasticConvertTypeNeedsMatchingRandomBits) {
  XlaBuilder b("stochastic");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  XlaOp bits = Parameter(&b, 1, Arr(ElementType::kU32, {4}), "bits");
  XlaOp y = StochasticConvertType(x, bits, ElementType::kS32);
  EXPECT_EQ(ShapeOf(y), "s32[4]") << b.first_error();
  RoundTrip(b, y);

  // XLA rounds stochastically to integer types only.
  XlaBuilder to_float("stochastic_float");
  XlaOp g = Parameter(&to_float, 0, F32({4}), "g");
  XlaOp g_bits = Parameter(&to_float, 1, Arr(ElementType::kU32, {4}), "bits");
  EXPECT_FALSE(StochasticConvertType(g, g_bits, ElementType::kBF16).valid());
  EXPECT_THAT(Error(to_float), HasSubstr("integer types only"));

  XlaBuilder bad("stochastic_bad");
  XlaOp f = Parameter(&bad, 0, F32({4}), "f");
  XlaOp narrow = Parameter(&bad, 1, Arr(ElementType::kU16, {4}), "narrow");
  EXPECT_FALSE(StochasticConvertType(f, narrow, ElementType::kS8).valid());
  EXPECT_THAT(Error(bad), AllOf(HasSubstr("in dimensions and bit width"),
                                HasSubstr("StochasticConvert")));
}

TEST(ElementwiseBuilderTest, InvalidOrForeignOperandsAreReportedNotCrashed) {
  EXPECT_FALSE(Add(XlaOp(), XlaOp()).valid());
  EXPECT_FALSE(Neg(XlaOp()).valid());
  EXPECT_FALSE(ConvertElementType(XlaOp(), ElementType::kF32).valid());

  XlaBuilder b("partial");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  EXPECT_FALSE(Add(x, XlaOp()).valid());
  EXPECT_THAT(Error(b), HasSubstr("operand 1 is an invalid XlaOp"));
  // Later ops keep the first error.
  EXPECT_FALSE(Neg(x).valid());
  EXPECT_THAT(Error(b), HasSubstr("operand 1 is an invalid XlaOp"));

  XlaBuilder one("one");
  XlaBuilder two("two");
  XlaOp a = Parameter(&one, 0, F32({2}), "a");
  XlaOp c = Parameter(&two, 0, F32({2}), "c");
  EXPECT_FALSE(Sub(a, c).valid());
  EXPECT_THAT(Error(one), HasSubstr("belongs to builder two"));
}

TEST(ElementwiseBuilderTest, AWholeComputationRoundTrips) {
  XlaBuilder b("mixed_ops");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp v = Parameter(&b, 1, F32({3}), "v");
  XlaOp i = Parameter(&b, 2, Arr(ElementType::kS32, {2, 3}), "i");
  XlaOp shifted = Add(m, v, {1});
  XlaOp clipped = Clamp(ConstantR0<float>(&b, -1.0f), Tanh(shifted),
                        ConstantR0<float>(&b, 1.0f));
  XlaOp as_float =
      ConvertElementType(ShiftRightLogical(i, i), ElementType::kF32);
  XlaOp less = LtTotalOrder(clipped, as_float);
  XlaOp chosen = Select(less, ReducePrecision(clipped, 8, 7), Neg(as_float));
  XlaOp bits = BitcastConvertType(chosen, ElementType::kU32);
  XlaOp root = Xor(bits, BitcastConvertType(Abs(m), ElementType::kU32));
  ASSERT_EQ(ShapeOf(root), "u32[2,3]") << b.first_error();
  const std::string text = RoundTrip(b, root);
  EXPECT_THAT(text, AllOf(HasSubstr("broadcast_dimensions={1}"),
                          HasSubstr("direction=LT, type=TOTALORDER"),
                          HasSubstr("ENTRY %mixed_ops")))
      << text;
}

}  // namespace
}  // namespace kiln
