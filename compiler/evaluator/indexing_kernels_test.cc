// dynamic-slice, dynamic-update-slice and gather. Expected values are the
// spec's worked examples (operation_semantics.md) or worked out by hand from
// the spec's index formulas (the comments show the arithmetic).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::LiteralText;
using eval_test::RunToText;

std::string Eval(const std::vector<std::string>& parameter_shapes,
                 const std::string& body,
                 const std::vector<std::string>& arguments) {
  return RunToText(EntryModule(parameter_shapes, body), arguments);
}

// An expected value written as literal text, in RunToText's form.
std::string Norm(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  return literal.ok()
             ? LiteralText(*literal)
             : "bad expectation: " + std::string(literal.status().message());
}

constexpr char kB[] = "f32[4,3] {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}}";
constexpr char kM[] = "s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}";

// Spec, DynamicSlice: the 1- and 2-dimensional examples.
TEST(DynamicSliceTest, SpecExamples) {
  EXPECT_EQ(Eval({"f32[5]", "s32[]"},
                 "ROOT d = f32[2] dynamic-slice(p0, p1), "
                 "dynamic_slice_sizes={2}",
                 {"f32[5] {0, 1, 2, 3, 4}", "s32[] 2"}),
            Norm("f32[2] {2, 3}"));
  EXPECT_EQ(Eval({"f32[4,3]", "s32[]", "s32[]"},
                 "ROOT d = f32[2,2] dynamic-slice(p0, p1, p2), "
                 "dynamic_slice_sizes={2,2}",
                 {kB, "s32[] 2", "s32[] 1"}),
            Norm("f32[2,2] {{7, 8}, {10, 11}}"));
}

// Spec: start = clamp(start, 0, dim - size), for any integer index type.
TEST(DynamicSliceTest, StartIndicesAreClamped) {
  const std::string hlo = EntryModule(
      {"f32[5]", "s64[]"},
      "ROOT d = f32[2] dynamic-slice(p0, p1), dynamic_slice_sizes={2}");
  EXPECT_EQ(RunToText(hlo, {"f32[5] {0, 1, 2, 3, 4}", "s64[] 4"}),
            Norm("f32[2] {3, 4}"));
  EXPECT_EQ(RunToText(hlo, {"f32[5] {0, 1, 2, 3, 4}", "s64[] -9"}),
            Norm("f32[2] {0, 1}"));
  EXPECT_EQ(Eval({"f32[5]", "u8[]"},
                 "ROOT d = f32[2] dynamic-slice(p0, p1), "
                 "dynamic_slice_sizes={2}",
                 {"f32[5] {0, 1, 2, 3, 4}", "u8[] 255"}),
            Norm("f32[2] {3, 4}"));
  EXPECT_EQ(Eval({"f32[5]", "u64[]"},
                 "ROOT d = f32[2] dynamic-slice(p0, p1), "
                 "dynamic_slice_sizes={2}",
                 {"f32[5] {0, 1, 2, 3, 4}", "u64[] 18446744073709551615"}),
            Norm("f32[2] {3, 4}"));
  // Sub-byte index and element types.
  EXPECT_EQ(Eval({"s4[4]", "s4[]"},
                 "ROOT d = s4[3] dynamic-slice(p0, p1), "
                 "dynamic_slice_sizes={3}",
                 {"s4[4] {-8, -1, 0, 7}", "s4[] -8"}),
            Norm("s4[3] {-8, -1, 0}"));
}

// Spec, DynamicUpdateSlice: the 1- and 2-dimensional examples.
TEST(DynamicUpdateSliceTest, SpecExamples) {
  EXPECT_EQ(Eval({"f32[5]", "f32[2]", "s32[]"},
                 "ROOT d = f32[5] dynamic-update-slice(p0, p1, p2)",
                 {"f32[5] {0, 1, 2, 3, 4}", "f32[2] {5, 6}", "s32[] 2"}),
            Norm("f32[5] {0, 1, 5, 6, 4}"));
  EXPECT_EQ(Eval({"f32[4,3]", "f32[3,2]", "s32[]", "s32[]"},
                 "ROOT d = f32[4,3] dynamic-update-slice(p0, p1, p2, p3)",
                 {kB, "f32[3,2] {{12, 13}, {14, 15}, {16, 17}}", "s32[] 1",
                  "s32[] 1"}),
            Norm("f32[4,3] {{0, 1, 2}, {3, 12, 13}, {6, 14, 15}, "
                 "{9, 16, 17}}"));
}

TEST(DynamicUpdateSliceTest, StartIndicesAreClamped) {
  const std::string hlo =
      EntryModule({"c64[4]", "c64[2]", "u32[]"},
                  "ROOT d = c64[4] dynamic-update-slice(p0, p1, p2)");
  // 3 clamps to 4 - 2 = 2.
  EXPECT_EQ(RunToText(hlo, {"c64[4] {(0, 0), (1, 0), (2, 0), (3, 0)}",
                            "c64[2] {(8, 1), (9, -1)}", "u32[] 3"}),
            Norm("c64[4] {(0, 0), (1, 0), (8, 1), (9, -1)}"));
  EXPECT_EQ(Eval({"s32[3]", "s32[1]", "s8[]"},
                 "ROOT d = s32[3] dynamic-update-slice(p0, p1, p2)",
                 {"s32[3] {1, 2, 3}", "s32[1] {7}", "s8[] -128"}),
            Norm("s32[3] {7, 2, 3}"));
}

std::string GatherModule(const std::string& operand, const std::string& indices,
                         const std::string& result, const std::string& dims) {
  return EntryModule({operand, indices},
                     "ROOT g = " + result + " gather(p0, p1), " + dims);
}

// Gathering whole rows (tf.gather / jnp.take along axis 0).
TEST(GatherTest, Rows) {
  EXPECT_EQ(RunToText(GatherModule("s32[3,3]", "s32[2]", "s32[2,3]",
                                   "offset_dims={1}, collapsed_slice_dims={0}, "
                                   "start_index_map={0}, index_vector_dim=1, "
                                   "slice_sizes={1,3}"),
                      {kM, "s32[2] {0, 2}"}),
            Norm("s32[2,3] {{1, 2, 3}, {7, 8, 9}}"));
}

// Columns: the offset dimension comes first in the result.
TEST(GatherTest, Columns) {
  EXPECT_EQ(RunToText(GatherModule("s32[3,3]", "s32[2]", "s32[3,2]",
                                   "offset_dims={0}, collapsed_slice_dims={1}, "
                                   "start_index_map={1}, index_vector_dim=1, "
                                   "slice_sizes={3,1}"),
                      {kM, "s32[2] {0, 2}"}),
            Norm("s32[3,2] {{1, 3}, {4, 6}, {7, 9}}"));
}

// 2x2 windows at (1,1) and (2,2); (2,2) clamps to (1,1) so the window fits.
TEST(GatherTest, WindowsAndClampedStarts) {
  EXPECT_EQ(
      RunToText(GatherModule("s32[3,3]", "s32[2,2]", "s32[2,2,2]",
                             "offset_dims={1,2}, collapsed_slice_dims={}, "
                             "start_index_map={0,1}, index_vector_dim=1, "
                             "slice_sizes={2,2}"),
                {kM, "s32[2,2] {{1, 1}, {2, 2}}"}),
      Norm("s32[2,2,2] {{{5, 6}, {8, 9}}, {{5, 6}, {8, 9}}}"));
  // Negative and huge unsigned starts clamp to 0 and dim - size.
  EXPECT_EQ(RunToText(GatherModule("s32[3,3]", "u64[2]", "s32[2,3]",
                                   "offset_dims={1}, collapsed_slice_dims={0}, "
                                   "start_index_map={0}, index_vector_dim=1, "
                                   "slice_sizes={1,3}"),
                      {kM, "u64[2] {18446744073709551615, 1}"}),
            Norm("s32[2,3] {{7, 8, 9}, {4, 5, 6}}"));
  EXPECT_EQ(RunToText(GatherModule("s32[3,3]", "s8[1]", "s32[1,3]",
                                   "offset_dims={1}, collapsed_slice_dims={0}, "
                                   "start_index_map={0}, index_vector_dim=1, "
                                   "slice_sizes={1,3}"),
                      {kM, "s8[1] {-100}"}),
            Norm("s32[1,3] {{1, 2, 3}}"));
}

// index_vector_dim = 1 of s32[2,2,2]: the vector for batch position (i, j)
// is indices[i][:][j]: (0,0), (1,1), (2,2), (0,2) -> 1, 5, 9, 3.
TEST(GatherTest, IndexVectorDimInTheMiddle) {
  EXPECT_EQ(
      RunToText(GatherModule("s32[3,3]", "s32[2,2,2]", "s32[2,2]",
                             "offset_dims={}, collapsed_slice_dims={0,1}, "
                             "start_index_map={0,1}, index_vector_dim=1, "
                             "slice_sizes={1,1}"),
                {kM, "s32[2,2,2] {{{0, 1}, {0, 1}}, {{2, 0}, {2, 2}}}"}),
      Norm("s32[2,2] {{1, 5}, {9, 3}}"));
  // index_vector_dim = 0: the vectors are the columns, (1,0) and (0,2).
  EXPECT_EQ(
      RunToText(GatherModule("s32[3,3]", "s32[2,2]", "s32[2]",
                             "offset_dims={}, collapsed_slice_dims={0,1}, "
                             "start_index_map={0,1}, index_vector_dim=0, "
                             "slice_sizes={1,1}"),
                {kM, "s32[2,2] {{1, 0}, {0, 2}}"}),
      Norm("s32[2] {4, 3}"));
}

// Spec: index_vector_dim == rank means a trailing dimension of size 1.
TEST(GatherTest, IndexVectorDimEqualToRank) {
  EXPECT_EQ(RunToText(GatherModule("s32[3,3]", "s32[2,2]", "s32[2,2,3]",
                                   "offset_dims={2}, collapsed_slice_dims={0}, "
                                   "start_index_map={0}, index_vector_dim=2, "
                                   "slice_sizes={1,3}"),
                      {kM, "s32[2,2] {{2, 0}, {1, 1}}"}),
            Norm("s32[2,2,3] {{{7, 8, 9}, {1, 2, 3}}, "
                 "{{4, 5, 6}, {4, 5, 6}}}"));
}

// Batching dims: batch j of the indices reads batch j of the operand.
TEST(GatherTest, BatchingDimensions) {
  EXPECT_EQ(
      RunToText(GatherModule("s32[2,3]", "s32[2,1]", "s32[2]",
                             "offset_dims={}, collapsed_slice_dims={1}, "
                             "start_index_map={1}, operand_batching_dims={0}, "
                             "start_indices_batching_dims={0}, "
                             "index_vector_dim=1, slice_sizes={1,1}"),
                {"s32[2,3] {{1, 2, 3}, {4, 5, 6}}", "s32[2,1] {{2}, {0}}"}),
      Norm("s32[2] {3, 4}"));
  // out[i][j][o] = op[j][clamp(idx[i][j], 0, 2) + o], the batching dim of
  // the indices (1) not leading.
  EXPECT_EQ(
      RunToText(
          GatherModule("s32[2,4]", "s32[3,2]", "s32[3,2,2]",
                       "offset_dims={2}, collapsed_slice_dims={}, "
                       "start_index_map={1}, operand_batching_dims={0}, "
                       "start_indices_batching_dims={1}, index_vector_dim=2, "
                       "slice_sizes={1,2}"),
          {"s32[2,4] {{0, 1, 2, 3}, {10, 11, 12, 13}}",
           "s32[3,2] {{0, 1}, {2, 3}, {3, 0}}"}),
      Norm("s32[3,2,2] {{{0, 1}, {11, 12}}, {{2, 3}, {12, 13}}, "
           "{{2, 3}, {10, 11}}}"));
}

TEST(GatherTest, SubByteComplexAndEmpty) {
  const std::string rows =
      "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
      "index_vector_dim=1, slice_sizes={1,2}";
  EXPECT_EQ(RunToText(GatherModule("u2[2,2]", "s32[2]", "u2[2,2]", rows),
                      {"u2[2,2] {{0, 1}, {2, 3}}", "s32[2] {1, 1}"}),
            Norm("u2[2,2] {{2, 3}, {2, 3}}"));
  EXPECT_EQ(RunToText(GatherModule("c128[2,2]", "s16[1]", "c128[1,2]", rows),
                      {"c128[2,2] {{(1, 2), (3, 4)}, {(5, 6), (7, 8)}}",
                       "s16[1] {1}"}),
            Norm("c128[1,2] {{(5, 6), (7, 8)}}"));
  EXPECT_EQ(RunToText(GatherModule("f32[2,2]", "s32[0]", "f32[0,2]", rows),
                      {"f32[2,2] {{1, 2}, {3, 4}}", "s32[0] {}"}),
            Norm("f32[0,2] {}"));
}

// The old form: one start index vector.
TEST(DynamicSliceTest, StartIndexVector) {
  EXPECT_EQ(Eval({"f32[4,3]", "s32[2]"},
                 "ROOT d = f32[2,2] dynamic-slice(p0, p1), "
                 "dynamic_slice_sizes={2,2}",
                 {kB, "s32[2] {5, 1}"}),
            Norm("f32[2,2] {{7, 8}, {10, 11}}"));
}

// Dynamic parameters take arguments of their actual size, so a kernel can
// meet values its declared shapes do not promise: errors, not crashes.
TEST(IndexingErrorsTest, ValuesThatDoNotFitAreErrors) {
  std::string result = Eval({"f32[<=4]", "s32[]"},
                            "ROOT d = f32[3] dynamic-slice(p0, p1), "
                            "dynamic_slice_sizes={3}",
                            {"f32[2] {1, 2}", "s32[] 0"});
  EXPECT_TRUE(absl::StrContains(result,
                                "d: dynamic_slice_sizes[0]=3 does "
                                "not fit in f32[2]"))
      << result;
  result = Eval({"f32[<=4]", "f32[3]", "s32[]"},
                "ROOT d = f32[<=4] dynamic-update-slice(p0, p1, p2)",
                {"f32[2] {1, 2}", "f32[3] {1, 2, 3}", "s32[] 0"});
  EXPECT_TRUE(absl::StrContains(result,
                                "d: update f32[3] does not fit in "
                                "operand f32[2]"))
      << result;
  result = RunToText(GatherModule("s32[<=3,3]", "s32[2]", "s32[2,3]",
                                  "offset_dims={1}, collapsed_slice_dims={0}, "
                                  "start_index_map={0}, index_vector_dim=1, "
                                  "slice_sizes={1,3}"),
                     {"s32[0,3] {}", "s32[2] {0, 2}"});
  EXPECT_TRUE(absl::StrContains(result,
                                "g: slice_sizes[0]=1 must be 1 on a "
                                "collapsed or batching dimension"))
      << result;
}

}  // namespace
}  // namespace kiln
