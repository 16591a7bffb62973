#include "compiler/ir/layout.h"

#include <memory>

#include "compiler/ir/shape.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(LayoutTest, DefaultIsDescending) {
  EXPECT_EQ(Layout::Default(3).minor_to_major(),
            (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(Layout::Default(2).ToString(), "1,0");
  EXPECT_EQ(Layout::Default(0).ToString(), "");
}

TEST(LayoutTest, TilesPrintWithCombineDimension) {
  Layout layout({1, 0});
  layout.tiles = {Tile{{8, 128}}, Tile{{2, 1}}};
  EXPECT_EQ(layout.ToString(), "1,0:T(8,128)(2,1)");
  layout.tiles = {Tile{{Tile::kCombineDimension, 128}}};
  EXPECT_EQ(layout.ToString(), "1,0:T(*,128)");
}

TEST(LayoutTest, AllExtrasInXlaOrder) {
  Layout layout({1, 0});
  layout.dim_level_types = {DimLevelType::kDense, DimLevelType::kCompressed};
  layout.tiles = {Tile{{8, 128}}};
  layout.tail_padding_alignment_in_elements = 4;
  layout.index_primitive_type = ElementType::kS32;
  layout.pointer_primitive_type = ElementType::kU64;
  layout.element_size_in_bits = 4;
  layout.memory_space = 1;
  layout.split_configs = {SplitConfig{0, {2, 4}}, SplitConfig{1, {8}}};
  layout.physical_shape =
      std::make_shared<Shape>(Shape::Array(ElementType::kU8, {16}));
  layout.dynamic_shape_metadata_prefix_bytes = 8;
  EXPECT_EQ(layout.ToString(),
            "1,0:D(D,C)T(8,128)L(4)#(s32)*(u64)E(4)S(1)SC(0:2,4)(1:8)"
            "P(u8[16])M(8)");
}

TEST(LayoutTest, NonIntegralIndexTypePrintsInvalid) {
  Layout layout({0});
  layout.index_primitive_type = ElementType::kF32;
  EXPECT_EQ(layout.ToString(), "0:#(invalid)");
}

TEST(LayoutTest, SingleExtraGetsOneColon) {
  Layout layout({0});
  layout.memory_space = 2;
  EXPECT_EQ(layout.ToString(), "0:S(2)");
  Layout scalar;
  scalar.element_size_in_bits = 4;
  EXPECT_EQ(scalar.ToString(), ":E(4)");
}

TEST(LayoutTest, HasOnlyMinorToMajor) {
  Layout layout({1, 0});
  EXPECT_TRUE(layout.HasOnlyMinorToMajor());
  layout.memory_space = 1;
  EXPECT_FALSE(layout.HasOnlyMinorToMajor());
  Layout padded({0});
  padded.tail_padding_alignment_in_elements = 2;
  EXPECT_FALSE(padded.HasOnlyMinorToMajor());
}

TEST(LayoutTest, EqualityComparesEveryField) {
  Layout base({1, 0});
  EXPECT_EQ(base, Layout({1, 0}));
  EXPECT_NE(base, Layout({0, 1}));
  std::vector<void (*)(Layout*)> changes = {
      [](Layout* l) { l->tiles = {Tile{{8}}}; },
      [](Layout* l) { l->tail_padding_alignment_in_elements = 2; },
      [](Layout* l) { l->index_primitive_type = ElementType::kS32; },
      [](Layout* l) { l->pointer_primitive_type = ElementType::kS64; },
      [](Layout* l) { l->element_size_in_bits = 4; },
      [](Layout* l) { l->memory_space = 1; },
      [](Layout* l) {
        l->split_configs = {SplitConfig{0, {1}}};
      },
      [](Layout* l) {
        l->physical_shape =
            std::make_shared<Shape>(Shape::Array(ElementType::kS8, {2}));
      },
      [](Layout* l) { l->dynamic_shape_metadata_prefix_bytes = 4; },
      [](Layout* l) {
        l->dim_level_types = {DimLevelType::kDense, DimLevelType::kDense};
      },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    Layout changed = base;
    changes[i](&changed);
    EXPECT_NE(base, changed) << "change " << i;
    Layout same = changed;
    EXPECT_EQ(same, changed) << "change " << i;
  }
}

TEST(LayoutTest, PhysicalShapeComparedByValue) {
  Layout a({0});
  Layout b({0});
  a.physical_shape =
      std::make_shared<Shape>(Shape::Array(ElementType::kS8, {2}));
  b.physical_shape =
      std::make_shared<Shape>(Shape::Array(ElementType::kS8, {2}));
  EXPECT_EQ(a, b);
  b.physical_shape =
      std::make_shared<Shape>(Shape::Array(ElementType::kS8, {3}));
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace kiln
