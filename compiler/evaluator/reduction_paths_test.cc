// reduce's and sort's fast paths (a combiner or comparator that is a single
// op runs as a typed loop): sort's must give exactly what calling the
// comparator per element gives; reduce's recognised float add is the
// accurate sum (reduction_wide.h), other combiners fold in order. Their
// speed is measured by //tools/bench:evaluator_bench, not here.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/evaluator/typed.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// `add` takes the fast path; `add_slow` computes the same sum but has an
// extra instruction, so it is called per element.
constexpr char kCombiners[] =
    "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = f32[] add(a, b)\n}\n"
    "add_slow {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  unused = f32[] add(b, a)\n  ROOT r = f32[] add(a, b)\n}\n";

std::unique_ptr<Module> ReduceOf(int64_t n, const std::string& combiner) {
  const std::string hlo = eval_test::EntryModule(
      {absl::StrCat("f32[", n, "]")},
      absl::StrCat("zero = f32[] constant(0)\n  ROOT r = f32[] reduce(p0, "
                   "zero), dimensions={0}, to_apply=",
                   combiner),
      kCombiners);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

float SumOf(const Module& module, const Literal& input) {
  absl::StatusOr<Literal> result = Evaluate(module, {input});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? eval::Get<float>(*result, 0) : -1;
}

TEST(ReducePathsTest, RecognisedAddIsAccurateOtherCombinersFoldInOrder) {
  constexpr int64_t kCount = 1 << 14;
  // Values whose float sum depends on the order of the additions.
  std::vector<float> values(kCount);
  for (int64_t i = 0; i < kCount; ++i) {
    values[i] = (i % 3 == 0) ? 1e7f : (i % 3 == 1 ? 0.75f : -1e7f);
  }
  const Literal input = Literal::VectorF32(values);
  std::unique_ptr<Module> fast = ReduceOf(kCount, "add");
  std::unique_ptr<Module> slow = ReduceOf(kCount, "add_slow");
  ASSERT_TRUE(fast && slow);
  // The recognised add: the exact sum (exact in double here), rounded once.
  double exact = 0;
  for (float v : values) exact += v;
  EXPECT_EQ(SumOf(*fast, input), static_cast<float>(exact));
  // Any other combiner: the spec's sequential fold from the init value.
  float expected = 0;
  for (float v : values) expected += v;
  EXPECT_EQ(SumOf(*slow, input), expected);
  EXPECT_NE(expected, static_cast<float>(exact));
}

TEST(SortPathsTest, SingleCompareComparatorSortsAscending) {
  constexpr int64_t kCount = 1 << 12;
  const std::string hlo = eval_test::EntryModule(
      {absl::StrCat("f32[", kCount, "]")},
      absl::StrCat("ROOT s = f32[", kCount,
                   "] sort(p0), dimensions={0}, to_apply=lt"),
      "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=LT\n}\n");
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<float> values(kCount);
  for (int64_t i = 0; i < kCount; ++i) {
    values[i] = static_cast<float>((i * 7919) % kCount);
  }
  absl::StatusOr<Literal> result =
      Evaluate(**module, {Literal::VectorF32(values)});
  ASSERT_TRUE(result.ok()) << result.status();
  const std::vector<float> sorted = eval::Read<float>(*result);
  for (int64_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(sorted[i], static_cast<float>(i)) << i;
  }
}

}  // namespace
}  // namespace kiln
