#include "compiler/evaluator/typed.h"

#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <typeinfo>

#include "gtest/gtest.h"

namespace kiln {
namespace eval {
namespace {

Literal Make(ElementType type, std::vector<int64_t> dims) {
  return *Literal::Create(Shape::Array(type, std::move(dims)));
}

TEST(TypedTest, ComputeTypes) {
  auto name = [](ElementType type) {
    return DispatchByComputeType(type, [](auto tag) -> std::string {
      return typeid(typename decltype(tag)::type).name();
    });
  };
  EXPECT_EQ(name(ElementType::kPred), typeid(bool).name());
  EXPECT_EQ(name(ElementType::kS4), typeid(int8_t).name());
  EXPECT_EQ(name(ElementType::kS64), typeid(int64_t).name());
  EXPECT_EQ(name(ElementType::kU2), typeid(uint8_t).name());
  EXPECT_EQ(name(ElementType::kU32), typeid(uint32_t).name());
  EXPECT_EQ(name(ElementType::kBF16), typeid(float).name());
  EXPECT_EQ(name(ElementType::kF8E4M3FN), typeid(float).name());
  EXPECT_EQ(name(ElementType::kF64), typeid(double).name());
  EXPECT_EQ(name(ElementType::kC64), typeid(std::complex<float>).name());
  EXPECT_EQ(name(ElementType::kC128), typeid(std::complex<double>).name());
}

TEST(TypedTest, NarrowFloatsRoundToNearestEvenOnStore) {
  Literal f16 = Make(ElementType::kF16, {3});
  // 2049 is halfway between the f16 values 2048 and 2050: ties to even.
  Set<float>(f16, 0, 2049.0f);
  Set<float>(f16, 1, 2051.0f);
  Set<float>(f16, 2, 1e6f);  // Overflows to inf.
  EXPECT_EQ(Get<float>(f16, 0), 2048.0f);
  EXPECT_EQ(Get<float>(f16, 1), 2052.0f);
  EXPECT_TRUE(std::isinf(Get<float>(f16, 2)));
  std::vector<float> values = Read<float>(f16);
  EXPECT_EQ(values[1], 2052.0f);
}

// The bulk conversions (Read<float>/Write<float> on narrow floats) give
// exactly what Get<float>/Set<float> give element by element: every bit
// pattern of every float type of at most 16 bits read, and bf16 and f16
// written from a sweep of float bit patterns (every 2^-16th of them, with
// all their low-bit neighbourhoods near the rounding boundaries) and the
// special values.
TEST(TypedTest, BulkNarrowFloatConversionsMatchElementwise) {
  for (ElementType type :
       {ElementType::kF16, ElementType::kBF16, ElementType::kF8E5M2,
        ElementType::kF8E4M3, ElementType::kF8E4M3FN,
        ElementType::kF8E4M3B11FNUZ, ElementType::kF8E3M4,
        ElementType::kF8E5M2FNUZ, ElementType::kF8E4M3FNUZ,
        ElementType::kF4E2M1FN, ElementType::kF8E8M0FNU, ElementType::kF6E3M2FN,
        ElementType::kF6E2M3FN}) {
    const int64_t patterns = int64_t{1} << GetElementTypeInfo(type).bit_width;
    Literal all = Make(type, {patterns});
    for (int64_t i = 0; i < patterns; ++i) all.SetBits(i, i);
    const std::vector<float> bulk = Read<float>(all);
    for (int64_t i = 0; i < patterns; ++i) {
      const float one = Get<float>(all, i);
      uint32_t a, b;
      std::memcpy(&a, &bulk[i], 4);
      std::memcpy(&b, &one, 4);
      ASSERT_EQ(a, b) << ElementTypeName(type) << " pattern " << i;
    }
  }
  std::vector<float> values;
  for (uint64_t high = 0; high < (uint64_t{1} << 16); ++high) {
    for (uint32_t low : {0u, 1u, 0x0fffu, 0x1000u, 0x1001u, 0x7fffu, 0x8000u,
                         0x8001u, 0xffffu}) {
      const uint32_t bits = static_cast<uint32_t>(high << 16) | low;
      float value;
      std::memcpy(&value, &bits, 4);
      values.push_back(value);
    }
  }
  for (float special :
       {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, -6.1e-5f, 3.4e38f,
        std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::quiet_NaN()}) {
    values.push_back(special);
  }
  for (ElementType type : {ElementType::kBF16, ElementType::kF16}) {
    const int64_t count = static_cast<int64_t>(values.size());
    Literal bulk = Make(type, {count});
    Literal one = Make(type, {count});
    Write<float>(values, bulk);
    for (int64_t i = 0; i < count; ++i) Set<float>(one, i, values[i]);
    for (int64_t i = 0; i < count; ++i) {
      ASSERT_EQ(bulk.GetBits(i), one.GetBits(i))
          << ElementTypeName(type) << " value " << values[i];
    }
  }
}

TEST(TypedTest, SubByteIntegersWrapOnStore) {
  Literal s4 = Make(ElementType::kS4, {2});
  Set<int8_t>(s4, 0, 7 + 1);  // Wraps to -8.
  Set<int8_t>(s4, 1, -1);
  EXPECT_EQ(Get<int8_t>(s4, 0), -8);
  EXPECT_EQ(Get<int8_t>(s4, 1), -1);
  Literal u2 = Make(ElementType::kU2, {1});
  Set<uint8_t>(u2, 0, 5);
  EXPECT_EQ(Get<uint8_t>(u2, 0), 1);
}

TEST(TypedTest, NativeSpansAndBulkCopies) {
  Literal f32 = Make(ElementType::kF32, {2, 2});
  ASSERT_TRUE(StorageIsNative(ElementType::kF32));
  absl::Span<float> out = MutableElements<float>(f32);
  for (int i = 0; i < 4; ++i) out[i] = i * 0.5f;
  EXPECT_EQ(Elements<float>(f32)[3], 1.5f);
  std::vector<float> copy = Read<float>(f32);
  copy[0] = 9;
  Write<float>(copy, f32);
  EXPECT_EQ(Get<float>(f32, 0), 9.0f);
  EXPECT_FALSE(StorageIsNative(ElementType::kF16));
  EXPECT_FALSE(StorageIsNative(ElementType::kS4));
  EXPECT_TRUE(StorageIsNative(ElementType::kPred));
}

TEST(TypedTest, EmptyLiteralsReadAndWriteNothing) {
  Literal empty = Make(ElementType::kF32, {0, 3});
  EXPECT_TRUE(Read<float>(empty).empty());
  Write<float>({}, empty);
  EXPECT_EQ(empty.element_count(), 0);
}

TEST(TypedTest, ComplexAndPred) {
  Literal c = Make(ElementType::kC64, {1});
  Set<std::complex<float>>(c, 0, {1.5f, -2.0f});
  EXPECT_EQ(Get<std::complex<float>>(c, 0), std::complex<float>(1.5f, -2.0f));
  Literal p = Make(ElementType::kPred, {2});
  Set<bool>(p, 1, true);
  EXPECT_FALSE(Get<bool>(p, 0));
  EXPECT_TRUE(Get<bool>(p, 1));
  EXPECT_EQ(Elements<uint8_t>(p)[1], 1);
}

TEST(TypedTest, IndexIteration) {
  std::vector<std::string> seen;
  ForEachIndex({2, 3}, [&](absl::Span<const int64_t> index) {
    seen.push_back(std::to_string(index[0]) + std::to_string(index[1]));
  });
  EXPECT_EQ(seen,
            (std::vector<std::string>{"00", "01", "02", "10", "11", "12"}));
  int calls = 0;
  ForEachIndex({}, [&](absl::Span<const int64_t>) { ++calls; });
  EXPECT_EQ(calls, 1);
  ForEachIndex({3, 0}, [&](absl::Span<const int64_t>) { ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(RowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
}

}  // namespace
}  // namespace eval
}  // namespace kiln
