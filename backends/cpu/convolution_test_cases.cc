#include "backends/cpu/convolution_test_cases.h"

#include "absl/strings/str_cat.h"

namespace kiln::cpu {
namespace {

// One convolution of `lhs` and `rhs` into `out` with the given attributes.
std::string Module(const std::string& lhs, const std::string& rhs,
                   const std::string& out, const std::string& attributes) {
  return absl::StrCat("HloModule m\nENTRY e {\n  x = ", lhs,
                      " parameter(0)\n  k = ", rhs,
                      " parameter(1)\n  ROOT c = ", out, " convolution(x, k), ",
                      attributes, "\n}\n");
}

// Dimension 0: size 3, stride 2, padding 2_1, base dilation 2, reversed;
// dimension 1: size 2, padding -1_2 (negative low), window dilation 3.
constexpr char kDilated[] =
    "window={size=3x2 stride=2x1 pad=2_1x-1_2 lhs_dilate=2x1 rhs_dilate=1x3 "
    "rhs_reversal=1x0}, dim_labels=bf01_oi01->bf01";

}  // namespace

std::vector<ConvolutionCase> ConvolutionKernelCases() {
  std::vector<ConvolutionCase> cases = {
      {"s32_dilated",
       Module("s32[2,3,7,6]", "s32[4,3,3,2]", "s32[2,4,7,4]", kDilated)},
      {"s8_to_s32_dilated",
       Module("s8[2,3,7,6]", "s8[4,3,3,2]", "s32[2,4,7,4]", kDilated)},
      {"u8_s16_to_s32_dilated",
       Module("u8[2,3,7,6]", "s16[4,3,3,2]", "s32[2,4,7,4]", kDilated)},
      {"s64_dilated",
       Module("s64[2,3,7,6]", "s64[4,3,3,2]", "s64[2,4,7,4]", kDilated)},
      {"u16_dilated",
       Module("u16[2,3,7,6]", "u16[4,3,3,2]", "u16[2,4,7,4]", kDilated)},
      {"s4_dilated",
       Module("s4[2,3,7,6]", "s4[4,3,3,2]", "s4[2,4,7,4]", kDilated)},
      {"pred_dilated",
       Module("pred[2,3,7,6]", "pred[4,3,3,2]", "pred[2,4,7,4]", kDilated)},
      {"s32_feature_groups",
       Module("s32[1,6,5,5]", "s32[6,2,3,3]", "s32[1,6,3,3]",
              "window={size=3x3}, dim_labels=bf01_oi01->bf01, "
              "feature_group_count=3")},
      {"s32_batch_groups",
       Module("s32[4,6,6,3]", "s32[3,3,3,4]", "s32[2,4,4,4]",
              "window={size=3x3}, dim_labels=b01f_01io->b01f, "
              "batch_group_count=2")},
      {"f32_batch_groups",
       Module("f32[4,6,6,3]", "f32[3,3,3,4]", "f32[2,5,5,4]",
              "window={size=3x3 pad=1_0x0_1}, dim_labels=b01f_01io->b01f, "
              "batch_group_count=2")},
      {"s32_b01f_01io",
       Module("s32[2,5,4,3]", "s32[2,2,3,4]", "s32[2,4,3,4]",
              "window={size=2x2}, dim_labels=b01f_01io->b01f")},
      {"s32_f01b_i01o_to_01bf",
       Module("s32[3,5,4,2]", "s32[3,2,2,4]", "s32[4,2,2,4]",
              "window={size=2x2 stride=1x2 pad=0_0x0_1}, "
              "dim_labels=f01b_i01o->01bf")},
      {"s32_spatial_rank_0",
       Module("s32[3,4]", "s32[5,4]", "s32[3,5]", "dim_labels=bf_oi->bf")},
      {"f32_spatial_rank_0",
       Module("f32[3,4]", "f32[5,4]", "f32[3,5]", "dim_labels=bf_oi->bf"),
       true},
      {"s32_3d", Module("s32[1,2,4,3,5]", "s32[2,2,2,2,3]", "s32[1,2,3,2,3]",
                        "window={size=2x2x3}, dim_labels=bf012_oi012->bf012")},
      {"f8e4m3fn_dilated", Module("f8e4m3fn[2,3,7,6]", "f8e4m3fn[4,3,3,2]",
                                  "f8e4m3fn[2,4,7,4]", kDilated)},
      {"f8e5m2_to_f32",
       Module("f8e5m2[2,3,7,6]", "f8e5m2[4,3,3,2]", "f32[2,4,7,4]", kDilated)},
      {"bf16_dilated",
       Module("bf16[2,3,7,6]", "bf16[4,3,3,2]", "bf16[2,4,7,4]", kDilated),
       true},
      {"f16_to_f32_feature_groups",
       Module("f16[1,6,5,5]", "f16[6,2,3,3]", "f32[1,6,5,5]",
              "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, "
              "feature_group_count=3")},
      {"f32_dilated",
       Module("f32[2,3,7,6]", "f32[4,3,3,2]", "f32[2,4,7,4]", kDilated), true},
      {"f64_dilated",
       Module("f64[2,3,7,6]", "f64[4,3,3,2]", "f64[2,4,7,4]", kDilated), true},
      {"c64_dilated",
       Module("c64[2,3,7,6]", "c64[4,3,3,2]", "c64[2,4,7,4]", kDilated)},
      {"c128_batch_groups",
       Module("c128[4,6,6,3]", "c128[3,3,3,4]", "c128[2,4,4,4]",
              "window={size=3x3}, dim_labels=b01f_01io->b01f, "
              "batch_group_count=2")},
  };
  return cases;
}

std::string ConvolutionStep(const std::string& thunks) {
  const size_t at = thunks.find(" (c)");
  if (at == std::string::npos) return "";
  const size_t begin = thunks.rfind('\n', at);
  const size_t end = thunks.find('\n', at);
  return thunks.substr(begin == std::string::npos ? 0 : begin + 1,
                       end == std::string::npos ? end : end - begin - 1);
}

}  // namespace kiln::cpu
