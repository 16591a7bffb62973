// Builder functions for contractions (dot, dot-general, ragged-dot,
// scaled-dot, convolution), fft and the linear-algebra ops (cholesky,
// triangular-solve, batch norm), in the style of XLA's XlaBuilder.
//
//   XlaOp y = Dot(x, w);                          // f32[m,k] x f32[k,n]
//   DotDimensionNumbers dn;
//   dn.lhs_batch_dimensions = {0};
//   dn.rhs_batch_dimensions = {0};
//   dn.lhs_contracting_dimensions = {2};
//   dn.rhs_contracting_dimensions = {1};
//   XlaOp z = DotGeneral(a, b, dn, nullptr, ElementType::kF32);
//
// The result shapes come from the op's shape rule in compiler/ops/; a
// preferred_element_type becomes the declared result type, as XLA's
// builder does.
#ifndef KILN_COMPILER_BUILDER_LINALG_H_
#define KILN_COMPILER_BUILDER_LINALG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/builder/padding.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/element_type.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {

// XLA's DotDimensionNumbers: which dims of lhs and rhs are contracted and
// which are batch dims (paired by position).
struct DotDimensionNumbers {
  std::vector<int64_t> lhs_contracting_dimensions;
  std::vector<int64_t> rhs_contracting_dimensions;
  std::vector<int64_t> lhs_batch_dimensions;
  std::vector<int64_t> rhs_batch_dimensions;
};

// XLA's RaggedDotDimensionNumbers: a dot whose lhs dimension
// lhs_ragged_dimensions[0] is split into groups by group_sizes. When it is
// a non-contracting, non-batch dim, rhs_group_dimensions names rhs's group
// dim; otherwise rhs_group_dimensions is empty.
struct RaggedDotDimensionNumbers {
  DotDimensionNumbers dot_dimension_numbers;
  std::vector<int64_t> lhs_ragged_dimensions;
  std::vector<int64_t> rhs_group_dimensions;
};

// XLA's PrecisionConfig. operand_precision is empty (all default) or one
// entry per operand; algorithm is a PrecisionConfig::Algorithm name as XLA
// prints it (e.g. "dot_bf16_bf16_f32"), empty for unset.
struct PrecisionConfig {
  std::vector<Precision> operand_precision;
  std::string algorithm;
};

// TriangularSolveOptions::Transpose: op(a) is a, aᵀ or conj(aᵀ).
enum class TriangularSolveTranspose { kNoTranspose, kTranspose, kAdjoint };

// dot(lhs, rhs) contracting lhs's dimension 1 (0 when lhs has rank 1) with
// rhs's dimension 0.
XlaOp Dot(XlaOp lhs, XlaOp rhs,
          const PrecisionConfig* precision_config = nullptr,
          std::optional<ElementType> preferred_element_type = std::nullopt);

XlaOp DotGeneral(
    XlaOp lhs, XlaOp rhs, const DotDimensionNumbers& dimension_numbers,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

// ragged-dot(lhs, rhs, group_sizes); every mode of the IR: ragged in a
// non-contracting dim (rhs has a group dim), in a contracting dim (the
// result gains a leading group dim), or in a batch dim.
XlaOp RaggedDot(
    XlaOp lhs, XlaOp rhs, XlaOp group_sizes,
    const RaggedDotDimensionNumbers& dimension_numbers,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

// scaled-dot: the spec's argument order (lhs, lhs_scale, rhs, rhs_scale);
// the instruction's operands are lhs, rhs, lhs_scale, rhs_scale.
XlaOp ScaledDot(
    XlaOp lhs, XlaOp lhs_scale, XlaOp rhs, XlaOp rhs_scale,
    const DotDimensionNumbers& dimension_numbers,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

// bf01_oi01->bf01 with `num_spatial_dims` spatial dims: XLA's default.
ConvolutionDimensionNumbers CreateDefaultConvDimensionNumbers(
    int64_t num_spatial_dims = 2);

XlaOp Conv(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
           Padding padding, int64_t feature_group_count = 1,
           int64_t batch_group_count = 1,
           const PrecisionConfig* precision_config = nullptr,
           std::optional<ElementType> preferred_element_type = std::nullopt);

XlaOp ConvWithGeneralPadding(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding,
    int64_t feature_group_count = 1, int64_t batch_group_count = 1,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

XlaOp ConvWithGeneralDimensions(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    Padding padding, const ConvolutionDimensionNumbers& dimension_numbers,
    int64_t feature_group_count = 1, int64_t batch_group_count = 1,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

XlaOp ConvGeneral(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding,
    const ConvolutionDimensionNumbers& dimension_numbers,
    int64_t feature_group_count = 1, int64_t batch_group_count = 1,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt);

// The general convolution. lhs_dilation / rhs_dilation may be empty (no
// dilation); window_reversal, when given, has one entry per spatial dim.
XlaOp ConvGeneralDilated(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding,
    absl::Span<const int64_t> lhs_dilation,
    absl::Span<const int64_t> rhs_dilation,
    const ConvolutionDimensionNumbers& dimension_numbers,
    int64_t feature_group_count = 1, int64_t batch_group_count = 1,
    const PrecisionConfig* precision_config = nullptr,
    std::optional<ElementType> preferred_element_type = std::nullopt,
    std::optional<std::vector<bool>> window_reversal = std::nullopt);

XlaOp Fft(XlaOp operand, FftType fft_type,
          absl::Span<const int64_t> fft_length);

XlaOp Cholesky(XlaOp a, bool lower);

XlaOp TriangularSolve(XlaOp a, XlaOp b, bool left_side, bool lower,
                      bool unit_diagonal, TriangularSolveTranspose transpose_a);

// (output, batch_mean, batch_var).
XlaOp BatchNormTraining(XlaOp operand, XlaOp scale, XlaOp offset, float epsilon,
                        int64_t feature_index);

XlaOp BatchNormInference(XlaOp operand, XlaOp scale, XlaOp offset, XlaOp mean,
                         XlaOp variance, float epsilon, int64_t feature_index);

// (grad_operand, grad_scale, grad_offset).
XlaOp BatchNormGrad(XlaOp operand, XlaOp scale, XlaOp batch_mean,
                    XlaOp batch_var, XlaOp grad_output, float epsilon,
                    int64_t feature_index);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_LINALG_H_
