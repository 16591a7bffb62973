// Dynamic sizes through dot, convolution, gather, scatter,
// select-and-scatter, reduce-window, slices and the collectives
// (docs/evaluator_dynamic.md, dynamic_kernels.h). As in
// dynamic_shapes_test.cc, every dynamic value comes from set-dimension-size
// on an argument whose padding holds large "garbage" values (100, 1000,
// -100): a result that read the padding would show them. Expected values
// are worked out by hand from the valid elements; results print as XLA's
// Literal::ToString does ("f32[<=4](2) {1, 2}").
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::WithSize;

std::string Eval(const std::vector<std::string>& parameter_shapes,
                 const std::string& body,
                 const std::vector<std::string>& arguments,
                 const std::string& prelude = "") {
  return eval_test::RunToText(EntryModule(parameter_shapes, body, prelude),
                              arguments);
}

constexpr char kAdd[] =
    "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = f32[] add(a, b)\n}\n";
constexpr char kGe[] =
    "ge {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = pred[] compare(a, b), direction=GE\n}\n";

// Rows {1, 2 | 100, 1000} and {3, 4 | 100, 1000}: two valid columns.
constexpr char kMatrix[] = "f32[2,4] {{1, 2, 100, 1000}, {3, 4, 100, 1000}}";

TEST(DynamicDotTest, ContractingOverADynamicDimensionSumsValidElements) {
  // {1, 2} . {1, 1} = 3 and {3, 4} . {1, 1} = 7; the rhs's static ones past
  // the size meet zeros (XLA's dynamic padder pads the dot's operand with
  // zero, the identity of the sum).
  EXPECT_EQ(
      Eval({"f32[2,4]", "f32[4]"},
           WithSize("f32[2,<=4]", 1, 2,
                    "ROOT r = f32[2] dot(d, p1), lhs_contracting_dims={1}, "
                    "rhs_contracting_dims={0}"),
           {kMatrix, "f32[4] {1, 1, 1, 1}"}),
      "f32[2] {3, 7}");
}

TEST(DynamicDotTest, FreeAndBatchDimensionsKeepTheirSizes) {
  // Rows 0 and 1 are valid: {1,2}x{{1,0,1},{0,1,1}} = {1,2,3}, {3,4,7}.
  EXPECT_EQ(
      Eval({"f32[4,2]", "f32[2,3]"},
           WithSize("f32[<=4,2]", 0, 2,
                    "ROOT r = f32[<=4,3] dot(d, p1), lhs_contracting_dims={1}, "
                    "rhs_contracting_dims={0}"),
           {"f32[4,2] {{1, 2}, {3, 4}, {100, 100}, {1000, 1000}}",
            "f32[2,3] {{1, 0, 1}, {0, 1, 1}}"}),
      "f32[<=4,3](2,3) { { 1, 2, 3 }, { 3, 4, 7 } }");
  // A dynamic batch of size 1 out of 2: batch 0 is {1,2}.{1,1} = 3.
  EXPECT_EQ(
      Eval({"f32[2,2]", "f32[2,2]"},
           WithSize("f32[<=2,2]", 0, 1,
                    "ROOT r = f32[<=2] dot(d, p1), lhs_batch_dims={0}, "
                    "rhs_batch_dims={0}, lhs_contracting_dims={1}, "
                    "rhs_contracting_dims={1}"),
           {"f32[2,2] {{1, 2}, {100, 100}}", "f32[2,2] {{1, 1}, {5, 5}}"}),
      "f32[<=2](1) {3}");
}

TEST(DynamicConvolutionTest, DynamicInputFeaturesAreContractedOverValidOnes) {
  // bf0 input: features 0 and 1 valid ({1, 2} and {3, 4}), feature 2 is
  // padding {1000, 1000}; the 1-wide kernel weighs them 1, 10, 100:
  // output = 1*{1, 2} + 10*{3, 4} = {31, 42}.
  EXPECT_EQ(
      Eval({"f32[1,3,2]", "f32[1,3,1]"},
           WithSize("f32[1,<=3,2]", 1, 2,
                    "ROOT r = f32[1,1,2] convolution(d, p1), window={size=1}, "
                    "dim_labels=bf0_oi0->bf0"),
           {"f32[1,3,2] {{{1, 2}, {3, 4}, {1000, 1000}}}",
            "f32[1,3,1] {{{1}, {10}, {100}}}"}),
      "f32[1,1,2] { { { 31, 42 } } }");
}

TEST(DynamicConvolutionTest, DynamicBatchKeepsItsSize) {
  // Batch 0 of 2 is valid: {1, 2, 3} convolved with {1, 1} = {3, 5}.
  EXPECT_EQ(
      Eval(
          {"f32[2,1,3]", "f32[1,1,2]"},
          WithSize("f32[<=2,1,3]", 0, 1,
                   "ROOT r = f32[<=2,1,2] convolution(d, p1), window={size=2}, "
                   "dim_labels=bf0_oi0->bf0"),
          {"f32[2,1,3] {{{1, 2, 3}}, {{100, 100, 100}}}",
           "f32[1,1,2] {{{1, 1}}}"}),
      "f32[<=2,1,2](1,1,2) { { { 3, 5 } } }");
}

TEST(DynamicGatherTest, OnlyValidIndexVectorsAreGathered) {
  // Index rows {2} and {0} are valid; the padding rows {1}, {1} are not.
  EXPECT_EQ(Eval({"s32[4,1]", "f32[3]"},
                 WithSize("s32[<=4,1]", 0, 2,
                          "ROOT g = f32[<=4] gather(p1, d), offset_dims={}, "
                          "collapsed_slice_dims={0}, start_index_map={0}, "
                          "index_vector_dim=1, slice_sizes={1}"),
                 {"s32[4,1] {{2}, {0}, {1}, {1}}", "f32[3] {10, 20, 30}"}),
            "f32[<=4](2) {30, 10}");
}

TEST(DynamicGatherTest, AWholeDynamicOperandDimensionKeepsItsSize) {
  // Row 1 of the matrix, taken whole in its dynamic dimension: {3, 4}.
  EXPECT_EQ(Eval({"f32[2,4]", "s32[1,1]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          "ROOT g = f32[1,<=4] gather(d, p1), offset_dims={1}, "
                          "collapsed_slice_dims={0}, start_index_map={0}, "
                          "index_vector_dim=1, slice_sizes={1,4}"),
                 {kMatrix, "s32[1,1] {{1}}"}),
            "f32[1,<=4](1,2) { { 3, 4 } }");
}

TEST(DynamicScatterTest, OnlyValidIndexVectorsScatter) {
  // Index rows {0} and {2} are valid: 5 goes to 0, 6 to 2; the padding row
  // {1} with update 7 is not applied.
  EXPECT_EQ(Eval({"s32[3,1]", "f32[4]", "f32[3]"},
                 WithSize("s32[<=3,1]", 0, 2,
                          "ROOT s = f32[4] scatter(p1, d, p2), "
                          "update_window_dims={}, inserted_window_dims={0}, "
                          "scatter_dims_to_operand_dims={0}, "
                          "index_vector_dim=1, to_apply=add"),
                 {"s32[3,1] {{0}, {2}, {1}}", "f32[4] {0, 0, 0, 0}",
                  "f32[3] {5, 6, 7}"},
                 kAdd),
            "f32[4] {5, 0, 6, 0}");
}

TEST(DynamicScatterTest, TheResultKeepsTheOperandsSize) {
  // Operand {1, 2, 3 | 1000}: 10 is added at index 1.
  EXPECT_EQ(
      Eval({"f32[4]", "s32[1,1]", "f32[1]"},
           WithSize("f32[<=4]", 0, 3,
                    "ROOT s = f32[<=4] scatter(d, p1, p2), "
                    "update_window_dims={}, inserted_window_dims={0}, "
                    "scatter_dims_to_operand_dims={0}, "
                    "index_vector_dim=1, to_apply=add"),
           {"f32[4] {1, 2, 3, 1000}", "s32[1,1] {{1}}", "f32[1] {10}"}, kAdd),
      "f32[<=4](3) {1, 12, 3}");
}

TEST(DynamicSelectAndScatterTest, WindowsCoverOnlyValidElements) {
  // Valid {1, 5, 2}, padding -100: windows of 2 at stride 1 over the valid
  // elements are [1, 5] and [5, 2], both selecting 5 (index 1), which gets
  // 10 + 20. A window over [2, -100] would select index 2: it is not there.
  EXPECT_EQ(Eval({"f32[6]", "f32[5]"},
                 WithSize("f32[<=6]", 0, 3,
                          "z = f32[] constant(0)\n"
                          "  ROOT s = f32[<=6] select-and-scatter(d, p1, z), "
                          "window={size=2}, select=ge, scatter=add"),
                 {"f32[6] {1, 5, 2, -100, -100, -100}",
                  "f32[5] {10, 20, 30, 40, 50}"},
                 absl::StrCat(kGe, kAdd)),
            "f32[<=6](3) {0, 30, 0}");
}

TEST(DynamicReduceWindowTest, WindowsOverTheValidElements) {
  // 3 valid elements {1, 2, 3}: windows of 2 give {3, 5}; the result is
  // dynamic (XLA's inference gives reduce-window a dynamic size).
  EXPECT_EQ(Eval({"f32[5]"},
                 WithSize("f32[<=5]", 0, 3,
                          "z = f32[] constant(0)\n"
                          "  ROOT r = f32[<=4] reduce-window(d, z), "
                          "window={size=2}, to_apply=add"),
                 {"f32[5] {1, 2, 3, 100, 1000}"}, kAdd),
            "f32[<=4](2) {3, 5}");
}

TEST(DynamicSliceTest, AWholeDynamicDimensionStaysDynamic) {
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          "ROOT r = f32[1,<=4] slice(d), slice={[1:2], [0:4]}"),
                 {kMatrix}),
            "f32[1,<=4](1,2) { { 3, 4 } }");
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          "i = s32[] constant(1)\n  j = s32[] constant(0)\n"
                          "  ROOT r = f32[1,<=4] dynamic-slice(d, i, j), "
                          "dynamic_slice_sizes={1,4}"),
                 {kMatrix}),
            "f32[1,<=4](1,2) { { 3, 4 } }");
  // A partial slice is static and reads the bounded array (padding too).
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2,
                          "ROOT r = f32[2] slice(d), slice={[1:3]}"),
                 {"f32[4] {1, 2, 100, 1000}"}),
            "f32[2] {2, 100}");
}

// Runs `hlo` on `devices` replicas, device d's argument `arguments[d]`.
std::vector<std::string> RunReplicated(const std::string& hlo,
                                       const std::vector<std::string>& args) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok())
    return {absl::StrCat("parse error: ", module.status().message())};
  std::vector<std::vector<Literal>> values(args.size());
  for (size_t d = 0; d < args.size(); ++d) {
    absl::StatusOr<Literal> value = ParseLiteral(args[d]);
    if (!value.ok()) return {"bad argument"};
    values[d].push_back(*std::move(value));
  }
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateReplicated(**module, values, args.size(), 1);
  if (!results.ok())
    return {absl::StrCat("error: ", results.status().message())};
  std::vector<std::string> texts;
  for (const Literal& result : *results)
    texts.push_back(LiteralToString(result));
  return texts;
}

TEST(DynamicCollectiveTest, AllReduceKeepsTheSize) {
  const std::string hlo = absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p0 = f32[4] parameter(0)
  n = s32[] constant(2)
  d = f32[<=4] set-dimension-size(p0, n), dimensions={0}
  ROOT r = f32[<=4] all-reduce(d), replica_groups={{0,1}}, to_apply=add
})");
  const std::vector<std::string> expected = {"f32[<=4](2) {11, 22}",
                                             "f32[<=4](2) {11, 22}"};
  EXPECT_EQ(RunReplicated(hlo, {"f32[4] {1, 2, 100, 100}",
                                "f32[4] {10, 20, 1000, 1000}"}),
            expected);
}

TEST(DynamicCollectiveTest, AllReduceStartKeepsTheSize) {
  const std::string hlo = absl::StrCat("HloModule m\n", kAdd, R"(
ENTRY e {
  p0 = f32[4] parameter(0)
  n = s32[] constant(3)
  d = f32[<=4] set-dimension-size(p0, n), dimensions={0}
  s = f32[<=4] all-reduce-start(d), replica_groups={{0,1}}, to_apply=add
  ROOT r = f32[<=4] all-reduce-done(s)
})");
  const std::vector<std::string> expected = {"f32[<=4](3) {2, 4, 6}",
                                             "f32[<=4](3) {2, 4, 6}"};
  EXPECT_EQ(
      RunReplicated(hlo, {"f32[4] {1, 2, 3, 100}", "f32[4] {1, 2, 3, 1000}"}),
      expected);
}

TEST(DynamicCollectiveTest, AllGatherAlongAStaticDimensionKeepsTheOther) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  p0 = f32[1,4] parameter(0)
  n = s32[] constant(2)
  d = f32[1,<=4] set-dimension-size(p0, n), dimensions={1}
  ROOT r = f32[2,<=4] all-gather(d), replica_groups={{0,1}}, dimensions={0}
})";
  const std::vector<std::string> expected = {
      "f32[2,<=4](2,2) { { 1, 2 }, { 10, 20 } }",
      "f32[2,<=4](2,2) { { 1, 2 }, { 10, 20 } }"};
  EXPECT_EQ(RunReplicated(hlo, {"f32[1,4] {{1, 2, 100, 100}}",
                                "f32[1,4] {{10, 20, 1000, 1000}}"}),
            expected);
  // Gathering along the dynamic dimension would put padding between valid
  // elements: refused.
  const std::string along = R"(HloModule m
ENTRY e {
  p0 = f32[1,4] parameter(0)
  n = s32[] constant(2)
  d = f32[1,<=4] set-dimension-size(p0, n), dimensions={1}
  ROOT r = f32[1,<=8] all-gather(d), replica_groups={{0,1}}, dimensions={1}
})";
  const std::vector<std::string> result = RunReplicated(
      along, {"f32[1,4] {{1, 2, 3, 4}}", "f32[1,4] {{1, 2, 3, 4}}"});
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(
      absl::StrContains(result[0], "dimension 1 has dynamic size 2 of 4"))
      << result[0];
}

}  // namespace
}  // namespace kiln
