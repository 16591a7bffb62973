// Shape rules of the contraction family: convolution, dot, ragged-dot,
// scaled-dot, fft.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::DeclaredShapeMismatches;
using shape_test::InferError;
using shape_test::InferText;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Valid cases whose declared shapes are what XLA infers.
constexpr absl::string_view kValid = R"(HloModule m
ENTRY e {
  image = f32[1,8,8,4] parameter(0)
  kernel = f32[3,3,4,8] parameter(1)
  image2 = f32[1,7,7,2] parameter(2)
  kernel2 = f32[3,3,2,4] parameter(3)
  sequence = f32[1,5,4] parameter(4)
  grouped_kernel = f32[3,2,6] parameter(5)
  batch_sequence = f32[4,5,3] parameter(6)
  batch_kernel = f32[3,3,6] parameter(7)
  nchw = f32[2,3,10,10] parameter(8)
  oihw = f32[5,3,3,3] parameter(9)
  lhs = f32[2,3] parameter(10)
  rhs = f32[3,4] parameter(11)
  batch_lhs = f32[5,2,3] parameter(12)
  batch_rhs = f32[5,3,4] parameter(13)
  int_lhs = s8[2,3] parameter(14)
  int_rhs = s8[3,4] parameter(15)
  ragged_lhs = f32[16,8] parameter(16)
  ragged_rhs = f32[4,8,6] parameter(17)
  group_sizes = s32[4] parameter(18)
  contracting_rhs = f32[8,6] parameter(19)
  scaled_lhs = f8e4m3fn[32,256] parameter(20)
  scaled_rhs = f8e4m3fn[16,256] parameter(21)
  lhs_scale = f8e8m0fnu[32,8] parameter(22)
  rhs_scale = f8e8m0fnu[16,8] parameter(23)
  square = f32[3,3] parameter(24)
  conv_same = f32[1,8,8,8] convolution(image, kernel), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  conv_full_window = f32[1,7,6,4] convolution(image2, kernel2), window={size=3x3 stride=2x2 pad=1_2x1_2 lhs_dilate=2x2 rhs_dilate=1x2 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f
  conv_feature_groups = f32[1,3,6] convolution(sequence, grouped_kernel), window={size=3}, dim_labels=b0f_0io->b0f, feature_group_count=2
  conv_batch_groups = f32[2,3,6] convolution(batch_sequence, batch_kernel), window={size=3}, dim_labels=b0f_0io->b0f, batch_group_count=2
  conv_nchw = f32[2,5,8,8] convolution(nchw, oihw), window={size=3x3}, dim_labels=bf01_oi01->bf01
  conv_transposed_out = f32[8,8,5,2] convolution(nchw, oihw), window={size=3x3}, dim_labels=bf01_oi01->01fb
  conv_1x1 = f32[2,3] convolution(lhs, square), dim_labels=bf_io->bf
  dot = f32[2,4] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  dot_batch = f32[5,2,4] dot(batch_lhs, batch_rhs), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}
  dot_int = s32[2,4] dot(int_lhs, int_rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  dot_outer = f32[2,3,3,4] dot(lhs, rhs), lhs_contracting_dims={}, rhs_contracting_dims={}
  ragged_dot = f32[16,6] ragged-dot(ragged_lhs, ragged_rhs, group_sizes), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
  ragged_contracting = f32[4,16,6] ragged-dot(ragged_lhs, contracting_rhs, group_sizes), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}
  scaled_dot = f32[32,16] scaled-dot(scaled_lhs, scaled_rhs, lhs_scale, rhs_scale), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = () tuple()
})";

TEST(ConvolutionDotShapeTest, ValidCasesMatchDeclaredShapes) {
  EXPECT_THAT(
      DeclaredShapeMismatches(kValid, {Opcode::kConvolution, Opcode::kDot,
                                       Opcode::kRaggedDot, Opcode::kScaledDot}),
      IsEmpty());
}

// A module whose ROOT line is `root` over the parameters below.
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  ba = f32[5,2,3] parameter(2)
  bb = f32[6,3,4] parameter(3)
  img = f32[1,8,8,4] parameter(4)
  ker = f32[3,3,4,8] parameter(5)
  seq = f32[1,5,4] parameter(6)
  gk = f32[3,2,6] parameter(7)
  c = c64[4,8] parameter(8)
  r = f64[4,8] parameter(9)
  rl = f32[16,8] parameter(10)
  rr = f32[4,8,6] parameter(11)
  gs = s32[3] parameter(12)
  sl = f8e4m3fn[32,256] parameter(13)
  sr = f8e4m3fn[16,256] parameter(14)
  ls = f8e8m0fnu[32,7] parameter(15)
  rs = f8e8m0fnu[16,8] parameter(16)
  ROOT out = )",
                      root, "\n}\n");
}

TEST(DotShapeTest, RejectsContractingSizeMismatch) {
  EXPECT_THAT(InferError(Module("f32[2,3] dot(a, b), lhs_contracting_dims={0}, "
                                "rhs_contracting_dims={0}")),
              HasSubstr("out: contracting dimension sizes differ: lhs "
                        "dimension 0 is 2, rhs dimension 0 is 3 "
                        "(operation_semantics.md, DotGeneral)"));
}

TEST(DotShapeTest, RejectsBatchViolations) {
  EXPECT_THAT(InferError(Module("f32[5,2,4] dot(ba, bb), lhs_batch_dims={0}, "
                                "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                                "rhs_contracting_dims={1}")),
              HasSubstr("batch dimension sizes differ"));
  EXPECT_THAT(
      InferError(Module("f32[2,4] dot(ba, bb), lhs_batch_dims={0}, "
                        "lhs_contracting_dims={2}, rhs_contracting_dims={1}")),
      HasSubstr("lhs has 1 batch dims but rhs has 0"));
}

TEST(DotShapeTest, RejectsRepeatedOrOutOfRangeDims) {
  EXPECT_THAT(InferError(Module("f32[5] dot(ba, bb), lhs_batch_dims={2}, "
                                "lhs_contracting_dims={2}, rhs_batch_dims={1}, "
                                "rhs_contracting_dims={1}")),
              HasSubstr("lhs_batch_dims + lhs_contracting_dims"));
  EXPECT_THAT(InferError(Module("f32[2] dot(a, b), lhs_contracting_dims={2}, "
                                "rhs_contracting_dims={0}")),
              HasSubstr("lhs_batch_dims + lhs_contracting_dims"));
}

TEST(RaggedDotShapeTest, RejectsGroupViolations) {
  EXPECT_THAT(InferError(Module(
                  "f32[16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={1}, lhs_ragged_dims={0}, "
                  "rhs_group_dims={0}")),
              HasSubstr("rhs group dimension 0 has size 4 but group_sizes "
                        "s32[3] has 3 groups"));
  EXPECT_THAT(InferError(Module(
                  "f32[16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={1}, lhs_ragged_dims={0}")),
              HasSubstr("rhs_group_dims must name rhs's group dimension"));
  EXPECT_THAT(InferError(Module(
                  "f32[16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={1}, rhs_group_dims={0}")),
              HasSubstr("lhs_ragged_dims must name one dimension"));
}

TEST(ScaledDotShapeTest, RejectsScaleNotDividingContractingSize) {
  EXPECT_THAT(
      InferError(Module("f32[32,16] scaled-dot(sl, sr, ls, rs), "
                        "lhs_contracting_dims={1}, rhs_contracting_dims={1}")),
      HasSubstr("lhs_scale is f8e8m0fnu[32,7] for lhs "
                "f8e4m3fn[32,256]"));
}

TEST(ConvolutionShapeTest, RejectsWindowKernelMismatch) {
  EXPECT_THAT(
      InferError(Module("f32[1,8,8,8] convolution(img, ker), "
                        "window={size=3x2}, dim_labels=b01f_01io->b01f")),
      HasSubstr("window size 2 of spatial dimension 1 differs from "
                "the kernel's size 3"));
  EXPECT_THAT(InferError(Module("f32[1,8,8,8] convolution(img, ker), "
                                "window={size=3}, dim_labels=b01f_01io->b01f")),
              HasSubstr("window has 1 dimensions, expected 2"));
}

TEST(ConvolutionShapeTest, RejectsFeatureMismatch) {
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(seq, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f")),
              HasSubstr("kernel input feature size 2 must equal input "
                        "feature size 4 / feature_group_count 1"));
}

TEST(ConvolutionShapeTest, RejectsGroupCounts) {
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(seq, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f, "
                                "feature_group_count=3")),
              HasSubstr("input feature size (4) must be divisible by "
                        "feature_group_count (3)"));
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(seq, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f, "
                                "batch_group_count=2")),
              HasSubstr("input batch size (1) must be divisible by "
                        "batch_group_count (2)"));
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(seq, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f, "
                                "feature_group_count=2, batch_group_count=2")),
              HasSubstr("cannot both be > 1"));
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(seq, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f, "
                                "feature_group_count=0")),
              HasSubstr("feature_group_count=0 must be >= 1"));
}

TEST(ConvolutionShapeTest, RejectsLabelsOfWrongRank) {
  EXPECT_THAT(InferError(Module("f32[1,3,6] convolution(img, gk), "
                                "window={size=3}, dim_labels=b0f_0io->b0f")),
              HasSubstr("dim_labels name 3 input dimensions but input has "
                        "rank 4"));
}

TEST(FftShapeTest, TypesAndLengths) {
  EXPECT_EQ(*InferText(Module("c64[4,8] fft(c), fft_type=FFT, "
                              "fft_length={4,8}")),
            "c64[4,8]");
  EXPECT_EQ(*InferText(Module("c128[4,5] fft(r), fft_type=RFFT, "
                              "fft_length={8}")),
            "c128[4,5]");
  EXPECT_EQ(*InferText(Module("f32[4,14] fft(c), fft_type=IRFFT, "
                              "fft_length={14}")),
            "f32[4,14]");
}

TEST(FftShapeTest, RejectsViolations) {
  EXPECT_THAT(InferError(Module("c64[4,8] fft(r), fft_type=FFT, "
                                "fft_length={8}")),
              HasSubstr("FFT takes c64 or c128, got f64[4,8]"));
  EXPECT_THAT(InferError(Module("c64[4,5] fft(c), fft_type=RFFT, "
                                "fft_length={8}")),
              HasSubstr("RFFT takes f32 or f64"));
  EXPECT_THAT(InferError(Module("f32[4,16] fft(c), fft_type=IRFFT, "
                                "fft_length={16}")),
              HasSubstr("operand dimension 1 is 8, expected 9"));
  EXPECT_THAT(InferError(Module("c64[4,8] fft(c), fft_type=FFT, "
                                "fft_length={3,4,8}")),
              HasSubstr("must have 1 to 3 entries and at most the operand's "
                        "rank 2"));
  EXPECT_THAT(InferError(Module("c64[4,8] fft(c), fft_type=IFFT, "
                                "fft_length={4,7}")),
              HasSubstr("operand dimension 1 is 8, expected 7"));
}

TEST(ConvolutionShapeTest, NegativePaddingAndBaseDilation) {
  // 8 + (-1) + (-1) = 6, window 3 -> 4; 8 dilated by 2 -> 15, window 3 ->
  // 13, stride 2 -> 7.
  EXPECT_EQ(*InferText(Module("f32[1,4,7,8] convolution(img, ker), "
                              "window={size=3x3 stride=1x2 pad=-1_-1x0_0 "
                              "lhs_dilate=1x2}, dim_labels=b01f_01io->b01f")),
            "f32[1,4,7,8]");
}

TEST(ConvolutionShapeTest, DynamicBatchAndFeaturesOnly) {
  // A dynamic batch stays dynamic; dynamic input features are contracted.
  EXPECT_EQ(*InferText(R"(HloModule m
ENTRY e {
  img = f32[<=2,8,8,<=4] parameter(0)
  ker = f32[3,3,<=4,8] parameter(1)
  ROOT out = f32[<=2,6,6,8] convolution(img, ker), window={size=3x3}, dim_labels=b01f_01io->b01f
})"),
            "f32[<=2,6,6,8]");
  // Dynamic spatial dimensions and output features are refused, as XLA's
  // dynamic dimension inference refuses them.
  EXPECT_THAT(InferError(R"(HloModule m
ENTRY e {
  img = f32[2,<=8,8,4] parameter(0)
  ker = f32[3,3,4,8] parameter(1)
  ROOT out = f32[2,6,6,8] convolution(img, ker), window={size=3x3}, dim_labels=b01f_01io->b01f
})"),
              HasSubstr("has a dynamic spatial dimension 1"));
  EXPECT_THAT(InferError(R"(HloModule m
ENTRY e {
  img = f32[2,8,8,4] parameter(0)
  ker = f32[3,3,4,<=8] parameter(1)
  ROOT out = f32[2,6,6,8] convolution(img, ker), window={size=3x3}, dim_labels=b01f_01io->b01f
})"),
              HasSubstr("only the kernel's input feature may be dynamic"));
}

TEST(DotShapeTest, UnboundedDimensionsAreCompatible) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = f32[?,?] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT out = f32[?,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  EXPECT_EQ(*InferText(hlo), "f32[?,4]");
}

TEST(DotShapeTest, SparsityScalesTheStoredDimension) {
  const std::string hlo = R"(HloModule m
ENTRY e {
  a = f32[2,4] parameter(0)
  b = f32[8,5] parameter(1)
  meta = u16[2,1] parameter(2)
  ROOT out = f32[2,5] dot(a, b, meta), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sparsity=L.1@2:4
})";
  EXPECT_EQ(*InferText(hlo), "f32[2,5]");
  EXPECT_THAT(InferError(absl::StrReplaceAll(hlo, {{"L.1@2:4", "L.1@1:4"}})),
              HasSubstr("contracting dimension sizes differ: lhs dimension 1 "
                        "is 16, rhs dimension 0 is 8"));
  EXPECT_THAT(InferError(absl::StrReplaceAll(hlo, {{"L.1@2:4", "L.7@2:4"}})),
              HasSubstr("sparsity=L.7@2:4 must be L.<dim>@<n>:<m>"));
}

}  // namespace
}  // namespace kiln
