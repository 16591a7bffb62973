// Gather and scatter at scale: 64k whole rows (the benchmarked case), 64k
// single elements, 64k scattered updates, checked value by value; prints
// the time taken.
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr int64_t kRows = 4096;
constexpr int64_t kIndices = 65536;

// Row r of the operand holds r * 1000 + column; index k is
// (k * 7919) % 4096, built with iota, multiply and remainder.
std::string GatherModule(int64_t width, const std::string& result,
                         const std::string& dims) {
  const std::string op =
      "f32[" + std::to_string(kRows) + "," + std::to_string(width) + "]";
  const std::string idx = "s32[" + std::to_string(kIndices) + "]";
  return "HloModule m\n\nENTRY e {\n"
         "  r = " +
         op +
         " iota(), iota_dimension=0\n"
         "  c = " +
         op +
         " iota(), iota_dimension=1\n"
         "  k = f32[] constant(1000)\n"
         "  kb = " +
         op +
         " broadcast(k), dimensions={}\n"
         "  rk = " +
         op +
         " multiply(r, kb)\n"
         "  operand = " +
         op +
         " add(rk, c)\n"
         "  i = " +
         idx +
         " iota(), iota_dimension=0\n"
         "  p = s32[] constant(7919)\n  pb = " +
         idx +
         " broadcast(p), dimensions={}\n"
         "  m = s32[] constant(4096)\n  mb = " +
         idx +
         " broadcast(m), dimensions={}\n"
         "  ip = " +
         idx +
         " multiply(i, pb)\n"
         "  indices = " +
         idx +
         " remainder(ip, mb)\n"
         "  ROOT g = " +
         result + " gather(operand, indices), " + dims + "\n}\n";
}

float At(const Literal& literal, int64_t i) {
  float value;
  std::memcpy(&value, literal.data().data() + i * 4, 4);
  return value;
}

TEST(GatherScaleTest, SixtyFourThousandRows) {
  constexpr int64_t kWidth = 256;
  const absl::Time start = absl::Now();
  absl::StatusOr<Literal> result = eval_test::Run(GatherModule(
      kWidth, "f32[65536,256]",
      "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
      "index_vector_dim=1, slice_sizes={1,256}"));
  const absl::Duration took = absl::Now() - start;
  ASSERT_TRUE(result.ok()) << result.status();
  std::printf("gather of %lld rows x %lld floats (with its inputs): %s\n",
              static_cast<long long>(kIndices), static_cast<long long>(kWidth),
              absl::FormatDuration(took).c_str());
  for (int64_t k = 0; k < kIndices; k += 997) {
    const int64_t row = (k * 7919) % kRows;
    for (int64_t col : {int64_t{0}, int64_t{77}, kWidth - 1}) {
      ASSERT_EQ(At(*result, k * kWidth + col), row * 1000.0f + col)
          << "k=" << k << " col=" << col;
    }
  }
}

TEST(GatherScaleTest, SixtyFourThousandElements) {
  absl::StatusOr<Literal> result = eval_test::Run(GatherModule(
      8, "f32[65536]",
      "offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={0}, "
      "index_vector_dim=1, slice_sizes={1,1}"));
  ASSERT_TRUE(result.ok()) << result.status();
  for (int64_t k = 0; k < kIndices; k += 101) {
    ASSERT_EQ(At(*result, k), ((k * 7919) % kRows) * 1000.0f) << k;
  }
}

// Scatter-add of 65536 ones into 4096 bins ((k * 7919) % 4096 hits every
// bin 16 times): the update computation runs once per element.
TEST(ScatterScaleTest, SixtyFourThousandUpdates) {
  const std::string hlo =
      "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\n"
      "ENTRY e {\n  z = f32[] constant(0)\n"
      "  operand = f32[4096] broadcast(z), dimensions={}\n"
      "  one = f32[] constant(1)\n"
      "  updates = f32[65536] broadcast(one), dimensions={}\n"
      "  i = s32[65536] iota(), iota_dimension=0\n"
      "  p = s32[] constant(7919)\n"
      "  pb = s32[65536] broadcast(p), dimensions={}\n"
      "  m = s32[] constant(4096)\n"
      "  mb = s32[65536] broadcast(m), dimensions={}\n"
      "  ip = s32[65536] multiply(i, pb)\n"
      "  indices = s32[65536] remainder(ip, mb)\n"
      "  ROOT s = f32[4096] scatter(operand, indices, updates), "
      "update_window_dims={}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
      "}\n";
  const absl::Time start = absl::Now();
  absl::StatusOr<Literal> result = eval_test::Run(hlo);
  const absl::Duration took = absl::Now() - start;
  ASSERT_TRUE(result.ok()) << result.status();
  std::printf("scatter-add of 65536 elements: %s\n",
              absl::FormatDuration(took).c_str());
  for (int64_t bin = 0; bin < kRows; ++bin) {
    ASSERT_EQ(At(*result, bin), 16.0f) << bin;
  }
}

}  // namespace
}  // namespace kiln
