// One valid case per indexing op, and for each constraint its section of
// operation_semantics.md states, one invalid case whose error names the
// constraint and the section. The full table (with the constraints where the
// spec is silent and Kiln follows XLA) is
// docs/shape_rule_coverage_elementwise_data.md; in short:
//
// op                   | constraints                              | test
// ---------------------|------------------------------------------|-------------
// gather               | operand rank = offset + collapsed +      |
// GatherDimensionNumbers
//                      | batching; slice_sizes has operand rank;  |
//                      GatherSliceSizes | index_vector_dim in [0, indices
//                      rank];   | GatherBatchingDims | dims sorted, unique, in
//                      range; indices   | | integral; batching dims paired |
// scatter              | N >= 1 operands and updates of one dims; |
// ScatterOperands
//                      | updates rank = window + indices rank - 1;|
//                      ScatterUpdates | window bounds; scatter bounds; dims |
//                      ScatterDimensionNumbers | sorted, unique, in range;
//                      combiner       | ScatterCombiner
// dynamic-slice        | N integer scalar starts of one type;     |
// DynamicSlice
//                      | 0 < size <= dimension; N sizes           |
// dynamic-update-slice | update rank and type T; 0 < update dim   |
// DynamicUpdateSlice
//                      | <= operand dim; N integer scalar starts  |
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::InferError;
using ::testing::HasSubstr;

constexpr absl::string_view kGather = " (operation_semantics.md, Gather)";
constexpr absl::string_view kScatter = " (operation_semantics.md, Scatter)";
constexpr absl::string_view kDynamicSlice =
    " (operation_semantics.md, DynamicSlice)";
constexpr absl::string_view kDynamicUpdateSlice =
    " (operation_semantics.md, DynamicUpdateSlice)";

// A module whose entry has the parameters below and ROOT out = `root`.
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY e {
  op = f32[4,6] parameter(0)
  idx = s32[3,1] parameter(1)
  idx2 = s32[3,2] parameter(2)
  upd = f32[3,6] parameter(3)
  iop = s32[4,6] parameter(4)
  iupd = s32[3,6] parameter(5)
  bop = f32[3,4,6] parameter(6)
  bidx = s32[3,1] parameter(7)
  bupd = f32[3,6] parameter(8)
  i = s32[] parameter(9)
  j = s32[] parameter(10)
  k = s64[] parameter(11)
  small = f32[2,3] parameter(12)
  bidx2 = s32[2,1] parameter(13)
  wide = f32[3,7] parameter(14)
  empty = f32[0,3] parameter(15)
  ROOT out = )",
                      root, "\n}\n");
}

// Inferred shape text, or the error.
std::string Infer(absl::string_view root) {
  absl::StatusOr<std::string> shape = shape_test::InferText(Module(root));
  if (!shape.ok()) return std::string(shape.status().message());
  return *shape;
}

// gather(op, idx) with the given dimension numbers.
std::string Gather(absl::string_view dims,
                   absl::string_view operands = "op, idx") {
  return Infer(absl::StrCat("f32[] gather(", operands, "), ", dims));
}

TEST(IndexingConstraintsTest, GatherDimensionNumbers) {
  EXPECT_EQ(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                   "start_index_map={0}, index_vector_dim=1, "
                   "slice_sizes={1,6}"),
            "f32[3,6]");
  EXPECT_EQ(Gather("offset_dims={1,2}, collapsed_slice_dims={}, "
                   "start_index_map={0,1}, index_vector_dim=1, "
                   "slice_sizes={2,3}",
                   "op, idx2"),
            "f32[3,2,3]");
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={1,6}"),
              HasSubstr(absl::StrCat(
                  "operand rank 2 must equal the sizes of offset_dims + "
                  "collapsed_slice_dims + operand_batching_dims (1)",
                  kGather)));
  EXPECT_THAT(
      Gather("offset_dims={1}, collapsed_slice_dims={0}, "
             "start_index_map={0}, index_vector_dim=-1, "
             "slice_sizes={1,6}"),
      HasSubstr(absl::StrCat(
          "index_vector_dim=-1 must be in [0, indices rank 2]", kGather)));
  EXPECT_THAT(Gather("offset_dims={1,2}, collapsed_slice_dims={}, "
                     "start_index_map={1,1}, index_vector_dim=1, "
                     "slice_sizes={2,3}",
                     "op, idx2"),
              HasSubstr(absl::StrCat(
                  "start_index_map {1,1} repeats dimension 1", kGather)));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={2}, index_vector_dim=1, "
                     "slice_sizes={1,6}"),
              HasSubstr(absl::StrCat("start_index_map {2} has dimension 2 out "
                                     "of range [0, 2)",
                                     kGather)));
  EXPECT_THAT(Gather("offset_dims={2,1}, collapsed_slice_dims={}, "
                     "start_index_map={0,1}, index_vector_dim=1, "
                     "slice_sizes={2,3}",
                     "op, idx2"),
              HasSubstr(absl::StrCat(
                  "offset_dims {2,1} must be strictly increasing", kGather)));
  EXPECT_THAT(
      Gather("offset_dims={}, collapsed_slice_dims={1,0}, "
             "start_index_map={0,1}, index_vector_dim=1, "
             "slice_sizes={1,1}",
             "op, idx2"),
      HasSubstr(absl::StrCat(
          "collapsed_slice_dims {1,0} must be strictly increasing", kGather)));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0,1}, index_vector_dim=1, "
                     "slice_sizes={1,6}"),
              HasSubstr(absl::StrCat("must have one entry per index vector "
                                     "element (1)",
                                     kGather)));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={1,6}",
                     "op, upd"),
              HasSubstr(absl::StrCat(
                  "indices are f32[3,6], expected an integer array", kGather)));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={1,6}",
                     "op, i"),
              HasSubstr("index_vector_dim=1 must be in [0, indices rank 0]"));
}

TEST(IndexingConstraintsTest, GatherSliceSizes) {
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={1,6,1}"),
              HasSubstr(absl::StrCat("slice_sizes has 3 entries, expected the "
                                     "operand rank 2",
                                     kGather)));
  EXPECT_THAT(
      Gather("offset_dims={1}, collapsed_slice_dims={0}, "
             "start_index_map={0}, index_vector_dim=1, "
             "slice_sizes={1,7}"),
      HasSubstr(absl::StrCat("slice_sizes[1]=7 must be in [0, 6]", kGather)));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={1,-1}"),
              HasSubstr("slice_sizes[1]=-1 must be in [0, 6]"));
  EXPECT_THAT(Gather("offset_dims={1}, collapsed_slice_dims={0}, "
                     "start_index_map={0}, index_vector_dim=1, "
                     "slice_sizes={3,6}"),
              HasSubstr(absl::StrCat("slice_sizes[0]=3 must be <= 1 for a "
                                     "collapsed or batching dimension",
                                     kGather)));
}

TEST(IndexingConstraintsTest, GatherBatchingDims) {
  // bop f32[3,4,6] batched on dim 0 with bidx s32[3,1] on dim 0.
  const std::string batched =
      "offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1}, "
      "index_vector_dim=1, slice_sizes={1,1,6}, ";
  EXPECT_EQ(Gather(batched + "operand_batching_dims={0}, "
                             "start_indices_batching_dims={0}",
                   "bop, bidx"),
            "f32[3,6]");
  EXPECT_THAT(Gather(batched + "operand_batching_dims={0}", "bop, bidx"),
              HasSubstr(absl::StrCat("start_indices_batching_dims and "
                                     "operand_batching_dims must have the "
                                     "same size",
                                     kGather)));
  EXPECT_THAT(Gather(batched + "operand_batching_dims={1}, "
                               "start_indices_batching_dims={0}",
                     "bop, bidx"),
              HasSubstr(absl::StrCat("dimension 1 is in both "
                                     "collapsed_slice_dims and "
                                     "operand_batching_dims",
                                     kGather)));
  EXPECT_THAT(Gather(batched + "operand_batching_dims={0}, "
                               "start_indices_batching_dims={1}",
                     "bop, bidx"),
              HasSubstr(absl::StrCat("start_indices_batching_dims must not "
                                     "contain index_vector_dim 1",
                                     kGather)));
  EXPECT_THAT(Gather(batched + "operand_batching_dims={0}, "
                               "start_indices_batching_dims={0}",
                     "bop, bidx2"),
              HasSubstr(absl::StrCat("operand batching dimension 0 has size 3 "
                                     "but indices batching dimension 0 has "
                                     "size 2",
                                     kGather)));
}

// scatter(<operands>) with update_window_dims etc. `dims` and to_apply.
std::string Scatter(absl::string_view operands, absl::string_view dims,
                    absl::string_view to_apply = "add") {
  return Infer(absl::StrCat("f32[] scatter(", operands, "), ", dims,
                            ", to_apply=", to_apply));
}

constexpr absl::string_view kRowScatter =
    "update_window_dims={1}, inserted_window_dims={0}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1";

TEST(IndexingConstraintsTest, ScatterOperands) {
  EXPECT_EQ(Scatter("op, idx, upd", kRowScatter), "f32[4,6]");
  // Fewer than 3 operands fails in the parser (the op's schema); an even
  // count cannot split into N operands, indices and N updates.
  EXPECT_THAT(Scatter("op, iop, idx, upd", kRowScatter),
              HasSubstr(absl::StrCat("takes N operands, the indices and N "
                                     "updates, got 4 operands",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, iop, idx, upd, upd", kRowScatter),
              HasSubstr(absl::StrCat("operand 1 s32[4,6] and updates 1 "
                                     "f32[3,6] must share operand 0's / "
                                     "updates 0's dimensions and each other's "
                                     "element type",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, bop, idx, upd, upd", kRowScatter),
              HasSubstr(absl::StrCat("operand 1 f32[3,4,6] and updates 1 "
                                     "f32[3,6] must share operand 0's"
                                     " / updates 0's dimensions and each "
                                     "other's element type",
                                     kScatter)));
}

TEST(IndexingConstraintsTest, ScatterUpdates) {
  // updates rank must be update_window_dims.size + indices rank - 1.
  EXPECT_THAT(Scatter("op, idx, bop", kRowScatter),
              HasSubstr(absl::StrCat("updates rank 3 must equal "
                                     "update_window_dims size + indices batch "
                                     "dims (2)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, small", kRowScatter),
              HasSubstr(absl::StrCat("updates scatter dimension 0 has size 2, "
                                     "expected the indices' 3",
                                     kScatter)));
  // A two-element index vector: valid.
  EXPECT_EQ(Scatter("op, idx2, upd",
                    "update_window_dims={1}, inserted_window_dims={0}, "
                    "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1"),
            "f32[4,6]");
  EXPECT_THAT(Infer("f32[] scatter(op, idx, wide), update_window_dims={1}, "
                    "inserted_window_dims={0}, "
                    "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                    "to_apply=add"),
              HasSubstr(absl::StrCat("updates window dimension 1 has size 7, "
                                     "more than the operand's 6",
                                     kScatter)));
}

TEST(IndexingConstraintsTest, ScatterDimensionNumbers) {
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={2}, inserted_window_dims={0}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("update_window_dims {2} has dimension 2 "
                                     "out of range [0, 2)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={2}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("inserted_window_dims {2} has dimension 2 "
                                     "out of range [0, 2)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={0,0}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("inserted_window_dims {0,0} must be "
                                     "strictly increasing",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("operand rank 2 must equal the sizes of "
                                     "update_window_dims + "
                                     "inserted_window_dims + "
                                     "input_batching_dims (1)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={0}, "
                      "scatter_dims_to_operand_dims={0,1}, "
                      "index_vector_dim=1"),
              HasSubstr(absl::StrCat("scatter_dims_to_operand_dims={0,1} must "
                                     "have one entry per index vector element "
                                     "(1)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={0}, "
                      "scatter_dims_to_operand_dims={5}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("scatter_dims_to_operand_dims {5} has "
                                     "dimension 5 out of range [0, 2)",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, idx, upd",
                      "update_window_dims={1}, inserted_window_dims={0}, "
                      "scatter_dims_to_operand_dims={0}, index_vector_dim=3"),
              HasSubstr(absl::StrCat("index_vector_dim=3 must be in [0, "
                                     "indices rank 2]",
                                     kScatter)));
  EXPECT_THAT(Scatter("op, upd, upd", kRowScatter),
              HasSubstr(absl::StrCat("indices are f32[3,6], expected an "
                                     "integer array",
                                     kScatter)));
  // Batching: bop f32[3,4,6] and bidx s32[3,1] batched on their dim 0.
  EXPECT_EQ(Scatter("bop, bidx, bupd",
                    "update_window_dims={1}, inserted_window_dims={1}, "
                    "scatter_dims_to_operand_dims={1}, "
                    "input_batching_dims={0}, "
                    "scatter_indices_batching_dims={0}, index_vector_dim=1"),
            "f32[3,4,6]");
  EXPECT_THAT(Scatter("bop, bidx, bupd",
                      "update_window_dims={1}, inserted_window_dims={1}, "
                      "scatter_dims_to_operand_dims={0}, "
                      "input_batching_dims={0}, "
                      "scatter_indices_batching_dims={0}, index_vector_dim=1"),
              HasSubstr(absl::StrCat("dimension 0 is in both "
                                     "scatter_dims_to_operand_dims and "
                                     "input_batching_dims",
                                     kScatter)));
}

TEST(IndexingConstraintsTest, ScatterCombiner) {
  EXPECT_EQ(Scatter("iop, idx, iupd", kRowScatter, "add_s32"), "s32[4,6]");
  EXPECT_THAT(Scatter("op, idx, upd", kRowScatter, "add_s32"),
              HasSubstr("to_apply=add_s32 has signature"));
  EXPECT_THAT(Scatter("op, idx, upd", kRowScatter, "add_s32"),
              HasSubstr(kScatter));
}

TEST(IndexingConstraintsTest, DynamicSlice) {
  // The spec's 2-dimensional example: b f32[4,3], s = {2, 1}, sizes {2, 2}.
  EXPECT_EQ(Infer("f32[] dynamic-slice(op, i, j), dynamic_slice_sizes={2,2}"),
            "f32[2,2]");
  EXPECT_THAT(
      Infer("f32[] dynamic-slice(op, i, j), dynamic_slice_sizes={0,2}"),
      HasSubstr(absl::StrCat("dynamic_slice_sizes[0]=0 must be in [1, 4]",
                             kDynamicSlice)));
  EXPECT_THAT(
      Infer("f32[] dynamic-slice(op, i, j), dynamic_slice_sizes={2,7}"),
      HasSubstr(absl::StrCat("dynamic_slice_sizes[1]=7 must be in [1, 6]",
                             kDynamicSlice)));
  EXPECT_THAT(Infer("f32[] dynamic-slice(op, i, j), dynamic_slice_sizes={2}"),
              HasSubstr(absl::StrCat("dynamic_slice_sizes has 1 entries, "
                                     "expected the operand rank 2",
                                     kDynamicSlice)));
  EXPECT_THAT(
      Infer("f32[] dynamic-slice(op, i, j, j), dynamic_slice_sizes={2,2}"),
      HasSubstr(absl::StrCat("takes one start index per operand dimension "
                             "(2), got 3",
                             kDynamicSlice)));
  EXPECT_THAT(
      Infer("f32[] dynamic-slice(op, i, k), dynamic_slice_sizes={2,2}"),
      HasSubstr(absl::StrCat("start index operand 2 is s64[], expected an "
                             "integer scalar of the first index's type",
                             kDynamicSlice)));
  EXPECT_THAT(
      Infer("f32[] dynamic-slice(op, small, i), dynamic_slice_sizes={2,2}"),
      HasSubstr(absl::StrCat("start index operand 1 is f32[2,3], expected an "
                             "integer scalar of the first index's type",
                             kDynamicSlice)));
}

TEST(IndexingConstraintsTest, DynamicUpdateSlice) {
  EXPECT_EQ(Infer("f32[] dynamic-update-slice(op, small, i, j)"), "f32[4,6]");
  EXPECT_THAT(Infer("f32[] dynamic-update-slice(op, empty, i, j)"),
              HasSubstr(absl::StrCat("update f32[0,3] has size 0 in dimension "
                                     "0; update dimensions must be positive",
                                     kDynamicUpdateSlice)));
  EXPECT_THAT(Infer("f32[] dynamic-update-slice(small, op, i, j)"),
              HasSubstr(absl::StrCat("update dimension 0 has size 4, more "
                                     "than the operand's 2",
                                     kDynamicUpdateSlice)));
  EXPECT_THAT(Infer("f32[] dynamic-update-slice(op, iupd, i, j)"),
              HasSubstr(absl::StrCat("update s32[3,6] must have the rank and "
                                     "element type of operand f32[4,6]",
                                     kDynamicUpdateSlice)));
  EXPECT_THAT(Infer("f32[] dynamic-update-slice(op, small, i)"),
              HasSubstr(absl::StrCat("takes one start index per operand "
                                     "dimension (2), got 1",
                                     kDynamicUpdateSlice)));
  EXPECT_THAT(Infer("f32[] dynamic-update-slice(op, small, i, k)"),
              HasSubstr(absl::StrCat("start index operand 3 is s64[], "
                                     "expected an integer scalar of the first "
                                     "index's type",
                                     kDynamicUpdateSlice)));
}

}  // namespace
}  // namespace kiln
