// reduce-window and select-and-scatter: the spec's examples
// (operation_semantics.md, ReduceWindow examples 1 and 2 and the padding
// example; SelectAndScatter's figure), with results worked by hand.
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

std::string Binary(const std::string& name, const std::string& op,
                   const std::string& type) {
  return absl::StrCat(name, " {\n  a = ", type, "[] parameter(0)\n  b = ", type,
                      "[] parameter(1)\n  ROOT r = ", type, "[] ", op,
                      "(a, b)\n}\n");
}

// reduce-window(p0, init) with `window`, folding with `combiner`: "f" (a
// single op, the fast path) or "f_slow" (the same op and a dead one, which
// keeps it on the general path).
std::string WindowModule(const std::string& shape, const std::string& result,
                         const std::string& init, const std::string& window,
                         const std::string& op, const std::string& combiner) {
  const std::string type = shape.substr(0, shape.find('['));
  const std::string slow =
      absl::StrCat("f_slow {\n  a = ", type, "[] parameter(0)\n  b = ", type,
                   "[] parameter(1)\n  dead = ", type, "[] ", op,
                   "(b, a)\n  ROOT r = ", type, "[] ", op, "(a, b)\n}\n");
  return EntryModule({shape},
                     absl::StrCat("init = ", type, "[] constant(", init,
                                  ")\n  ROOT r = ", result,
                                  " reduce-window(p0, init), window={", window,
                                  "}, to_apply=", combiner),
                     Binary("f", op, type) + slow);
}

// The result on the fast path, after checking that the general path gives
// the same.
std::string RunWindow(const std::string& shape, const std::string& result,
                      const std::string& init, const std::string& window,
                      const std::string& op, const std::string& argument) {
  const std::string fast =
      RunToText(WindowModule(shape, result, init, window, op, "f"), {argument});
  EXPECT_EQ(fast,
            RunToText(WindowModule(shape, result, init, window, op, "f_slow"),
                      {argument}))
      << window;
  return fast;
}

// Spec padding example: minimum, window 3, stride 2 over
// [10000, 1000, 100, 10, 1]: kValid gives [100, 1]; kSame (one init value
// on each side) gives [1000, 10, 1].
TEST(ReduceWindowTest, SpecPaddingExample) {
  const std::string input = "f32[5] {10000, 1000, 100, 10, 1}";
  EXPECT_EQ(
      RunWindow("f32[5]", "f32[2]", "inf", "size=3 stride=2", "minimum", input),
      "f32[2] {100, 1}");
  EXPECT_EQ(RunWindow("f32[5]", "f32[3]", "inf", "size=3 stride=2 pad=1_1",
                      "minimum", input),
            "f32[3] {1000, 10, 1}");
}

// Spec example 1's setup: max over 2x3 windows with stride 2x3 on a 4x6
// matrix (values chosen here; maxima by hand).
TEST(ReduceWindowTest, SpecExample1MaxPool) {
  const std::string input =
      "f32[4,6] {{7, 2, 5, 3, 10, 2}, {3, 8, 9, 3, 4, 2}, "
      "{1, 5, 7, 5, 6, 1}, {0, 6, 2, 10, 2, 4}}";
  EXPECT_EQ(RunWindow("f32[4,6]", "f32[2,2]", "-inf", "size=2x3 stride=2x3",
                      "maximum", input),
            "f32[2,2] { { 9, 10 }, { 7, 10 } }");
}

// Spec example 2: s32[3,2] {{1,2},{3,4},{5,6}}, base dilation 2x1, padding
// 2_1 on rows, window 2x1 with window dilation 3x1, stride 4x1, add with
// init 0: the spec gives [[0,0],[3,4]].
TEST(ReduceWindowTest, SpecExample2Dilations) {
  EXPECT_EQ(RunWindow("s32[3,2]", "s32[2,2]", "0",
                      "size=2x1 stride=4x1 pad=2_1x0_0 lhs_dilate=2x1 "
                      "rhs_dilate=3x1",
                      "add", "s32[3,2] {{1, 2}, {3, 4}, {5, 6}}"),
            "s32[2,2] { { 0, 0 }, { 3, 4 } }");
}

// Padding cells take part as the init value (the spec: "Padding cells are
// filled with the init_value"); base-dilation holes are skipped. With a
// non-identity init (10) this shows: [P,1] = 10+10+1, [1,2] = 10+1+2, ...
TEST(ReduceWindowTest, PaddingIsInitAndHolesAreSkipped) {
  EXPECT_EQ(RunWindow("s32[3]", "s32[4]", "10", "size=2 pad=1_1", "add",
                      "s32[3] {1, 2, 3}"),
            "s32[4] {21, 13, 15, 23}");
  // lhs_dilate=2: 1 _ 2 _ 3; windows of 2 see one element and one hole.
  EXPECT_EQ(RunWindow("s32[3]", "s32[4]", "10", "size=2 lhs_dilate=2", "add",
                      "s32[3] {1, 2, 3}"),
            "s32[4] {11, 12, 12, 13}");
}

TEST(ReduceWindowTest, VariadicSumsTwoArrays) {
  const std::string prelude =
      "pair {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
      "  s = f32[] add(a, c)\n  t = s32[] multiply(b, d)\n"
      "  ROOT r = (f32[], s32[]) tuple(s, t)\n}\n";
  const std::string hlo =
      EntryModule({"f32[4]", "s32[4]"},
                  "z = f32[] constant(0)\n  one = s32[] constant(1)\n"
                  "  ROOT r = (f32[3], s32[3]) reduce-window(p0, p1, z, one), "
                  "window={size=2}, to_apply=pair",
                  prelude);
  EXPECT_EQ(RunToText(hlo, {"f32[4] {1, 2, 3, 4}", "s32[4] {1, 2, 3, 4}"}),
            "(f32[3], s32[3]) ( {3, 5, 7}, {2, 6, 12} )");
}

TEST(ReduceWindowTest, NoWindowAttributeMeansUnitWindows) {
  EXPECT_EQ(
      RunWindow("f32[2]", "f32[2]", "0.5", "size=1", "add", "f32[2] {1, 2}"),
      "f32[2] {1.5, 2.5}");
  const std::string hlo =
      EntryModule({"f32[]"},
                  "init = f32[] constant(1)\n"
                  "  ROOT r = f32[] reduce-window(p0, init), to_apply=f",
                  Binary("f", "add", "f32"));
  EXPECT_EQ(RunToText(hlo, {"f32[] 2"}), "f32[] 3");
}

std::string SelectAndScatterModule(const std::string& operand,
                                   const std::string& source,
                                   const std::string& window) {
  const std::string prelude =
      "ge {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=GE }\n" +
      Binary("add", "add", "f32");
  return EntryModule(
      {operand, source},
      absl::StrCat("init = f32[] constant(0)\n  ROOT r = ", operand,
                   " select-and-scatter(p0, p1, init), window={", window,
                   "}, select=ge, scatter=add"),
      prelude);
}

// The spec's figure (1): non-overlapping 2x3 windows; each source value
// lands on its window's maximum.
TEST(SelectAndScatterTest, NonOverlappingWindows) {
  const std::string operand =
      "f32[4,6] {{7, 2, 5, 3, 10, 2}, {3, 8, 9, 3, 4, 2}, "
      "{1, 5, 7, 5, 6, 1}, {0, 6, 2, 10, 2, 4}}";
  EXPECT_EQ(RunToText(SelectAndScatterModule("f32[4,6]", "f32[2,2]",
                                             "size=2x3 stride=2x3"),
                      {operand, "f32[2,2] {{2, 6}, {3, 1}}"}),
            "f32[4,6] { { 0, 0, 0, 0, 6, 0 }, { 0, 0, 2, 0, 0, 0 }, "
            "{ 0, 0, 3, 0, 0, 0 }, { 0, 0, 0, 1, 0, 0 } }");
}

// The spec's figure (2): overlapping windows select the same element,
// whose output accumulates both source values (here 2 + 6 = 8).
TEST(SelectAndScatterTest, OverlappingWindowsAccumulate) {
  EXPECT_EQ(RunToText(SelectAndScatterModule("f32[5]", "f32[3]", "size=3"),
                      {"f32[5] {1, 9, 2, 8, 3}", "f32[3] {2, 6, 5}"}),
            "f32[5] {0, 8, 0, 5, 0}");
}

// select(a, b) = a >= b keeps the earlier of equal elements; padding is
// never selected.
TEST(SelectAndScatterTest, TiesAndPadding) {
  EXPECT_EQ(RunToText(SelectAndScatterModule("f32[2]", "f32[1]", "size=2"),
                      {"f32[2] {5, 5}", "f32[1] {4}"}),
            "f32[2] {4, 0}");
  // pad=1_1 around [-3, -2]: windows [P,-3], [-3,-2], [-2,P]; a padding
  // value (the init 0) would beat both elements if it were a candidate.
  EXPECT_EQ(
      RunToText(SelectAndScatterModule("f32[2]", "f32[3]", "size=2 pad=1_1"),
                {"f32[2] {-3, -2}", "f32[3] {1, 10, 100}"}),
      "f32[2] {1, 110}");
}

}  // namespace
}  // namespace kiln
