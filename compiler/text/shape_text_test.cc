#include "compiler/text/shape_text.h"

#include <string>
#include <vector>

#include "compiler/ir/layout.h"
#include "compiler/ir/shape.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Shape ParseAll(const std::string& text) {
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<Shape> shape = ParseShapeText(text, &consumed, &error_offset);
  EXPECT_TRUE(shape.ok()) << text << ": " << shape.status();
  if (!shape.ok()) return Shape();
  EXPECT_EQ(consumed, text.size()) << text;
  return *shape;
}

void ExpectError(const std::string& text, size_t offset,
                 const std::string& fragment) {
  size_t consumed = 0, error_offset = 12345;
  absl::StatusOr<Shape> shape = ParseShapeText(text, &consumed, &error_offset);
  ASSERT_FALSE(shape.ok()) << text;
  EXPECT_EQ(error_offset, offset) << text << ": " << shape.status();
  EXPECT_NE(shape.status().message().find(fragment), std::string::npos)
      << shape.status();
}

TEST(ShapeTextTest, StaticArrayWithoutLayout) {
  Shape shape = ParseAll("f32[2,3]");
  EXPECT_EQ(shape.element_type(), ElementType::kF32);
  EXPECT_EQ(shape.dimensions(), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(shape.has_layout());
  EXPECT_TRUE(shape.is_static());
}

TEST(ShapeTextTest, ScalarTokenOpaque) {
  EXPECT_TRUE(ParseAll("pred[]").IsScalar());
  EXPECT_TRUE(ParseAll("token[]").IsToken());
  EXPECT_TRUE(ParseAll("opaque[]").IsOpaque());
}

TEST(ShapeTextTest, DynamicDimensions) {
  Shape shape = ParseAll("s32[2,<=3,?]");
  EXPECT_FALSE(shape.is_dynamic_dimension(0));
  EXPECT_TRUE(shape.is_dynamic_dimension(1));
  EXPECT_EQ(shape.dimension(1), 3);
  EXPECT_TRUE(shape.is_unbounded_dimension(2));
}

TEST(ShapeTextTest, LayoutWithEveryExtra) {
  Shape shape = ParseAll(
      "f32[8,128]{1,0:D(D,C)T(8,128)(2,*)L(4)#(s32)*(u8)E(16)S(1)SC(0:2,4)"
      "P(f32[1024]{0})M(8)}");
  ASSERT_TRUE(shape.has_layout());
  const Layout& layout = shape.layout();
  EXPECT_EQ(layout.minor_to_major(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(layout.dim_level_types,
            (std::vector<DimLevelType>{DimLevelType::kDense,
                                       DimLevelType::kCompressed}));
  ASSERT_EQ(layout.tiles.size(), 2u);
  EXPECT_EQ(layout.tiles[0].dimensions, (std::vector<int64_t>{8, 128}));
  EXPECT_EQ(layout.tiles[1].dimensions,
            (std::vector<int64_t>{2, Tile::kCombineDimension}));
  EXPECT_EQ(layout.tail_padding_alignment_in_elements, 4);
  EXPECT_EQ(layout.index_primitive_type, ElementType::kS32);
  EXPECT_EQ(layout.pointer_primitive_type, ElementType::kU8);
  EXPECT_EQ(layout.element_size_in_bits, 16);
  EXPECT_EQ(layout.memory_space, 1);
  ASSERT_EQ(layout.split_configs.size(), 1u);
  EXPECT_EQ(layout.split_configs[0].split_indices,
            (std::vector<int64_t>{2, 4}));
  ASSERT_NE(layout.physical_shape, nullptr);
  EXPECT_EQ(layout.physical_shape->dimensions(), (std::vector<int64_t>{1024}));
  EXPECT_EQ(layout.dynamic_shape_metadata_prefix_bytes, 8);
}

TEST(ShapeTextTest, NestedTuples) {
  Shape shape = ParseAll("(f32[], (s32[2]{0}, token[]), ())");
  ASSERT_TRUE(shape.IsTuple());
  ASSERT_EQ(shape.tuple_size(), 3);
  EXPECT_EQ(shape.tuple_shape(1).tuple_size(), 2);
  EXPECT_TRUE(shape.tuple_shape(1).tuple_shape(1).IsToken());
  EXPECT_EQ(shape.tuple_shape(2).tuple_size(), 0);
}

TEST(ShapeTextTest, PrintedShapesRoundTrip) {
  for (const char* text :
       {"f32[2,3]{1,0}", "bf16[4,<=8]{0,1}", "(f32[], s32[2]{0})",
        "f32[8,128]{1,0:T(8,128)}", "u8[16]{0:T(4)(2,1)E(4)S(1)}", "token[]",
        "s4[2,2]{1,0:E(4)}", "u32[]{:S(2)}", "f32[8,4,1]{0,1,2:T(4,128)}",
        "(f32[8,4,1]{1,2,0:T(1,128)}, (u32[]{:S(2)}, u32[]{:S(2)}))"}) {
    EXPECT_EQ(ParseAll(text).ToString(), text);
  }
}

TEST(ShapeTextTest, LayoutOnlyWhenAdjacent) {
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<Shape> shape =
      ParseShapeText("f32[] {", &consumed, &error_offset);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(consumed, 5u);
  EXPECT_FALSE(shape->has_layout());
}

TEST(ShapeTextTest, Errors) {
  ExpectError("foo[2]", 0, "unknown element type 'foo'");
  ExpectError("", 0, "expected a shape");
  ExpectError("f32[2", 5, "',' or ']'");
  ExpectError("f32[-1]", 4, "negative");
  ExpectError("f32[99999999999999999999]", 4, "int64 range");
  ExpectError("f32[2,3]{0}", 8, "rank 2");
  ExpectError("f32[2,3]{0,0}", 8, "permutation");
  ExpectError("f32[2]{0:Q(1)}", 9, "layout item");
  ExpectError("f32[2]{0:D(D+)}", 12, "unsupported");
  ExpectError("(f32[], s32[]", 13, "',' or ')'");
  ExpectError("token[2]", 0, "no dims");
}

TEST(ShapeTextTest, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<Shape> shape = ParseShapeText(deep, &consumed, &error_offset);
  ASSERT_FALSE(shape.ok());
  EXPECT_NE(shape.status().message().find("nesting"), std::string::npos);
}

}  // namespace
}  // namespace kiln
