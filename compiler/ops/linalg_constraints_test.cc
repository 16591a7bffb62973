// One invalid case per constraint the spec states for the linear-algebra
// ops (operation_semantics.md: Fft in its four types over one to three axes,
// Cholesky, TriangularSolve, BatchNormTraining, BatchNormInference,
// BatchNormGrad), each checking that the error names the op's section, plus
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
  c3 = c64[2,4,6,8] parameter(0)
  f3 = f32[2,4,6,8] parameter(1)
  h3 = c128[2,4,6,5] parameter(2)
  s3 = s32[2,4,6,8] parameter(3)
  a = f32[4,4] parameter(4)
  ab = f32[2,3,3] parameter(5)
  rect = f32[4,3] parameter(6)
  ia = s32[3,3] parameter(7)
  b = f32[4,3] parameter(8)
  bb = f32[5,3,2] parameter(9)
  bf64 = f64[4,3] parameter(10)
  img = f32[2,2,2,3] parameter(11)
  vec = f32[3] parameter(12)
  vec2 = f32[2] parameter(13)
  iimg = s32[2,3] parameter(14)
  ivec = s32[3] parameter(15)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(FftConstraintsTest, TypesAndLengths) {
  // FFT / IFFT keep the shape, over one, two or three axes.
  EXPECT_EQ(*InferText(Module("c64[2,4,6,8] fft(c3), fft_type=FFT, "
                              "fft_length={8}")),
            "c64[2,4,6,8]");
  EXPECT_EQ(*InferText(Module("c64[2,4,6,8] fft(c3), fft_type=IFFT, "
                              "fft_length={4,6,8}")),
            "c64[2,4,6,8]");
  // RFFT: real to complex, the innermost axis becomes 8 // 2 + 1 = 5.
  EXPECT_EQ(*InferText(Module("c64[2,4,6,5] fft(f3), fft_type=RFFT, "
                              "fft_length={6,8}")),
            "c64[2,4,6,5]");
  // IRFFT: complex to real, the innermost axis grows to fft_length[-1]
  // (8 or 9: both have 5 complex entries).
  EXPECT_EQ(*InferText(Module("f64[2,4,6,9] fft(h3), fft_type=IRFFT, "
                              "fft_length={4,6,9}")),
            "f64[2,4,6,9]");
  ExpectRuleErrors({
      {"FFT / IFFT take complex input",
       Module("c64[2,4,6,8] fft(f3), fft_type=IFFT, fft_length={8}"),
       Rule("IFFT takes c64 or c128, got f32[2,4,6,8]", "Fft")},
      {"RFFT takes real input",
       Module("c64[2,4,6,5] fft(c3), fft_type=RFFT, fft_length={8}"),
       Rule("RFFT takes f32 or f64, got c64[2,4,6,8]", "Fft")},
      {"IRFFT takes complex input",
       Module("f32[2,4,6,8] fft(s3), fft_type=IRFFT, fft_length={8}"),
       Rule("IRFFT takes c64 or c128, got s32[2,4,6,8]", "Fft")},
      {"up to 3 axes",
       Module("c64[2,4,6,8] fft(c3), fft_type=FFT, fft_length={2,4,6,8}"),
       Rule("fft_length={2,4,6,8} must have 1 to 3 entries", "Fft")},
      {"fft_length names the transformed axes' sizes (FFT)",
       Module("c64[2,4,6,8] fft(c3), fft_type=FFT, fft_length={5,8}"),
       Rule("operand dimension 2 is 6, expected 5 for fft_length={5,8}",
            "Fft")},
      {"RFFT: the real axes have the fft_length sizes",
       Module("c64[2,4,6,5] fft(f3), fft_type=RFFT, fft_length={6,10}"),
       Rule("operand dimension 3 is 8, expected 10 for fft_length={6,10}",
            "Fft")},
      {"IRFFT: the innermost axis has fft_length[-1] // 2 + 1 entries",
       Module("f64[2,4,6,12] fft(h3), fft_type=IRFFT, fft_length={12}"),
       Rule("operand dimension 3 is 5, expected 7 for fft_length={12}", "Fft")},
      {"lengths are not negative",
       Module("c64[2,4,6,8] fft(c3), fft_type=FFT, fft_length={-8}"),
       Rule("fft_length entries must be >= 0", "Fft")},
  });
}

TEST(CholeskyConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[4,4] cholesky(a), lower=true")), "f32[4,4]");
  EXPECT_EQ(*InferText(Module("f32[2,3,3] cholesky(ab)")), "f32[2,3,3]");
  ExpectRuleErrors({
      {"a is floating-point or complex", Module("s32[3,3] cholesky(ia)"),
       Rule("a is s32[3,3], expected a floating-point or complex array of "
            "rank >= 2",
            "Cholesky")},
      {"a has >= 2 dimensions", Module("f32[3] cholesky(vec)"),
       Rule("a is f32[3], expected a floating-point or complex array of rank "
            ">= 2",
            "Cholesky")},
      {"a is a batch of square matrices", Module("f32[4,3] cholesky(rect)"),
       Rule("a is f32[4,3], expected square minor dimensions [..., M, M]",
            "Cholesky")},
  });
}

TEST(TriangularSolveConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[4,3] triangular-solve(a, b), "
                              "left_side=true, transpose_a=NO_TRANSPOSE")),
            "f32[4,3]");
  ExpectRuleErrors({
      {"a is [..., M, M]",
       Module("f32[4,3] triangular-solve(rect, b), left_side=true, "
              "transpose_a=NO_TRANSPOSE"),
       Rule("a is f32[4,3], expected square minor dimensions",
            "TriangularSolve")},
      {"a is floating-point or complex",
       Module("s32[3,3] triangular-solve(ia, ia), left_side=true, "
              "transpose_a=NO_TRANSPOSE"),
       Rule("expected a floating-point or complex array of rank >= 2",
            "TriangularSolve")},
      {"b has a's type",
       Module("f32[4,3] triangular-solve(a, bf64), left_side=true, "
              "transpose_a=NO_TRANSPOSE"),
       Rule("must have the same rank and element type", "TriangularSolve")},
      {"left_side: b is [..., M, K]",
       Module("f32[4,3] triangular-solve(a, b), left_side=false, "
              "transpose_a=NO_TRANSPOSE"),
       Rule("b dimension 1 is 3, expected a's size M=4 (left_side=false: b "
            "is [..., K, M])",
            "TriangularSolve")},
      {"transpose_a is one of as-is, transpose, adjoint",
       Module("f32[4,3] triangular-solve(a, b), left_side=true, "
              "transpose_a=TRANSPOSE_INVALID"),
       Rule("transpose_a=TRANSPOSE_INVALID is not a valid choice",
            "TriangularSolve")},
      {"a and b have equal batch dimensions",
       Module("f32[5,3,2] triangular-solve(ab, bb), left_side=true, "
              "transpose_a=NO_TRANSPOSE"),
       Rule("batch dimension 0 of a is 2 but of b is 5", "TriangularSolve")},
  });
}

TEST(BatchNormConstraintsTest, ValidForms) {
  EXPECT_EQ(*InferText(Module("(f32[2,2,2,3], f32[3], f32[3]) "
                              "batch-norm-training(img, vec, vec), "
                              "epsilon=0.001, feature_index=3")),
            "(f32[2,2,2,3], f32[3], f32[3])");
  EXPECT_EQ(*InferText(Module("f32[2,2,2,3] batch-norm-inference(img, vec, "
                              "vec, vec, vec), epsilon=0.001, "
                              "feature_index=3")),
            "f32[2,2,2,3]");
  EXPECT_EQ(*InferText(Module("(f32[2,2,2,3], f32[2], f32[2]) "
                              "batch-norm-grad(img, vec2, vec2, vec2, img), "
                              "epsilon=0.001, feature_index=1")),
            "(f32[2,2,2,3], f32[2], f32[2])");
}

TEST(BatchNormConstraintsTest, EachConstraint) {
  ExpectRuleErrors({
      {"training: feature_index is a valid dimension",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, vec, "
              "vec), epsilon=0.001, feature_index=4"),
       Rule("feature_index=4 must be in [0, operand rank 4)",
            "BatchNormTraining")},
      {"training: scale is 1-d of the feature size",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, vec2, "
              "vec), epsilon=0.001, feature_index=3"),
       Rule("scale is f32[2], expected f32[3] (the size of feature dimension "
            "3)",
            "BatchNormTraining")},
      {"training: offset is 1-d of the feature size",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, vec, "
              "vec2), epsilon=0.001, feature_index=3"),
       Rule("offset is f32[2], expected f32[3]", "BatchNormTraining")},
      {"training: operand is a floating-point array",
       Module("(s32[2,3], s32[3], s32[3]) batch-norm-training(iimg, ivec, "
              "ivec), epsilon=0.001, feature_index=1"),
       Rule("operand is s32[2,3], expected a floating-point array of rank >= "
            "1",
            "BatchNormTraining")},
      {"inference: feature_index is a valid dimension",
       Module("f32[2,2,2,3] batch-norm-inference(img, vec, vec, vec, vec), "
              "epsilon=0.001, feature_index=-1"),
       Rule("feature_index=-1 must be in [0, operand rank 4)",
            "BatchNormInference")},
      {"inference: mean is 1-d of the feature size",
       Module("f32[2,2,2,3] batch-norm-inference(img, vec, vec, vec2, vec), "
              "epsilon=0.001, feature_index=3"),
       Rule("mean is f32[2], expected f32[3]", "BatchNormInference")},
      {"inference: variance is 1-d of the feature size",
       Module("f32[2,2,2,3] batch-norm-inference(img, vec, vec, vec, vec2), "
              "epsilon=0.001, feature_index=3"),
       Rule("variance is f32[2], expected f32[3]", "BatchNormInference")},
      {"grad: feature_index is a valid dimension",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-grad(img, vec, vec, "
              "vec, img), epsilon=0.001, feature_index=7"),
       Rule("feature_index=7 must be in [0, operand rank 4)", "BatchNormGrad")},
      {"grad: batch_var is 1-d of the feature size",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-grad(img, vec, vec, "
              "vec2, img), epsilon=0.001, feature_index=3"),
       Rule("batch_var is f32[2], expected f32[3]", "BatchNormGrad")},
      {"grad: grad_output has the operand's shape",
       Module("(f32[2,2,2,3], f32[3], f32[3]) batch-norm-grad(img, vec, vec, "
              "vec, b), epsilon=0.001, feature_index=3"),
       Rule("grad_output is f32[4,3], expected f32[2,2,2,3] (the operand's "
            "shape)",
            "BatchNormGrad")},
  });
}

}  // namespace
}  // namespace kiln
