// sort, topk and scan: the spec's examples (operation_semantics.md, Sort,
// TopK and Scan), stability, ties, NaN ordering, and comparators that are
// not strict weak orders (the sort must finish and permute, never crash).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/evaluator/typed.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::Run;
using eval_test::RunToText;

// Compares parameters 0 and 1 (operand 0's pair) with `direction` (which
// may carry ", type=..."); the comparator takes 2 parameters per listed
// type. `dead` adds an unused instruction, which keeps the sort off its
// fast comparator.
std::string Comparator(const std::string& name,
                       const std::vector<std::string>& types,
                       const std::string& direction, bool dead = false) {
  std::string text = absl::StrCat(name, " {\n");
  for (size_t k = 0; k < types.size(); ++k) {
    absl::StrAppend(&text, "  p", 2 * k, " = ", types[k], "[] parameter(",
                    2 * k, ") p", 2 * k + 1, " = ", types[k], "[] parameter(",
                    2 * k + 1, ")\n");
  }
  absl::StrAppend(&text,
                  "  ROOT c = pred[] compare(p0, p1), direction=", direction,
                  " }\n");
  return text;
}

// The spec's example: three operands sorted by operand 0 with less-than.
TEST(SortTest, SpecVariadicExample) {
  const std::string hlo = EntryModule(
      {"s32[2]", "s32[2]", "f32[2]"},
      "ROOT s = (s32[2], s32[2], f32[2]) sort(p0, p1, p2), dimensions={0}, "
      "to_apply=lt",
      Comparator("lt", {"s32", "s32", "f32"}, "LT"));
  EXPECT_EQ(
      RunToText(hlo, {"s32[2] {3, 1}", "s32[2] {42, 50}", "f32[2] {-3, 1.1}"}),
      "(s32[2], s32[2], f32[2]) ( {1, 3}, {50, 42}, {1.1, -3} )");
}

// Equal keys keep their order (is_stable=true, and also without it).
TEST(SortTest, StableForEqualKeys) {
  for (const char* stable : {", is_stable=true", ""}) {
    const std::string hlo = EntryModule(
        {"s32[6]", "s32[6]"},
        absl::StrCat("ROOT s = (s32[6], s32[6]) sort(p0, p1), dimensions={0}",
                     stable, ", to_apply=lt"),
        Comparator("lt", {"s32", "s32"}, "LT"));
    EXPECT_EQ(RunToText(hlo, {"s32[6] {2, 1, 2, 1, 0, 2}",
                              "s32[6] {0, 1, 2, 3, 4, 5}"}),
              "(s32[6], s32[6]) ( {0, 1, 1, 2, 2, 2}, {4, 1, 3, 0, 2, 5} )");
  }
}

TEST(SortTest, AlongEitherDimension) {
  const std::string input = "f32[2,3] {{3, 1, 2}, {0, 5, -1}}";
  const std::string prelude = Comparator("gt", {"f32"}, "GT");
  EXPECT_EQ(RunToText(EntryModule({"f32[2,3]"},
                                  "ROOT s = f32[2,3] sort(p0), dimensions={1}, "
                                  "to_apply=gt",
                                  prelude),
                      {input}),
            "f32[2,3] { { 3, 2, 1 }, { 5, 0, -1 } }");
  EXPECT_EQ(RunToText(EntryModule({"f32[2,3]"},
                                  "ROOT s = f32[2,3] sort(p0), dimensions={0}, "
                                  "to_apply=gt",
                                  prelude),
                      {input}),
            "f32[2,3] { { 3, 5, 2 }, { 0, 1, -1 } }");
}

// The sorted multiset of a result equals the input's: a permutation.
void ExpectPermutation(const std::string& hlo, const std::string& argument,
                       std::vector<int32_t> values) {
  absl::StatusOr<Literal> result = Run(hlo, {argument});
  ASSERT_TRUE(result.ok()) << result.status();
  std::vector<int32_t> sorted = eval::Read<int32_t>(*result);
  std::sort(sorted.begin(), sorted.end());
  std::sort(values.begin(), values.end());
  EXPECT_EQ(sorted, values);
}

// Comparators that are not strict weak orders: always true, <=, and a
// non-transitive "differs by 1 mod 3". The sort must end with a
// permutation of the input (this test also runs under ASan).
TEST(SortTest, InvalidComparatorsFinishWithAPermutation) {
  std::vector<int32_t> values;
  for (int i = 0; i < 97; ++i) values.push_back((i * 37) % 11 - 5);
  const std::string argument =
      absl::StrCat("s32[97] {", absl::StrJoin(values, ", "), "}");
  const std::string always =
      "yes {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  ROOT t = pred[] constant(true)\n}\n";
  const std::string cyclic =
      "cyc {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  d = s32[] subtract(b, a)\n  three = s32[] constant(3)\n"
      "  m = s32[] remainder(d, three)\n  one = s32[] constant(1)\n"
      "  ROOT t = pred[] compare(m, one), direction=EQ }\n";
  for (const auto& [name, prelude] :
       std::vector<std::pair<std::string, std::string>>{
           {"yes", always},
           {"le", Comparator("le", {"s32"}, "LE")},
           {"cyc", cyclic}}) {
    ExpectPermutation(
        EntryModule({"s32[97]"},
                    absl::StrCat("ROOT s = s32[97] sort(p0), dimensions={0}, "
                                 "to_apply=",
                                 name),
                    prelude),
        argument, values);
  }
}

// NaN under a FLOAT less-than compares false both ways, so it is not a
// strict weak order either; the sort still ends with a permutation.
TEST(SortTest, NaNWithPartialOrderFinishes) {
  const std::string hlo = EntryModule(
      {"f32[5]"}, "ROOT s = f32[5] sort(p0), dimensions={0}, to_apply=lt",
      Comparator("lt", {"f32"}, "LT"));
  const std::string result = RunToText(hlo, {"f32[5] {3, nan, 1, nan, 2}"});
  // Worked by hand through the bottom-up merge: NaNs never move ahead.
  EXPECT_EQ(result, "f32[5] {1, 2, 3, nan, nan}");
}

// The result with the fast comparator, after checking that calling the
// comparator gives the same.
std::string SortBothWays(const std::string& shape, const std::string& direction,
                         const std::string& argument) {
  const std::string type = shape.substr(0, shape.find('['));
  std::string results[2];
  for (int dead = 0; dead < 2; ++dead) {
    results[dead] = RunToText(
        EntryModule({shape},
                    absl::StrCat("ROOT s = ", shape,
                                 " sort(p0), dimensions={0}, to_apply=cmp"),
                    Comparator("cmp", {type}, direction, dead == 1)),
        {argument});
  }
  EXPECT_EQ(results[0], results[1]) << direction;
  return results[0];
}

TEST(SortTest, FastComparatorAgreesWithCallingIt) {
  const std::string floats = "f32[7] {3, nan, -0, 0, -inf, -nan, 1}";
  EXPECT_EQ(SortBothWays("f32[7]", "LT, type=TOTALORDER", floats),
            "f32[7] {-nan, -inf, -0, 0, 1, 3, nan}");
  EXPECT_EQ(SortBothWays("f32[7]", "GT, type=TOTALORDER", floats),
            "f32[7] {nan, 3, 1, 0, -0, -inf, -nan}");
  // FLOAT: NaN is unordered (not a strict weak order) and -0 == +0.
  // Worked through the bottom-up merge by hand: widths 1, 2 and 4 give
  // [3,nan][-0,0][-inf,-nan][1], then [-0,0,3,nan][-inf,-nan,1], then the
  // NaNs stop everything after them from moving ahead.
  EXPECT_EQ(SortBothWays("f32[7]", "LT", floats),
            "f32[7] {-inf, -0, 0, 3, nan, -nan, 1}");
  for (const char* direction : {"GE", "LE", "EQ", "NE", "GT, type=FLOAT"}) {
    SortBothWays("f32[7]", direction, floats);
    SortBothWays("bf16[4]", direction, "bf16[4] {1, nan, -0, 0}");
  }
  EXPECT_EQ(SortBothWays("s8[4]", "LT", "s8[4] {127, -128, 0, -1}"),
            "s8[4] {-128, -1, 0, 127}");
  EXPECT_EQ(SortBothWays("u64[3]", "GT", "u64[3] {1, 18446744073709551615, 0}"),
            "u64[3] {18446744073709551615, 1, 0}");
  EXPECT_EQ(SortBothWays("pred[3]", "LT", "pred[3] {true, false, true}"),
            "pred[3] {0, 1, 1}");
}

std::string TopKModule(const std::string& shape, const std::string& values,
                       const std::string& indices, int k,
                       const std::string& largest) {
  return EntryModule({shape}, absl::StrCat("ROOT t = (", values, ", ", indices,
                                           ") topk(p0), k=", k, largest));
}

// The spec: k largest per row, the lower index first among equal values.
TEST(TopKTest, LargestWithTies) {
  EXPECT_EQ(RunToText(TopKModule("f32[5]", "f32[3]", "s32[3]", 3, ""),
                      {"f32[5] {1, 3, 2, 3, 2}"}),
            "(f32[3], s32[3]) ( {3, 3, 2}, {1, 3, 2} )");
  EXPECT_EQ(RunToText(TopKModule("s32[2,3]", "s32[2,2]", "s32[2,2]", 2,
                                 ", largest=true"),
                      {"s32[2,3] {{5, 5, 5}, {-2147483648, 0, 2147483647}}"}),
            "(s32[2,2], s32[2,2]) ( { { 5, 5 }, { 2147483647, 0 } }, "
            "{ { 0, 1 }, { 2, 1 } } )");
}

TEST(TopKTest, Smallest) {
  EXPECT_EQ(
      RunToText(TopKModule("u8[4]", "u8[2]", "s32[2]", 2, ", largest=false"),
                {"u8[4] {9, 255, 0, 0}"}),
      "(u8[2], s32[2]) ( {0, 0}, {2, 3} )");
}

// XLA's order: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
TEST(TopKTest, NaNAndSignedZeroOrder) {
  const std::string input = "f32[6] {-0, nan, -inf, 0, -nan, inf}";
  EXPECT_EQ(RunToText(TopKModule("f32[6]", "f32[6]", "s32[6]", 6, ""), {input}),
            "(f32[6], s32[6]) ( {nan, inf, 0, -0, -inf, -nan}, "
            "{1, 5, 3, 0, 2, 4} )");
  EXPECT_EQ(
      RunToText(TopKModule("f32[6]", "f32[2]", "s32[2]", 2, ", largest=false"),
                {input}),
      "(f32[2], s32[2]) ( {-nan, -inf}, {4, 2} )");
  EXPECT_EQ(RunToText(TopKModule("bf16[3]", "bf16[1]", "s32[1]", 1, ""),
                      {"bf16[3] {1, nan, 2}"}),
            "(bf16[1], s32[1]) ( {nan}, {1} )");
}

TEST(TopKTest, KZeroAndComparator) {
  EXPECT_EQ(RunToText(TopKModule("f32[3]", "f32[0]", "s32[0]", 0, ""),
                      {"f32[3] {1, 2, 3}"}),
            "(f32[0], s32[0]) ( {}, {} )");
  const std::string hlo = EntryModule(
      {"s32[4]"}, "ROOT t = (s32[2], s32[2]) topk(p0), k=2, to_apply=lt",
      Comparator("lt", {"s32"}, "LT"));
  EXPECT_EQ(RunToText(hlo, {"s32[4] {4, 1, 3, 1}"}),
            "(s32[2], s32[2]) ( {1, 1}, {1, 3} )");
}

// The spec's scan example with f(x, c) = (x + c, x + c): running sums.
std::string ScanModule(const std::string& reverse) {
  const std::string prelude =
      "step {\n  x = f32[] parameter(0)\n  c = f32[] parameter(1)\n"
      "  s = f32[] add(x, c)\n  ROOT t = (f32[], f32[]) tuple(s, s)\n}\n";
  return EntryModule({"f32[3]"},
                     absl::StrCat("init = f32[] constant(0)\n"
                                  "  ROOT r = (f32[3], f32[]) scan(p0, init), "
                                  "dimensions={0}, num_carries=1",
                                  reverse, ", to_apply=step"),
                     prelude);
}

TEST(ScanTest, RunningSumForwardAndReverse) {
  EXPECT_EQ(RunToText(ScanModule(""), {"f32[3] {1, 2, 3}"}),
            "(f32[3], f32[]) ( {1, 3, 6}, 6 )");
  EXPECT_EQ(RunToText(ScanModule(", is_reverse=true"), {"f32[3] {1, 2, 3}"}),
            "(f32[3], f32[]) ( {6, 5, 3}, 6 )");
}

// Scanning dimension 1 of a matrix: each step sees a column, the outputs
// stack back along dimension 1; the result equals the unrolled loop
// (columns [1,4], [2,5], [3,6] added in turn to the carry).
TEST(ScanTest, InnerDimensionOfAMatrixEqualsTheUnrolledLoop) {
  const std::string prelude =
      "step {\n  x = s32[2] parameter(0)\n  c = s32[2] parameter(1)\n"
      "  s = s32[2] add(x, c)\n  ROOT t = (s32[2], s32[2]) tuple(s, s)\n}\n";
  const std::string hlo = EntryModule(
      {"s32[2,3]"},
      "init = s32[2] constant({10, 20})\n"
      "  ROOT r = (s32[2,3], s32[2]) scan(p0, init), dimensions={1}, "
      "num_carries=1, to_apply=step",
      prelude);
  EXPECT_EQ(RunToText(hlo, {"s32[2,3] {{1, 2, 3}, {4, 5, 6}}"}),
            "(s32[2,3], s32[2]) ( { { 11, 13, 16 }, { 24, 29, 35 } }, "
            "{16, 35} )");
}

}  // namespace
}  // namespace kiln
