#include "compiler/ir/element_type.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(ElementTypeTest, EveryHloSpellingRoundTrips) {
  const char* kNames[] = {"pred",
                          "s1",
                          "s2",
                          "s4",
                          "s8",
                          "s16",
                          "s32",
                          "s64",
                          "u1",
                          "u2",
                          "u4",
                          "u8",
                          "u16",
                          "u32",
                          "u64",
                          "f16",
                          "bf16",
                          "f32",
                          "f64",
                          "f8e5m2",
                          "f8e4m3",
                          "f8e4m3fn",
                          "f8e4m3b11fnuz",
                          "f8e3m4",
                          "f8e5m2fnuz",
                          "f8e4m3fnuz",
                          "f4e2m1fn",
                          "f8e8m0fnu",
                          "f6e3m2fn",
                          "f6e2m3fn",
                          "c64",
                          "c128",
                          "token",
                          "opaque"};
  std::set<ElementType> seen;
  for (const char* name : kNames) {
    std::optional<ElementType> type = ElementTypeFromName(name);
    ASSERT_TRUE(type.has_value()) << name;
    EXPECT_EQ(ElementTypeName(*type), name);
    EXPECT_TRUE(seen.insert(*type).second) << name;
  }
}

TEST(ElementTypeTest, RejectsUnknownAndTupleNames) {
  EXPECT_FALSE(ElementTypeFromName("tuple").has_value());
  EXPECT_FALSE(ElementTypeFromName("invalid").has_value());
  EXPECT_FALSE(ElementTypeFromName("F32").has_value());
  EXPECT_FALSE(ElementTypeFromName("f8e4m3fnuzz").has_value());
  EXPECT_FALSE(ElementTypeFromName("").has_value());
}

TEST(ElementTypeTest, AllInfosAreInEnumOrderWithoutInvalid) {
  auto infos = AllElementTypeInfos();
  ASSERT_EQ(infos.size(), static_cast<size_t>(ElementType::kToken));
  for (size_t i = 0; i < infos.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(infos[i].type), i + 1);
    EXPECT_EQ(&GetElementTypeInfo(infos[i].type), &infos[i]);
  }
}

TEST(ElementTypeTest, IntegerWidthsAndStorage) {
  struct Case {
    ElementType type;
    int bits;
    int bytes;
    bool is_signed;
  };
  const Case kCases[] = {
      {ElementType::kS1, 1, 1, true},    {ElementType::kS2, 2, 1, true},
      {ElementType::kS4, 4, 1, true},    {ElementType::kS8, 8, 1, true},
      {ElementType::kS16, 16, 2, true},  {ElementType::kS32, 32, 4, true},
      {ElementType::kS64, 64, 8, true},  {ElementType::kU1, 1, 1, false},
      {ElementType::kU2, 2, 1, false},   {ElementType::kU4, 4, 1, false},
      {ElementType::kU8, 8, 1, false},   {ElementType::kU16, 16, 2, false},
      {ElementType::kU32, 32, 4, false}, {ElementType::kU64, 64, 8, false},
      {ElementType::kPred, 8, 1, false},
  };
  for (const Case& c : kCases) {
    const ElementTypeInfo& info = GetElementTypeInfo(c.type);
    EXPECT_EQ(info.bit_width, c.bits) << info.name;
    EXPECT_EQ(info.storage_bytes, c.bytes) << info.name;
    EXPECT_EQ(info.is_signed, c.is_signed) << info.name;
    EXPECT_EQ(IsIntegralType(c.type), c.type != ElementType::kPred);
  }
}

TEST(ElementTypeTest, FloatRowsAreConsistent) {
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (info.kind != TypeKind::kFloat) {
      EXPECT_EQ(info.encoding, FloatEncoding::kNotFloat) << info.name;
      continue;
    }
    EXPECT_EQ(
        info.exponent_bits + info.mantissa_bits + (info.is_signed ? 1 : 0),
        info.bit_width)
        << info.name;
    EXPECT_EQ(info.storage_bytes, info.bit_width <= 8 ? 1 : info.bit_width / 8)
        << info.name;
    EXPECT_NE(info.encoding, FloatEncoding::kNotFloat) << info.name;
    EXPECT_EQ(info.has_inf, info.encoding == FloatEncoding::kIeee) << info.name;
  }
}

TEST(ElementTypeTest, SpecialFloatProperties) {
  const ElementTypeInfo& fn = GetElementTypeInfo(ElementType::kF8E4M3FN);
  EXPECT_EQ(fn.exponent_bias, 7);
  EXPECT_TRUE(fn.has_nan);
  EXPECT_TRUE(fn.has_negative_zero);
  const ElementTypeInfo& b11 = GetElementTypeInfo(ElementType::kF8E4M3B11FNUZ);
  EXPECT_EQ(b11.exponent_bias, 11);
  EXPECT_FALSE(b11.has_negative_zero);
  EXPECT_EQ(b11.encoding, FloatEncoding::kFiniteUnsignedZero);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kF8E5M2FNUZ).exponent_bias, 16);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kF8E4M3FNUZ).exponent_bias, 8);
  const ElementTypeInfo& f4 = GetElementTypeInfo(ElementType::kF4E2M1FN);
  EXPECT_FALSE(f4.has_nan);
  EXPECT_FALSE(f4.has_inf);
  EXPECT_EQ(f4.bit_width, 4);
  const ElementTypeInfo& e8m0 = GetElementTypeInfo(ElementType::kF8E8M0FNU);
  EXPECT_FALSE(e8m0.is_signed);
  EXPECT_EQ(e8m0.mantissa_bits, 0);
  EXPECT_EQ(e8m0.encoding, FloatEncoding::kExponentOnly);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kBF16).exponent_bits, 8);
}

TEST(ElementTypeTest, ComplexAndNonArrayTypes) {
  EXPECT_EQ(GetElementTypeInfo(ElementType::kC64).component, ElementType::kF32);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kC128).component,
            ElementType::kF64);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kC64).storage_bytes, 8);
  EXPECT_EQ(GetElementTypeInfo(ElementType::kC128).storage_bytes, 16);
  EXPECT_TRUE(IsComplexType(ElementType::kC64));
  EXPECT_FALSE(IsArrayType(ElementType::kTuple));
  EXPECT_FALSE(IsArrayType(ElementType::kToken));
  EXPECT_FALSE(IsArrayType(ElementType::kOpaque));
  EXPECT_FALSE(IsArrayType(ElementType::kInvalid));
  EXPECT_TRUE(IsArrayType(ElementType::kPred));
  EXPECT_EQ(BitWidth(ElementType::kToken), 0);
}

}  // namespace
}  // namespace kiln
