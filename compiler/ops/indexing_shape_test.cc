// Shape rules of the indexing family: gather, scatter, dynamic-slice,
// dynamic-update-slice.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::DeclaredShapeMismatches;
using shape_test::InferError;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr absl::string_view kComputations = R"(HloModule m
add_f32 {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT sum = f32[] add(lhs, rhs)
}
add_pair {
  l0 = f32[] parameter(0)
  l1 = s32[] parameter(1)
  r0 = f32[] parameter(2)
  r1 = s32[] parameter(3)
  s0 = f32[] add(l0, r0)
  m1 = s32[] maximum(l1, r1)
  ROOT result = (f32[], s32[]) tuple(s0, m1)
}
)";

// Valid cases whose declared shapes are what XLA infers; gather_spec and
// gather_spec_batch are the [16,11] examples of operation_semantics.md.
constexpr absl::string_view kValidEntry = R"(
ENTRY e {
  operand = f32[3,4] parameter(0)
  indices = s32[2,1] parameter(1)
  batched_operand = f32[2,5,3] parameter(2)
  batched_indices = s32[2,4,1] parameter(3)
  int_operand = s32[3,4] parameter(4)
  updates = f32[2,4] parameter(5)
  int_updates = s32[2,4] parameter(6)
  batched_updates = f32[2,4,3] parameter(7)
  indices_2d = s64[5,2] parameter(8)
  big = f32[16,11] parameter(9)
  indices_3d = s64[4,5,2] parameter(10)
  i0 = s32[] parameter(11)
  i1 = s32[] parameter(12)
  small = f32[2,2] parameter(13)
  gather = f32[2,4] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  gather_sorted = f32[2,1,2] gather(operand, indices), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={1}, index_vector_dim=1, slice_sizes={1,2}, indices_are_sorted=true
  gather_2d_index = f32[5] gather(operand, indices_2d), offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,1}
  gather_batched = f32[2,4,3] gather(batched_operand, batched_indices), offset_dims={2}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1,3}
  gather_spec = f32[5,8,6] gather(big, indices_2d), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={8,6}
  gather_spec_batch = f32[4,5,8,6] gather(big, indices_3d), offset_dims={2,3}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=2, slice_sizes={8,6}
  gather_offset_first = f32[8,6,5] gather(big, indices_2d), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={8,6}
  gather_implicit_vector = f32[2,1,4] gather(operand, indices), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,4}
  scatter = f32[3,4] scatter(operand, indices, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32
  scatter_batched = f32[2,5,3] scatter(batched_operand, batched_indices, batched_updates), update_window_dims={2}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, input_batching_dims={0}, scatter_indices_batching_dims={0}, index_vector_dim=2, to_apply=add_f32
  scatter_variadic = (f32[3,4], s32[3,4]) scatter(operand, int_operand, indices, updates, int_updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_pair
  ds = f32[2,3] dynamic-slice(operand, i0, i1), dynamic_slice_sizes={2,3}
  dus = f32[3,4] dynamic-update-slice(operand, small, i0, i1)
  ROOT t = () tuple()
})";

TEST(IndexingShapeTest, ValidCasesMatchDeclaredShapes) {
  EXPECT_THAT(DeclaredShapeMismatches(
                  absl::StrCat(kComputations, kValidEntry),
                  {Opcode::kGather, Opcode::kScatter, Opcode::kDynamicSlice,
                   Opcode::kDynamicUpdateSlice}),
              IsEmpty());
}

std::string Module(absl::string_view root) {
  return absl::StrCat(kComputations, R"(
ENTRY e {
  operand = f32[3,4] parameter(0)
  indices = s32[2,1] parameter(1)
  bo = f32[2,5,3] parameter(2)
  bi = s32[2,4,1] parameter(3)
  updates = f32[2,4] parameter(4)
  fi = f32[2,1] parameter(5)
  i0 = s32[] parameter(6)
  i1 = s32[] parameter(7)
  l1 = s64[] parameter(8)
  big = f32[3,5] parameter(9)
  iv = s32[2] parameter(10)
  ROOT out = )",
                      root, "\n}\n");
}

constexpr absl::string_view kGatherDims =
    "start_index_map={0}, index_vector_dim=1";

TEST(GatherShapeTest, RejectsSliceSizes) {
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[2,4] gather(operand, indices), offset_dims={1}, "
                  "collapsed_slice_dims={0}, ",
                  kGatherDims, ", slice_sizes={1,5}"))),
              HasSubstr("out: slice_sizes[1]=5 must be in [0, 4] "
                        "(operation_semantics.md, Gather)"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[2,4] gather(operand, indices), offset_dims={1}, "
                  "collapsed_slice_dims={0}, ",
                  kGatherDims, ", slice_sizes={2,4}"))),
              HasSubstr("slice_sizes[0]=2 must be <= 1 for a collapsed"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[2,4] gather(operand, indices), offset_dims={1}, "
                  "collapsed_slice_dims={0}, ",
                  kGatherDims, ", slice_sizes={1}"))),
              HasSubstr("slice_sizes has 1 entries, expected the operand "
                        "rank 2"));
}

TEST(GatherShapeTest, RejectsDimensionNumbers) {
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[2,4] gather(operand, indices), offset_dims={1}, "
                  "collapsed_slice_dims={}, ",
                  kGatherDims, ", slice_sizes={1,4}"))),
              HasSubstr("operand rank 2 must equal the sizes of offset_dims "
                        "+ collapsed_slice_dims + operand_batching_dims (1)"));
  EXPECT_THAT(
      InferError(Module("f32[2,4] gather(operand, indices), offset_dims={1}, "
                        "collapsed_slice_dims={0}, start_index_map={0,1}, "
                        "index_vector_dim=1, slice_sizes={1,4}")),
      HasSubstr("start_index_map={0,1} must have one entry per index "
                "vector element (1)"));
  EXPECT_THAT(
      InferError(Module("f32[2,4] gather(operand, indices), offset_dims={1}, "
                        "collapsed_slice_dims={0}, start_index_map={0}, "
                        "index_vector_dim=3, slice_sizes={1,4}")),
      HasSubstr("index_vector_dim=3 must be in [0, indices rank 2]"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[2,4] gather(operand, indices), offset_dims={2}, "
                  "collapsed_slice_dims={0}, ",
                  kGatherDims, ", slice_sizes={1,4}"))),
              HasSubstr("offset_dims"));
  EXPECT_THAT(InferError(Module(
                  absl::StrCat("f32[2,4] gather(operand, fi), offset_dims={1}, "
                               "collapsed_slice_dims={0}, ",
                               kGatherDims, ", slice_sizes={1,4}"))),
              HasSubstr("indices are f32[2,1], expected an integer array"));
}

TEST(GatherShapeTest, RejectsBatchingDims) {
  const std::string prefix =
      "f32[2,4,3] gather(bo, bi), offset_dims={2}, collapsed_slice_dims={1}, "
      "start_index_map={1}, operand_batching_dims={";
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  prefix,
                  "2}, start_indices_batching_dims={0}, index_vector_dim=2, "
                  "slice_sizes={1,1,1}"))),
              HasSubstr("operand batching dimension 2 has size 3 but indices "
                        "batching dimension 0 has size 2"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  prefix,
                  "0}, start_indices_batching_dims={2}, index_vector_dim=2, "
                  "slice_sizes={1,1,3}"))),
              HasSubstr("start_indices_batching_dims must not contain "
                        "index_vector_dim 2"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  prefix, "0}, index_vector_dim=2, slice_sizes={1,1,3}"))),
              HasSubstr("must have the same size"));
  EXPECT_THAT(InferError(Module(
                  "f32[2,4,3] gather(bo, bi), offset_dims={2}, "
                  "collapsed_slice_dims={1}, start_index_map={0}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={0},"
                  " index_vector_dim=2, slice_sizes={1,1,3}")),
              HasSubstr("dimension 0 is in both start_index_map and "
                        "operand_batching_dims"));
}

constexpr absl::string_view kScatterDims =
    "update_window_dims={1}, inserted_window_dims={0}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1";

TEST(ScatterShapeTest, RejectsUpdates) {
  EXPECT_THAT(InferError(Module(
                  absl::StrCat("f32[3,4] scatter(operand, indices, big), ",
                               kScatterDims, ", to_apply=add_f32"))),
              HasSubstr("updates scatter dimension 0 has size 3, expected "
                        "the indices' 2"));
  EXPECT_THAT(
      InferError(Module(absl::StrCat("f32[3,4] scatter(operand, indices, iv), ",
                                     kScatterDims, ", to_apply=add_f32"))),
      HasSubstr("updates 0 s32[2]"));
}

TEST(ScatterShapeTest, RejectsWindowLargerThanOperand) {
  EXPECT_THAT(
      InferError(Module(absl::StrCat("f32[3,4] scatter(operand, fi, updates), ",
                                     kScatterDims, ", to_apply=add_f32"))),
      HasSubstr("indices are f32[2,1]"));
  EXPECT_THAT(InferError(absl::StrCat(kComputations, R"(
ENTRY e {
  operand = f32[3,4] parameter(0)
  indices = s32[2,1] parameter(1)
  updates = f32[2,5] parameter(2)
  ROOT out = f32[3,4] scatter(operand, indices, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32
})")),
              HasSubstr("updates window dimension 1 has size 5, more than the "
                        "operand's 4"));
}

TEST(ScatterShapeTest, RejectsCombinerAndOperandCount) {
  EXPECT_THAT(InferError(Module(
                  absl::StrCat("f32[3,4] scatter(operand, indices, updates), ",
                               kScatterDims, ", to_apply=add_pair"))),
              HasSubstr("to_apply=add_pair has signature"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "f32[3,4] scatter(operand, indices, updates, updates), ",
                  kScatterDims, ", to_apply=add_f32"))),
              HasSubstr("takes N operands, the indices and N updates, got 4"));
}

TEST(DynamicSliceShapeTest, RejectsBadSizesAndIndices) {
  EXPECT_THAT(InferError(Module("f32[2,5] dynamic-slice(operand, i0, i1), "
                                "dynamic_slice_sizes={2,5}")),
              HasSubstr("dynamic_slice_sizes[1]=5 must be in [1, 4]"));
  EXPECT_THAT(InferError(Module("f32[2] dynamic-slice(operand, i0, i1), "
                                "dynamic_slice_sizes={2}")),
              HasSubstr("dynamic_slice_sizes has 1 entries"));
  EXPECT_THAT(InferError(Module("f32[2,2] dynamic-slice(operand, i0), "
                                "dynamic_slice_sizes={2,2}")),
              HasSubstr("one start index per operand dimension (2), got 1"));
  EXPECT_THAT(InferError(Module("f32[2,2] dynamic-slice(operand, i0, l1), "
                                "dynamic_slice_sizes={2,2}")),
              HasSubstr("start index operand 2 is s64[]"));
  EXPECT_EQ(
      *shape_test::InferText(Module("f32[2,2] dynamic-slice(operand, iv), "
                                    "dynamic_slice_sizes={2,2}")),
      "f32[2,2]");
}

TEST(DynamicUpdateSliceShapeTest, RejectsUpdateLargerThanOperand) {
  EXPECT_THAT(
      InferError(Module("f32[3,4] dynamic-update-slice(operand, big, i0, i1)")),
      HasSubstr("update dimension 1 has size 5, more than the "
                "operand's 4"));
  EXPECT_THAT(
      InferError(Module("f32[3,4] dynamic-update-slice(operand, iv, i0, i1)")),
      HasSubstr("must have the rank and element type"));
}

}  // namespace
}  // namespace kiln
