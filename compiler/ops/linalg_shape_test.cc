// Shape rules of the linalg family: cholesky, triangular-solve and the
// batch-norm ops.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::DeclaredShapeMismatches;
using shape_test::InferError;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr absl::string_view kValid = R"(HloModule m
ENTRY e {
  a = f32[4,4] parameter(0)
  batched = f64[2,3,3] parameter(1)
  b = f32[4,3] parameter(2)
  b_right = f32[3,4] parameter(3)
  img = f32[2,2,2,3] parameter(4)
  scale = f32[3] parameter(5)
  offset = f32[3] parameter(6)
  mean = f32[3] parameter(7)
  variance = f32[3] parameter(8)
  grad_output = f32[2,2,2,3] parameter(9)
  ca = c64[2,5,5] parameter(10)
  cb = c64[2,5,1] parameter(11)
  cholesky = f32[4,4] cholesky(a), lower=true
  cholesky_upper = f64[2,3,3] cholesky(batched)
  tri_left = f32[4,3] triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE
  tri_right = f32[3,4] triangular-solve(a, b_right), unit_diagonal=true, transpose_a=TRANSPOSE
  tri_adjoint = f32[4,3] triangular-solve(a, b), left_side=true, lower=true, unit_diagonal=true, transpose_a=ADJOINT
  tri_batched = c64[2,5,1] triangular-solve(ca, cb), left_side=true, transpose_a=ADJOINT
  bn_training = (f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, scale, offset), epsilon=0.001, feature_index=3
  bn_inference = f32[2,2,2,3] batch-norm-inference(img, scale, offset, mean, variance), epsilon=0.001, feature_index=3
  bn_grad = (f32[2,2,2,3], f32[3], f32[3]) batch-norm-grad(img, scale, mean, variance, grad_output), epsilon=0.5, feature_index=3
  ROOT t = () tuple()
})";

TEST(LinalgShapeTest, ValidCasesMatchDeclaredShapes) {
  EXPECT_THAT(
      DeclaredShapeMismatches(
          kValid, {Opcode::kCholesky, Opcode::kTriangularSolve,
                   Opcode::kBatchNormTraining, Opcode::kBatchNormInference,
                   Opcode::kBatchNormGrad}),
      IsEmpty());
}

std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  a = f32[4,4] parameter(0)
  rect = f32[4,3] parameter(1)
  ints = s32[4,4] parameter(2)
  vec = f32[4] parameter(3)
  b = f32[4,3] parameter(4)
  b64 = f64[4,3] parameter(5)
  ba = f32[2,4,4] parameter(6)
  bb = f32[3,4,3] parameter(7)
  img = f32[2,2,2,3] parameter(8)
  scale = f32[3] parameter(9)
  scale4 = f32[4] parameter(10)
  scale64 = f64[3] parameter(11)
  grad_bad = f32[2,2,3,3] parameter(12)
  iimg = s32[2,3] parameter(13)
  ROOT out = )",
                      root, "\n}\n");
}

TEST(CholeskyShapeTest, RejectsNonSquareOrNonFloat) {
  EXPECT_THAT(InferError(Module("f32[4,3] cholesky(rect)")),
              HasSubstr("out: a is f32[4,3], expected square minor "
                        "dimensions [..., M, M] (operation_semantics.md, "
                        "Cholesky)"));
  EXPECT_THAT(InferError(Module("s32[4,4] cholesky(ints)")),
              HasSubstr("expected a floating-point or complex array of rank "
                        ">= 2"));
  EXPECT_THAT(InferError(Module("f32[4] cholesky(vec)")),
              HasSubstr("a is f32[4]"));
}

TEST(TriangularSolveShapeTest, RejectsSideMismatch) {
  EXPECT_THAT(InferError(Module("f32[4,3] triangular-solve(a, b), "
                                "transpose_a=NO_TRANSPOSE")),
              HasSubstr("b dimension 1 is 3, expected a's size M=4 "
                        "(left_side=false: b is [..., K, M])"));
  EXPECT_THAT(InferError(Module("f32[4,3] triangular-solve(a, rect), "
                                "left_side=true, transpose_a=TRANSPOSE")),
              HasSubstr("OK: f32[4,3]"));
}

TEST(TriangularSolveShapeTest, RejectsOtherViolations) {
  EXPECT_THAT(InferError(Module("f32[4,3] triangular-solve(rect, b), "
                                "left_side=true")),
              HasSubstr("a is f32[4,3], expected square"));
  EXPECT_THAT(InferError(Module("f64[4,3] triangular-solve(a, b64), "
                                "left_side=true")),
              HasSubstr("must have the same rank and element type"));
  EXPECT_THAT(InferError(Module("f32[3,4,3] triangular-solve(ba, bb), "
                                "left_side=true")),
              HasSubstr("batch dimension 0 of a is 2 but of b is 3"));
  EXPECT_THAT(InferError(Module("f32[4,3] triangular-solve(a, b), "
                                "left_side=true, "
                                "transpose_a=TRANSPOSE_INVALID")),
              HasSubstr("transpose_a=TRANSPOSE_INVALID is not a valid"));
}

TEST(BatchNormShapeTest, RejectsFeatureIndex) {
  EXPECT_THAT(InferError(Module(
                  "(f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, "
                  "scale, scale), epsilon=0.001, feature_index=4")),
              HasSubstr("feature_index=4 must be in [0, operand rank 4) "
                        "(operation_semantics.md, BatchNormTraining)"));
  EXPECT_THAT(InferError(Module(
                  "(f32[2,2,2,3], f32[3], f32[3]) batch-norm-training(img, "
                  "scale, scale), epsilon=0.001, feature_index=0")),
              HasSubstr("scale is f32[3], expected f32[2] (the size of "
                        "feature dimension 0)"));
}

TEST(BatchNormShapeTest, RejectsOperandShapes) {
  EXPECT_THAT(
      InferError(Module("f32[2,2,2,3] batch-norm-inference(img, scale, scale, "
                        "scale4, scale), epsilon=0.001, feature_index=3")),
      HasSubstr("mean is f32[4], expected f32[3]"));
  EXPECT_THAT(InferError(Module(
                  "f32[2,2,2,3] batch-norm-inference(img, scale, scale64, "
                  "scale, scale), epsilon=0.001, feature_index=3")),
              HasSubstr("offset is f64[3], expected f32[3]"));
  EXPECT_THAT(InferError(Module(
                  "(f32[2,2,2,3], f32[3], f32[3]) batch-norm-grad(img, scale, "
                  "scale, scale, grad_bad), epsilon=0.5, feature_index=3")),
              HasSubstr("grad_output is f32[2,2,3,3], expected f32[2,2,2,3] "
                        "(the operand's shape)"));
  EXPECT_THAT(
      InferError(Module("(s32[2,3], s32[3], s32[3]) batch-norm-training(iimg, "
                        "scale, scale), epsilon=0.5, feature_index=1")),
      HasSubstr("operand is s32[2,3], expected a floating-point"));
}

}  // namespace
}  // namespace kiln
