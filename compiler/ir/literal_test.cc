#include "compiler/ir/literal.h"

#include <cmath>
#include <limits>

#include "compiler/ir/float_convert.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Literal Make(ElementType type, std::vector<int64_t> dims) {
  absl::StatusOr<Literal> literal = Literal::Create(Shape::Array(type, dims));
  EXPECT_TRUE(literal.ok()) << literal.status();
  return literal.ok() ? *std::move(literal) : Literal();
}

TEST(LiteralTest, CreateIsZeroFilledWithStorageBytesPerElement) {
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (!IsArrayType(info.type)) continue;
    SCOPED_TRACE(info.name);
    Literal literal = Make(info.type, {2, 3});
    EXPECT_EQ(literal.element_count(), 6);
    EXPECT_EQ(literal.data().size(), 6u * info.storage_bytes);
    for (uint8_t byte : literal.data()) EXPECT_EQ(byte, 0);
  }
}

TEST(LiteralTest, RefusesHugeShapesWithoutAllocating) {
  Shape huge = Shape::Array(ElementType::kF32, {1000000, 1000000, 1000});
  absl::StatusOr<Literal> literal = Literal::Create(huge);
  ASSERT_FALSE(literal.ok());
  EXPECT_NE(literal.status().message().find("limit"), std::string::npos)
      << literal.status();
  Shape overflow = Shape::Array(ElementType::kF64, {int64_t{1} << 62, 4});
  EXPECT_FALSE(Literal::Create(overflow).ok());
  EXPECT_FALSE(Literal::Create(Shape::Array(ElementType::kS8, {100}), 99).ok());
  EXPECT_TRUE(Literal::Create(Shape::Array(ElementType::kS8, {100}), 100).ok());
  // The limit covers a tuple as a whole.
  Shape pair = Shape::Tuple({Shape::Array(ElementType::kS8, {60}),
                             Shape::Array(ElementType::kS8, {60})});
  EXPECT_FALSE(Literal::Create(pair, 100).ok());
}

TEST(LiteralTest, CreateForOverwriteSizesLikeCreateAndKeepsItsLimits) {
  Shape pair = Shape::Tuple({Shape::Array(ElementType::kF32, {3, 5}),
                             Shape::Array(ElementType::kBF16, {7})});
  absl::StatusOr<Literal> literal = Literal::CreateForOverwrite(pair);
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_EQ(literal->shape(), pair);
  EXPECT_EQ(literal->tuple_elements()[0].data().size(), 60u);
  EXPECT_EQ(literal->tuple_elements()[1].data().size(), 14u);
  EXPECT_EQ(literal->tuple_elements()[1].element_count(), 7);
  EXPECT_FALSE(Literal::CreateForOverwrite(pair, 73).ok());
  Shape overflow = Shape::Array(ElementType::kF64, {int64_t{1} << 62, 4});
  EXPECT_FALSE(Literal::CreateForOverwrite(overflow).ok());
  // Once written, it is an ordinary literal: copies compare equal.
  Literal written = *std::move(literal);
  for (uint8_t& byte : written.mutable_tuple_elements()->at(0).mutable_data()) {
    byte = 0x3f;
  }
  for (uint8_t& byte : written.mutable_tuple_elements()->at(1).mutable_data()) {
    byte = 0;
  }
  Literal copy = written;
  EXPECT_TRUE(copy == written);
  EXPECT_EQ(copy.tuple_elements()[0].GetBits(14), 0x3f3f3f3fu);
}

TEST(LiteralTest, RefusesDynamicShapes) {
  Shape dynamic = Shape::DynamicArray(ElementType::kF32, {4}, {true});
  EXPECT_FALSE(Literal::Create(dynamic).ok());
  Shape unbounded =
      Shape::DynamicArray(ElementType::kF32, {Shape::kUnboundedSize}, {true});
  EXPECT_FALSE(Literal::Create(unbounded).ok());
}

TEST(LiteralTest, SignedSubByteIntegersSignExtend) {
  Literal s4 = Make(ElementType::kS4, {3});
  s4.SetInt64(0, -1);
  s4.SetInt64(1, 7);
  s4.SetInt64(2, 8);  // wraps to -8
  EXPECT_EQ(s4.GetBits(0), 0xfu);
  EXPECT_EQ(s4.data()[0], 0x0f);  // low bits only
  EXPECT_EQ(s4.GetInt64(0), -1);
  EXPECT_EQ(s4.GetInt64(1), 7);
  EXPECT_EQ(s4.GetInt64(2), -8);
  Literal s1 = Make(ElementType::kS1, {1});
  s1.SetInt64(0, 1);
  EXPECT_EQ(s1.GetInt64(0), -1);
  Literal u2 = Make(ElementType::kU2, {1});
  u2.SetInt64(0, -1);
  EXPECT_EQ(u2.GetUint64(0), 3u);
}

TEST(LiteralTest, IntegersWrapToTheirWidth) {
  Literal s8 = Make(ElementType::kS8, {1});
  s8.SetInt64(0, 200);
  EXPECT_EQ(s8.GetInt64(0), -56);
  Literal u16 = Make(ElementType::kU16, {1});
  u16.SetInt64(0, -1);
  EXPECT_EQ(u16.GetUint64(0), 65535u);
  Literal s64 = Make(ElementType::kS64, {1});
  s64.SetInt64(0, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s64.GetInt64(0), std::numeric_limits<int64_t>::min());
  Literal u64 = Make(ElementType::kU64, {1});
  u64.SetUint64(0, ~uint64_t{0});
  EXPECT_EQ(u64.GetUint64(0), ~uint64_t{0});
  Literal pred = Make(ElementType::kPred, {1});
  pred.SetInt64(0, 42);
  EXPECT_EQ(pred.GetInt64(0), 1);
}

TEST(LiteralTest, SetDoubleRoundsIntoNarrowFloats) {
  Literal bf16 = Make(ElementType::kBF16, {1});
  bf16.SetDouble(0, 0.1);
  EXPECT_EQ(bf16.GetBits(0), 0x3dcdu);
  EXPECT_EQ(bf16.GetDouble(0), BitsToFloat(ElementType::kBF16, 0x3dcd));
  Literal f8 = Make(ElementType::kF8E4M3FN, {1});
  f8.SetDouble(0, 1e6);
  EXPECT_EQ(f8.GetBits(0), 0x7fu);  // overflow: NaN
  Literal f4 = Make(ElementType::kF4E2M1FN, {1});
  f4.SetDouble(0, -100);
  EXPECT_EQ(f4.GetBits(0), 0xfu);  // saturates
  EXPECT_EQ(f4.GetDouble(0), -6.0);
  Literal f32 = Make(ElementType::kF32, {1});
  f32.SetDouble(0, 1.0 / 3);
  EXPECT_EQ(f32.GetDouble(0), static_cast<double>(1.0f / 3));
}

TEST(LiteralTest, SetDoubleOnIntegersSaturatesLikeConvert) {
  Literal s8 = Make(ElementType::kS8, {4});
  s8.SetDouble(0, 1e10);
  s8.SetDouble(1, -1e10);
  s8.SetDouble(2, std::nan(""));
  s8.SetDouble(3, -3.7);
  EXPECT_EQ(s8.GetInt64(0), 127);
  EXPECT_EQ(s8.GetInt64(1), -128);
  EXPECT_EQ(s8.GetInt64(2), 0);
  EXPECT_EQ(s8.GetInt64(3), -3);
  Literal u8 = Make(ElementType::kU8, {1});
  u8.SetDouble(0, -5);
  EXPECT_EQ(u8.GetUint64(0), 0u);
}

TEST(LiteralTest, ComplexStoresRealFirst) {
  Literal c64 = Make(ElementType::kC64, {2});
  c64.SetComplex(1, {1.5, -2.0});
  EXPECT_EQ(c64.GetComplex(1), std::complex<double>(1.5, -2.0));
  EXPECT_EQ(c64.GetComplex(0), std::complex<double>(0, 0));
  // 1.5f = 0x3fc00000, stored little-endian at bytes 8..11.
  EXPECT_EQ(c64.data()[10], 0xc0);
  EXPECT_EQ(c64.data()[11], 0x3f);
  Literal c128 = Make(ElementType::kC128, {1});
  c128.SetComplex(0, {0.1, 1e300});
  EXPECT_EQ(c128.GetComplex(0), std::complex<double>(0.1, 1e300));
  EXPECT_EQ(c128.GetDouble(0), 0.1);
}

TEST(LiteralTest, ConvenienceConstructors) {
  EXPECT_EQ(Literal::ScalarF32(2.5f).GetDouble(0), 2.5);
  EXPECT_TRUE(Literal::ScalarF32(2.5f).shape().IsScalar());
  EXPECT_EQ(Literal::ScalarS32(-7).GetInt64(0), -7);
  EXPECT_EQ(Literal::ScalarPred(true).GetInt64(0), 1);
  Literal v = Literal::VectorS32({1, 2, 3});
  EXPECT_EQ(v.shape(), Shape::Array(ElementType::kS32, {3}));
  EXPECT_EQ(v.GetInt64(2), 3);
  Literal f = Literal::VectorF32({0.5f, -1.0f});
  EXPECT_EQ(f.element_count(), 2);
  EXPECT_EQ(f.GetDouble(1), -1.0);
}

TEST(LiteralTest, LinearIndexIsRowMajor) {
  Literal literal = Make(ElementType::kS32, {2, 3, 4});
  EXPECT_EQ(literal.LinearIndex({0, 0, 0}), 0);
  EXPECT_EQ(literal.LinearIndex({0, 0, 1}), 1);
  EXPECT_EQ(literal.LinearIndex({0, 1, 0}), 4);
  EXPECT_EQ(literal.LinearIndex({1, 2, 3}), 23);
  EXPECT_EQ(literal.LinearIndex({2, 0, 0}), -1);
  EXPECT_EQ(literal.LinearIndex({0, 0}), -1);
}

TEST(LiteralTest, TuplesAndEquality) {
  Literal t = Literal::Tuple({Literal::ScalarS32(1), Literal::VectorF32({2})});
  EXPECT_TRUE(t.shape().IsTuple());
  EXPECT_EQ(t.tuple_elements().size(), 2u);
  Literal same =
      Literal::Tuple({Literal::ScalarS32(1), Literal::VectorF32({2})});
  EXPECT_EQ(t, same);
  Literal other =
      Literal::Tuple({Literal::ScalarS32(1), Literal::VectorF32({3})});
  EXPECT_NE(t, other);
  EXPECT_NE(Literal::ScalarS32(1), Literal::ScalarF32(1));
  EXPECT_NE(Literal::VectorS32({1, 2}), Literal::VectorS32({1, 2, 3}));
  // Equality is by bits: NaN equals itself, -0 differs from +0.
  Literal nan = Literal::ScalarF32(std::nanf(""));
  EXPECT_EQ(nan, Literal::ScalarF32(std::nanf("")));
  EXPECT_NE(Literal::ScalarF32(0.0f), Literal::ScalarF32(-0.0f));
  // Layouts are ignored.
  Literal a = Make(ElementType::kS32, {2, 2});
  Shape with_layout = Shape::Array(ElementType::kS32, {2, 2});
  with_layout.SetDefaultLayoutIfMissing();
  absl::StatusOr<Literal> b = Literal::Create(with_layout);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a, *b);
}

TEST(LiteralTest, NestedTupleCreate) {
  Shape shape = Shape::Tuple(
      {Shape::Tuple({Shape::Scalar(ElementType::kF16), Shape::Token()}),
       Shape::Array(ElementType::kU4, {3})});
  absl::StatusOr<Literal> literal = Literal::Create(shape);
  ASSERT_TRUE(literal.ok()) << literal.status();
  ASSERT_EQ(literal->tuple_elements().size(), 2u);
  EXPECT_EQ(literal->tuple_elements()[0].tuple_elements().size(), 2u);
  EXPECT_EQ(literal->tuple_elements()[1].element_count(), 3);
  EXPECT_TRUE(
      literal->tuple_elements()[0].tuple_elements()[1].shape().IsToken());
}

}  // namespace
}  // namespace kiln
