#include "compiler/util/int_lists.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace kiln {
namespace util {
namespace {

using Dims = std::vector<int64_t>;

TEST(IntListsTest, Product) {
  EXPECT_EQ(Product({}), 1);
  EXPECT_EQ(Product({2, 3, 4}), 24);
  EXPECT_EQ(Product(Dims{5, 0, 7}), 0);
}

TEST(IntListsTest, Contains) {
  const Dims dims = {3, 1, 4};
  EXPECT_TRUE(Contains(dims, 4));
  EXPECT_FALSE(Contains(dims, 2));
  EXPECT_FALSE(Contains(Dims{}, 0));
  EXPECT_TRUE(Contains(absl::Span<const int64_t>(dims), int64_t{3}));
  const std::vector<char> chars = {'a', 'b'};
  EXPECT_TRUE(Contains(chars, 'b'));
}

TEST(IntListsTest, IsPermutation) {
  EXPECT_TRUE(IsPermutation({}));
  EXPECT_TRUE(IsPermutation({2, 0, 1}));
  EXPECT_FALSE(IsPermutation({0, 0, 1}));   // repeated
  EXPECT_FALSE(IsPermutation({0, 3, 1}));   // out of range
  EXPECT_FALSE(IsPermutation({-1, 0, 1}));  // negative
  EXPECT_TRUE(IsPermutation({1, 0}, 2));
  EXPECT_FALSE(IsPermutation({1, 0}, 3));  // wrong length
}

TEST(IntListsTest, IsIdentityPermutation) {
  EXPECT_TRUE(IsIdentityPermutation({}));
  EXPECT_TRUE(IsIdentityPermutation({0, 1, 2}));
  EXPECT_FALSE(IsIdentityPermutation({1, 0}));
}

TEST(IntListsTest, Range) {
  EXPECT_EQ(Range(2, 5), (Dims{2, 3, 4}));
  EXPECT_TRUE(Range(3, 3).empty());
  EXPECT_TRUE(Range(4, 1).empty());
}

TEST(IntListsTest, DimsNotIn) {
  EXPECT_EQ(DimsNotIn(5, {1, 3}), (Dims{0, 2, 4}));
  EXPECT_EQ(DimsNotIn(4, {0}, {3}), (Dims{1, 2}));
  EXPECT_TRUE(DimsNotIn(2, {0, 1}).empty());
  EXPECT_TRUE(DimsNotIn(0, {}).empty());
}

}  // namespace
}  // namespace util
}  // namespace kiln
