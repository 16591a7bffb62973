// Gather and scatter cases whose expected values come from JAX/XLA
// (tools/gen/indexing_gather_scatter_gen.py prints them): batching dims,
// index_vector_dim in the middle, clamped gather starts, and the StableHLO
// spec's scatter example with an out-of-bounds index.
#include <string>

#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::LiteralText;
using eval_test::RunToText;

// An expected value written as literal text, in RunToText's form.
std::string Norm(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  return literal.ok()
             ? LiteralText(*literal)
             : "bad expectation: " + std::string(literal.status().message());
}

TEST(GeneratedGatherTest, BatchingDimsAndIndexVectorDimInTheMiddle) {
  const std::string hlo =
      EntryModule({"s32[2,5,4]", "s32[3,2,2]"},
                  "ROOT g = s32[3,3,2] gather(p0, p1), offset_dims={1}, "
                  "collapsed_slice_dims={1}, start_index_map={1,2}, "
                  "operand_batching_dims={0}, start_indices_batching_dims={2}, "
                  "index_vector_dim=1, slice_sizes={1,1,3}");
  EXPECT_EQ(
      RunToText(hlo,
                {"s32[2,5,4] {{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, "
                 "{12, 13, 14, 15}, {16, 17, 18, 19}}, {{20, 21, 22, 23}, "
                 "{24, 25, 26, 27}, {28, 29, 30, 31}, {32, 33, 34, 35}, "
                 "{36, 37, 38, 39}}}",
                 "s32[3,2,2] {{{3, 0}, {1, 4}}, {{7, -2}, {0, 1}}, "
                 "{{2, 2}, {4, 9}}}"}),
      Norm("s32[3,3,2] {{{13, 21}, {14, 22}, {15, 23}}, {{16, 21}, {17, 22}, "
           "{18, 23}}, {{9, 29}, {10, 30}, {11, 31}}}"));
}

TEST(GeneratedScatterTest, StableHloSpecExample) {
  const std::string prelude =
      "add {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  ROOT r = s32[] add(a, b)\n}\n";
  const std::string hlo = EntryModule(
      {"s32[2,3,4,2]", "s64[2,2,3,2]", "s32[2,2,3,2,2]"},
      "ROOT s = s32[2,3,4,2] scatter(p0, p1, p2), update_window_dims={3,4}, "
      "inserted_window_dims={1}, input_batching_dims={0}, "
      "scatter_indices_batching_dims={1}, "
      "scatter_dims_to_operand_dims={2,1}, index_vector_dim=3, "
      "to_apply=add",
      prelude);
  const std::string ones =
      "s32[2,2,3,2,2] {{{{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, "
      "1}}}, {{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}}, "
      "{{{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}, {{{1, 1}, "
      "{1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}}}";
  EXPECT_EQ(
      RunToText(hlo,
                {"s32[2,3,4,2] {{{{1, 2}, {3, 4}, {5, 6}, {7, 8}}, {{9, 10}, "
                 "{11, 12}, {13, 14}, {15, 16}}, {{17, 18}, {19, 20}, {21, "
                 "22}, {23, 24}}}, {{{25, 26}, {27, 28}, {29, 30}, {31, 32}}, "
                 "{{33, 34}, {35, 36}, {37, 38}, {39, 40}}, {{41, 42}, {43, "
                 "44}, {45, 46}, {47, 48}}}}",
                 "s64[2,2,3,2] {{{{0, 0}, {1, 0}, {2, 1}}, {{0, 1}, {1, 1}, "
                 "{0, 9}}}, {{{0, 0}, {2, 1}, {2, 2}}, {{1, 2}, {0, 1}, {1, "
                 "0}}}}",
                 ones}),
      Norm("s32[2,3,4,2] {{{{3, 4}, {6, 7}, {6, 7}, {7, 8}}, {{9, 10}, {11, "
           "12}, {15, 16}, {17, 18}}, {{17, 18}, {19, 20}, {22, 23}, {24, "
           "25}}}, {{{25, 26}, {28, 29}, {30, 31}, {31, 32}}, {{35, 36}, {38, "
           "39}, {38, 39}, {39, 40}}, {{41, 42}, {44, 45}, {46, 47}, {47, "
           "48}}}}"));
}

// operation_semantics.md, "Scatter - Example 1": the same operand and
// indices with updates S32[2,2,3,1,2] (a 1x2 window), all ones.
TEST(GeneratedScatterTest, SpecExampleOneShapes) {
  const std::string prelude =
      "add {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  ROOT r = s32[] add(a, b)\n}\n";
  const std::string hlo = EntryModule(
      {"s32[2,3,4,2]", "s64[2,2,3,2]", "s32[2,2,3,1,2]"},
      "ROOT s = s32[2,3,4,2] scatter(p0, p1, p2), update_window_dims={3,4}, "
      "inserted_window_dims={1}, input_batching_dims={0}, "
      "scatter_indices_batching_dims={1}, "
      "scatter_dims_to_operand_dims={2,1}, index_vector_dim=3, "
      "to_apply=add",
      prelude);
  const std::string ones =
      "s32[2,2,3,1,2] {{{{{1, 1}}, {{1, 1}}, {{1, 1}}}, {{{1, 1}}, {{1, 1}}, "
      "{{1, 1}}}}, {{{{1, 1}}, {{1, 1}}, {{1, 1}}}, {{{1, 1}}, {{1, 1}}, "
      "{{1, 1}}}}}";
  EXPECT_EQ(
      RunToText(hlo,
                {"s32[2,3,4,2] {{{{1, 2}, {3, 4}, {5, 6}, {7, 8}}, {{9, 10}, "
                 "{11, 12}, {13, 14}, {15, 16}}, {{17, 18}, {19, 20}, {21, "
                 "22}, {23, 24}}}, {{{25, 26}, {27, 28}, {29, 30}, {31, 32}}, "
                 "{{33, 34}, {35, 36}, {37, 38}, {39, 40}}, {{41, 42}, {43, "
                 "44}, {45, 46}, {47, 48}}}}",
                 "s64[2,2,3,2] {{{{0, 0}, {1, 0}, {2, 1}}, {{0, 1}, {1, 1}, "
                 "{0, 9}}}, {{{0, 0}, {2, 1}, {2, 2}}, {{1, 2}, {0, 1}, {1, "
                 "0}}}}",
                 ones}),
      Norm("s32[2,3,4,2] {{{{3, 4}, {4, 5}, {5, 6}, {7, 8}}, {{9, 10}, {11, "
           "12}, {15, 16}, {15, 16}}, {{17, 18}, {19, 20}, {22, 23}, {23, "
           "24}}}, {{{25, 26}, {28, 29}, {29, 30}, {31, 32}}, {{35, 36}, {36, "
           "37}, {37, 38}, {39, 40}}, {{41, 42}, {44, 45}, {45, 46}, {47, "
           "48}}}}"));
}

}  // namespace
}  // namespace kiln
