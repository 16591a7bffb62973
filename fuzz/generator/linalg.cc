// Linear algebra: dot, dot-general, convolution (random dimension numbers,
// groups, dilations), fft, cholesky and triangular-solve on well-posed
// inputs, the batch norms.
#include "compiler/builder/linalg.h"

#include <algorithm>

#include "compiler/builder/constants.h"
#include "compiler/builder/data_movement.h"
#include "compiler/builder/elementwise.h"
#include "compiler/ops/attr_enums.h"
#include "fuzz/generator/ops.h"
#include "fuzz/generator/window.h"

namespace kiln::fuzzgen {
namespace {

constexpr uint8_t kDotClasses =
    kSignedClass | kUnsignedClass | kFloatClass | kComplexClass;

XlaOp GenDot(Context& c) {
  const ElementType type = c.Type(kDotClasses);
  const int64_t m = c.Dim(), k = c.Dim(), n = c.Dim();
  XlaOp lhs = c.d().Chance(30) ? c.Value(type, {k}) : c.Value(type, {m, k});
  XlaOp rhs = c.d().Chance(30) ? c.Value(type, {k}) : c.Value(type, {k, n});
  return Dot(lhs, rhs);
}

XlaOp GenDotGeneral(Context& c) {
  const ElementType type = c.Type(kDotClasses);
  const int64_t batch = c.d().Range(0, 2), contracting = c.d().Range(0, 2);
  const int64_t lhs_free = c.d().Range(0, 1), rhs_free = c.d().Range(0, 1);
  std::vector<int64_t> batch_sizes(batch), contracting_sizes(contracting);
  for (int64_t& s : batch_sizes) s = c.Dim();
  for (int64_t& s : contracting_sizes) s = c.Dim();
  DotDimensionNumbers numbers;
  auto side = [&](int64_t free, std::vector<int64_t>* batch_dims,
                  std::vector<int64_t>* contracting_dims) {
    const int64_t rank = batch + contracting + free;
    std::vector<int64_t> order = c.d().Permutation(rank);
    std::vector<int64_t> dims(rank);
    for (int64_t i = 0; i < batch; ++i) {
      batch_dims->push_back(order[i]);
      dims[order[i]] = batch_sizes[i];
    }
    for (int64_t i = 0; i < contracting; ++i) {
      contracting_dims->push_back(order[batch + i]);
      dims[order[batch + i]] = contracting_sizes[i];
    }
    for (int64_t i = batch + contracting; i < rank; ++i)
      dims[order[i]] = c.Dim();
    return c.Value(type, dims);
  };
  XlaOp lhs = side(lhs_free, &numbers.lhs_batch_dimensions,
                   &numbers.lhs_contracting_dimensions);
  XlaOp rhs = side(rhs_free, &numbers.rhs_batch_dimensions,
                   &numbers.rhs_contracting_dimensions);
  return DotGeneral(lhs, rhs, numbers);
}

XlaOp GenConvolution(Context& c) {
  const ElementType type = c.Type(kFloatClass | kSignedClass);
  const int64_t spatial = c.d().Range(1, 2);
  const int64_t rank = spatial + 2;
  const int64_t groups = c.d().Range(1, 2);
  const int64_t batch = c.Dim(), in_per_group = c.Dim(true);
  const int64_t out = groups * c.d().Range(1, 2);
  std::vector<int64_t> input_dims(spatial);
  for (int64_t& d : input_dims) d = c.Dim(true);
  Window w = RandomWindow(c, input_dims, /*dilations=*/true);
  ConvolutionDimensionNumbers n;
  std::vector<int64_t> lhs_order = c.d().Permutation(rank);
  std::vector<int64_t> rhs_order = c.d().Permutation(rank);
  std::vector<int64_t> out_order = c.d().Permutation(rank);
  n.input_batch_dimension = lhs_order[0];
  n.input_feature_dimension = lhs_order[1];
  n.kernel_input_feature_dimension = rhs_order[0];
  n.kernel_output_feature_dimension = rhs_order[1];
  n.output_batch_dimension = out_order[0];
  n.output_feature_dimension = out_order[1];
  std::vector<int64_t> lhs_dims(rank), rhs_dims(rank);
  lhs_dims[lhs_order[0]] = batch;
  lhs_dims[lhs_order[1]] = groups * in_per_group;
  rhs_dims[rhs_order[0]] = in_per_group;
  rhs_dims[rhs_order[1]] = out;
  for (int64_t s = 0; s < spatial; ++s) {
    n.input_spatial_dimensions.push_back(lhs_order[2 + s]);
    n.kernel_spatial_dimensions.push_back(rhs_order[2 + s]);
    n.output_spatial_dimensions.push_back(out_order[2 + s]);
    lhs_dims[lhs_order[2 + s]] = input_dims[s];
    rhs_dims[rhs_order[2 + s]] = w.dimensions[s];
  }
  XlaOp lhs = c.Value(type, lhs_dims);
  XlaOp rhs = c.Value(type, rhs_dims);
  return ConvGeneralDilated(lhs, rhs, w.strides, w.padding, w.base_dilations,
                            w.window_dilations, n, groups);
}

XlaOp GenFft(Context& c) {
  const int64_t kind = c.d().Below(4);
  const int64_t lengths = c.d().Range(1, 3);
  std::vector<int64_t> batch = c.Dims(0, 1);
  std::vector<int64_t> fft_length(lengths);
  for (int64_t& l : fft_length) l = c.Dim(true);
  const bool wide = c.d().Chance(50);
  const ElementType complex_type =
      wide ? ElementType::kC128 : ElementType::kC64;
  const ElementType real_type = wide ? ElementType::kF64 : ElementType::kF32;
  std::vector<int64_t> dims = batch;
  dims.insert(dims.end(), fft_length.begin(), fft_length.end());
  if (kind == 0 || kind == 1) {
    return Fft(c.Value(complex_type, dims),
               kind == 0 ? FftType::kFft : FftType::kIfft, fft_length);
  }
  if (kind == 2)
    return Fft(c.Value(real_type, dims), FftType::kRfft, fft_length);
  dims.back() = fft_length.back() / 2 + 1;
  return Fft(c.Value(complex_type, dims), FftType::kIrfft, fft_length);
}

// A finite copy of `x` in [-2, 2]: NaN and inf become 0.
XlaOp Tame(Context& c, XlaOp x) {
  const ElementType type = c.TypeOf(x);
  XlaOp finite = Select(IsFinite(x), x, Zero(c.b(), type));
  return Clamp(c.ScalarConstant(type, -2), finite, c.ScalarConstant(type, 2));
}

// b * I + `m` for square [..., n, n] matrices.
XlaOp AddDiagonal(Context& c, XlaOp m, double value) {
  const Shape shape = c.ShapeOf(m);
  const int64_t rank = shape.dimensions().size();
  XlaOp rows = Iota(c.b(), Shape::Array(ElementType::kS32, shape.dimensions()),
                    rank - 2);
  XlaOp cols = Iota(c.b(), Shape::Array(ElementType::kS32, shape.dimensions()),
                    rank - 1);
  XlaOp eye = ConvertElementType(Eq(rows, cols), shape.element_type());
  return Add(m, Mul(eye, c.ScalarConstant(shape.element_type(), value)));
}

XlaOp GenCholesky(Context& c) {
  const ElementType type =
      c.d().Chance(50) ? ElementType::kF32 : ElementType::kF64;
  const int64_t n = c.Dim();
  std::vector<int64_t> dims = c.Dims(0, 1);
  dims.push_back(n);
  dims.push_back(n);
  XlaOp x = Tame(c, c.Value(type, dims));
  const int64_t rank = dims.size();
  DotDimensionNumbers numbers;
  numbers.lhs_contracting_dimensions = {rank - 1};
  numbers.rhs_contracting_dimensions = {rank - 1};
  if (rank == 3)
    numbers.lhs_batch_dimensions = numbers.rhs_batch_dimensions = {0};
  XlaOp gram = DotGeneral(x, x, numbers);  // x x^T: symmetric.
  return Cholesky(AddDiagonal(c, gram, 4.0 * (n + 1)), c.d().Chance(50));
}

XlaOp GenTriangularSolve(Context& c) {
  const ElementType type =
      c.d().Chance(50) ? ElementType::kF32 : ElementType::kF64;
  const int64_t n = c.Dim(), m = c.Dim();
  const bool left = c.d().Chance(50);
  XlaOp a = AddDiagonal(c, Tame(c, c.Value(type, {n, n})), 5.0 + n);
  XlaOp b = c.Value(
      type, left ? std::vector<int64_t>{n, m} : std::vector<int64_t>{m, n});
  constexpr TriangularSolveTranspose kTransposes[] = {
      TriangularSolveTranspose::kNoTranspose,
      TriangularSolveTranspose::kTranspose, TriangularSolveTranspose::kAdjoint};
  return TriangularSolve(a, b, left, c.d().Chance(50), c.d().Chance(30),
                         c.d().Pick(absl::MakeConstSpan(kTransposes)));
}

XlaOp GenBatchNorm(Context& c) {
  const ElementType type =
      c.d().Chance(60) ? ElementType::kF32 : c.Type(kFloatClass);
  const std::vector<int64_t> dims = c.Dims(1, 3);
  const int64_t feature = c.d().Below(dims.size());
  const std::vector<int64_t> features = {dims[feature]};
  XlaOp operand = c.Value(type, dims);
  XlaOp scale = c.Value(type, features);
  XlaOp offset = c.Value(type, features);
  const float epsilon = c.d().Chance(50) ? 1e-3f : 0.5f;
  const int64_t kind = c.d().Below(3);
  if (kind == 0) {
    return GetTupleElement(
        BatchNormTraining(operand, scale, offset, epsilon, feature),
        c.d().Below(3));
  }
  XlaOp mean = c.Value(type, features);
  XlaOp variance = Abs(c.Value(type, features));
  if (kind == 1) {
    return BatchNormInference(operand, scale, offset, mean, variance, epsilon,
                              feature);
  }
  return GetTupleElement(BatchNormGrad(operand, scale, mean, variance,
                                       c.Value(type, dims), epsilon, feature),
                         c.d().Below(3));
}

}  // namespace

void AddLinalgGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"dot", false, GenDot},
                          {"dot.general", false, GenDotGeneral},
                          {"convolution", false, GenConvolution},
                          {"fft", false, GenFft},
                          {"cholesky", false, GenCholesky},
                          {"triangular-solve", false, GenTriangularSolve},
                          {"batch-norm", false, GenBatchNorm},
                      });
}

}  // namespace kiln::fuzzgen
