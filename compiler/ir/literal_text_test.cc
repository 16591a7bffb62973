#include "compiler/ir/literal_text.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "compiler/ir/float_convert.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Literal Parse(const Shape& shape, absl::string_view text,
              bool allow_elided = false) {
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<Literal> literal =
      ParseLiteralValue(shape, text, &consumed, &error_offset,
                        kDefaultMaxLiteralBytes, allow_elided);
  EXPECT_TRUE(literal.ok())
      << text << ": " << literal.status() << " at offset " << error_offset;
  if (!literal.ok()) return Literal();
  EXPECT_EQ(consumed, text.size()) << text;
  return *std::move(literal);
}

// Parses, expecting an error at `offset` whose message contains `needle`.
void ExpectError(const Shape& shape, absl::string_view text, size_t offset,
                 absl::string_view needle) {
  size_t consumed = 0, error_offset = 12345;
  absl::StatusOr<Literal> literal =
      ParseLiteralValue(shape, text, &consumed, &error_offset);
  ASSERT_FALSE(literal.ok()) << text;
  EXPECT_EQ(error_offset, offset) << text << ": " << literal.status();
  EXPECT_NE(literal.status().message().find(needle), absl::string_view::npos)
      << text << ": " << literal.status();
}

// Text -> literal -> text must give the text back.
void ExpectRoundTrip(const Shape& shape, absl::string_view text,
                     FloatTextStyle style = FloatTextStyle::kShortest) {
  Literal literal = Parse(shape, text);
  LiteralPrintOptions options;
  options.float_style = style;
  EXPECT_EQ(LiteralValueToString(literal, options), text);
}

Shape Array(ElementType t, std::vector<int64_t> dims) {
  return Shape::Array(t, std::move(dims));
}

TEST(LiteralTextTest, ScalarsPrintShortest) {
  EXPECT_EQ(LiteralValueToString(Literal::ScalarS32(-5)), "-5");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarPred(true)), "true");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarPred(false)), "false");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(1.5f)), "1.5");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(0.1f)), "0.1");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(1.0f / 3)), "0.33333334");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(1e10f)), "1e+10");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(-0.0f)), "-0");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(2.0f)), "2");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(16777216.0f)), "16777216");
}

TEST(LiteralTextTest, ScalarsPrintAsXlaDoesWhenAsked) {
  LiteralPrintOptions xla;
  xla.float_style = FloatTextStyle::kXla;
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(0.1f), xla), "0.1");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(1.0f / 3), xla),
            "0.333333343");
  EXPECT_EQ(LiteralValueToString(Literal::ScalarF32(1e10f), xla), "1e+10");
}

TEST(LiteralTextTest, ShortestFloatTextPerType) {
  EXPECT_EQ(
      FloatBitsToString(ElementType::kF64, FloatToBits(ElementType::kF64, 0.1)),
      "0.1");
  EXPECT_EQ(FloatBitsToString(ElementType::kF64,
                              FloatToBits(ElementType::kF64, 1.0 / 3)),
            "0.3333333333333333");
  // The fewest digits that read back to the same bits of the narrow type.
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x2e66), "0.1");
  EXPECT_EQ(FloatBitsToString(ElementType::kBF16, 0x3dcd), "0.1");
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x7bff), "65504");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E4M3FN, 0x7e), "448");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E5M2, 0x7b), "6e+04");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0x43960000), "300");
  EXPECT_EQ(FloatBitsToString(ElementType::kF4E2M1FN, 0xf), "-6");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E8M0FNU, 127), "1");
  // 2^-127 = 5.87747...e-39: "6e-39" would read back as 2^-126 under
  // e8m0's rounding, so digits are added until it reads back.
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E8M0FNU, 0), "5.877e-39");
}

TEST(LiteralTextTest, XlaFloatTextPerType) {
  const FloatTextStyle xla = FloatTextStyle::kXla;
  EXPECT_EQ(FloatBitsToString(ElementType::kF64,
                              FloatToBits(ElementType::kF64, 1.0 / 3), xla),
            "0.33333333333333331");
  // f16 and bf16 print max_digits10 (5 and 4) digits, as XLA does.
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x2e66, xla), "0.099976");
  EXPECT_EQ(FloatBitsToString(ElementType::kBF16, 0x3dcd, xla), "0.1001");
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x7bff, xla), "65504");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E4M3FN, 0x7e, xla), "448");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E5M2, 0x7b, xla), "5.7e+04");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E8M0FNU, 1, xla), "1.2e-38");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E8M0FNU, 0, xla), "5.877e-39");
}

TEST(LiteralTextTest, SpecialFloatText) {
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0x7f800000), "inf");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0xff800000), "-inf");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0x7fc00000), "nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0xffc00000), "-nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0x7f800001), "nan(0x1)");
  EXPECT_EQ(FloatBitsToString(ElementType::kF32, 0xffc00005), "-nan(0x400005)");
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x7e00), "nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF16, 0x7c01), "nan(0x1)");
  EXPECT_EQ(FloatBitsToString(ElementType::kF64, 0x7ff0000000000001),
            "nan(0x1)");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E4M3FN, 0x7f), "nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E4M3FN, 0xff), "-nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E5M2FNUZ, 0x80), "-nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E8M0FNU, 0xff), "nan");
  EXPECT_EQ(FloatBitsToString(ElementType::kF8E5M2, 0x7d), "nan(0x1)");
}

TEST(LiteralTextTest, ArraysUseXlaBracesAndSpacing) {
  ExpectRoundTrip(Array(ElementType::kS32, {3}), "{1, 2, 3}");
  ExpectRoundTrip(Array(ElementType::kS32, {0}), "{}");
  ExpectRoundTrip(Array(ElementType::kS32, {2, 2}), "{ { 1, 2 }, { 3, 4 } }");
  ExpectRoundTrip(Array(ElementType::kS32, {2, 1}), "{ {1}, {2} }");
  ExpectRoundTrip(Array(ElementType::kS32, {2, 0}), "{ {}, {} }");
  ExpectRoundTrip(Array(ElementType::kS32, {0, 3}), "{ }");
  ExpectRoundTrip(Array(ElementType::kS32, {2, 1, 2}),
                  "{ { { 1, 2 } }, { { 3, 4 } } }");
  ExpectRoundTrip(Array(ElementType::kS32, {1, 1, 1, 2}),
                  "{ { /*i0=0*/ { /*i1=0*/ { 1, 2 } } } }");
  ExpectRoundTrip(Array(ElementType::kS32, {2, 1, 1, 1}),
                  "{ { /*i0=0*/ { /*i1=0*/ {5} } }, "
                  "{ /*i0=1*/ { /*i1=0*/ {6} } } }");
}

TEST(LiteralTextTest, PredArraysPrintAsDigits) {
  ExpectRoundTrip(Array(ElementType::kPred, {3}), "{1, 0, 1}");
  Literal words = Parse(Array(ElementType::kPred, {2}), "{true, false}");
  EXPECT_EQ(LiteralValueToString(words), "{1, 0}");
  ExpectError(Array(ElementType::kPred, {1}), "{2}", 1, "pred");
}

TEST(LiteralTextTest, ComplexValues) {
  ExpectRoundTrip(Shape::Scalar(ElementType::kC64), "(1, 2)");
  ExpectRoundTrip(Array(ElementType::kC128, {2}), "{(1.5, -4), (0.1, inf)}");
  ExpectRoundTrip(Shape::Scalar(ElementType::kC64), "(nan(0x1), -nan)");
  Literal spaced = Parse(Shape::Scalar(ElementType::kC64), "( 3 ,\n4 )");
  EXPECT_EQ(spaced.GetComplex(0), std::complex<double>(3, 4));
}

TEST(LiteralTextTest, Tuples) {
  Shape shape = Shape::Tuple(
      {Shape::Scalar(ElementType::kS32), Array(ElementType::kF32, {2})});
  ExpectRoundTrip(shape, "( 1, {2, 3.5} )");
  ExpectRoundTrip(Shape::Tuple({}), "( )");
  Shape nested =
      Shape::Tuple({Shape::Tuple({Shape::Scalar(ElementType::kPred)}), shape});
  ExpectRoundTrip(nested, "( ( true ), ( 1, {2, 3.5} ) )");
  Literal compact = Parse(shape, "(1,{2,3.5})");
  EXPECT_EQ(LiteralValueToString(compact), "( 1, {2, 3.5} )");
  ExpectError(shape, "( 1 )", 4, "','");
}

TEST(LiteralTextTest, ElidesLargeValuesWhenAsked) {
  Literal v = Literal::VectorS32({1, 2, 3});
  EXPECT_EQ(LiteralValueToString(v, {/*elide_above=*/2}), "{...}");
  EXPECT_EQ(LiteralValueToString(v, {/*elide_above=*/3}), "{1, 2, 3}");
  EXPECT_EQ(LiteralValueToString(v, {/*elide_above=*/-1}), "{1, 2, 3}");
  // Eliding a huge literal costs nothing (no text buffer of its size).
  absl::StatusOr<Literal> big =
      Literal::Create(Array(ElementType::kS8, {int64_t{1} << 24}));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(LiteralValueToString(*big, {/*elide_above=*/10}), "{...}");
  // Elided values are unknown: an error unless zeros are asked for.
  ExpectError(Array(ElementType::kS32, {3}), "{...}", 0, "elided");
  Literal zeros = Parse(Array(ElementType::kS32, {3}), "{...}",
                        /*allow_elided=*/true);
  EXPECT_EQ(zeros, Literal::VectorS32({0, 0, 0}));
  // XLA elides whole tuple constants the same way.
  Shape pair = Shape::Tuple(
      {Shape::Scalar(ElementType::kF32), Array(ElementType::kS32, {2})});
  ExpectError(pair, " {...}", 1, "elided");
  Literal tuple = Parse(pair, "{...}", /*allow_elided=*/true);
  EXPECT_EQ(tuple, Literal::Tuple(
                       {Literal::ScalarF32(0), Literal::VectorS32({0, 0})}));
}

TEST(LiteralTextTest, AcceptsWhitespaceNewlinesAndIntsForFloats) {
  Literal literal =
      Parse(Array(ElementType::kF32, {2, 2}), "{\n  { 1, -2 },\n\t{3e2,.5}\n}");
  EXPECT_EQ(LiteralValueToString(literal), "{ { 1, -2 }, { 300, 0.5 } }");
  Literal tiny = Parse(Array(ElementType::kF64, {2}), "{1e-400, -1e-400}");
  EXPECT_EQ(LiteralValueToString(tiny), "{0, -0}");
  Literal plus = Parse(Shape::Scalar(ElementType::kF16), "+1.5");
  EXPECT_EQ(plus.GetDouble(0), 1.5);
}

TEST(LiteralTextTest, ReportsConsumedBytes) {
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<Literal> literal = ParseLiteralValue(
      Array(ElementType::kS32, {2}), "{1, 2}), next", &consumed, &error_offset);
  ASSERT_TRUE(literal.ok());
  EXPECT_EQ(consumed, 6u);
}

TEST(LiteralTextTest, ShapeMismatchErrorsCarryOffsets) {
  Shape s32_3 = Array(ElementType::kS32, {3});
  ExpectError(s32_3, "{1, 2}", 5, "has size 3");
  ExpectError(s32_3, "{1, 2, 3, 4}", 8, "has size 3");
  ExpectError(s32_3, "1, 2, 3", 0, "'{'");
  ExpectError(Array(ElementType::kS32, {2, 1}), "{1, 2}", 1, "'{'");
  ExpectError(Array(ElementType::kS32, {1, 2}), "{ {1, 2, 3} }", 7,
              "has size 2");
  ExpectError(s32_3, "{1, x, 3}", 4, "integer");
  ExpectError(s32_3, "{1, 2.5, 3}", 4, "integer");
  ExpectError(Shape::Scalar(ElementType::kF32), "1.5.5", 0, "number");
  ExpectError(Shape::Scalar(ElementType::kF32), "abc", 0, "number");
  ExpectError(s32_3, "{1, /* open", 4, "comment");
}

TEST(LiteralTextTest, IntegerRangeIsChecked) {
  ExpectError(Shape::Scalar(ElementType::kS8), "128", 0, "out of range for s8");
  ExpectError(Shape::Scalar(ElementType::kU8), "-1", 0, "out of range for u8");
  ExpectError(Shape::Scalar(ElementType::kS4), "8", 0, "out of range for s4");
  ExpectError(Shape::Scalar(ElementType::kU64), "18446744073709551616", 0,
              "out of range for u64");
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kS8), "-128").GetInt64(0), -128);
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kS4), "-8").GetInt64(0), -8);
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kS64), "-9223372036854775808")
                .GetInt64(0),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kU64), "18446744073709551615")
                .GetUint64(0),
            ~uint64_t{0});
}

TEST(LiteralTextTest, NaNPayloads) {
  Literal f32 = Parse(Shape::Scalar(ElementType::kF32), "-nan(0x7fffff)");
  EXPECT_EQ(f32.GetBits(0), 0xffffffffu);
  ExpectError(Shape::Scalar(ElementType::kF32), "nan(0x800000)", 0,
              "does not fit f32");
  ExpectError(Shape::Scalar(ElementType::kF32), "nan(0x0)", 0, "does not fit");
  ExpectError(Shape::Scalar(ElementType::kF8E4M3FN), "nan(0x1)", 0,
              "does not fit f8e4m3fn");
  ExpectError(Shape::Scalar(ElementType::kF32), "nan(12)", 3, "payload");
}

TEST(LiteralTextTest, RefusesHugeLiteralsBeforeAllocating) {
  Shape huge = Array(ElementType::kF32, {1000000000000000});
  size_t consumed0, error_offset0;
  absl::StatusOr<Literal> elided_huge =
      ParseLiteralValue(huge, "{...}", &consumed0, &error_offset0,
                        kDefaultMaxLiteralBytes, /*allow_elided=*/true);
  ASSERT_FALSE(elided_huge.ok());
  EXPECT_NE(elided_huge.status().message().find("limit"), std::string::npos);
  ExpectError(huge, "{1, 2}", 0, "too short");
  size_t consumed, error_offset;
  EXPECT_FALSE(ParseLiteralValue(Array(ElementType::kS8, {4}), "{1, 2, 3, 4}",
                                 &consumed, &error_offset, /*max_bytes=*/3)
                   .ok());
  Shape pair = Shape::Tuple(
      {Array(ElementType::kS8, {3}), Array(ElementType::kS8, {3})});
  EXPECT_FALSE(ParseLiteralValue(pair, "( {1, 2, 3}, {4, 5, 6} )", &consumed,
                                 &error_offset, /*max_bytes=*/5)
                   .ok());
}

TEST(LiteralTextTest, DeepShapesAreRefusedNotOverflowed) {
  std::vector<int64_t> dims(2000, 1);
  std::string text(2000, '{');
  text += "1";
  text += std::string(2000, '}');
  ExpectError(Array(ElementType::kS32, dims), text, 0, "too deeply");
  Shape nested = Shape::Scalar(ElementType::kS32);
  for (int i = 0; i < 1000; ++i) nested = Shape::Tuple({nested});
  std::string tuple_text =
      std::string(1000, '(') + "1" + std::string(1000, ')');
  size_t consumed, error_offset;
  EXPECT_FALSE(
      ParseLiteralValue(nested, tuple_text, &consumed, &error_offset).ok());
}

// Constants as XLA prints them (from compiler/text/testdata) read back and
// print again byte for byte in XLA's float style.
TEST(LiteralTextTest, XlaConstantsRoundTripExactly) {
  using E = ElementType;
  const struct {
    Shape shape;
    const char* text;
  } kCases[] = {
      {Array(E::kS1, {2}), "{-1, 0}"},
      {Array(E::kS2, {4}), "{-2, -1, 0, 1}"},
      {Array(E::kU4, {2}), "{0, 15}"},
      {Array(E::kS64, {2}), "{-9223372036854775808, 9223372036854775807}"},
      {Array(E::kU64, {2}), "{0, 18446744073709551615}"},
      {Array(E::kF16, {4}), "{-65504, 65504, 0.5, -inf}"},
      {Array(E::kBF16, {3}), "{-3.39e+38, 500, 0.125}"},
      {Array(E::kF32, {8}), "{0.1, -0.5, 1e+10, inf, -inf, nan, -nan, -0}"},
      {Array(E::kF64, {3}),
       "{3.1415926535897931, 1e-300, -1.7976931348623157e+308}"},
      {Array(E::kF8E5M2, {4}), "{1.5, -5.7e+04, inf, nan}"},
      {Array(E::kF8E4M3, {4}), "{0.5, 240, -inf, nan}"},
      {Array(E::kF8E4M3FN, {3}), "{nan, 7, -nan}"},
      {Array(E::kF8E4M3B11FNUZ, {2}), "{-nan, 7}"},
      {Array(E::kF8E3M4, {3}), "{15.5, -0.25, inf}"},
      {Array(E::kF8E5M2FNUZ, {2}), "{5.7e+04, -nan}"},
      {Array(E::kF8E4M3FNUZ, {2}), "{240, -nan}"},
      {Array(E::kF4E2M1FN, {4}), "{0, 0.5, -1.5, 6}"},
      {Array(E::kF8E8M0FNU, {3}), "{1, 0.5, nan}"},
      {Array(E::kF6E3M2FN, {2}), "{28, -0.062}"},
      {Array(E::kF6E2M3FN, {2}), "{7.5, -0.125}"},
      {Array(E::kC64, {2}), "{(1, 2), (-inf, nan)}"},
      {Shape::Scalar(E::kF32), "3.14"},
      {Array(E::kF32, {3}), "{nan(0x1), -nan(0x400007), nan}"},
      {Shape::Scalar(E::kF64), "nan(0x8000000000001)"},
      {Array(E::kF16, {2}), "{5.9605e-08, -0.00010002}"},
      {Array(E::kF32, {4}), "{1e-05, 1.17549e-38, 3.40282e+38, 65536}"},
      {Array(E::kF32, {2, 2, 1, 2}),
       "{ { /*i0=0*/ { /*i1=0*/ { 0.5, 1.5 } }, { /*i1=1*/ { 2.5, 3.5 } } }, "
       "{ /*i0=1*/ { /*i1=0*/ { 4.5, 5.5 } }, { /*i1=1*/ { 6.5, 7.5 } } } }"},
      {Array(E::kF32, {2, 0, 4, 3}), "{ { /*i0=0*/ }, { /*i0=1*/ } }"},
      {Array(E::kC64, {2, 2}),
       "{ { (1, -1), (0, 0.5) }, { (-inf, inf), (nan, -0) } }"},
      {Array(E::kPred, {2, 3}), "{ { 0, 1, 0 }, { 1, 0, 1 } }"},
      {Shape::Tuple(
           {Shape::Tuple({Shape::Scalar(E::kF32), Array(E::kS32, {2})}),
            Shape::Scalar(E::kPred)}),
       "( ( 1.5, {1, 2} ), true )"},
  };
  for (const auto& c : kCases) {
    ExpectRoundTrip(c.shape, c.text, FloatTextStyle::kXla);
  }
}

// Every bit pattern of every type of at most 16 bits prints to text that
// parses back to the same bits.
TEST(LiteralTextTest, ExhaustiveRoundTripForNarrowTypes) {
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (!IsArrayType(info.type) || info.bit_width > 16) continue;
    SCOPED_TRACE(info.name);
    int64_t count = int64_t{1} << info.bit_width;
    if (info.kind == TypeKind::kPred) count = 2;
    absl::StatusOr<Literal> literal =
        Literal::Create(Shape::Array(info.type, {count}));
    ASSERT_TRUE(literal.ok());
    for (int64_t i = 0; i < count; ++i) literal->SetBits(i, i);
    std::string text = LiteralValueToString(*literal);
    Literal back = Parse(literal->shape(), text);
    for (int64_t i = 0; i < count; ++i) {
      ASSERT_EQ(back.GetBits(i), static_cast<uint64_t>(i))
          << "pattern " << i << " printed in " << text.substr(0, 200);
    }
  }
}

// The shortest style is minimal: for every finite pattern of every float
// type of at most 16 bits, no "%.<n>g" text shorter than the printed one
// reads back to the same bits (text the parser refuses as out of range
// does not count).
TEST(LiteralTextTest, ShortestIsMinimalForNarrowFloats) {
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (info.kind != TypeKind::kFloat || info.bit_width > 16) continue;
    SCOPED_TRACE(info.name);
    for (uint64_t bits = 0; bits < (uint64_t{1} << info.bit_width); ++bits) {
      double value = BitsToFloat(info.type, bits);
      if (!std::isfinite(value)) continue;
      std::string text = FloatBitsToString(info.type, bits);
      for (int digits = 1; digits <= 17; ++digits) {
        char shorter[64];
        snprintf(shorter, sizeof(shorter), "%.*g", digits, value);
        if (strlen(shorter) >= text.size()) continue;
        double back = strtod(shorter, nullptr);
        if (IsOutOfRange(info.type, back)) continue;  // the parser refuses it
        ASSERT_NE(FloatToBits(info.type, back), bits)
            << text << " could be " << shorter;
      }
    }
  }
}

TEST(LiteralTextTest, RandomRoundTripForWideTypes) {
  std::mt19937_64 rng(1234);
  const ElementType kTypes[] = {ElementType::kF32, ElementType::kF64,
                                ElementType::kS32, ElementType::kU32,
                                ElementType::kS64, ElementType::kU64,
                                ElementType::kC64, ElementType::kC128};
  for (ElementType type : kTypes) {
    SCOPED_TRACE(ElementTypeName(type));
    absl::StatusOr<Literal> literal =
        Literal::Create(Shape::Array(type, {5000}));
    ASSERT_TRUE(literal.ok());
    for (uint8_t& byte : literal->mutable_data()) {
      byte = static_cast<uint8_t>(rng());
    }
    Literal back = Parse(literal->shape(), LiteralValueToString(*literal));
    EXPECT_EQ(back, *literal);
  }
  // Edge values of f32 and f64.
  const float kFloats[] = {std::numeric_limits<float>::max(),
                           std::numeric_limits<float>::min(),
                           std::numeric_limits<float>::denorm_min(),
                           -std::numeric_limits<float>::denorm_min(),
                           16777216.0f,
                           0.3f};
  for (float f : kFloats) {
    Literal literal = Literal::ScalarF32(f);
    EXPECT_EQ(Parse(literal.shape(), LiteralValueToString(literal)), literal)
        << f;
  }
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

TEST(LiteralTextTest, RefusesFloatsOutOfRangeForTheType) {
  ExpectError(Shape::Scalar(ElementType::kF32), "1e400", 0, "out of range");
  ExpectError(Shape::Scalar(ElementType::kF32), "-1e39", 0, "out of range");
  ExpectError(Shape::Scalar(ElementType::kF16), "65520", 0, "out of range");
  ExpectError(Shape::Scalar(ElementType::kF8E4M3FN), "500", 0, "out of range");
  ExpectError(Shape::Scalar(ElementType::kF4E2M1FN), "7", 0, "out of range");
  // Values that round to the largest finite value are fine, as are inf and
  // underflow to zero.
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kF16), "65519").GetDouble(0),
            65504.0);
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kF4E2M1FN), "6.9").GetDouble(0),
            6.0);
  EXPECT_EQ(Parse(Shape::Scalar(ElementType::kF32), "1e-60").GetDouble(0), 0.0);
  EXPECT_TRUE(
      std::isinf(Parse(Shape::Scalar(ElementType::kF16), "-inf").GetDouble(0)));
}

}  // namespace
}  // namespace kiln
