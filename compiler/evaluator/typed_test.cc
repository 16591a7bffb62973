#include "compiler/evaluator/typed.h"

#include <complex>
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
