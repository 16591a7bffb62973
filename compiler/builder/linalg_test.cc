#include "compiler/builder/linalg.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Shape Array(ElementType type, std::vector<int64_t> dims) {
  return Shape::Array(type, std::move(dims));
}
Shape F32(std::vector<int64_t> dims) {
  return Array(ElementType::kF32, std::move(dims));
}

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

// The builder's first error contains every one of `parts`.
void ExpectError(const XlaBuilder& b, std::vector<std::string> parts) {
  ASSERT_FALSE(b.ok()) << "expected an error";
  const std::string message(b.first_error().message());
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "missing \"" << part << "\" in: " << message;
  }
}

// Builds `b`, prints, reparses (checking declared shapes) and verifies;
// the reparsed module must print the same. Returns the text.
std::string RoundTrip(XlaBuilder& b) {
  absl::StatusOr<XlaComputation> built = b.Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  EXPECT_TRUE(VerifyModule(**reparsed).ok()) << VerifyModule(**reparsed);
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

TEST(LinalgBuilderTest, DotFollowsOperandRanks) {
  XlaBuilder b("dot");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp n = Parameter(&b, 1, F32({3, 4}), "n");
  XlaOp v = Parameter(&b, 2, F32({3}), "v");
  EXPECT_EQ(ShapeOf(Dot(m, n)), "f32[2,4]");
  EXPECT_EQ(ShapeOf(Dot(m, v)), "f32[2]");
  EXPECT_EQ(ShapeOf(Dot(v, v)), "f32[]");
  XlaOp mn = Dot(m, n);
  ASSERT_TRUE(mn.valid()) << b.first_error();
  const AttributeMap& attrs = mn.instruction()->attrs();
  EXPECT_EQ(*attrs.Get<Int64List>("lhs_contracting_dims"), Int64List{1});
  EXPECT_EQ(*attrs.Get<Int64List>("rhs_contracting_dims"), Int64List{0});
  EXPECT_FALSE(attrs.Has("lhs_batch_dims"));
}

TEST(LinalgBuilderTest, DotContractingSizesMustMatch) {
  XlaBuilder b("bad_dot");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp n = Parameter(&b, 1, F32({4, 5}), "n");
  EXPECT_FALSE(Dot(m, n).valid());
  ExpectError(b, {"dot", "contracting dimension sizes differ",
                  "operation_semantics.md, DotGeneral"});
}

TEST(LinalgBuilderTest, DotGeneralWithBatchPrecisionAndPreferredType) {
  XlaBuilder b("batched");
  XlaOp x = Parameter(&b, 0, Array(ElementType::kBF16, {2, 3, 4}), "x");
  XlaOp y = Parameter(&b, 1, Array(ElementType::kBF16, {2, 4, 5}), "y");
  DotDimensionNumbers dn;
  dn.lhs_batch_dimensions = {0};
  dn.rhs_batch_dimensions = {0};
  dn.lhs_contracting_dimensions = {2};
  dn.rhs_contracting_dimensions = {1};
  PrecisionConfig precision;
  precision.operand_precision = {Precision::kHigh, Precision::kHighest};
  EXPECT_EQ(ShapeOf(DotGeneral(x, y, dn)), "bf16[2,3,5]");
  XlaOp wide = DotGeneral(x, y, dn, &precision, ElementType::kF32);
  EXPECT_EQ(ShapeOf(wide), "f32[2,3,5]") << b.first_error();
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                      "rhs_batch_dims={0}, rhs_contracting_dims={1}, "
                      "operand_precision={high,highest}"),
            std::string::npos)
      << text;
}

TEST(LinalgBuilderTest, PreferredTypeKeepsTheRuleError) {
  XlaBuilder b("bad_preferred");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  XlaOp n = Parameter(&b, 1, F32({4, 5}), "n");
  EXPECT_FALSE(Dot(m, n, nullptr, ElementType::kF64).valid());
  ExpectError(b, {"dot", "contracting dimension sizes differ"});
}

TEST(LinalgBuilderTest, RaggedDotInEachMode) {
  XlaBuilder b("ragged");
  XlaOp groups = Parameter(&b, 0, Array(ElementType::kS32, {3}), "groups");
  // Ragged in a non-contracting dim: rhs has a group dim, dropped.
  XlaOp lhs = Parameter(&b, 1, F32({6, 4}), "lhs");
  XlaOp rhs = Parameter(&b, 2, F32({3, 4, 5}), "rhs");
  RaggedDotDimensionNumbers free;
  free.dot_dimension_numbers.lhs_contracting_dimensions = {1};
  free.dot_dimension_numbers.rhs_contracting_dimensions = {1};
  free.lhs_ragged_dimensions = {0};
  free.rhs_group_dimensions = {0};
  EXPECT_EQ(ShapeOf(RaggedDot(lhs, rhs, groups, free)), "f32[6,5]");
  // Ragged in a contracting dim: a leading group dim.
  XlaOp k_lhs = Parameter(&b, 3, F32({2, 6}), "k_lhs");
  XlaOp k_rhs = Parameter(&b, 4, F32({6, 5}), "k_rhs");
  RaggedDotDimensionNumbers contracting;
  contracting.dot_dimension_numbers.lhs_contracting_dimensions = {1};
  contracting.dot_dimension_numbers.rhs_contracting_dimensions = {0};
  contracting.lhs_ragged_dimensions = {1};
  EXPECT_EQ(ShapeOf(RaggedDot(k_lhs, k_rhs, groups, contracting)),
            "f32[3,2,5]");
  // Ragged in a batch dim: a plain batched dot.
  XlaOp b_lhs = Parameter(&b, 5, F32({7, 2, 4}), "b_lhs");
  XlaOp b_rhs = Parameter(&b, 6, F32({7, 4, 5}), "b_rhs");
  RaggedDotDimensionNumbers batch;
  batch.dot_dimension_numbers.lhs_batch_dimensions = {0};
  batch.dot_dimension_numbers.rhs_batch_dimensions = {0};
  batch.dot_dimension_numbers.lhs_contracting_dimensions = {2};
  batch.dot_dimension_numbers.rhs_contracting_dimensions = {1};
  batch.lhs_ragged_dimensions = {0};
  EXPECT_EQ(ShapeOf(RaggedDot(b_lhs, b_rhs, groups, batch)), "f32[7,2,5]");
  RoundTrip(b);
}

TEST(LinalgBuilderTest, RaggedDotNeedsTheGroupDimWhenRaggedInAFreeDim) {
  XlaBuilder b("ragged_bad");
  XlaOp groups = Parameter(&b, 0, Array(ElementType::kS32, {3}), "groups");
  XlaOp lhs = Parameter(&b, 1, F32({6, 4}), "lhs");
  XlaOp rhs = Parameter(&b, 2, F32({4, 5}), "rhs");
  RaggedDotDimensionNumbers dn;
  dn.dot_dimension_numbers.lhs_contracting_dimensions = {1};
  dn.dot_dimension_numbers.rhs_contracting_dimensions = {0};
  dn.lhs_ragged_dimensions = {0};
  EXPECT_FALSE(RaggedDot(lhs, rhs, groups, dn).valid());
  ExpectError(b, {"ragged-dot", "rhs_group_dims must name",
                  "operation_semantics.md, RaggedDot"});
}

TEST(LinalgBuilderTest, ScaledDotReordersOperands) {
  XlaBuilder b("scaled");
  XlaOp lhs = Parameter(&b, 0, F32({2, 8}), "lhs");
  XlaOp lhs_scale = Parameter(&b, 1, F32({2, 2}), "lhs_scale");
  XlaOp rhs = Parameter(&b, 2, F32({8, 3}), "rhs");
  XlaOp rhs_scale = Parameter(&b, 3, F32({2, 3}), "rhs_scale");
  DotDimensionNumbers dn;
  dn.lhs_contracting_dimensions = {1};
  dn.rhs_contracting_dimensions = {0};
  XlaOp dot = ScaledDot(lhs, lhs_scale, rhs, rhs_scale, dn);
  ASSERT_EQ(ShapeOf(dot), "f32[2,3]") << b.first_error();
  EXPECT_EQ(dot.instruction()->operand(1)->name(), "rhs");
  EXPECT_EQ(dot.instruction()->operand(2)->name(), "lhs_scale");
  XlaOp bad_scale = Parameter(&b, 4, F32({2, 3}), "bad_scale");
  EXPECT_FALSE(ScaledDot(lhs, bad_scale, rhs, rhs_scale, dn).valid());
  ExpectError(b, {"scaled-dot", "lhs_scale is f32[2,3]"});
}

TEST(LinalgBuilderTest, ConvPaddingShorthands) {
  XlaBuilder b("conv");
  XlaOp input = Parameter(&b, 0, F32({1, 2, 5, 5}), "input");
  XlaOp kernel = Parameter(&b, 1, F32({4, 2, 3, 3}), "kernel");
  EXPECT_EQ(ShapeOf(Conv(input, kernel, {1, 1}, Padding::kSame)),
            "f32[1,4,5,5]");
  EXPECT_EQ(ShapeOf(Conv(input, kernel, {1, 1}, Padding::kValid)),
            "f32[1,4,3,3]");
  EXPECT_EQ(ShapeOf(Conv(input, kernel, {2, 2}, Padding::kSame)),
            "f32[1,4,3,3]");
  EXPECT_EQ(
      ShapeOf(ConvWithGeneralPadding(input, kernel, {1, 1}, {{1, 0}, {2, 2}})),
      "f32[1,4,4,7]");
  XlaOp same = Conv(input, kernel, {1, 1}, Padding::kSame);
  const Window& window = *same.instruction()->attrs().Get<Window>("window");
  ASSERT_EQ(window.dimensions.size(), 2u);
  EXPECT_EQ(window.dimensions[0].size, 3);
  EXPECT_EQ(window.dimensions[0].padding_low, 1);
  EXPECT_EQ(window.dimensions[0].padding_high, 1);
}

TEST(LinalgBuilderTest, MakePaddingPutsTheOddElementHigh) {
  const std::vector<std::pair<int64_t, int64_t>> same =
      MakePadding({6, 5}, {4, 3}, {1, 2}, Padding::kSame);
  ASSERT_EQ(same.size(), 2u);
  EXPECT_EQ(same[0], std::make_pair(int64_t{1}, int64_t{2}));
  EXPECT_EQ(same[1], std::make_pair(int64_t{1}, int64_t{1}));
  const std::vector<std::pair<int64_t, int64_t>> valid =
      MakePadding({6}, {4}, {1}, Padding::kValid);
  EXPECT_EQ(valid[0], std::make_pair(int64_t{0}, int64_t{0}));
}

TEST(LinalgBuilderTest, ConvGeneralDilatedWithOtherLayoutAndDilation) {
  XlaBuilder b("dilated");
  // NHWC input, HWIO kernel, NHWC output.
  XlaOp input = Parameter(&b, 0, F32({1, 5, 5, 2}), "input");
  XlaOp kernel = Parameter(&b, 1, F32({3, 3, 2, 4}), "kernel");
  ConvolutionDimensionNumbers dn;
  dn.input_batch_dimension = 0;
  dn.input_feature_dimension = 3;
  dn.input_spatial_dimensions = {1, 2};
  dn.kernel_spatial_dimensions = {0, 1};
  dn.kernel_input_feature_dimension = 2;
  dn.kernel_output_feature_dimension = 3;
  dn.output_batch_dimension = 0;
  dn.output_feature_dimension = 3;
  dn.output_spatial_dimensions = {1, 2};
  // lhs_dilation 2: 9 input positions, 7 outputs; rhs_dilation 2: a
  // window spanning 5, 1 output.
  XlaOp conv = ConvGeneralDilated(
      input, kernel, {1, 1}, {{0, 0}, {0, 0}}, {2, 1}, {1, 2}, dn, 1, 1,
      nullptr, ElementType::kF64, std::vector<bool>{true, false});
  EXPECT_EQ(ShapeOf(conv), "f64[1,7,1,4]") << b.first_error();
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("dim_labels=b01f_01io->b01f"), std::string::npos) << text;
  EXPECT_NE(text.find("lhs_dilate=2x1"), std::string::npos) << text;
  EXPECT_NE(text.find("rhs_reversal=1x0"), std::string::npos) << text;
}

TEST(LinalgBuilderTest, ConvFeatureGroupCountMustDivideInputFeatures) {
  XlaBuilder b("groups");
  XlaOp input = Parameter(&b, 0, F32({1, 3, 5, 5}), "input");
  XlaOp kernel = Parameter(&b, 1, F32({4, 1, 3, 3}), "kernel");
  EXPECT_FALSE(Conv(input, kernel, {1, 1}, Padding::kValid, 2).valid());
  ExpectError(b, {"convolution", "input feature size (3)",
                  "divisible by feature_group_count (2)",
                  "operation_semantics.md, ConvGeneralDilated"});
}

TEST(LinalgBuilderTest, ConvArgumentsMustMatchTheSpatialDims) {
  XlaBuilder b("strides");
  XlaOp input = Parameter(&b, 0, F32({1, 2, 5, 5}), "input");
  XlaOp kernel = Parameter(&b, 1, F32({4, 2, 3, 3}), "kernel");
  EXPECT_FALSE(ConvGeneralDilated(input, kernel, {1, 1}, {{0, 0}}, {}, {},
                                  CreateDefaultConvDimensionNumbers(2))
                   .valid());
  ExpectError(b,
              {"convolution", "padding has 1 entries", "2 spatial dimensions"});
}

TEST(LinalgBuilderTest, FftTypes) {
  XlaBuilder b("fft");
  XlaOp real = Parameter(&b, 0, F32({4, 16}), "real");
  XlaOp complex = Parameter(&b, 1, Array(ElementType::kC64, {4, 9}), "c");
  EXPECT_EQ(ShapeOf(Fft(real, FftType::kRfft, {16})), "c64[4,9]");
  EXPECT_EQ(ShapeOf(Fft(complex, FftType::kIrfft, {16})), "f32[4,16]");
  EXPECT_EQ(ShapeOf(Fft(complex, FftType::kFft, {4, 9})), "c64[4,9]");
  RoundTrip(b);
  XlaBuilder bad("bad_fft");
  XlaOp x = Parameter(&bad, 0, F32({4, 16}), "x");
  EXPECT_FALSE(Fft(x, FftType::kFft, {16}).valid());
  ExpectError(bad, {"fft", "FFT takes c64 or c128", "Fft"});
}

TEST(LinalgBuilderTest, CholeskyAndTriangularSolve) {
  XlaBuilder b("solve");
  XlaOp a = Parameter(&b, 0, F32({2, 3, 3}), "a");
  XlaOp rhs = Parameter(&b, 1, F32({2, 3, 5}), "rhs");
  XlaOp l = Cholesky(a, /*lower=*/true);
  EXPECT_EQ(ShapeOf(l), "f32[2,3,3]");
  XlaOp x = TriangularSolve(l, rhs, /*left_side=*/true, /*lower=*/true,
                            /*unit_diagonal=*/false,
                            TriangularSolveTranspose::kAdjoint);
  EXPECT_EQ(ShapeOf(x), "f32[2,3,5]") << b.first_error();
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("%a), lower=true"), std::string::npos) << text;
  EXPECT_NE(text.find("left_side=true, lower=true, transpose_a=ADJOINT"),
            std::string::npos)
      << text;
}

TEST(LinalgBuilderTest, TriangularSolveNeedsASquareA) {
  XlaBuilder b("not_square");
  XlaOp a = Parameter(&b, 0, F32({3, 4}), "a");
  XlaOp rhs = Parameter(&b, 1, F32({3, 5}), "rhs");
  EXPECT_FALSE(TriangularSolve(a, rhs, true, true, false,
                               TriangularSolveTranspose::kNoTranspose)
                   .valid());
  ExpectError(b, {"triangular-solve", "expected square minor dimensions",
                  "operation_semantics.md, TriangularSolve"});
}

TEST(LinalgBuilderTest, BatchNormOps) {
  XlaBuilder b("batch_norm");
  XlaOp x = Parameter(&b, 0, F32({2, 3, 4}), "x");
  XlaOp scale = Parameter(&b, 1, F32({3}), "scale");
  XlaOp offset = Parameter(&b, 2, F32({3}), "offset");
  XlaOp training = BatchNormTraining(x, scale, offset, 0.001f, 1);
  EXPECT_EQ(ShapeOf(training), "(f32[2,3,4], f32[3], f32[3])");
  EXPECT_EQ(
      ShapeOf(BatchNormInference(x, scale, offset, scale, offset, 0.001f, 1)),
      "f32[2,3,4]");
  EXPECT_EQ(ShapeOf(BatchNormGrad(x, scale, offset, scale, x, 0.001f, 1)),
            "(f32[2,3,4], f32[3], f32[3])");
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("epsilon=0.001, feature_index=1"), std::string::npos)
      << text;
}

TEST(LinalgBuilderTest, BatchNormFeatureIndexInRange) {
  XlaBuilder b("bad_feature");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp scale = Parameter(&b, 1, F32({3}), "scale");
  EXPECT_FALSE(BatchNormTraining(x, scale, scale, 0.5f, 2).valid());
  ExpectError(b, {"batch-norm-training", "feature_index=2",
                  "operation_semantics.md, BatchNormTraining"});
}

TEST(LinalgBuilderTest, InvalidOperandsGiveInvalidOps) {
  EXPECT_FALSE(Dot(XlaOp(), XlaOp()).valid());
  XlaBuilder b("later");
  XlaOp m = Parameter(&b, 0, F32({2, 3}), "m");
  EXPECT_FALSE(Dot(m, XlaOp()).valid());
  ExpectError(b, {"dot", "operand 1 is an invalid XlaOp"});
}

}  // namespace
}  // namespace kiln
