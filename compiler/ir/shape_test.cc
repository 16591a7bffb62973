#include "compiler/ir/shape.h"

#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr ElementType kF32 = ElementType::kF32;
constexpr ElementType kS32 = ElementType::kS32;

Shape WithDefaultLayout(Shape shape) {
  shape.SetDefaultLayoutIfMissing();
  return shape;
}

TEST(ShapeTest, ArrayToString) {
  EXPECT_EQ(WithDefaultLayout(Shape::Array(kF32, {2, 3})).ToString(),
            "f32[2,3]{1,0}");
  EXPECT_EQ(Shape::Array(kF32, {2, 3}).ToString(), "f32[2,3]");
  EXPECT_EQ(WithDefaultLayout(Shape::Array(kF32, {2, 3})).ToString(false),
            "f32[2,3]");
  Shape transposed = Shape::Array(kS32, {4, 5});
  transposed.set_layout(Layout({0, 1}));
  EXPECT_EQ(transposed.ToString(), "s32[4,5]{0,1}");
}

TEST(ShapeTest, DynamicDimensionsToString) {
  Shape shape =
      Shape::DynamicArray(kF32, {10, Shape::kUnboundedSize}, {true, true});
  shape.SetDefaultLayoutIfMissing();
  EXPECT_EQ(shape.ToString(), "f32[<=10,?]{1,0}");
  EXPECT_FALSE(shape.is_static());
  EXPECT_TRUE(shape.is_unbounded_dimension(1));
  EXPECT_FALSE(shape.is_unbounded_dimension(0));
}

TEST(ShapeTest, ScalarOmitsEmptyLayoutButNotExtras) {
  Shape scalar = WithDefaultLayout(Shape::Scalar(kF32));
  EXPECT_TRUE(scalar.has_layout());
  EXPECT_EQ(scalar.ToString(), "f32[]");
  scalar.mutable_layout()->memory_space = 1;
  EXPECT_EQ(scalar.ToString(), "f32[]{:S(1)}");
}

TEST(ShapeTest, TupleTokenOpaqueToString) {
  Shape tuple = Shape::Tuple({Shape::Array(kF32, {2}), Shape::Scalar(kS32)});
  tuple.SetDefaultLayoutIfMissing();
  EXPECT_EQ(tuple.ToString(), "(f32[2]{0}, s32[])");
  EXPECT_EQ(tuple.ToString(false), "(f32[2], s32[])");
  EXPECT_EQ(Shape::Tuple({}).ToString(), "()");
  EXPECT_EQ(Shape::Token().ToString(), "token[]");
  EXPECT_EQ(Shape::Opaque().ToString(), "opaque[]");
  Shape nested =
      Shape::Tuple({Shape::Tuple({Shape::Scalar(kF32)}), Shape::Token()});
  EXPECT_EQ(nested.ToString(), "((f32[]), token[])");
}

TEST(ShapeTest, ClearLayoutIsDeep) {
  Shape tuple = WithDefaultLayout(
      Shape::Tuple({Shape::Array(kF32, {2}), Shape::Array(kF32, {3, 4})}));
  EXPECT_TRUE(tuple.tuple_shape(1).has_layout());
  tuple.clear_layout();
  EXPECT_FALSE(tuple.tuple_shape(0).has_layout());
  EXPECT_FALSE(tuple.tuple_shape(1).has_layout());
}

TEST(ShapeTest, ElementCountAndByteSize) {
  Shape shape = Shape::Array(kF32, {2, 3});
  EXPECT_EQ(*shape.ElementCount(), 6);
  EXPECT_EQ(*shape.ByteSize(), 24);
  EXPECT_EQ(*Shape::Scalar(ElementType::kC128).ByteSize(), 16);
  EXPECT_EQ(*Shape::Array(kF32, {0, 5}).ElementCount(), 0);
  Shape tuple = Shape::Tuple({shape, Shape::Scalar(kS32), Shape::Token()});
  EXPECT_EQ(*tuple.ByteSize(), 28);
  EXPECT_EQ(*Shape::Token().ByteSize(), 0);
  Shape bounded = Shape::DynamicArray(kF32, {7}, {true});
  EXPECT_EQ(*bounded.ElementCount(), 7);
}

TEST(ShapeTest, ElementCountOverflowIsAnErrorNamingTheShape) {
  Shape huge = Shape::Array(kF32, {1000000000, 1000000000, 1000000000});
  absl::StatusOr<int64_t> count = huge.ElementCount();
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("f32[1000000000,1000000000,"
                                          "1000000000]"),
            std::string::npos)
      << count.status();
  EXPECT_FALSE(huge.ByteSize().ok());
}

TEST(ShapeTest, ByteSizeOverflowIsAnError) {
  // The count fits in int64 but times 8 bytes does not.
  Shape shape = Shape::Array(ElementType::kS64, {int64_t{1} << 61});
  EXPECT_TRUE(shape.ElementCount().ok());
  EXPECT_FALSE(shape.ByteSize().ok());
  Shape big = Shape::Array(ElementType::kS8, {int64_t{1} << 62});
  Shape tuple = Shape::Tuple({big, big, big});
  EXPECT_FALSE(tuple.ByteSize().ok());
}

TEST(ShapeTest, UnboundedHasNoElementCount) {
  Shape shape = Shape::DynamicArray(kF32, {Shape::kUnboundedSize}, {true});
  EXPECT_FALSE(shape.ElementCount().ok());
  EXPECT_FALSE(shape.ByteSize().ok());
  EXPECT_FALSE(Shape::Tuple({}).ElementCount().ok());
}

TEST(ShapeTest, ValidateAcceptsGoodShapes) {
  EXPECT_TRUE(WithDefaultLayout(Shape::Array(kF32, {2, 3})).Validate().ok());
  Shape tiled = WithDefaultLayout(Shape::Array(kF32, {8, 128}));
  tiled.mutable_layout()->tiles = {Tile{{8, 128}},
                                   Tile{{Tile::kCombineDimension, 2}}};
  EXPECT_TRUE(tiled.Validate().ok());
  EXPECT_TRUE(
      Shape::DynamicArray(kF32, {Shape::kUnboundedSize, 3}, {true, false})
          .Validate()
          .ok());
  EXPECT_TRUE(Shape::Tuple({Shape::Token(), Shape::Tuple({})}).Validate().ok());
}

TEST(ShapeTest, ValidateRejectsBadLayouts) {
  Shape shape = Shape::Array(kF32, {2, 3});
  for (std::vector<int64_t> bad : std::vector<std::vector<int64_t>>{
           {0, 0}, {0}, {0, 2}, {-1, 0}, {2, 1, 0}}) {
    shape.set_layout(Layout(bad));
    EXPECT_FALSE(shape.Validate().ok()) << shape.ToString();
  }
  shape.set_layout(Layout({1, 0}));
  shape.mutable_layout()->tiles = {Tile{{0, 128}}};
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->tiles = {Tile{}};
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->tiles.clear();
  shape.mutable_layout()->element_size_in_bits = -1;
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->element_size_in_bits = 0;
  shape.mutable_layout()->index_primitive_type = ElementType::kF32;
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->index_primitive_type = ElementType::kInvalid;
  shape.mutable_layout()->split_configs = {SplitConfig{5, {1}}};
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->split_configs = {SplitConfig{0, {2, 1}}};
  EXPECT_FALSE(shape.Validate().ok());
  shape.mutable_layout()->split_configs.clear();
  EXPECT_TRUE(shape.Validate().ok());
}

TEST(ShapeTest, ValidateRejectsBadDimensionsAndKinds) {
  EXPECT_FALSE(Shape::Array(kF32, {-3}).Validate().ok());
  EXPECT_FALSE(Shape::Array(kF32, {Shape::kUnboundedSize}).Validate().ok());
  EXPECT_FALSE(Shape().Validate().ok());
  Shape tuple = Shape::Tuple({Shape::Array(kF32, {-1})});
  EXPECT_FALSE(tuple.Validate().ok());
  Shape tuple_with_layout = Shape::Tuple({});
  tuple_with_layout.set_layout(Layout());
  EXPECT_FALSE(tuple_with_layout.Validate().ok());
}

TEST(ShapeTest, EqualityWithAndWithoutLayout) {
  Shape a = WithDefaultLayout(Shape::Array(kF32, {2, 3}));
  Shape b = a;
  b.set_layout(Layout({0, 1}));
  EXPECT_NE(a, b);
  EXPECT_TRUE(a.Compatible(b));
  EXPECT_TRUE(a.SameDimensionsAndType(b));
  Shape no_layout = Shape::Array(kF32, {2, 3});
  EXPECT_NE(a, no_layout);
  EXPECT_TRUE(a.Compatible(no_layout));
  EXPECT_FALSE(a.Compatible(Shape::Array(kF32, {3, 2})));
  EXPECT_FALSE(a.Compatible(Shape::Array(kS32, {2, 3})));
  Shape dynamic = Shape::DynamicArray(kF32, {2, 3}, {false, true});
  EXPECT_FALSE(no_layout.Compatible(dynamic));
  // A scalar prints the same with and without the empty layout.
  EXPECT_EQ(Shape::Scalar(kF32), WithDefaultLayout(Shape::Scalar(kF32)));
}

TEST(ShapeTest, TupleEqualityIsDeep) {
  Shape a = Shape::Tuple({Shape::Array(kF32, {2}), Shape::Token()});
  Shape b = Shape::Tuple({Shape::Array(kF32, {2}), Shape::Token()});
  EXPECT_EQ(a, b);
  Shape c = Shape::Tuple({Shape::Array(kF32, {3}), Shape::Token()});
  EXPECT_NE(a, c);
  EXPECT_FALSE(a.Compatible(c));
  EXPECT_NE(a, Shape::Tuple({Shape::Array(kF32, {2})}));
}

TEST(ShapeTest, Subshape) {
  Shape tuple = Shape::Tuple(
      {Shape::Scalar(kF32), Shape::Tuple({Shape::Array(kS32, {4})})});
  ASSERT_NE(tuple.Subshape({1, 0}), nullptr);
  EXPECT_EQ(tuple.Subshape({1, 0})->ToString(), "s32[4]");
  EXPECT_EQ(tuple.Subshape({}), &tuple);
  EXPECT_EQ(tuple.Subshape({2}), nullptr);
  EXPECT_EQ(tuple.Subshape({0, 0}), nullptr);
  EXPECT_EQ(tuple.Subshape({-1}), nullptr);
}

TEST(ShapeTest, SetDimension) {
  Shape shape = Shape::Array(kF32, {2, 3});
  shape.set_dimension(1, 8, /*dynamic=*/true);
  EXPECT_EQ(shape.ToString(), "f32[2,<=8]");
  shape.set_dimension(0, Shape::kUnboundedSize);
  EXPECT_EQ(shape.ToString(), "f32[?,<=8]");
  EXPECT_TRUE(shape.Validate().ok());
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

TEST(ShapeTest, LongTuplesNumberEveryFifthElementAsXlaDoes) {
  std::vector<Shape> elements(7, Shape::Scalar(ElementType::kF32));
  EXPECT_EQ(Shape::Tuple(elements).ToString(),
            "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[])");
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

// is_static() and equality read a count of dynamic dimensions kept beside
// the dynamism vector; every way of changing dynamism must keep it right.
TEST(ShapeTest, StaticnessFollowsEveryChangeOfDynamism) {
  Shape shape = Shape::DynamicArray(ElementType::kF32, {4, 8}, {true, false});
  EXPECT_FALSE(shape.is_static());
  shape.set_dynamic_dimension(0, false);
  EXPECT_TRUE(shape.is_static());
  shape.set_dynamic_dimension(0, false);  // Setting it twice is no change.
  EXPECT_TRUE(shape.is_static());
  shape.set_dimension(1, 8, /*dynamic=*/true);
  shape.set_dimension(0, Shape::kUnboundedSize);
  EXPECT_FALSE(shape.is_static());
  shape.set_dimension(0, 4);
  EXPECT_FALSE(shape.is_static());  // Dimension 1 is still dynamic.
  shape.set_dimension(1, 8);
  EXPECT_TRUE(shape.is_static());
  EXPECT_EQ(shape, Shape::Array(ElementType::kF32, {4, 8}));

  Shape copy = shape;
  copy.set_dynamic_dimension(1, true);
  EXPECT_FALSE(copy.is_static());
  EXPECT_TRUE(shape.is_static());
  EXPECT_NE(copy, shape);
  EXPECT_EQ(copy,
            Shape::DynamicArray(ElementType::kF32, {4, 8}, {false, true}));
  EXPECT_NE(copy,
            Shape::DynamicArray(ElementType::kF32, {4, 8}, {true, false}));

  Shape tuple = Shape::Tuple({shape, shape});
  EXPECT_TRUE(tuple.is_static());
  (*tuple.mutable_tuple_shapes())[1].set_dynamic_dimension(0, true);
  EXPECT_FALSE(tuple.is_static());
}

}  // namespace
}  // namespace kiln
