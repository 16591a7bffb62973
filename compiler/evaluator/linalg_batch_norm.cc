// batch-norm-training, batch-norm-inference and batch-norm-grad
// (operation_semantics.md, BatchNormTraining / BatchNormInference /
// BatchNormGrad), with the spec's formulas. Every element type (all are
// floating point) computes in double and rounds once on store. The batch
// variance is the two-pass mean of squared deviations the spec writes
// (XLA's expansion uses E[x^2] - E[x]^2, which can differ by rounding).
#include <cmath>
#include <vector>

#include "compiler/evaluator/linalg_common.h"
#include "compiler/evaluator/linalg_internal.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Where the feature of each element comes from.
struct FeatureLayout {
  int64_t features = 0;  // size of the feature dimension
  int64_t stride = 1;    // elements between consecutive features
  int64_t count = 0;     // elements per feature (m * w * h)
  int64_t Feature(int64_t i) const { return (i / stride) % features; }
};

FeatureLayout LayoutOf(const Instruction& instruction, const Shape& shape) {
  const int64_t feature =
      *instruction.attrs().Get<int64_t>(attr::kFeatureIndex);
  FeatureLayout layout;
  layout.features = shape.dimension(feature);
  layout.stride = RowMajorStrides(shape.dimensions())[feature];
  int64_t total = 1;
  for (int64_t d : shape.dimensions()) total *= d;
  layout.count = layout.features == 0 ? 0 : total / layout.features;
  return layout;
}

std::vector<double> ReadDoubles(const Literal& literal) {
  std::vector<double> values(literal.element_count());
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    values[i] = literal.GetDouble(i);
  }
  return values;
}

absl::StatusOr<Literal> NewFilled(const Instruction& instruction,
                                  const Shape& shape,
                                  const std::vector<double>& values,
                                  EvalContext& context) {
  absl::StatusOr<Literal> literal = context.NewLiteral(instruction, shape);
  if (!literal.ok()) return literal.status();
  for (size_t i = 0; i < values.size(); ++i) literal->SetDouble(i, values[i]);
  return literal;
}

// (array of `shape`, vector, vector), the results of training and grad.
absl::StatusOr<Literal> TupleOfThree(const Instruction& instruction,
                                     const Shape& shape,
                                     const std::vector<double>& first,
                                     const Shape& vector,
                                     const std::vector<double>& second,
                                     const std::vector<double>& third,
                                     EvalContext& context) {
  std::vector<Literal> parts;
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<Literal> part =
        NewFilled(instruction, i == 0 ? shape : vector,
                  i == 0 ? first : (i == 1 ? second : third), context);
    if (!part.ok()) return part.status();
    parts.push_back(*std::move(part));
  }
  return Literal::Tuple(std::move(parts));
}

// epsilon=, which the schema requires (a module built without the parser
// may still lack it).
absl::StatusOr<double> Epsilon(const Instruction& instruction) {
  const double* epsilon = instruction.attrs().Get<double>(attr::kEpsilon);
  if (epsilon == nullptr) {
    return KernelError(instruction, "missing epsilon=");
  }
  return *epsilon;
}

// Per-feature means of `x` (and of (x - mean)^2 into `variance`).
void Moments(const std::vector<double>& x, const FeatureLayout& layout,
             std::vector<double>& mean, std::vector<double>& variance) {
  mean.assign(layout.features, 0.0);
  variance.assign(layout.features, 0.0);
  for (size_t i = 0; i < x.size(); ++i) mean[layout.Feature(i)] += x[i];
  for (double& m : mean) m /= static_cast<double>(layout.count);
  for (size_t i = 0; i < x.size(); ++i) {
    const double deviation = x[i] - mean[layout.Feature(i)];
    variance[layout.Feature(i)] += deviation * deviation;
  }
  for (double& v : variance) v /= static_cast<double>(layout.count);
}

// y = scale * (x - mean) / sqrt(variance + epsilon) + offset.
std::vector<double> Normalize(const std::vector<double>& x,
                              const FeatureLayout& layout,
                              const std::vector<double>& scale,
                              const std::vector<double>& offset,
                              const std::vector<double>& mean,
                              const std::vector<double>& variance,
                              double epsilon) {
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = layout.Feature(i);
    y[i] = scale[f] * (x[i] - mean[f]) / std::sqrt(variance[f] + epsilon) +
           offset[f];
  }
  return y;
}

}  // namespace

absl::StatusOr<Literal> BatchNormTrainingKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  const absl::StatusOr<double> epsilon_or = Epsilon(instruction);
  if (!epsilon_or.ok()) return epsilon_or.status();
  const Shape& shape = operands[0]->shape();
  const FeatureLayout layout = LayoutOf(instruction, shape);
  const std::vector<double> x = ReadDoubles(*operands[0]);
  std::vector<double> mean, variance;
  Moments(x, layout, mean, variance);
  const std::vector<double> y =
      Normalize(x, layout, ReadDoubles(*operands[1]), ReadDoubles(*operands[2]),
                mean, variance, *epsilon_or);
  return TupleOfThree(instruction, shape, y, operands[1]->shape(), mean,
                      variance, context);
}

absl::StatusOr<Literal> BatchNormInferenceKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  const absl::StatusOr<double> epsilon_or = Epsilon(instruction);
  if (!epsilon_or.ok()) return epsilon_or.status();
  const FeatureLayout layout = LayoutOf(instruction, operands[0]->shape());
  const std::vector<double> y =
      Normalize(ReadDoubles(*operands[0]), layout, ReadDoubles(*operands[1]),
                ReadDoubles(*operands[2]), ReadDoubles(*operands[3]),
                ReadDoubles(*operands[4]), *epsilon_or);
  return NewFilled(instruction, operands[0]->shape(), y, context);
}

// The spec's formulas: with n = elements per feature,
//   c = (1/n) sum dy (x - mean) / (var + eps),  d = (1/n) sum dy,
//   dx = scale / sqrt(var + eps) * (dy - d - c (x - mean)),
//   dscale = sum dy (x - mean) / sqrt(var + eps),  doffset = sum dy.
absl::StatusOr<Literal> BatchNormGradKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::Status ok = CheckLinalgShapeRule(instruction, context);
  if (!ok.ok()) return ok;
  const absl::StatusOr<double> epsilon_or = Epsilon(instruction);
  if (!epsilon_or.ok()) return epsilon_or.status();
  const Shape& shape = operands[0]->shape();
  const FeatureLayout layout = LayoutOf(instruction, shape);
  const std::vector<double> x = ReadDoubles(*operands[0]);
  const std::vector<double> scale = ReadDoubles(*operands[1]);
  const std::vector<double> mean = ReadDoubles(*operands[2]);
  const std::vector<double> variance = ReadDoubles(*operands[3]);
  const std::vector<double> dy = ReadDoubles(*operands[4]);
  const double epsilon = *epsilon_or;
  const int64_t features = layout.features;
  std::vector<double> sum_dy_centered(features, 0.0), d_offset(features, 0.0);
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = layout.Feature(i);
    sum_dy_centered[f] += dy[i] * (x[i] - mean[f]);
    d_offset[f] += dy[i];
  }
  std::vector<double> d_scale(features), c(features), d(features);
  const double n = static_cast<double>(layout.count);
  for (int64_t f = 0; f < features; ++f) {
    d_scale[f] = sum_dy_centered[f] / std::sqrt(variance[f] + epsilon);
    c[f] = sum_dy_centered[f] / (variance[f] + epsilon) / n;
    d[f] = d_offset[f] / n;
  }
  std::vector<double> dx(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t f = layout.Feature(i);
    dx[i] = scale[f] / std::sqrt(variance[f] + epsilon) *
            (dy[i] - d[f] - c[f] * (x[i] - mean[f]));
  }
  return TupleOfThree(instruction, shape, dx, operands[1]->shape(), d_scale,
                      d_offset, context);
}

}  // namespace eval
}  // namespace kiln
