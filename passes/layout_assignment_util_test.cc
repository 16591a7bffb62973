// The layout arithmetic of layout_assignment_util.h checked against brute
// force: for small shapes and every layout, the physical position of every
// element is computed directly and compared.
#include "passes/layout_assignment_util.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace kiln {
namespace layout_util {
namespace {

// Every minor_to_major permutation of `rank` dimensions.
std::vector<Layout> AllLayouts(int64_t rank) {
  std::vector<int64_t> m2m(rank);
  std::iota(m2m.begin(), m2m.end(), 0);
  std::vector<Layout> layouts;
  do {
    layouts.push_back(Layout(m2m));
  } while (std::next_permutation(m2m.begin(), m2m.end()));
  return layouts;
}

// The memory position of every element, indexed by the element's logical
// row-major number.
std::vector<int64_t> PhysicalPositions(const std::vector<int64_t>& dims,
                                       const Layout& layout) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  const std::vector<int64_t> major_to_minor = MajorToMinor(layout);
  std::vector<int64_t> positions(count);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear;
    for (int64_t d = dims.size() - 1; d >= 0; --d) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    int64_t position = 0;
    for (int64_t d : major_to_minor) position = position * dims[d] + index[d];
    positions[linear] = position;
  }
  return positions;
}

Shape ArrayWith(const std::vector<int64_t>& dims, const Layout& layout) {
  Shape shape = Shape::Array(ElementType::kF32, dims);
  shape.set_layout(layout);
  return shape;
}

// Brute force: the reshape keeps every element's memory position.
bool BruteReshapeBitcast(const Shape& from, const Shape& to) {
  return PhysicalPositions(from.dimensions(), from.layout()) ==
         PhysicalPositions(to.dimensions(), to.layout());
}

// Brute force for transpose: result element with index r is operand
// element with index o where o[permutation[j]] = r[j].
bool BruteTransposeBitcast(const Shape& operand, const Shape& result,
                           const std::vector<int64_t>& permutation) {
  const std::vector<int64_t> in =
      PhysicalPositions(operand.dimensions(), operand.layout());
  const std::vector<int64_t> out =
      PhysicalPositions(result.dimensions(), result.layout());
  const std::vector<int64_t>& dims = result.dimensions();
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t linear = 0; linear < static_cast<int64_t>(out.size());
       ++linear) {
    int64_t rest = linear;
    for (int64_t d = dims.size() - 1; d >= 0; --d) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    std::vector<int64_t> operand_index(dims.size());
    for (size_t j = 0; j < dims.size(); ++j) {
      operand_index[permutation[j]] = index[j];
    }
    int64_t operand_linear = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      operand_linear = operand_linear * operand.dimension(d) + operand_index[d];
    }
    if (in[operand_linear] != out[linear]) return false;
  }
  return true;
}

struct ReshapeCase {
  std::vector<int64_t> from;
  std::vector<int64_t> to;
};

TEST(LayoutUtilTest, ReshapeBitcastAgreesWithBruteForce) {
  const std::vector<ReshapeCase> cases = {
      {{2, 3}, {6}},          {{6}, {2, 3}},         {{2, 3}, {3, 2}},
      {{2, 3, 4}, {6, 4}},    {{2, 3, 4}, {2, 12}},  {{2, 1, 3}, {3, 2}},
      {{2, 1, 3}, {6, 1}},    {{1, 6}, {2, 1, 3}},   {{4, 6}, {2, 2, 3, 2}},
      {{2, 2, 3}, {4, 3}},    {{3, 4}, {2, 6}},      {{1, 1}, {1}},
      {{2, 3, 1, 2}, {3, 4}}, {{2, 3, 2}, {2, 3, 2}}};
  int64_t bitcasts = 0;
  for (const ReshapeCase& c : cases) {
    for (const Layout& in : AllLayouts(c.from.size())) {
      const Shape from = ArrayWith(c.from, in);
      const std::optional<Layout> aligned = ReshapeBitcastLayout(from, c.to);
      bool any = false;
      for (const Layout& out : AllLayouts(c.to.size())) {
        const Shape to = ArrayWith(c.to, out);
        const bool brute = BruteReshapeBitcast(from, to);
        any = any || brute;
        EXPECT_EQ(IsReshapeBitcast(from, to), brute)
            << from.ToString() << " -> " << to.ToString();
        bitcasts += brute;
      }
      // The aligned layout exists exactly when some bitcast layout does,
      // and it is one.
      EXPECT_EQ(aligned.has_value(), any) << from.ToString();
      if (aligned.has_value()) {
        EXPECT_TRUE(BruteReshapeBitcast(from, ArrayWith(c.to, *aligned)))
            << from.ToString() << " -> {" << aligned->ToString() << "}";
      }
    }
  }
  EXPECT_GE(bitcasts, 39);  // The cases do exercise the positive side.
}

TEST(LayoutUtilTest, DefaultLayoutsReshapeToDefaultLayouts) {
  const Shape from = ArrayWith({2, 1, 3}, Layout::Default(3));
  const std::optional<Layout> to = ReshapeBitcastLayout(from, {1, 6, 1});
  ASSERT_TRUE(to.has_value());
  EXPECT_EQ(*to, Layout::Default(3));
}

TEST(LayoutUtilTest, ReshapeWithoutBitcastLayout) {
  // Column-major [2,3] read row-major as [6] is a real data movement.
  EXPECT_FALSE(
      ReshapeBitcastLayout(ArrayWith({2, 3}, Layout({0, 1})), {6}).has_value());
  // Element counts that differ, and zero-element arrays.
  EXPECT_FALSE(
      ReshapeBitcastLayout(ArrayWith({2, 3}, Layout({1, 0})), {7}).has_value());
  EXPECT_FALSE(ReshapeBitcastLayout(ArrayWith({0, 3}, Layout({1, 0})), {3, 0})
                   .has_value());
}

TEST(LayoutUtilTest, TransposeBitcastAgreesWithBruteForce) {
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 3}, {2, 3, 4}, {2, 1, 3}, {1, 4, 1}, {3, 2, 2, 1}};
  int64_t bitcasts = 0;
  for (const std::vector<int64_t>& dims : shapes) {
    std::vector<int64_t> permutation(dims.size());
    std::iota(permutation.begin(), permutation.end(), 0);
    do {
      std::vector<int64_t> result_dims;
      for (int64_t p : permutation) result_dims.push_back(dims[p]);
      for (const Layout& in : AllLayouts(dims.size())) {
        const Shape operand = ArrayWith(dims, in);
        const Layout absorbed = TransposeResultLayoutFor(in, permutation);
        EXPECT_TRUE(BruteTransposeBitcast(
            operand, ArrayWith(result_dims, absorbed), permutation));
        EXPECT_EQ(TransposeOperandLayoutFor(absorbed, permutation), in);
        for (const Layout& out : AllLayouts(dims.size())) {
          const Shape result = ArrayWith(result_dims, out);
          const bool brute =
              BruteTransposeBitcast(operand, result, permutation);
          EXPECT_EQ(IsTransposeBitcast(operand, result, permutation), brute);
          bitcasts += brute;
        }
      }
    } while (std::next_permutation(permutation.begin(), permutation.end()));
  }
  EXPECT_GT(bitcasts, 100);
}

TEST(LayoutUtilTest, PlainLayouts) {
  EXPECT_TRUE(IsPlainPermutation(Layout({1, 0}), 2));
  EXPECT_FALSE(IsPlainPermutation(Layout({1, 1}), 2));
  EXPECT_FALSE(IsPlainPermutation(Layout({0}), 2));
  Layout tiled({1, 0});
  tiled.tiles.push_back(Tile{{8, 128}});
  EXPECT_FALSE(IsPlainPermutation(tiled, 2));
  Shape packed = Shape::Array(ElementType::kS4, {4});
  Layout e4({0});
  e4.element_size_in_bits = 4;
  packed.set_layout(e4);
  EXPECT_FALSE(HasOnlyPlainLayouts(Shape::Tuple({packed})));
  EXPECT_TRUE(HasOnlyPlainLayouts(
      Shape::Tuple({Shape::Array(ElementType::kF32, {2}), Shape::Token()})));
}

}  // namespace
}  // namespace layout_util
}  // namespace kiln
