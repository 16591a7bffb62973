#include "compiler/ir/attributes.h"

#include "compiler/ir/computation.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using Groups = std::vector<std::vector<int64_t>>;

ReplicaGroups Iota(std::vector<int64_t> group_shape,
                   std::vector<int64_t> reshape,
                   std::vector<int64_t> perm = {}) {
  ReplicaGroups groups;
  groups.is_iota = true;
  groups.iota_group_shape = std::move(group_shape);
  groups.iota_reshape_dims = std::move(reshape);
  groups.iota_transpose_perm = std::move(perm);
  return groups;
}

TEST(AttributesTest, WindowDimensionEqualityCoversEveryField) {
  WindowDimension base;
  EXPECT_EQ(base, WindowDimension());
  std::vector<void (*)(WindowDimension*)> changes = {
      [](WindowDimension* w) { w->size = 3; },
      [](WindowDimension* w) { w->stride = 2; },
      [](WindowDimension* w) { w->padding_low = 1; },
      [](WindowDimension* w) { w->padding_high = 1; },
      [](WindowDimension* w) { w->window_dilation = 2; },
      [](WindowDimension* w) { w->base_dilation = 2; },
      [](WindowDimension* w) { w->window_reversal = true; },
  };
  for (auto change : changes) {
    WindowDimension changed;
    change(&changed);
    EXPECT_FALSE(base == changed);
  }
  Window a{{base, base}};
  Window b{{base}};
  EXPECT_FALSE(a == b);
}

TEST(AttributesTest, ConvolutionDimensionNumbersEquality) {
  ConvolutionDimensionNumbers a;
  a.input_spatial_dimensions = {1, 2};
  a.kernel_spatial_dimensions = {0, 1};
  a.output_spatial_dimensions = {1, 2};
  a.input_feature_dimension = 3;
  ConvolutionDimensionNumbers b = a;
  EXPECT_TRUE(a == b);
  b.kernel_output_feature_dimension = 3;
  EXPECT_FALSE(a == b);
  b = a;
  b.output_spatial_dimensions = {2, 1};
  EXPECT_FALSE(a == b);
}

TEST(AttributesTest, IotaReplicaGroupsExpand) {
  EXPECT_EQ(Iota({2, 2}, {4}).ExpandedGroups(), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(Iota({2, 2}, {2, 2}, {1, 0}).ExpandedGroups(),
            (Groups{{0, 2}, {1, 3}}));
  EXPECT_EQ(Iota({1, 8}, {8}).ExpandedGroups(),
            (Groups{{0, 1, 2, 3, 4, 5, 6, 7}}));
  // Element [i,j,k] of the transpose is k*4 + j*2 + i.
  EXPECT_EQ(Iota({4, 2}, {2, 2, 2}, {2, 1, 0}).ExpandedGroups(),
            (Groups{{0, 4}, {2, 6}, {1, 5}, {3, 7}}));
  EXPECT_EQ(Iota({2, 3}, {2, 3}, {1, 0}).ExpandedGroups(),
            (Groups{{0, 3, 1}, {4, 2, 5}}));
}

TEST(AttributesTest, InvalidIotaExpandsToNothing) {
  EXPECT_TRUE(Iota({2, 3}, {4}).ExpandedGroups().empty());
  EXPECT_TRUE(Iota({4}, {4}).ExpandedGroups().empty());
  EXPECT_TRUE(Iota({2, 2}, {2, 2}, {0, 0}).ExpandedGroups().empty());
  EXPECT_TRUE(Iota({2, 2}, {2, 2}, {0}).ExpandedGroups().empty());
  EXPECT_TRUE(Iota({-2, -2}, {4}).ExpandedGroups().empty());
  // Far too many devices: refused instead of allocated.
  EXPECT_TRUE(Iota({1000000000, 1000000000}, {1000000000, 1000000000})
                  .ExpandedGroups()
                  .empty());
}

TEST(AttributesTest, ReplicaGroupsEquality) {
  ReplicaGroups list;
  list.groups = {{0, 1}, {2, 3}};
  EXPECT_EQ(list.ExpandedGroups(), list.groups);
  EXPECT_TRUE(list == Iota({2, 2}, {4}));
  EXPECT_TRUE(Iota({2, 2}, {4}) == list);
  EXPECT_FALSE(list == Iota({2, 2}, {2, 2}, {1, 0}));
  EXPECT_TRUE(Iota({2, 2}, {4}) == Iota({2, 2}, {4}));
  EXPECT_FALSE(Iota({2, 2}, {4}) == Iota({2, 2}, {2, 2}, {1, 0}));
  ReplicaGroups other;
  other.groups = {{0, 1}};
  EXPECT_FALSE(list == other);
}

TEST(AttributesTest, AttributeMapSetFindErase) {
  AttributeMap attrs;
  EXPECT_TRUE(attrs.empty());
  attrs.Set("dimensions", Int64List{1, 0});
  attrs.Set("index", int64_t{3});
  attrs.Set("dimensions", Int64List{0});  // Overwrites in place.
  ASSERT_EQ(attrs.entries().size(), 2u);
  EXPECT_EQ(attrs.entries()[0].first, "dimensions");
  EXPECT_EQ(*attrs.Get<Int64List>("dimensions"), Int64List{0});
  EXPECT_EQ(*attrs.Get<int64_t>("index"), 3);
  EXPECT_EQ(attrs.Get<bool>("index"), nullptr);
  EXPECT_EQ(attrs.Get<int64_t>("missing"), nullptr);
  EXPECT_TRUE(attrs.Has("index"));
  EXPECT_TRUE(attrs.Erase("index"));
  EXPECT_FALSE(attrs.Erase("index"));
  EXPECT_FALSE(attrs.Has("index"));
}

TEST(AttributesTest, EqualsComparesComputationsByName) {
  Computation add1("add");
  Computation add2("add");
  Computation mul("mul");
  AttributeMap a;
  a.Set("to_apply", &add1);
  a.Set("branch_computations", ComputationList{&add1, &mul});
  AttributeMap b;
  b.Set("branch_computations", ComputationList{&add2, &mul});
  b.Set("to_apply", &add2);
  EXPECT_TRUE(a.Equals(b));  // Order of insertion does not matter.
  b.Set("to_apply", &mul);
  EXPECT_FALSE(a.Equals(b));
  b.Set("to_apply", &add2);
  b.Set("branch_computations", ComputationList{&mul, &add2});
  EXPECT_FALSE(a.Equals(b));
}

TEST(AttributesTest, EqualsComparesKindsAndValues) {
  AttributeMap a;
  a.Set("x", int64_t{1});
  AttributeMap b;
  b.Set("x", 1.0);
  EXPECT_FALSE(a.Equals(b));
  b.Set("x", int64_t{1});
  EXPECT_TRUE(a.Equals(b));
  b.Set("y", true);
  EXPECT_FALSE(a.Equals(b));
  EXPECT_FALSE(b.Equals(a));
  AttributeMap c;
  c.Set("x", int64_t{2});
  EXPECT_FALSE(a.Equals(c));
  AttributeMap d;
  d.Set("shape", Shape::Array(ElementType::kF32, {2}));
  AttributeMap e;
  e.Set("shape", Shape::Array(ElementType::kF32, {2}));
  EXPECT_TRUE(d.Equals(e));
  e.Set("shape", Shape::Array(ElementType::kF32, {3}));
  EXPECT_FALSE(d.Equals(e));
}

TEST(AttributesTest, MayReferenceComputationsIsConservative) {
  Computation callee("callee");
  AttributeMap plain;
  plain.Set("dimensions", Int64List{0, 1});
  EXPECT_FALSE(plain.MayReferenceComputations());
  AttributeMap calls;
  calls.Set("to_apply", &callee);
  EXPECT_TRUE(calls.MayReferenceComputations());
  AttributeMap list;
  list.Set("branch_computations", ComputationList{&callee});
  EXPECT_TRUE(list.MayReferenceComputations());
  // A value handed out for writing may become a computation.
  AttributeMap written;
  written.Set("to_apply", std::string("placeholder"));
  EXPECT_FALSE(written.MayReferenceComputations());
  *written.Find("to_apply") = &callee;
  EXPECT_TRUE(written.MayReferenceComputations());
  AttributeMap copy = calls;
  EXPECT_TRUE(copy.MayReferenceComputations());
}

}  // namespace
}  // namespace kiln
