#include "compiler/builder/constants.h"

#include <cfloat>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/builder/elementwise.h"
#include "compiler/ir/float_convert.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "invalid";
}

std::string Error(const XlaBuilder& b) {
  return std::string(b.first_error().message());
}

// The literal of a constant op (the op must be valid).
const Literal& LiteralOf(XlaOp op) { return op.instruction()->literal(); }

double DoubleOf(XlaOp op, int64_t i = 0) { return LiteralOf(op).GetDouble(i); }
int64_t IntOf(XlaOp op, int64_t i = 0) { return LiteralOf(op).GetInt64(i); }
uint64_t BitsOf(XlaOp op, int64_t i = 0) { return LiteralOf(op).GetBits(i); }

TEST(ConstantsBuilderTest, ConstantR0MapsNativeTypes) {
  XlaBuilder b("r0");
  EXPECT_EQ(ShapeOf(ConstantR0<float>(&b, 1.5f)), "f32[]");
  EXPECT_EQ(ShapeOf(ConstantR0<double>(&b, 2.5)), "f64[]");
  EXPECT_EQ(ShapeOf(ConstantR0<int8_t>(&b, -3)), "s8[]");
  EXPECT_EQ(ShapeOf(ConstantR0<int16_t>(&b, -3)), "s16[]");
  EXPECT_EQ(ShapeOf(ConstantR0<int32_t>(&b, -3)), "s32[]");
  EXPECT_EQ(ShapeOf(ConstantR0<int64_t>(&b, -3)), "s64[]");
  EXPECT_EQ(ShapeOf(ConstantR0<uint8_t>(&b, 3)), "u8[]");
  EXPECT_EQ(ShapeOf(ConstantR0<uint16_t>(&b, 3)), "u16[]");
  EXPECT_EQ(ShapeOf(ConstantR0<uint32_t>(&b, 3)), "u32[]");
  EXPECT_EQ(ShapeOf(ConstantR0<uint64_t>(&b, 3)), "u64[]");
  EXPECT_EQ(ShapeOf(ConstantR0<bool>(&b, true)), "pred[]");
  EXPECT_EQ(ShapeOf(ConstantR0(&b, std::complex<float>(1, 2))), "c64[]");
  EXPECT_EQ(ShapeOf(ConstantR0(&b, std::complex<double>(1, 2))), "c128[]");
  ASSERT_TRUE(b.ok()) << b.first_error();

  EXPECT_EQ(DoubleOf(ConstantR0<float>(&b, 0.25f)), 0.25);
  EXPECT_EQ(IntOf(ConstantR0<int64_t>(&b, -(int64_t{1} << 40))),
            -(int64_t{1} << 40));
  EXPECT_EQ(LiteralOf(ConstantR0<uint64_t>(&b, ~uint64_t{0})).GetUint64(0),
            ~uint64_t{0});
  EXPECT_EQ(IntOf(ConstantR0<bool>(&b, true)), 1);
  EXPECT_EQ(
      LiteralOf(ConstantR0(&b, std::complex<double>(1, -2))).GetComplex(0),
      std::complex<double>(1, -2));
}

TEST(ConstantsBuilderTest, ConstantR1HoldsItsValues) {
  XlaBuilder b("r1");
  XlaOp v = ConstantR1<int32_t>(&b, {4, 5, 6});
  ASSERT_EQ(ShapeOf(v), "s32[3]") << b.first_error();
  EXPECT_EQ(IntOf(v, 0), 4);
  EXPECT_EQ(IntOf(v, 2), 6);
  const std::vector<double> values = {0.5, -1.0};
  XlaOp d = ConstantR1<double>(&b, values);
  ASSERT_EQ(ShapeOf(d), "f64[2]");
  EXPECT_EQ(DoubleOf(d, 1), -1.0);
  XlaOp p = ConstantR1<bool>(&b, {true, false});
  ASSERT_EQ(ShapeOf(p), "pred[2]");
  EXPECT_EQ(IntOf(p, 0), 1);
  EXPECT_EQ(IntOf(p, 1), 0);
  EXPECT_EQ(ShapeOf(ConstantR1<float>(&b, {})), "f32[0]");

  XlaOp filled = ConstantR1<uint32_t>(&b, 4, 7u);
  ASSERT_EQ(ShapeOf(filled), "u32[4]");
  EXPECT_EQ(IntOf(filled, 3), 7);

  XlaBuilder bad("r1_bad");
  EXPECT_FALSE(ConstantR1<float>(&bad, -2, 1.0f).valid());
  EXPECT_THAT(Error(bad), HasSubstr("ConstantR1: the length must not be"));
}

TEST(ConstantsBuilderTest, ConstantR2IsRowMajorAndRectangular) {
  XlaBuilder b("r2");
  XlaOp m = ConstantR2<float>(&b, {{1, 2, 3}, {4, 5, 6}});
  ASSERT_EQ(ShapeOf(m), "f32[2,3]") << b.first_error();
  EXPECT_EQ(DoubleOf(m, LiteralOf(m).LinearIndex({1, 0})), 4.0);
  EXPECT_EQ(DoubleOf(m, LiteralOf(m).LinearIndex({0, 2})), 3.0);
  EXPECT_EQ(ShapeOf(ConstantR2<int64_t>(&b, {})), "s64[0,0]");

  XlaBuilder bad("r2_bad");
  EXPECT_FALSE(ConstantR2<int32_t>(&bad, {{1, 2, 3}, {4, 5}}).valid());
  EXPECT_THAT(Error(bad),
              AllOf(HasSubstr("ConstantR2: row 1 has 2 values but row 0 has 3"),
                    HasSubstr("rectangular")));
}

TEST(ConstantsBuilderTest, ConstantFromArrayFillsAnyRank) {
  XlaBuilder b("array");
  const std::vector<int16_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  XlaOp a = ConstantFromArray<int16_t>(&b, {2, 2, 2}, values);
  ASSERT_EQ(ShapeOf(a), "s16[2,2,2]") << b.first_error();
  EXPECT_EQ(IntOf(a, LiteralOf(a).LinearIndex({1, 0, 1})), 5);

  XlaBuilder bad("array_bad");
  EXPECT_FALSE(ConstantFromArray<int16_t>(&bad, {3, 3}, values).valid());
  EXPECT_THAT(Error(bad), HasSubstr("8 values do not fill dimensions [3,3]"));
}

TEST(ConstantsBuilderTest, ConstantR0WithTypeConvertsOrRefuses) {
  XlaBuilder b("with_type");
  XlaOp h = ConstantR0WithType(&b, ElementType::kBF16, 1.5);
  ASSERT_EQ(ShapeOf(h), "bf16[]") << b.first_error();
  EXPECT_EQ(DoubleOf(h), 1.5);
  XlaOp f = ConstantR0WithType(&b, ElementType::kF16, 3);
  ASSERT_EQ(ShapeOf(f), "f16[]");
  EXPECT_EQ(DoubleOf(f), 3.0);
  EXPECT_EQ(ShapeOf(ConstantR0WithType(&b, ElementType::kC64,
                                       std::complex<float>(1, 1))),
            "c64[]");
  XlaOp x = ConstantR0<double>(&b, 0);
  XlaOp like = ScalarLike(x, 7);
  ASSERT_EQ(ShapeOf(like), "f64[]");
  EXPECT_EQ(DoubleOf(like), 7.0);

  XlaBuilder bad("with_type_bad");
  EXPECT_FALSE(ConstantR0WithType(&bad, ElementType::kS32, 2.5).valid());
  EXPECT_THAT(Error(bad), HasSubstr("ConstantR0WithType: a floating-point "
                                    "value cannot become a s32 scalar"));
  XlaBuilder bad_complex("with_type_complex");
  EXPECT_FALSE(ConstantR0WithType(&bad_complex, ElementType::kF32,
                                  std::complex<double>(0, 1))
                   .valid());
  EXPECT_THAT(Error(bad_complex), HasSubstr("complex value cannot become"));
}

TEST(ConstantsBuilderTest, ZeroAndOneOfEveryKind) {
  XlaBuilder b("zero_one");
  EXPECT_EQ(ShapeOf(Zero(&b, ElementType::kBF16)), "bf16[]");
  EXPECT_EQ(DoubleOf(Zero(&b, ElementType::kF32)), 0.0);
  EXPECT_FALSE(std::signbit(DoubleOf(Zero(&b, ElementType::kF32))));
  EXPECT_EQ(IntOf(Zero(&b, ElementType::kPred)), 0);
  EXPECT_EQ(LiteralOf(Zero(&b, ElementType::kC64)).GetComplex(0),
            std::complex<double>(0, 0));
  // f8e8m0fnu has no zero; XLA's Zero is its all-zero pattern, 2^-127.
  XlaOp e8m0 = Zero(&b, ElementType::kF8E8M0FNU);
  EXPECT_EQ(BitsOf(e8m0), 0u);
  EXPECT_EQ(DoubleOf(e8m0), std::ldexp(1.0, -127));

  EXPECT_EQ(DoubleOf(One(&b, ElementType::kF8E4M3FN)), 1.0);
  EXPECT_EQ(IntOf(One(&b, ElementType::kU4)), 1);
  EXPECT_EQ(IntOf(One(&b, ElementType::kPred)), 1);
  EXPECT_EQ(LiteralOf(One(&b, ElementType::kC128)).GetComplex(0),
            std::complex<double>(1, 0));
  ASSERT_TRUE(b.ok()) << b.first_error();

  XlaBuilder bad("zero_token");
  EXPECT_FALSE(Zero(&bad, ElementType::kToken).valid());
  EXPECT_THAT(Error(bad),
              HasSubstr("Zero: token is not an array element type"));
}

TEST(ConstantsBuilderTest, MinAndMaxValuesFollowXla) {
  XlaBuilder b("min_max");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(DoubleOf(MinValue(&b, ElementType::kF32)), -inf);
  EXPECT_EQ(DoubleOf(MaxValue(&b, ElementType::kBF16)), inf);
  // Without an infinity the extremes are the finite ones.
  EXPECT_EQ(DoubleOf(MinValue(&b, ElementType::kF8E4M3FN)), -448.0);
  EXPECT_EQ(DoubleOf(MaxValue(&b, ElementType::kF8E4M3FN)), 448.0);
  EXPECT_EQ(DoubleOf(MaxValue(&b, ElementType::kF8E4M3FNUZ)), 240.0);
  EXPECT_EQ(DoubleOf(MinValue(&b, ElementType::kF4E2M1FN)), -6.0);
  EXPECT_EQ(BitsOf(MinValue(&b, ElementType::kF8E8M0FNU)), 0u);
  EXPECT_EQ(DoubleOf(MaxValue(&b, ElementType::kF8E8M0FNU)),
            std::ldexp(1.0, 127));
  EXPECT_EQ(IntOf(MinValue(&b, ElementType::kS8)), -128);
  EXPECT_EQ(IntOf(MaxValue(&b, ElementType::kS8)), 127);
  EXPECT_EQ(IntOf(MinValue(&b, ElementType::kS64)),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(IntOf(MaxValue(&b, ElementType::kS64)),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(IntOf(MinValue(&b, ElementType::kU16)), 0);
  EXPECT_EQ(IntOf(MaxValue(&b, ElementType::kU16)), 65535);
  EXPECT_EQ(LiteralOf(MaxValue(&b, ElementType::kU64)).GetUint64(0),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(IntOf(MinValue(&b, ElementType::kS4)), -8);
  EXPECT_EQ(IntOf(MinValue(&b, ElementType::kPred)), 0);
  EXPECT_EQ(IntOf(MaxValue(&b, ElementType::kPred)), 1);

  EXPECT_EQ(DoubleOf(MinFiniteValue(&b, ElementType::kF32)), -FLT_MAX);
  EXPECT_EQ(DoubleOf(MaxFiniteValue(&b, ElementType::kF64)), DBL_MAX);
  EXPECT_EQ(DoubleOf(MaxFiniteValue(&b, ElementType::kF16)), 65504.0);
  EXPECT_EQ(IntOf(MaxFiniteValue(&b, ElementType::kS32)), INT32_MAX);
  EXPECT_EQ(DoubleOf(MinPositiveNormalValue(&b, ElementType::kF32)), FLT_MIN);
  EXPECT_EQ(DoubleOf(Epsilon(&b, ElementType::kF32)), FLT_EPSILON);
  EXPECT_EQ(DoubleOf(Epsilon(&b, ElementType::kBF16)), std::ldexp(1.0, -7));
  EXPECT_TRUE(std::isnan(DoubleOf(NanValue(&b, ElementType::kF16))));
  EXPECT_TRUE(std::isnan(DoubleOf(NanValue(&b, ElementType::kF8E4M3FNUZ))));
  ASSERT_TRUE(b.ok()) << b.first_error();
}

TEST(ConstantsBuilderTest, NamedScalarsRefuseTypesTheyDoNotDefine) {
  struct BadCase {
    XlaOp (*build)(XlaBuilder*, ElementType);
    ElementType type;
    const char* message;
  };
  const BadCase cases[] = {
      {MinValue, ElementType::kC64, "MinValue: c64 is not a pred, integral"},
      {MaxFiniteValue, ElementType::kC128, "complex numbers have no order"},
      {Epsilon, ElementType::kS32, "Epsilon: s32 is not a floating-point"},
      {MinPositiveNormalValue, ElementType::kPred, "pred is not a floating"},
      {NanValue, ElementType::kF4E2M1FN, "NanValue: f4e2m1fn has no NaN"},
      {NanValue, ElementType::kU8, "NanValue: u8 is not a floating-point"},
  };
  for (const BadCase& c : cases) {
    XlaBuilder b("bad_named");
    EXPECT_FALSE(c.build(&b, c.type).valid()) << c.message;
    EXPECT_THAT(Error(b), HasSubstr(c.message));
  }
}

TEST(ConstantsBuilderTest, IotaCountsAlongADimension) {
  XlaBuilder b("iota");
  XlaOp grid = Iota(&b, Shape::Array(ElementType::kS32, {4, 8}), 1);
  ASSERT_EQ(ShapeOf(grid), "s32[4,8]") << b.first_error();
  EXPECT_EQ(*grid.instruction()->attrs().Get<int64_t>("iota_dimension"), 1);
  XlaOp line = Iota(&b, ElementType::kF32, 5);
  ASSERT_EQ(ShapeOf(line), "f32[5]") << b.first_error();
  EXPECT_EQ(*line.instruction()->attrs().Get<int64_t>("iota_dimension"), 0);

  XlaBuilder out_of_range("iota_range");
  EXPECT_FALSE(
      Iota(&out_of_range, Shape::Array(ElementType::kS32, {4}), 1).valid());
  EXPECT_THAT(Error(out_of_range),
              AllOf(HasSubstr("iota_dimension=1 is out of range"),
                    HasSubstr("operation_semantics.md, Iota")));
  XlaBuilder pred("iota_pred");
  EXPECT_FALSE(Iota(&pred, ElementType::kPred, 3).valid());
  EXPECT_THAT(Error(pred), HasSubstr("iota cannot count in pred"));
  XlaBuilder negative("iota_negative");
  EXPECT_FALSE(Iota(&negative, ElementType::kS32, -1).valid());
  EXPECT_THAT(Error(negative),
              AllOf(HasSubstr("iota: invalid shape"), HasSubstr("Iota")));
}

TEST(ConstantsBuilderTest, NullBuilderGivesAnInvalidOp) {
  EXPECT_FALSE(ConstantR0<float>(nullptr, 1.0f).valid());
  EXPECT_FALSE(ConstantR2<int32_t>(nullptr, {{1}, {2, 3}}).valid());
  EXPECT_FALSE(Zero(nullptr, ElementType::kF32).valid());
  EXPECT_FALSE(NanValue(nullptr, ElementType::kF4E2M1FN).valid());
  EXPECT_FALSE(Iota(nullptr, ElementType::kS32, 3).valid());
  EXPECT_FALSE(ScalarLike(XlaOp(), 1).valid());
}

TEST(ConstantsBuilderTest, ConstantsRoundTripThroughText) {
  XlaBuilder b("constants");
  XlaOp m = ConstantR2<float>(&b, {{1, 2, 3}, {4, 5, 6}});
  XlaOp columns = ConvertElementType(
      Iota(&b, Shape::Array(ElementType::kS32, {2, 3}), 1), ElementType::kF32);
  XlaOp scaled = Mul(Add(m, columns), ConstantR1<float>(&b, {0.5f, 1, 2}), {1});
  XlaOp capped = Min(scaled, MaxFiniteValue(&b, ElementType::kF32));
  XlaOp root = Max(capped, MinValue(&b, ElementType::kF32));
  ASSERT_EQ(ShapeOf(root), "f32[2,3]") << b.first_error();
  absl::StatusOr<XlaComputation> built = b.Build(root);
  ASSERT_TRUE(built.ok()) << built.status();
  std::unique_ptr<Module> module = built->TakeModule();
  ASSERT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  EXPECT_THAT(text, AllOf(HasSubstr("constant({ { 1, 2, 3 }, { 4, 5, 6 } })"),
                          HasSubstr("constant(-inf)"),
                          HasSubstr("iota(), iota_dimension=1"),
                          HasSubstr("constant({0.5, 1, 2})")))
      << text;
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  EXPECT_TRUE(VerifyModule(**reparsed).ok()) << VerifyModule(**reparsed);
  EXPECT_EQ(PrintModule(**reparsed), text);
}

}  // namespace
}  // namespace kiln
