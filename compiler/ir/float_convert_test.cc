#include "compiler/ir/float_convert.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every float type narrower than f32.
std::vector<ElementType> NarrowFloatTypes() {
  std::vector<ElementType> types;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (info.kind == TypeKind::kFloat && info.bit_width <= 16) {
      types.push_back(info.type);
    }
  }
  return types;
}

uint64_t SignBit(ElementType t) {
  const ElementTypeInfo& info = GetElementTypeInfo(t);
  return info.is_signed ? uint64_t{1} << (info.bit_width - 1) : 0;
}

// Positive finite patterns in increasing order: 0 (or the smallest value)
// up to the largest finite pattern.
std::vector<uint64_t> PositiveFinitePatterns(ElementType t) {
  std::vector<uint64_t> out;
  uint64_t limit = uint64_t{1} << (BitWidth(t) - (SignBit(t) ? 1 : 0));
  for (uint64_t p = 0; p < limit; ++p) {
    double v = BitsToFloat(t, p);
    if (std::isfinite(v)) out.push_back(p);
  }
  return out;
}

TEST(FloatConvertTest, KnownLimits) {
  struct Case {
    ElementType type;
    double max, min_normal, min_subnormal;
  };
  const Case kCases[] = {
      {ElementType::kF16, 65504, std::ldexp(1, -14), std::ldexp(1, -24)},
      {ElementType::kBF16, std::ldexp(255, 120), std::ldexp(1, -126),
       std::ldexp(1, -133)},
      {ElementType::kF32, std::numeric_limits<float>::max(),
       std::numeric_limits<float>::min(),
       std::numeric_limits<float>::denorm_min()},
      {ElementType::kF64, std::numeric_limits<double>::max(),
       std::numeric_limits<double>::min(),
       std::numeric_limits<double>::denorm_min()},
      {ElementType::kF8E5M2, 57344, std::ldexp(1, -14), std::ldexp(1, -16)},
      {ElementType::kF8E4M3, 240, std::ldexp(1, -6), std::ldexp(1, -9)},
      {ElementType::kF8E4M3FN, 448, std::ldexp(1, -6), std::ldexp(1, -9)},
      {ElementType::kF8E4M3B11FNUZ, 30, std::ldexp(1, -10), std::ldexp(1, -13)},
      {ElementType::kF8E3M4, 15.5, 0.25, std::ldexp(1, -6)},
      {ElementType::kF8E5M2FNUZ, 57344, std::ldexp(1, -15), std::ldexp(1, -17)},
      {ElementType::kF8E4M3FNUZ, 240, std::ldexp(1, -7), std::ldexp(1, -10)},
      {ElementType::kF4E2M1FN, 6, 1, 0.5},
      {ElementType::kF8E8M0FNU, std::ldexp(1, 127), std::ldexp(1, -127),
       std::ldexp(1, -127)},
      {ElementType::kF6E3M2FN, 28, 0.25, 0.0625},
      {ElementType::kF6E2M3FN, 7.5, 1, 0.125},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(ElementTypeName(c.type));
    EXPECT_EQ(FloatMax(c.type), c.max);
    EXPECT_EQ(FloatMinNormal(c.type), c.min_normal);
    EXPECT_EQ(FloatMinSubnormal(c.type), c.min_subnormal);
    EXPECT_EQ(BitsToFloat(c.type, FloatToBits(c.type, c.max)), c.max);
    EXPECT_EQ(BitsToFloat(c.type, FloatToBits(c.type, c.min_subnormal)),
              c.min_subnormal);
  }
}

TEST(FloatConvertTest, SpecialValues) {
  struct Case {
    ElementType type;
    uint64_t inf, neg_inf, nan, neg_nan, neg_zero, zero;
  };
  const Case kCases[] = {
      {ElementType::kF16, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x8000, 0},
      {ElementType::kBF16, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x8000, 0},
      {ElementType::kF8E5M2, 0x7c, 0xfc, 0x7e, 0xfe, 0x80, 0},
      {ElementType::kF8E4M3, 0x78, 0xf8, 0x7c, 0xfc, 0x80, 0},
      {ElementType::kF8E3M4, 0x70, 0xf0, 0x78, 0xf8, 0x80, 0},
      {ElementType::kF8E4M3FN, 0x7f, 0xff, 0x7f, 0xff, 0x80, 0},
      {ElementType::kF8E4M3B11FNUZ, 0x80, 0x80, 0x80, 0x80, 0, 0},
      {ElementType::kF8E5M2FNUZ, 0x80, 0x80, 0x80, 0x80, 0, 0},
      {ElementType::kF8E4M3FNUZ, 0x80, 0x80, 0x80, 0x80, 0, 0},
      // No inf and no NaN: inf saturates; NaN becomes ml_dtypes' stand-in,
      // the pattern of -0, and -NaN its negation, +0.
      {ElementType::kF4E2M1FN, 0x7, 0xf, 0x8, 0x0, 0x8, 0},
      {ElementType::kF6E3M2FN, 0x1f, 0x3f, 0x20, 0x0, 0x20, 0},
      {ElementType::kF6E2M3FN, 0x1f, 0x3f, 0x20, 0x0, 0x20, 0},
      // No sign and no zero: all of these are NaN.
      {ElementType::kF8E8M0FNU, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(ElementTypeName(c.type));
    EXPECT_EQ(FloatToBits(c.type, kInf), c.inf);
    EXPECT_EQ(FloatToBits(c.type, -kInf), c.neg_inf);
    EXPECT_EQ(FloatToBits(c.type, kNaN), c.nan);
    EXPECT_EQ(FloatToBits(c.type, -kNaN), c.neg_nan);
    EXPECT_EQ(FloatToBits(c.type, -0.0), c.neg_zero);
    EXPECT_EQ(FloatToBits(c.type, 0.0), c.zero);
  }
  EXPECT_EQ(FloatToBits(ElementType::kF8E8M0FNU, -1.0), 0xffu);
  EXPECT_EQ(FloatToBits(ElementType::kF8E8M0FNU, 1.0), 127u);
  // fnuz: a negative value that rounds to zero is +0.
  EXPECT_EQ(FloatToBits(ElementType::kF8E4M3FNUZ, -1e-30), 0u);
  EXPECT_EQ(FloatToBits(ElementType::kF8E4M3FN, -1e-30), 0x80u);
}

TEST(FloatConvertTest, NaNDecoding) {
  EXPECT_TRUE(std::isnan(BitsToFloat(ElementType::kF8E4M3FN, 0x7f)));
  EXPECT_TRUE(std::signbit(BitsToFloat(ElementType::kF8E4M3FN, 0xff)));
  EXPECT_EQ(BitsToFloat(ElementType::kF8E4M3FN, 0x7e), 448);
  EXPECT_TRUE(std::isnan(BitsToFloat(ElementType::kF8E5M2FNUZ, 0x80)));
  EXPECT_TRUE(std::isnan(BitsToFloat(ElementType::kF8E8M0FNU, 0xff)));
  EXPECT_EQ(BitsToFloat(ElementType::kF8E8M0FNU, 0), std::ldexp(1, -127));
  EXPECT_EQ(BitsToFloat(ElementType::kF4E2M1FN, 0x8), 0.0);
  EXPECT_TRUE(std::signbit(BitsToFloat(ElementType::kF4E2M1FN, 0x8)));
  EXPECT_TRUE(std::isinf(BitsToFloat(ElementType::kF8E5M2, 0xfc)));
  EXPECT_TRUE(FloatBitsIsNaN(ElementType::kF8E5M2, 0x7d));
  EXPECT_FALSE(FloatBitsIsNaN(ElementType::kF8E5M2, 0x7c));
  EXPECT_FALSE(FloatBitsIsNaN(ElementType::kF6E2M3FN, 0x3f));
  EXPECT_TRUE(FloatBitsIsNaN(ElementType::kF32, 0x7f800001));
  EXPECT_TRUE(FloatBitsIsNaN(ElementType::kF64, 0xfff0000000000001));
  // A narrow IEEE NaN payload lands in the top bits of the double's payload.
  double wide = BitsToFloat(ElementType::kF16, 0x7c01);
  uint64_t wide_bits;
  std::memcpy(&wide_bits, &wide, sizeof(wide));
  EXPECT_EQ(wide_bits, 0x7ff8040000000000u);
}

// f32 and f64 keep NaN payloads (the hardware keeps the top payload bits
// and quiets); the narrow types drop them, as Eigen and ml_dtypes do.
TEST(FloatConvertTest, NaNPayloadsWhereRepresentable) {
  double payload_nan;
  uint64_t wide = 0xfff8000020000000;
  std::memcpy(&payload_nan, &wide, sizeof(wide));
  EXPECT_EQ(FloatToBits(ElementType::kF32, payload_nan), 0xffc00001u);
  EXPECT_EQ(FloatToBits(ElementType::kF64, payload_nan), wide);
  double back = BitsToFloat(ElementType::kF32, 0xffc00001);
  uint64_t back_bits;
  std::memcpy(&back_bits, &back, sizeof(back));
  EXPECT_EQ(back_bits, wide);
  EXPECT_EQ(FloatToBits(ElementType::kF16, payload_nan), 0xfe00u);
  EXPECT_EQ(FloatToBits(ElementType::kBF16, payload_nan), 0xffc0u);
  EXPECT_EQ(FloatToBits(ElementType::kF8E5M2, payload_nan), 0xfeu);
}

TEST(FloatConvertTest, TextOfNonFloatTypesIsEmpty) {
  std::string out = "x";
  AppendFloatText(&out, ElementType::kS32, 5);
  AppendFloatText(&out, ElementType::kC64, 5);
  EXPECT_EQ(out, "x");
  AppendFloatText(&out, ElementType::kF16, 0x3c00);
  EXPECT_EQ(out, "x1");
}

TEST(FloatConvertTest, ExhaustiveRoundTripOfEveryPattern) {
  for (ElementType t : NarrowFloatTypes()) {
    SCOPED_TRACE(ElementTypeName(t));
    for (uint64_t p = 0; p < (uint64_t{1} << BitWidth(t)); ++p) {
      double v = BitsToFloat(t, p);
      uint64_t back = FloatToBits(t, v);
      if (FloatBitsIsNaN(t, p)) {
        ASSERT_TRUE(std::isnan(v)) << p;
        ASSERT_TRUE(FloatBitsIsNaN(t, back)) << p;
      } else {
        ASSERT_EQ(back, p) << p;
      }
    }
  }
}

TEST(FloatConvertTest, PositiveValuesIncreaseWithTheirPattern) {
  for (ElementType t : NarrowFloatTypes()) {
    SCOPED_TRACE(ElementTypeName(t));
    std::vector<uint64_t> patterns = PositiveFinitePatterns(t);
    for (size_t i = 1; i < patterns.size(); ++i) {
      ASSERT_EQ(patterns[i], patterns[i - 1] + 1);
      ASSERT_LT(BitsToFloat(t, patterns[i - 1]), BitsToFloat(t, patterns[i]));
    }
    if (SignBit(t) == 0) continue;
    for (uint64_t p : patterns) {
      if (p == 0 && !GetElementTypeInfo(t).has_negative_zero) continue;
      ASSERT_EQ(BitsToFloat(t, p | SignBit(t)), -BitsToFloat(t, p));
    }
  }
}

// Every midpoint between neighbours goes to the even pattern (e8m0: up, as
// ml_dtypes does with no mantissa bits); a hair off it goes to the nearer.
TEST(FloatConvertTest, ExhaustiveMidpointsRoundToNearestEven) {
  for (ElementType t : NarrowFloatTypes()) {
    SCOPED_TRACE(ElementTypeName(t));
    bool ties_up = GetElementTypeInfo(t).mantissa_bits == 0;
    std::vector<uint64_t> patterns = PositiveFinitePatterns(t);
    // e8m0's first step is special, see E8M0RoundsLikeMlDtypes.
    for (size_t i = ties_up ? 2 : 1; i < patterns.size(); ++i) {
      uint64_t lo = patterns[i - 1], hi = patterns[i];
      double a = BitsToFloat(t, lo), b = BitsToFloat(t, hi);
      double mid = (a + b) / 2;
      uint64_t even = (ties_up || (lo & 1)) ? hi : lo;
      ASSERT_EQ(FloatToBits(t, mid), even) << mid;
      ASSERT_EQ(FloatToBits(t, std::nextafter(mid, a)), lo) << mid;
      ASSERT_EQ(FloatToBits(t, std::nextafter(mid, b)), hi) << mid;
      if (SignBit(t) != 0) {
        // fnuz has no -0: a negative tie to zero is +0.
        bool plus_zero = even == 0 && !GetElementTypeInfo(t).has_negative_zero;
        ASSERT_EQ(FloatToBits(t, -mid), plus_zero ? 0 : even | SignBit(t))
            << mid;
      }
    }
  }
}

// ml_dtypes treats e8m0's exponent field 0 (2^-127) like a subnormal field
// while rounding, so everything in (2^-127, 2^-126] becomes 2^-126 and
// everything at or below 2^-127 becomes 2^-127. Ties elsewhere round up.
TEST(FloatConvertTest, E8M0RoundsLikeMlDtypes) {
  const ElementType t = ElementType::kF8E8M0FNU;
  double smallest = std::ldexp(1, -127);
  EXPECT_EQ(FloatToBits(t, smallest), 0u);
  EXPECT_EQ(FloatToBits(t, std::nextafter(smallest, 1)), 1u);
  EXPECT_EQ(FloatToBits(t, smallest * 1.25), 1u);
  EXPECT_EQ(FloatToBits(t, smallest * 0.75), 0u);
  EXPECT_EQ(FloatToBits(t, 1.5), 128u);   // tie: up to 2
  EXPECT_EQ(FloatToBits(t, 1.49), 127u);  // 1
  EXPECT_EQ(FloatToBits(t, 3.0), 129u);   // tie: up to 4
  EXPECT_EQ(BitsToFloat(t, 254), std::ldexp(1, 127));
}

TEST(FloatConvertTest, OverflowFollowsEachTypesRule) {
  for (ElementType t : NarrowFloatTypes()) {
    SCOPED_TRACE(ElementTypeName(t));
    std::vector<uint64_t> patterns = PositiveFinitePatterns(t);
    uint64_t max_bits = patterns.back();
    double max = BitsToFloat(t, max_bits);
    double ulp = max - BitsToFloat(t, patterns[patterns.size() - 2]);
    if (GetElementTypeInfo(t).mantissa_bits == 0) ulp = max;
    uint64_t overflow = FloatToBits(t, kInf);
    EXPECT_EQ(FloatToBits(t, std::nextafter(max + ulp / 2, 0)), max_bits);
    EXPECT_EQ(FloatToBits(t, std::nextafter(max + ulp / 2, kInf)), overflow);
    EXPECT_EQ(FloatToBits(t, max * 4), overflow);
    EXPECT_EQ(FloatToBits(t, 1e300), overflow);
    bool max_is_even =
        (max_bits & 1) == 0 && GetElementTypeInfo(t).mantissa_bits > 0;
    EXPECT_EQ(FloatToBits(t, max + ulp / 2), max_is_even ? max_bits : overflow);
  }
  // Types without inf or NaN saturate; e4m3fn overflows to NaN.
  EXPECT_EQ(FloatToBits(ElementType::kF4E2M1FN, 100.0), 0x7u);
  EXPECT_EQ(FloatToBits(ElementType::kF4E2M1FN, -100.0), 0xfu);
  EXPECT_EQ(FloatToBits(ElementType::kF8E4M3FN, 1000.0), 0x7fu);
  EXPECT_EQ(FloatToBits(ElementType::kF8E4M3FN, 464.0), 0x7eu);  // tie: even
  EXPECT_EQ(FloatToBits(ElementType::kF8E5M2, 61440.0), 0x7cu);  // tie: inf
  EXPECT_EQ(FloatToBits(ElementType::kF16, 65520.0), 0x7c00u);
  EXPECT_EQ(FloatToBits(ElementType::kF16, 65519.99), 0x7bffu);
}

TEST(FloatConvertTest, UnderflowAndSubnormals) {
  for (ElementType t : NarrowFloatTypes()) {
    SCOPED_TRACE(ElementTypeName(t));
    double tiny = FloatMinSubnormal(t);
    if (GetElementTypeInfo(t).mantissa_bits == 0) {
      // e8m0 has no zero: everything small becomes its smallest value.
      EXPECT_EQ(FloatToBits(t, tiny / 2), 0u);
      EXPECT_EQ(FloatToBits(t, 1e-300), 0u);
      continue;
    }
    EXPECT_EQ(FloatToBits(t, tiny / 2), 0u);  // tie: to even (zero)
    EXPECT_EQ(FloatToBits(t, std::nextafter(tiny / 2, 1)), 1u);
    EXPECT_EQ(FloatToBits(t, tiny * 1.5), 2u);  // tie: to even
    EXPECT_EQ(FloatToBits(t, 1e-300), 0u);
    EXPECT_EQ(FloatToBits(t, std::numeric_limits<double>::denorm_min()), 0u);
  }
}

TEST(FloatConvertTest, F16AndBF16ValuesMatchIeeeReference) {
  // 1 + 2^-10 is the f16 value after 1; 1 + 2^-11 is a tie, to even (1).
  EXPECT_EQ(FloatToBits(ElementType::kF16, 1.0), 0x3c00u);
  EXPECT_EQ(FloatToBits(ElementType::kF16, 1 + std::ldexp(1, -11)), 0x3c00u);
  EXPECT_EQ(FloatToBits(ElementType::kF16, 1 + 3 * std::ldexp(1, -11)),
            0x3c02u);
  EXPECT_EQ(FloatToBits(ElementType::kF16, 0.1), 0x2e66u);
  EXPECT_EQ(FloatToBits(ElementType::kBF16, 0.1), 0x3dcdu);
  EXPECT_EQ(FloatToBits(ElementType::kBF16, 3.0), 0x4040u);
  EXPECT_EQ(BitsToFloat(ElementType::kBF16, 0x3f80), 1.0);
  EXPECT_EQ(FloatToBits(ElementType::kF8E4M3FN, 0.1), 0x1du);
  EXPECT_EQ(FloatToBits(ElementType::kF8E5M2, 0.1), 0x2eu);
}

// bf16 is the top half of an f32: rounding to nearest even is adding
// 0x7fff plus the lowest kept bit, then truncating.
TEST(FloatConvertTest, BF16MatchesF32TopHalfRounding) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 300000; ++i) {
    uint32_t fbits = i < 65536 ? static_cast<uint32_t>(i) << 16 : any(rng);
    float f;
    std::memcpy(&f, &fbits, sizeof(f));
    if (std::isnan(f)) continue;
    uint32_t want = (fbits + 0x7fff + ((fbits >> 16) & 1)) >> 16;
    ASSERT_EQ(FloatToBits(ElementType::kBF16, f), want) << f;
    if (i < 65536) {
      ASSERT_EQ(BitsToFloat(ElementType::kBF16, fbits >> 16), f);
    }
  }
}

#if defined(__FLT16_MAX__)
TEST(FloatConvertTest, F16MatchesCompilerFloat16Exhaustively) {
  for (uint32_t p = 0; p < 65536; ++p) {
    uint16_t bits = static_cast<uint16_t>(p);
    _Float16 h;
    std::memcpy(&h, &bits, sizeof(h));
    double want = static_cast<double>(h);
    double got = BitsToFloat(ElementType::kF16, p);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << p;
      continue;
    }
    ASSERT_EQ(got, want) << p;
    ASSERT_EQ(std::signbit(got), std::signbit(want)) << p;
  }
  std::mt19937 rng(42);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint32_t fbits = any(rng);
    float f;
    std::memcpy(&f, &fbits, sizeof(f));
    if (std::isnan(f)) continue;
    _Float16 h = static_cast<_Float16>(f);
    uint16_t want;
    std::memcpy(&want, &h, sizeof(want));
    ASSERT_EQ(FloatToBits(ElementType::kF16, f), want) << f;
  }
}
#endif

TEST(FloatConvertTest, HalfAndBfloat16MatchEigenExhaustively) {
  for (uint32_t p = 0; p < 65536; ++p) {
    uint16_t bits = static_cast<uint16_t>(p);
    Eigen::half h = Eigen::numext::bit_cast<Eigen::half>(bits);
    Eigen::bfloat16 b = Eigen::numext::bit_cast<Eigen::bfloat16>(bits);
    for (auto [type, want] : {std::pair{ElementType::kF16, float(h)},
                              std::pair{ElementType::kBF16, float(b)}}) {
      double got = BitsToFloat(type, p);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got));
        ASSERT_TRUE(FloatBitsIsNaN(type, p));
        continue;
      }
      ASSERT_EQ(got, want) << p;
      // Every float the value is next to converts like Eigen does.
      for (float f :
           {want, std::nextafter(want, 1e30f), std::nextafter(want, -1e30f)}) {
        uint16_t eigen_bits =
            type == ElementType::kF16
                ? Eigen::numext::bit_cast<uint16_t>(Eigen::half(f))
                : Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f));
        ASSERT_EQ(FloatToBits(type, f), eigen_bits) << f;
      }
    }
  }
}

TEST(FloatConvertTest, F32AndF64UseHardwareConversion) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    float f = static_cast<float>(d);
    uint32_t fbits;
    std::memcpy(&fbits, &f, sizeof(f));
    ASSERT_EQ(FloatToBits(ElementType::kF32, d), fbits);
    ASSERT_EQ(FloatToBits(ElementType::kF64, d), bits);
    if (!std::isnan(d)) {
      ASSERT_EQ(BitsToFloat(ElementType::kF64, bits), d);
    }
  }
  EXPECT_EQ(FloatToBits(ElementType::kF32, 16777217.0), 0x4b800000u);
  EXPECT_EQ(FloatToBits(ElementType::kF32, 3.4028235677973366e38), 0x7f800000u);
}

}  // namespace
}  // namespace kiln
