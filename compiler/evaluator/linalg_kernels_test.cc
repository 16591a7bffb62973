// dot, ragged-dot and scaled-dot kernels. Expected values are the spec's
// DotGeneral examples, hand-computed values (derivations in comments), and
// a cross-check against reduce(multiply(broadcast, broadcast)) evaluated
// from a second HLO module.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToCompactText;

TEST(DotKernelTest, SpecExampleContractingDims) {
  const std::string hlo =
      EntryModule({"f32[2,3]", "f32[2,3]"},
                  "ROOT d = f32[2,2] dot(p0, p1), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={1}");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[2,3] {{1, 2, 3}, {4, 5, 6}}",
                                   "f32[2,3] {{1, 1, 1}, {2, 2, 2}}"}),
            "f32[2,2] {{6, 12}, {15, 30}}");
}

TEST(DotKernelTest, SpecExampleBatchDims) {
  const std::string hlo =
      EntryModule({"f32[2,2,2]", "f32[2,2,2]"},
                  "ROOT d = f32[2,2,2] dot(p0, p1), lhs_batch_dims={0}, "
                  "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                  "rhs_contracting_dims={1}");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[2,2,2] {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}",
                      "f32[2,2,2] {{{1, 0}, {0, 1}}, {{1, 0}, {0, 1}}}"}),
            "f32[2,2,2] {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}");
}

TEST(DotKernelTest, FloatSumsOfProductsAreAccurateAndRoundOnce) {
  // f32: 1e8 + 1 - 1e8 in float order gives 0; the oracle accumulates in
  // double and gives the exact 1.
  EXPECT_EQ(RunToCompactText(EntryModule({"f32[3]", "f32[3]"},
                                         "ROOT d = f32[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"f32[3] {1e8, 1, -1e8}", "f32[3] {1, 1, 1}"}),
            "f32[] 1");
  // bf16: 1 + 2^-25 - 1 is 0 when summed in float, 2^-25 exactly here.
  EXPECT_EQ(RunToCompactText(
                EntryModule({"bf16[3]", "bf16[3]"},
                            "ROOT d = bf16[] dot(p0, p1), "
                            "lhs_contracting_dims={0}, "
                            "rhs_contracting_dims={0}"),
                {"bf16[3] {1, 2.98023224e-08, -1}", "bf16[3] {1, 1, 1}"}),
            "bf16[] 2.98e-08");
  // c64: each part accumulates in double.
  EXPECT_EQ(RunToCompactText(EntryModule({"c64[3]", "c64[3]"},
                                         "ROOT d = c64[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"c64[3] {(1e8, 0), (1, 1), (-1e8, 0)}",
                              "c64[3] {(1, 0), (1, 0), (1, 0)}"}),
            "c64[] (1, 1)");
}

TEST(DotKernelTest, VectorAndMatrixForms) {
  EXPECT_EQ(RunToCompactText(EntryModule({"f64[3]", "f64[3]"},
                                         "ROOT d = f64[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"f64[3] {1, 2, 3}", "f64[3] {4, 5, 6}"}),
            "f64[] 32");
  // [[1,2],[3,4]] . [5,6] = [17, 39].
  EXPECT_EQ(RunToCompactText(EntryModule({"s32[2,2]", "s32[2]"},
                                         "ROOT d = s32[2] dot(p0, p1), "
                                         "lhs_contracting_dims={1}, "
                                         "rhs_contracting_dims={0}"),
                             {"s32[2,2] {{1, 2}, {3, 4}}", "s32[2] {5, 6}"}),
            "s32[2] {17, 39}");
  // No contracting dims: the outer product.
  EXPECT_EQ(RunToCompactText(EntryModule({"s32[2]", "s32[3]"},
                                         "ROOT d = s32[2,3] dot(p0, p1)"),
                             {"s32[2] {1, 2}", "s32[3] {1, 10, 100}"}),
            "s32[2,3] {{1, 10, 100}, {2, 20, 200}}");
}

TEST(DotKernelTest, DimensionsInAnyPosition) {
  // lhs [k=2, b=2, m=1], rhs [n=2, b=2, k=2]; result [b, m, n].
  // b=0: lhs col (1,3), rhs n0 (1,0) -> 1, n1 (0,1) -> 3.
  // b=1: lhs col (2,4), rhs n0 (1,1) -> 6, n1 (2,0) -> 4.
  const std::string hlo =
      EntryModule({"s32[2,2,1]", "s32[2,2,2]"},
                  "ROOT d = s32[2,1,2] dot(p0, p1), lhs_batch_dims={1}, "
                  "lhs_contracting_dims={0}, rhs_batch_dims={1}, "
                  "rhs_contracting_dims={2}");
  EXPECT_EQ(RunToCompactText(
                hlo, {"s32[2,2,1] {{{1}, {2}}, {{3}, {4}}}",
                      "s32[2,2,2] {{{1, 0}, {1, 1}}, {{0, 1}, {2, 0}}}"}),
            "s32[2,1,2] {{{1, 3}}, {{6, 4}}}");
}

TEST(DotKernelTest, EmptyContractionGivesZeros) {
  EXPECT_EQ(RunToCompactText(EntryModule({"f32[2,0]", "f32[0,3]"},
                                         "ROOT d = f32[2,3] dot(p0, p1), "
                                         "lhs_contracting_dims={1}, "
                                         "rhs_contracting_dims={0}"),
                             {"f32[2,0] {{}, {}}", "f32[0,3] {}"}),
            "f32[2,3] {{0, 0, 0}, {0, 0, 0}}");
}

TEST(DotKernelTest, IntegersWrapAround) {
  // 2147483647 * 2 + 3 = 4294967297 = 2^32 + 1 -> 1 in s32.
  EXPECT_EQ(RunToCompactText(EntryModule({"s32[2]", "s32[2]"},
                                         "ROOT d = s32[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"s32[2] {2147483647, 1}", "s32[2] {2, 3}"}),
            "s32[] 1");
  // u8: 255 * 255 = 65025 = 254 * 256 + 1.
  EXPECT_EQ(RunToCompactText(EntryModule({"u8[1]", "u8[1]"},
                                         "ROOT d = u8[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"u8[1] {255}", "u8[1] {255}"}),
            "u8[] 1");
  // s4: 7*7 + 7*1 = 56 = 3 * 16 + 8 -> bit pattern 1000 = -8.
  EXPECT_EQ(RunToCompactText(EntryModule({"s4[2]", "s4[2]"},
                                         "ROOT d = s4[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"s4[2] {7, 7}", "s4[2] {7, 1}"}),
            "s4[] -8");
  // u64 wraps too: (2^64 - 1) * 2 = 2^65 - 2 -> 2^64 - 2.
  EXPECT_EQ(RunToCompactText(EntryModule({"u64[1]", "u64[1]"},
                                         "ROOT d = u64[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"u64[1] {18446744073709551615}", "u64[1] {2}"}),
            "u64[] 18446744073709551614");
}

TEST(DotKernelTest, PreferredElementTypeIsTheAccumulator) {
  // s8 x s8 -> s32: 100*100 + 100*100 = 20000 fits.
  const std::vector<std::string> args = {"s8[2] {100, 100}",
                                         "s8[2] {100, 100}"};
  EXPECT_EQ(RunToCompactText(EntryModule({"s8[2]", "s8[2]"},
                                         "ROOT d = s32[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             args),
            "s32[] 20000");
  // s8 result: 20000 = 78 * 256 + 32.
  EXPECT_EQ(RunToCompactText(EntryModule({"s8[2]", "s8[2]"},
                                         "ROOT d = s8[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             args),
            "s8[] 32");
  // Mixed operand types convert to the result type: -3 * 0.5 = -1.5.
  EXPECT_EQ(RunToCompactText(EntryModule({"s8[1]", "f32[1]"},
                                         "ROOT d = f32[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"s8[1] {-3}", "f32[1] {0.5}"}),
            "f32[] -1.5");
}

TEST(DotKernelTest, NarrowFloatsAccumulateInFloatAndRoundOnce) {
  // 1 + 3 * 2^-9 = 1.005859375 is 3/4 of a bf16 ulp (2^-7) above 1: one
  // rounding gives 1.0078125. Rounding after each add would stay at 1.
  const std::string hlo =
      EntryModule({"bf16[4]", "bf16[4]"},
                  "ROOT d = bf16[] dot(p0, p1), lhs_contracting_dims={0}, "
                  "rhs_contracting_dims={0}");
  EXPECT_EQ(RunToCompactText(hlo, {"bf16[4] {1, 1, 1, 1}",
                                   "bf16[4] {1, 0.001953125, 0.001953125, "
                                   "0.001953125}"}),
            "bf16[] 1.01");  // 1.0078125, printed shortest
  absl::StatusOr<Literal> exact = eval_test::Run(
      hlo, {"bf16[4] {1, 1, 1, 1}",
            "bf16[4] {1, 0.001953125, 0.001953125, 0.001953125}"});
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(exact->GetDouble(0), 1.0078125);
  // f16 x f16 -> f32: 65504 * 2 - 65504 = 65504, though 131008 is not an
  // f16.
  EXPECT_EQ(RunToCompactText(EntryModule({"f16[2]", "f16[2]"},
                                         "ROOT d = f32[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"f16[2] {65504, 65504}", "f16[2] {2, -1}"}),
            "f32[] 65504");
  // An f16 result overflows to inf.
  EXPECT_EQ(RunToCompactText(EntryModule({"f16[2]", "f16[2]"},
                                         "ROOT d = f16[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"f16[2] {65504, 65504}", "f16[2] {1, 1}"}),
            "f16[] inf");
}

TEST(DotKernelTest, SpecialValuesPropagate) {
  // 0 * inf = NaN; nothing skips zero operands.
  const std::string hlo =
      EntryModule({"f32[2]", "f32[2]"},
                  "ROOT d = f32[] dot(p0, p1), lhs_contracting_dims={0}, "
                  "rhs_contracting_dims={0}");
  EXPECT_TRUE(absl::StrContains(
                  RunToCompactText(hlo, {"f32[2] {0, 1}", "f32[2] {inf, 1}"}),
                  "f32[] -nan") ||
              absl::StrContains(
                  RunToCompactText(hlo, {"f32[2] {0, 1}", "f32[2] {inf, 1}"}),
                  "f32[] nan"));
  EXPECT_EQ(RunToCompactText(hlo, {"f32[2] {1, 1}", "f32[2] {inf, 1}"}),
            "f32[] inf");
}

TEST(DotKernelTest, Complex) {
  // (1+2i)(3+4i) = -5+10i.
  EXPECT_EQ(RunToCompactText(EntryModule({"c64[1]", "c64[1]"},
                                         "ROOT d = c64[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"c64[1] {(1, 2)}", "c64[1] {(3, 4)}"}),
            "c64[] (-5, 10)");
}

TEST(DotKernelTest, ErrorsNameTheInstructionAndRule) {
  const std::string result = RunToCompactText(
      EntryModule({"f32[2,3]", "f32[2,3]"},
                  "ROOT d = f32[2,2] dot(p0, p1), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={0}"),
      {"f32[2,3] {{1, 2, 3}, {4, 5, 6}}", "f32[2,3] {{1, 1, 1}, {2, 2, 2}}"});
  EXPECT_TRUE(absl::StrContains(result, "d: ")) << result;
  EXPECT_TRUE(absl::StrContains(result, "contracting dimension sizes differ"))
      << result;
}

TEST(DotKernelTest, WorkOverTheLiteralCapIsAnError) {
  // 32 s8 elements need 128 bytes of 32-bit accumulators: over a 100-byte
  // cap even though the s8 result itself (32 bytes) fits.
  EvalOptions options;
  options.max_literal_bytes = 100;
  const std::string result = eval_test::RunToText(
      EntryModule({"s8[32]", "s8[1]"}, "ROOT d = s8[32,1] dot(p0, p1)"),
      {"s8[32] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, "
       "18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}",
       "s8[1] {1}"},
      options);
  EXPECT_TRUE(absl::StrContains(result,
                                "d: needs a work buffer of 32 "
                                "elements of 4 bytes"))
      << result;
}

TEST(DotKernelTest, F64AndPred) {
  // 2^30 * 3 + 0.5 * 0.25 = 3221225472.125 needs 35 significant bits:
  // exact in f64, not representable in f32.
  EXPECT_EQ(RunToCompactText(EntryModule({"f64[2]", "f64[2]"},
                                         "ROOT d = f64[] dot(p0, p1), "
                                         "lhs_contracting_dims={0}, "
                                         "rhs_contracting_dims={0}"),
                             {"f64[2] {1073741824, 0.5}", "f64[2] {3, 0.25}"}),
            "f64[] 3221225472.125");
  // pred: true when some product is true.
  EXPECT_EQ(RunToCompactText(EntryModule({"pred[2,2]", "pred[2]"},
                                         "ROOT d = pred[2] dot(p0, p1), "
                                         "lhs_contracting_dims={1}, "
                                         "rhs_contracting_dims={0}"),
                             {"pred[2,2] {{true, false}, {false, true}}",
                              "pred[2] {false, true}"}),
            "pred[2] {0, 1}");
}

// Deterministic pseudo-random integers in [-range, range].
std::vector<int64_t> Values(int64_t count, uint64_t seed, int64_t range) {
  std::vector<int64_t> values;
  uint64_t state = seed;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    values.push_back(static_cast<int64_t>((state >> 33) % (2 * range + 1)) -
                     range);
  }
  return values;
}

// "s32[2,3] {...}" for row-major `values` over `dims`.
std::string LiteralOf(const std::string& type, const std::vector<int64_t>& dims,
                      const std::vector<int64_t>& values) {
  std::string shape = absl::StrCat(type, "[", absl::StrJoin(dims, ","), "]");
  std::string text;
  int64_t at = 0;
  std::function<void(size_t)> nest = [&](size_t d) {
    if (d == dims.size()) {
      absl::StrAppend(&text, values[at++]);
      return;
    }
    text += "{";
    for (int64_t i = 0; i < dims[d]; ++i) {
      if (i > 0) text += ", ";
      nest(d + 1);
    }
    text += "}";
  };
  nest(0);
  return absl::StrCat(shape, " ", text);
}

// dot(lhs [2,3,4] batch 1, contracting 2; rhs [4,3,5] batch 1, contracting
// 0) against multiply(broadcast(lhs), broadcast(rhs)) reduced over k: both
// give [b=3, m=2, n=5]; integer results must match exactly, including
// wraparound (values up to 2^20 make products overflow s32).
TEST(DotKernelTest, MatchesReduceOfMultiplyOfBroadcasts) {
  const std::string lhs =
      LiteralOf("s32", {2, 3, 4}, Values(24, 7, int64_t{1} << 20));
  const std::string rhs =
      LiteralOf("s32", {4, 3, 5}, Values(60, 11, int64_t{1} << 20));
  const std::string dot =
      EntryModule({"s32[2,3,4]", "s32[4,3,5]"},
                  "ROOT d = s32[3,2,5] dot(p0, p1), lhs_batch_dims={1}, "
                  "lhs_contracting_dims={2}, rhs_batch_dims={1}, "
                  "rhs_contracting_dims={0}");
  // Broadcast both to [b=3, m=2, n=5, k=4].
  const std::string reference = EntryModule(
      {"s32[2,3,4]", "s32[4,3,5]"},
      "tl = s32[3,2,4] transpose(p0), dimensions={1,0,2}\n"
      "  tr = s32[3,5,4] transpose(p1), dimensions={1,2,0}\n"
      "  bl = s32[3,2,5,4] broadcast(tl), dimensions={0,1,3}\n"
      "  br = s32[3,2,5,4] broadcast(tr), dimensions={0,2,3}\n"
      "  m = s32[3,2,5,4] multiply(bl, br)\n"
      "  z = s32[] constant(0)\n"
      "  ROOT r = s32[3,2,5] reduce(m, z), dimensions={3}, to_apply=add",
      "add {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  ROOT s = s32[] add(a, b)\n}\n");
  const std::string expected = RunToCompactText(reference, {lhs, rhs});
  if (absl::StrContains(expected, "has no kernel for")) {
    GTEST_SKIP() << "reference ops not implemented yet: " << expected;
  }
  ASSERT_FALSE(absl::StartsWith(expected, "error")) << expected;
  EXPECT_EQ(RunToCompactText(dot, {lhs, rhs}), expected);
}

TEST(RaggedDotKernelTest, RaggedFreeDimension) {
  // Rows 0 | 1, 2 | 3: row 0 uses group 0 (sums the row), rows 1-2 group 1
  // (takes column 0), row 3 is past the groups: zero.
  const std::string hlo = EntryModule(
      {"f32[4,2]", "f32[2,2,1]", "s32[2]"},
      "ROOT r = f32[4,1] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[4,2] {{1, 2}, {3, 4}, {5, 6}, {7, 8}}",
                      "f32[2,2,1] {{{1}, {1}}, {{1}, {0}}}", "s32[2] {1, 2}"}),
            "f32[4,1] {{3}, {3}, {5}, {0}}");
}

TEST(RaggedDotKernelTest, RaggedFreeDimensionWithPerBatchGroups) {
  // group_sizes [b, g]: batch 0 puts both rows in group 0, batch 1 in
  // group 1. rhs [g, b, k, n]: batch 0 uses rhs[0][0] = 10, batch 1 uses
  // rhs[1][1] = 40.
  const std::string hlo = EntryModule(
      {"f32[2,2,1]", "f32[2,2,1,1]", "s32[2,2]"},
      "ROOT r = f32[2,2,1] ragged-dot(p0, p1, p2), lhs_batch_dims={0}, "
      "lhs_contracting_dims={2}, rhs_batch_dims={1}, "
      "rhs_contracting_dims={2}, lhs_ragged_dims={1}, rhs_group_dims={0}");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[2,2,1] {{{1}, {2}}, {{3}, {4}}}",
                      "f32[2,2,1,1] {{{{10}}, {{20}}}, {{{30}}, {{40}}}}",
                      "s32[2,2] {{2, 0}, {0, 2}}"}),
            "f32[2,2,1] {{{10}, {20}}, {{120}, {160}}}");
}

TEST(RaggedDotKernelTest, RaggedContractingDimension) {
  // Groups over k: {0} and {1, 2, 3}. Group 0: 1*1 = 1, 5*1 = 5. Group 1:
  // 2*10 + 3*100 + 4*1000 = 4320, 6*10 + 7*100 + 8*1000 = 8760.
  const std::string hlo = EntryModule(
      {"f32[2,4]", "f32[4,1]", "s64[2]"},
      "ROOT r = f32[2,2,1] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}, lhs_ragged_dims={1}");
  EXPECT_EQ(RunToCompactText(
                hlo, {"f32[2,4] {{1, 2, 3, 4}, {5, 6, 7, 8}}",
                      "f32[4,1] {{1}, {10}, {100}, {1000}}", "s64[2] {1, 3}"}),
            "f32[2,2,1] {{{1}, {5}}, {{4320}, {8760}}}");
}

TEST(RaggedDotKernelTest, RaggedBatchDimensionIsAPlainDot) {
  const std::string hlo = EntryModule(
      {"s32[2,1,2]", "s32[2,2,1]", "s32[2]"},
      "ROOT r = s32[2,1,1] ragged-dot(p0, p1, p2), lhs_batch_dims={0}, "
      "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
      "rhs_contracting_dims={1}, lhs_ragged_dims={0}");
  EXPECT_EQ(RunToCompactText(hlo, {"s32[2,1,2] {{{1, 2}}, {{3, 4}}}",
                                   "s32[2,2,1] {{{10}, {100}}, {{10}, {100}}}",
                                   "s32[2] {1, 1}"}),
            "s32[2,1,1] {{{210}}, {{430}}}");
}

TEST(RaggedDotKernelTest, GroupSizesPastTheDimensionAreClamped) {
  // Group 0 takes 3 rows of 2; group 1 gets none.
  const std::string hlo = EntryModule(
      {"s32[2,1]", "s32[2,1,1]", "s32[2]"},
      "ROOT r = s32[2,1] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}");
  EXPECT_EQ(
      RunToCompactText(hlo, {"s32[2,1] {{1}, {2}}", "s32[2,1,1] {{{5}}, {{7}}}",
                             "s32[2] {3, 4}"}),
      "s32[2,1] {{5}, {10}}");
}

TEST(ScaledDotKernelTest, BlockAndScalarScales) {
  // lhs blocks of 2 along k scaled by 10 and 100; rhs by 2:
  // (1*10 + 2*10 + 3*100 + 4*100) * 2 = 1460.
  const std::string hlo =
      EntryModule({"f32[1,4]", "f32[4,1]", "f32[1,2]", "f32[]"},
                  "ROOT r = f32[1,1] scaled-dot(p0, p1, p2, p3), "
                  "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  EXPECT_EQ(RunToCompactText(hlo, {"f32[1,4] {{1, 2, 3, 4}}",
                                   "f32[4,1] {{1}, {1}, {1}, {1}}",
                                   "f32[1,2] {{10, "
                                   "100}}",
                                   "f32[] 2"}),
            "f32[1,1] {{1460}}");
}

TEST(ScaledDotKernelTest, GlobalScalesMultiplyTheResult) {
  // The block-scaled product of BlockAndScalarScales, 1460, times the
  // global scales 0.5 (lhs) and 3 (rhs): 2190.
  const std::string hlo = EntryModule(
      {"f32[1,4]", "f32[4,1]", "f32[1,2]", "f32[]", "f32[]", "f32[]"},
      "ROOT r = f32[1,1] scaled-dot(p0, p1, p2, p3, p4, p5), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  EXPECT_EQ(
      RunToCompactText(
          hlo, {"f32[1,4] {{1, 2, 3, 4}}", "f32[4,1] {{1}, {1}, {1}, {1}}",
                "f32[1,2] {{10, 100}}", "f32[] 2", "f32[] 0.5", "f32[] 3"}),
      "f32[1,1] {{2190}}");
  // A global scale must be a scalar.
  const std::string bad = EntryModule(
      {"f32[1,4]", "f32[4,1]", "f32[1,2]", "f32[]", "f32[2]", "f32[]"},
      "ROOT r = f32[1,1] scaled-dot(p0, p1, p2, p3, p4, p5), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  const std::string error = RunToCompactText(
      bad, {"f32[1,4] {{1, 2, 3, 4}}", "f32[4,1] {{1}, {1}, {1}, {1}}",
            "f32[1,2] {{10, 100}}", "f32[] 2", "f32[2] {1, 1}", "f32[] 3"});
  EXPECT_TRUE(absl::StrContains(error, "global scale operand 4 is f32[2]"))
      << error;
}

TEST(ScaledDotKernelTest, Fp8OperandsWithE8m0Scales) {
  // Blocks of 32 along k: 32 * (1.5 * 4) * (2 * 0.5) = 192.
  std::string lhs = "f8e4m3fn[1,32] {{1.5";
  std::string rhs = "f8e4m3fn[32,1] {{2}";
  for (int i = 1; i < 32; ++i) {
    lhs += ", 1.5";
    rhs += ", {2}";
  }
  lhs += "}}";
  rhs += "}";
  const std::string hlo = EntryModule(
      {"f8e4m3fn[1,32]", "f8e4m3fn[32,1]", "f8e8m0fnu[1,1]", "f8e8m0fnu[1,1]"},
      "ROOT r = f32[1,1] scaled-dot(p0, p1, p2, p3), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}");
  EXPECT_EQ(RunToCompactText(hlo, {lhs, rhs, "f8e8m0fnu[1,1] {{4}}",
                                   "f8e8m0fnu[1,1] {{0.5}}"}),
            "f32[1,1] {{192}}");
}

// The benchmark's 256x256x256 f32 dot gives the right values (its speed is
// measured by //tools/bench:evaluator_bench, not here).
TEST(DotKernelTest, Dot256Cubed) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(EntryModule(
      {"f32[256,256]", "f32[256,256]"},
      "ROOT d = f32[256,256] dot(p0, p1), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Literal> ones =
      Literal::Create(Shape::Array(ElementType::kF32, {256, 256}));
  ASSERT_TRUE(ones.ok());
  for (int64_t i = 0; i < ones->element_count(); ++i) {
    ones->SetDouble(i, 1.0 + (i % 3));
  }
  const std::vector<Literal> arguments = {*ones, *ones};
  absl::StatusOr<Literal> result = Evaluate(**module, arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  // Row 0 is (1, 2, 3, 1, ...) and so is column 0 (256 = 1 mod 3): 85
  // whole cycles of 1 + 4 + 9 plus a last 1 * 1 = 1191.
  EXPECT_EQ(result->GetDouble(0), 1191.0);
}

}  // namespace
}  // namespace kiln
