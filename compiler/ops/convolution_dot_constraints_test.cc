// One invalid case per constraint the spec states for the contraction ops
// (operation_semantics.md: Dot, DotGeneral, RaggedDot in its three modes,
// ScaledDot, Conv (Convolution) with dimension numbers, group counts and
// dilations), each checking that the error names the op's section, plus
// valid cases. The table in docs/shape_rule_coverage_compute_control.md maps
// constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "compiler/ops/testing/rule_cases.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::ExpectRuleErrors;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::Rule;
using shape_test::RuleCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A module whose ROOT r is `root` over the parameters below.
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  v = f32[3] parameter(2)
  ba = f32[5,2,3] parameter(3)
  bb = f32[5,3,4] parameter(4)
  ib = s32[3,4] parameter(5)
  img = f32[2,8,8,4] parameter(6)
  ker = f32[3,3,4,8] parameter(7)
  seq = f32[1,5,4] parameter(8)
  gk = f32[3,2,6] parameter(9)
  bseq = f32[4,5,3] parameter(10)
  bker = f32[3,3,6] parameter(11)
  rl = f32[16,8] parameter(12)
  rr = f32[4,8,6] parameter(13)
  gs = s32[4] parameter(14)
  fgs = f32[4] parameter(15)
  rc = f32[8,6] parameter(16)
  rbl = f32[4,16,8] parameter(17)
  rbr = f32[4,8,6] parameter(18)
  sl = f8e4m3fn[32,256] parameter(19)
  sr = f8e4m3fn[16,256] parameter(20)
  ls = f8e8m0fnu[32,8] parameter(21)
  rs = f8e8m0fnu[16,8] parameter(22)
  bad_ls = f8e8m0fnu[32,7] parameter(23)
  gs3 = s32[3] parameter(24)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(DotConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[] dot(v, v), lhs_contracting_dims={0}, "
                              "rhs_contracting_dims={0}")),
            "f32[]");
  EXPECT_EQ(*InferText(Module("f32[2] dot(a, v), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={0}")),
            "f32[2]");
  EXPECT_EQ(*InferText(Module("f32[2,4] dot(a, b), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={0}")),
            "f32[2,4]");
  // The spec's "array of type T" for both: Kiln, like XLA's mixed-precision
  // dot, takes the result type the instruction declares.
  EXPECT_EQ(*InferText(Module("f32[2,4] dot(a, ib), lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={0}")),
            "f32[2,4]");
  ExpectRuleErrors({
      {"contracted dimensions have the same size",
       Module("f32[3,4] dot(a, b), lhs_contracting_dims={0}, "
              "rhs_contracting_dims={0}"),
       Rule("contracting dimension sizes differ: lhs dimension 0 is 2, rhs "
            "dimension 0 is 3",
            "DotGeneral")},
  });
}

TEST(DotGeneralConstraintsTest, EachConstraint) {
  // Batch dims first, then lhs free dims, then rhs free dims.
  EXPECT_EQ(*InferText(Module("f32[5,2,4] dot(ba, bb), lhs_batch_dims={0}, "
                              "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
                              "rhs_contracting_dims={1}")),
            "f32[5,2,4]");
  ExpectRuleErrors({
      {"associated batch dimensions have the same size",
       Module("f32[5,2,4] dot(ba, bb), lhs_batch_dims={0}, "
              "lhs_contracting_dims={2}, rhs_batch_dims={2}, "
              "rhs_contracting_dims={1}"),
       Rule("batch dimension sizes differ: lhs dimension 0 is 5, rhs "
            "dimension 2 is 4",
            "DotGeneral")},
      {"as many lhs as rhs batch dimensions",
       Module("f32[5,2,4] dot(ba, bb), lhs_batch_dims={0}, "
              "lhs_contracting_dims={2}, rhs_contracting_dims={1}"),
       Rule("lhs has 1 batch dims but rhs has 0", "DotGeneral")},
      {"as many lhs as rhs contracting dimensions",
       Module("f32[5,2,4] dot(ba, bb), lhs_batch_dims={0}, "
              "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
              "rhs_contracting_dims={}"),
       Rule("lhs has 1 contracting dims but rhs has 0", "DotGeneral")},
      {"dimension numbers in range and not repeated",
       Module("f32[5] dot(ba, bb), lhs_batch_dims={2}, "
              "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
              "rhs_contracting_dims={1}"),
       Rule("lhs_batch_dims + lhs_contracting_dims", "DotGeneral")},
  });
}

TEST(RaggedDotConstraintsTest, ThreeModes) {
  // Ragged in a free dimension: rhs has a group dimension the result drops.
  EXPECT_EQ(*InferText(Module("f32[16,6] ragged-dot(rl, rr, gs), "
                              "lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={1}, lhs_ragged_dims={0}, "
                              "rhs_group_dims={0}")),
            "f32[16,6]");
  // Ragged in a contracting dimension: a leading group dimension.
  EXPECT_EQ(*InferText(Module("f32[4,16,6] ragged-dot(rl, rc, gs), "
                              "lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={0}, lhs_ragged_dims={1}")),
            "f32[4,16,6]");
  // Ragged in a batch dimension: a plain batched dot.
  EXPECT_EQ(*InferText(Module("f32[4,16,6] ragged-dot(rbl, rbr, gs), "
                              "lhs_batch_dims={0}, rhs_batch_dims={0}, "
                              "lhs_contracting_dims={2}, "
                              "rhs_contracting_dims={1}, lhs_ragged_dims={0}")),
            "f32[4,16,6]");
  ExpectRuleErrors({
      {"group_sizes is an integer array",
       Module("f32[16,6] ragged-dot(rl, rr, fgs), lhs_contracting_dims={1}, "
              "rhs_contracting_dims={1}, lhs_ragged_dims={0}, "
              "rhs_group_dims={0}"),
       Rule("group_sizes is f32[4], expected an integer array", "RaggedDot")},
      {"one ragged dimension",
       Module("f32[16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
              "rhs_contracting_dims={1}, rhs_group_dims={0}"),
       Rule("lhs_ragged_dims must name one dimension", "RaggedDot")},
      {"ragged free dimension needs an rhs group dimension",
       Module("f32[16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
              "rhs_contracting_dims={1}, lhs_ragged_dims={0}"),
       Rule("so rhs_group_dims must name rhs's group dimension", "RaggedDot")},
      {"ragged contracting dimension takes no group dimension",
       Module("f32[4,16,6] ragged-dot(rl, rr, gs), lhs_contracting_dims={1}, "
              "rhs_contracting_dims={1}, lhs_ragged_dims={1}, "
              "rhs_group_dims={0}"),
       Rule("so rhs_group_dims must be empty", "RaggedDot")},
      {"rhs group dimension has one entry per group",
       Module("f32[16,6] ragged-dot(rl, rr, gs3), lhs_contracting_dims={1}, "
              "rhs_contracting_dims={1}, lhs_ragged_dims={0}, "
              "rhs_group_dims={0}"),
       Rule("rhs group dimension 0 has size 4 but group_sizes s32[3] has 3 "
            "groups",
            "RaggedDot")},
      {"contracting sizes match",
       Module("f32[16,6] ragged-dot(rl, rc, gs), lhs_contracting_dims={0}, "
              "rhs_contracting_dims={0}, lhs_ragged_dims={0}"),
       Rule("contracting dimension sizes differ: lhs dimension 0 is 16, rhs "
            "dimension 0 is 8",
            "RaggedDot")},
  });
}

TEST(ScaledDotConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[32,16] scaled-dot(sl, sr, ls, rs), "
                              "lhs_contracting_dims={1}, "
                              "rhs_contracting_dims={1}")),
            "f32[32,16]");
  ExpectRuleErrors({
      {"scale blocks divide the contracting size",
       Module("f32[32,16] scaled-dot(sl, sr, bad_ls, rs), "
              "lhs_contracting_dims={1}, rhs_contracting_dims={1}"),
       Rule("lhs_scale is f8e8m0fnu[32,7] for lhs f8e4m3fn[32,256]",
            "ScaledDot")},
      {"DotGeneral's rules: contracting sizes match",
       Module("f32[32,16] scaled-dot(sl, sr, ls, rs), "
              "lhs_contracting_dims={0}, rhs_contracting_dims={0}"),
       Rule("contracting dimension sizes differ", "ScaledDot")},
  });
}

TEST(ConvolutionConstraintsTest, ValidForms) {
  EXPECT_EQ(*InferText(Module("f32[2,8,8,8] convolution(img, ker), "
                              "window={size=3x3 pad=1_1x1_1}, "
                              "dim_labels=b01f_01io->b01f")),
            "f32[2,8,8,8]");
  // Negative padding, strides, lhs and rhs dilation: spatial size 8 dilated
  // by 2 is 15, padded -1/-1 is 13; window 3 dilated by 2 is 5; stride 2 ->
  // (13 - 5) / 2 + 1 = 5.
  EXPECT_EQ(*InferText(Module("f32[2,5,5,8] convolution(img, ker), "
                              "window={size=3x3 stride=2x2 pad=-1_-1x-1_-1 "
                              "lhs_dilate=2x2 rhs_dilate=2x2}, "
                              "dim_labels=b01f_01io->b01f")),
            "f32[2,5,5,8]");
  // feature_group_count 2: input-z 2 * 2 = lhs z 4.
  EXPECT_EQ(*InferText(Module("f32[1,3,6] convolution(seq, gk), "
                              "window={size=3}, dim_labels=b0f_0io->b0f, "
                              "feature_group_count=2")),
            "f32[1,3,6]");
  // batch_group_count 2: output batch 4 / 2.
  EXPECT_EQ(*InferText(Module("f32[2,3,6] convolution(bseq, bker), "
                              "window={size=3}, dim_labels=b0f_0io->b0f, "
                              "batch_group_count=2")),
            "f32[2,3,6]");
}

TEST(ConvolutionConstraintsTest, EachConstraint) {
  ExpectRuleErrors({
      {"lhs and rhs are (n+2)-dimensional (dimension numbers)",
       Module("f32[1,3,6] convolution(img, gk), window={size=3}, "
              "dim_labels=b0f_0io->b0f"),
       Rule("dim_labels name 3 input dimensions but input has rank 4",
            "ConvGeneralDilated")},
      {"window_strides etc. are n-d",
       Module("f32[2,8,8,8] convolution(img, ker), window={size=3}, "
              "dim_labels=b01f_01io->b01f"),
       Rule("window has 1 dimensions, expected 2", "ConvGeneralDilated")},
      {"window size is the kernel's spatial size",
       Module("f32[2,8,8,8] convolution(img, ker), window={size=3x2}, "
              "dim_labels=b01f_01io->b01f"),
       Rule("window size 2 of spatial dimension 1 differs from the kernel's "
            "size 3",
            "ConvGeneralDilated")},
      {"input-z * feature_group_count = lhs z",
       Module("f32[1,3,6] convolution(seq, gk), window={size=3}, "
              "dim_labels=b0f_0io->b0f"),
       Rule("kernel input feature size 2 must equal input feature size 4 / "
            "feature_group_count 1",
            "ConvGeneralDilated")},
      {"feature_group_count divides the input feature dimension",
       Module("f32[1,3,6] convolution(seq, gk), window={size=3}, "
              "dim_labels=b0f_0io->b0f, feature_group_count=3"),
       Rule("input feature size (4) must be divisible by "
            "feature_group_count (3)",
            "ConvGeneralDilated")},
      {"feature_group_count divides the output feature dimension",
       Module("f32[1,3,6] convolution(seq, gk), window={size=3}, "
              "dim_labels=b0f_0io->b0f, feature_group_count=4"),
       Rule("must be divisible by feature_group_count (4)",
            "ConvGeneralDilated")},
      {"batch_group_count divides the lhs batch dimension",
       Module("f32[1,3,6] convolution(bseq, bker), window={size=3}, "
              "dim_labels=b0f_0io->b0f, batch_group_count=3"),
       Rule("input batch size (4) must be divisible by batch_group_count (3)",
            "ConvGeneralDilated")},
      {"batch_group_count divides the output feature size",
       Module("f32[1,3,6] convolution(bseq, bker), window={size=3}, "
              "dim_labels=b0f_0io->b0f, batch_group_count=4"),
       Rule("kernel output feature size (6) must be divisible by "
            "batch_group_count (4)",
            "ConvGeneralDilated")},
      {"group counts are >= 1",
       Module("f32[1,3,6] convolution(seq, gk), window={size=3}, "
              "dim_labels=b0f_0io->b0f, batch_group_count=0"),
       Rule("batch_group_count=0 must be >= 1", "ConvGeneralDilated")},
      {"dilation factors are >= 1",
       Module("f32[2,8,8,8] convolution(img, ker), window={size=3x3 "
              "lhs_dilate=0x1}, dim_labels=b01f_01io->b01f"),
       Rule("window dimension 0 has lhs_dilate 0, expected >= 1",
            "ConvGeneralDilated")},
      {"negative padding leaves a non-negative base",
       Module("f32[2,8,8,8] convolution(img, ker), window={size=3x3 "
              "pad=-5_-4x0_0}, dim_labels=b01f_01io->b01f"),
       Rule("padding makes the input size -1, expected >= 0",
            "ConvGeneralDilated")},
  });
}

}  // namespace
}  // namespace kiln
