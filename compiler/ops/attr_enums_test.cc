#include "compiler/ops/attr_enums.h"

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(AttrEnumsTest, SpellingsMapToTypedValuesInSchemaOrder) {
  EXPECT_EQ(ParseComparisonDirection("GT"), ComparisonDirection::kGt);
  EXPECT_EQ(ParseComparisonType("TOTALORDER"), ComparisonType::kTotalOrder);
  EXPECT_EQ(ParseFusionKind("kOutput"), FusionKind::kOutput);
  EXPECT_EQ(ParseFftType("IRFFT"), FftType::kIrfft);
  EXPECT_EQ(ParseRandomDistribution("rng_normal"), RandomDistribution::kNormal);
  EXPECT_EQ(ParseRandomAlgorithm("rng_philox"), RandomAlgorithm::kPhilox);
  EXPECT_EQ(ParsePrecision("highest"), Precision::kHighest);
  EXPECT_EQ(ParseComparisonDirection("gt"), std::nullopt);
  EXPECT_EQ(ParseFusionKind("loop"), std::nullopt);
}

TEST(AttrEnumsTest, ToEnumValueRoundTrips) {
  EXPECT_EQ(ToEnumValue(ComparisonDirection::kLe).spelling, "LE");
  EXPECT_EQ(ToEnumValue(ComparisonType::kUnsigned).spelling, "UNSIGNED");
  EXPECT_EQ(ToEnumValue(FusionKind::kCustom).spelling, "kCustom");
  EXPECT_EQ(ToEnumValue(FftType::kRfft).spelling, "RFFT");
  EXPECT_EQ(ToEnumValue(RandomDistribution::kUniform).spelling, "rng_uniform");
  EXPECT_EQ(ToEnumValue(RandomAlgorithm::kThreeFry).spelling, "rng_three_fry");
  EXPECT_EQ(ToEnumValue(Precision::kPackedNibble).spelling, "packed_nibble");
  for (int i = 0; i <= static_cast<int>(ComparisonDirection::kLt); ++i) {
    auto direction = static_cast<ComparisonDirection>(i);
    EXPECT_EQ(ParseComparisonDirection(ToEnumValue(direction).spelling),
              direction);
  }
}

TEST(AttrEnumsTest, EnumIndex) {
  EXPECT_EQ(EnumIndex(Opcode::kCompare, "direction", "NE"), 1);
  EXPECT_EQ(
      EnumIndex(Opcode::kCustomCall, "api_version", "API_VERSION_TYPED_FFI"),
      4);
  EXPECT_EQ(EnumIndex(Opcode::kCompare, "direction", "XX"), std::nullopt);
  EXPECT_EQ(EnumIndex(Opcode::kAdd, "direction", "EQ"), std::nullopt);
}

}  // namespace
}  // namespace kiln
