// Dynamic sizes in Literal and in literal text. The expected text is XLA's
// Literal::ToString form for a dynamic array: the shape, every dimension's
// size in parentheses, then only the valid elements.
#include <cstddef>

#include "compiler/ir/literal.h"
#include "compiler/ir/literal_text.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// An f32 array of `dims` holding 1, 2, 3, ... in row-major order.
Literal Counting(std::vector<int64_t> dims) {
  absl::StatusOr<Literal> literal =
      Literal::Create(Shape::Array(ElementType::kF32, std::move(dims)));
  EXPECT_TRUE(literal.ok());
  for (int64_t i = 0; i < literal->element_count(); ++i) {
    literal->SetDouble(i, static_cast<double>(i + 1));
  }
  return *std::move(literal);
}

absl::StatusOr<Literal> Parse(const std::string& shape_dims,
                              std::vector<bool> dynamic,
                              const std::string& text) {
  std::vector<int64_t> dims;
  for (char c : shape_dims) dims.push_back(c - '0');
  return ParseLiteralValue(
      Shape::DynamicArray(ElementType::kF32, dims, std::move(dynamic)), text,
      nullptr, nullptr);
}

TEST(LiteralDynamicTest, StaticLiteralsHaveNoDynamicSizes) {
  Literal literal = Counting({2, 3});
  EXPECT_FALSE(literal.has_dynamic_sizes());
  EXPECT_EQ(literal.dynamic_size(1), 3);
  EXPECT_EQ(literal.dynamic_sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(literal.valid_element_count(), 6);
}

TEST(LiteralDynamicTest, SetDynamicSizeMarksTheDimensionAndKeepsStorage) {
  Literal literal = Counting({4});
  ASSERT_TRUE(literal.SetDynamicSize(0, 3).ok());
  EXPECT_TRUE(literal.has_dynamic_sizes());
  EXPECT_EQ(literal.dynamic_size(0), 3);
  EXPECT_EQ(literal.shape().ToString(false), "f32[<=4]");
  EXPECT_EQ(literal.element_count(), 4);  // storage spans the bound
  EXPECT_EQ(literal.valid_element_count(), 3);
  EXPECT_EQ(literal.GetDouble(3), 4.0);  // padding is kept, not cleared
}

TEST(LiteralDynamicTest, SetDynamicSizeChecksDimensionAndRange) {
  Literal literal = Counting({4});
  EXPECT_EQ(literal.SetDynamicSize(0, 5).message(),
            "dynamic size 5 of dimension 0 is outside [0, 4]");
  EXPECT_EQ(literal.SetDynamicSize(0, -1).message(),
            "dynamic size -1 of dimension 0 is outside [0, 4]");
  EXPECT_EQ(literal.SetDynamicSize(1, 1).message(),
            "dimension 1 is not a dimension of f32[4]");
  EXPECT_FALSE(literal.has_dynamic_sizes());
  EXPECT_TRUE(literal.SetDynamicSize(0, 0).ok());
  EXPECT_TRUE(literal.SetDynamicSize(0, 4).ok());
  EXPECT_EQ(literal.dynamic_size(0), 4);
  Literal scalar = Literal::ScalarF32(1);
  EXPECT_FALSE(scalar.SetDynamicSize(0, 0).ok());
}

TEST(LiteralDynamicTest, EqualityComparesOnlyTheValidElements) {
  Literal a = Counting({2, 4});
  Literal b = Counting({2, 4});
  ASSERT_TRUE(a.SetDynamicSize(1, 2).ok());
  EXPECT_NE(a, b);  // f32[2,<=4] is not f32[2,4]
  ASSERT_TRUE(b.SetDynamicSize(1, 2).ok());
  EXPECT_EQ(a, b);
  b.SetDouble(2, 99);  // padding of row 0
  b.SetDouble(7, 99);  // padding of row 1
  EXPECT_EQ(a, b);
  b.SetDouble(5, 99);  // valid element (1, 1)
  EXPECT_NE(a, b);
  Literal c = Counting({2, 4});
  ASSERT_TRUE(c.SetDynamicSize(1, 3).ok());
  EXPECT_NE(a, c);  // different sizes
  Literal copy = a;
  EXPECT_EQ(copy, a);
  EXPECT_EQ(copy.dynamic_size(1), 2);
}

TEST(LiteralDynamicTest, EmptyValidRegionsAreEqual) {
  Literal a = Counting({3});
  Literal b = Counting({3});
  b.SetDouble(0, 7);
  ASSERT_TRUE(a.SetDynamicSize(0, 0).ok());
  ASSERT_TRUE(b.SetDynamicSize(0, 0).ok());
  EXPECT_EQ(a, b);
}

TEST(LiteralDynamicTest, PrintsTheSizesAndOnlyTheValidElements) {
  Literal vector = Counting({4});
  ASSERT_TRUE(vector.SetDynamicSize(0, 3).ok());
  EXPECT_EQ(LiteralToString(vector), "f32[<=4](3) {1, 2, 3}");
  EXPECT_EQ(LiteralValueToString(vector), "{1, 2, 3}");
  EXPECT_EQ(DynamicSizesToString(vector), "(3)");

  Literal matrix = Counting({3, 4});  // rows {1..4}, {5..8}, {9..12}
  ASSERT_TRUE(matrix.SetDynamicSize(0, 2).ok());
  ASSERT_TRUE(matrix.SetDynamicSize(1, 2).ok());
  EXPECT_EQ(LiteralToString(matrix),
            "f32[<=3,<=4](2,2) { { 1, 2 }, { 5, 6 } }");

  Literal one_dynamic = Counting({2, 3});
  ASSERT_TRUE(one_dynamic.SetDynamicSize(1, 1).ok());
  EXPECT_EQ(LiteralToString(one_dynamic), "f32[2,<=3](2,1) { {1}, {4} }");

  Literal empty = Counting({2});
  ASSERT_TRUE(empty.SetDynamicSize(0, 0).ok());
  EXPECT_EQ(LiteralToString(empty), "f32[<=2](0) {}");

  EXPECT_EQ(LiteralToString(Counting({2})), "f32[2] {1, 2}");
}

TEST(LiteralDynamicTest, ParsesTheSizesAndPlacesElementsAtTheBounds) {
  absl::StatusOr<Literal> matrix =
      Parse("34", {true, true}, "(2,2) {{1, 2}, {5, 6}}");
  ASSERT_TRUE(matrix.ok()) << matrix.status();
  EXPECT_EQ(matrix->dynamic_sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(matrix->element_count(), 12);
  EXPECT_EQ(matrix->GetDouble(4), 5.0);  // row 1 starts at bound 4
  EXPECT_EQ(matrix->GetDouble(2), 0.0);  // padding is zero
  EXPECT_EQ(LiteralToString(*matrix),
            "f32[<=3,<=4](2,2) { { 1, 2 }, { 5, 6 } }");

  // Without sizes every dimension is at its bound.
  absl::StatusOr<Literal> full = Parse("3", {true}, "{1, 2, 3}");
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(LiteralToString(*full), "f32[<=3](3) {1, 2, 3}");

  absl::StatusOr<Literal> mixed =
      Parse("23", {false, true}, "(2,1) {{1}, {4}}");
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  EXPECT_EQ(LiteralToString(*mixed), "f32[2,<=3](2,1) { {1}, {4} }");
}

TEST(LiteralDynamicTest, RefusesBadSizes) {
  EXPECT_EQ(Parse("3", {true}, "(4) {1, 2, 3, 4}").status().message(),
            "dynamic size 4 of dimension 0 is outside [0, 3]");
  EXPECT_EQ(Parse("23", {false, true}, "(1,1) {{1}}").status().message(),
            "size 1 of static dimension 0 must be 2");
  EXPECT_EQ(Parse("3", {true}, "(x) {1}").status().message(),
            "expected the dynamic size of dimension 0, found 'x'");
  EXPECT_FALSE(Parse("3", {true}, "(2) {1, 2, 3}").ok());  // too many
  EXPECT_FALSE(Parse("3", {true}, "(2 {1, 2}").ok());
}

}  // namespace
}  // namespace kiln
