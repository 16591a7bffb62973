#include "compiler/builder/linalg.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/instruction.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace {

constexpr absl::string_view kConvSection =
    "operation_semantics.md, ConvGeneralDilated";

// Adds precision_config's attributes: operand_precision only when some
// entry is not the default, algorithm only when set (XLA prints neither
// otherwise).
void AddPrecisionConfig(const PrecisionConfig* config, AttributeMap* attrs) {
  if (config == nullptr) return;
  const bool all_default = std::all_of(
      config->operand_precision.begin(), config->operand_precision.end(),
      [](Precision p) { return p == Precision::kDefault; });
  if (!all_default) {
    EnumList list;
    for (Precision p : config->operand_precision) {
      list.spellings.push_back(ToEnumValue(p).spelling);
    }
    attrs->Set(attr::kOperandPrecision, std::move(list));
  }
  if (!config->algorithm.empty() && config->algorithm != "unset") {
    attrs->Set(attr::kAlgorithm, EnumValue{config->algorithm});
  }
}

void AddDotDimensions(const DotDimensionNumbers& dn, AttributeMap* attrs) {
  // XLA prints each list only when it is non-empty.
  const std::pair<const char*, const std::vector<int64_t>*> lists[] = {
      {"lhs_batch_dims", &dn.lhs_batch_dimensions},
      {"lhs_contracting_dims", &dn.lhs_contracting_dimensions},
      {"rhs_batch_dims", &dn.rhs_batch_dimensions},
      {"rhs_contracting_dims", &dn.rhs_contracting_dimensions}};
  for (const auto& [name, list] : lists) {
    if (!list->empty()) attrs->Set(name, *list);
  }
}

// The contraction rules take the result's element type from the declared
// shape (XLA's preferred_element_type) and its dims from the operands. To
// declare the whole result, probe the rule on stand-in parameters of the
// operands' shapes with a declared array of `type`. When the probe fails,
// declaring the bare `type` lets the real instruction record the same
// error under its own name.
Shape DeclaredContractionShape(XlaBuilder* builder, Opcode opcode,
                               absl::Span<const XlaOp> operands,
                               const AttributeMap& attrs, ElementType type) {
  std::vector<std::unique_ptr<Instruction>> stand_ins;
  Instruction probe(opcode, Shape::Array(type, {}), "probe");
  for (const XlaOp& op : operands) {
    absl::StatusOr<Shape> shape = builder->GetShape(op);
    if (!shape.ok()) break;
    stand_ins.push_back(std::make_unique<Instruction>(
        Opcode::kParameter, *std::move(shape), "stand_in"));
    probe.AppendOperand(stand_ins.back().get());
  }
  *probe.mutable_attrs() = attrs;
  absl::StatusOr<Shape> inferred = InferShape(probe, ShapeForm::kClient);
  probe.DetachOperands();
  return inferred.ok() ? *std::move(inferred) : Shape::Array(type, {});
}

// Adds a contraction, declaring its result when a type is preferred.
XlaOp AddContraction(Opcode opcode, absl::Span<const XlaOp> operands,
                     AttributeMap attrs,
                     std::optional<ElementType> preferred_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  if (!builder->CheckOperands(operands, OpcodeName(opcode)).ok()) {
    return XlaOp();
  }
  std::optional<Shape> declared;
  if (preferred_element_type.has_value()) {
    declared = DeclaredContractionShape(builder, opcode, operands, attrs,
                                        *preferred_element_type);
  }
  return builder->AddInstruction(opcode, operands, std::move(attrs),
                                 std::move(declared));
}

// One spatial-dims-long argument of a convolution: its length must be the
// number of spatial dims (or 0 when `may_be_empty`).
absl::Status CheckSpatialLength(absl::string_view what, size_t length,
                                size_t spatial, bool may_be_empty) {
  if (length == spatial || (may_be_empty && length == 0)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "convolution: ", what, " has ", length, " entries but the dimension ",
      "numbers name ", spatial, " spatial dimensions (", kConvSection, ")"));
}

// Size of `shape` dimension `dim`, or 1 when `dim` is out of range (the
// convolution rule then reports the bad dimension numbers).
int64_t SizeOrOne(const Shape& shape, int64_t dim) {
  return dim >= 0 && dim < shape.rank() ? shape.dimension(dim) : 1;
}

struct ConvWindowArgs {
  absl::Span<const int64_t> window_strides;
  absl::Span<const std::pair<int64_t, int64_t>> padding;
  absl::Span<const int64_t> lhs_dilation;
  absl::Span<const int64_t> rhs_dilation;
  const std::optional<std::vector<bool>>* window_reversal;
};

absl::Status CheckWindowArgs(const ConvWindowArgs& args, size_t spatial) {
  absl::Status ok = CheckSpatialLength(
      "window_strides", args.window_strides.size(), spatial, false);
  if (ok.ok()) {
    ok = CheckSpatialLength("padding", args.padding.size(), spatial, false);
  }
  if (ok.ok()) {
    ok = CheckSpatialLength("lhs_dilation", args.lhs_dilation.size(), spatial,
                            true);
  }
  if (ok.ok()) {
    ok = CheckSpatialLength("rhs_dilation", args.rhs_dilation.size(), spatial,
                            true);
  }
  if (ok.ok() && args.window_reversal->has_value()) {
    ok = CheckSpatialLength("window_reversal", (*args.window_reversal)->size(),
                            spatial, false);
  }
  return ok;
}

// The window of a convolution: sizes from the kernel's spatial dims.
Window MakeConvWindow(const ConvWindowArgs& args, const Shape& kernel,
                      const ConvolutionDimensionNumbers& dn) {
  Window window;
  for (size_t i = 0; i < dn.kernel_spatial_dimensions.size(); ++i) {
    WindowDimension wd;
    wd.size = SizeOrOne(kernel, dn.kernel_spatial_dimensions[i]);
    wd.stride = args.window_strides[i];
    wd.padding_low = args.padding[i].first;
    wd.padding_high = args.padding[i].second;
    if (!args.lhs_dilation.empty()) wd.base_dilation = args.lhs_dilation[i];
    if (!args.rhs_dilation.empty()) wd.window_dilation = args.rhs_dilation[i];
    if (args.window_reversal->has_value()) {
      wd.window_reversal = (**args.window_reversal)[i];
    }
    window.dimensions.push_back(wd);
  }
  return window;
}

XlaOp ConvFromWindowArgs(XlaOp lhs, XlaOp rhs, const ConvWindowArgs& args,
                         const ConvolutionDimensionNumbers& dn,
                         int64_t feature_group_count, int64_t batch_group_count,
                         const PrecisionConfig* precision_config,
                         std::optional<ElementType> preferred_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({lhs, rhs});
  if (builder == nullptr) return XlaOp();
  if (!builder->CheckOperands({lhs, rhs}, "convolution").ok()) return XlaOp();
  absl::StatusOr<Shape> kernel = builder->GetShape(rhs);
  absl::Status ok = CheckWindowArgs(args, dn.input_spatial_dimensions.size());
  if (!ok.ok()) return builder->ReportError(ok);
  AttributeMap attrs;
  // XLA prints no window for a convolution without spatial dims.
  if (!dn.input_spatial_dimensions.empty()) {
    attrs.Set(attr::kWindow, MakeConvWindow(args, *kernel, dn));
  }
  attrs.Set(attr::kDimLabels, dn);
  if (feature_group_count != 1) {
    attrs.Set(attr::kFeatureGroupCount, feature_group_count);
  }
  if (batch_group_count != 1) {
    attrs.Set(attr::kBatchGroupCount, batch_group_count);
  }
  AddPrecisionConfig(precision_config, &attrs);
  return AddContraction(Opcode::kConvolution, {lhs, rhs}, std::move(attrs),
                        preferred_element_type);
}

// The padding `padding` gives for `lhs` and `rhs` under `dn`, or an error
// when the strides do not match the spatial dims.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> ShorthandPadding(
    XlaBuilder* builder, XlaOp lhs, XlaOp rhs,
    absl::Span<const int64_t> window_strides, Padding padding,
    const ConvolutionDimensionNumbers& dn) {
  absl::StatusOr<Shape> input = builder->GetShape(lhs);
  if (!input.ok()) return input.status();
  absl::StatusOr<Shape> kernel = builder->GetShape(rhs);
  if (!kernel.ok()) return kernel.status();
  const size_t spatial = dn.input_spatial_dimensions.size();
  absl::Status ok = CheckSpatialLength("window_strides", window_strides.size(),
                                       spatial, false);
  if (ok.ok() && dn.kernel_spatial_dimensions.size() != spatial) {
    ok =
        CheckSpatialLength("kernel_spatial_dimensions",
                           dn.kernel_spatial_dimensions.size(), spatial, false);
  }
  if (!ok.ok()) return ok;
  std::vector<int64_t> input_sizes, window_sizes;
  for (size_t i = 0; i < spatial; ++i) {
    input_sizes.push_back(SizeOrOne(*input, dn.input_spatial_dimensions[i]));
    window_sizes.push_back(SizeOrOne(*kernel, dn.kernel_spatial_dimensions[i]));
  }
  return MakePadding(input_sizes, window_sizes, window_strides, padding);
}

XlaOp DotLike(Opcode opcode, absl::Span<const XlaOp> operands,
              AttributeMap attrs, const PrecisionConfig* precision_config,
              std::optional<ElementType> preferred_element_type) {
  AddPrecisionConfig(precision_config, &attrs);
  return AddContraction(opcode, operands, std::move(attrs),
                        preferred_element_type);
}

// XLA keeps epsilon as a float and prints its shortest decimal form
// ("0.001"); widening the float itself would print 0.0010000000474974513.
double ShortestDecimal(float value) {
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (std::strtof(text, nullptr) == value) break;
  }
  return std::strtod(text, nullptr);
}

AttributeMap BatchNormAttrs(float epsilon, int64_t feature_index) {
  AttributeMap attrs;
  attrs.Set(attr::kEpsilon, ShortestDecimal(epsilon));
  attrs.Set(attr::kFeatureIndex, feature_index);
  return attrs;
}

XlaOp AddToBuilderOf(Opcode opcode, absl::Span<const XlaOp> operands,
                     AttributeMap attrs) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(opcode, operands, std::move(attrs));
}

}  // namespace

XlaOp Dot(XlaOp lhs, XlaOp rhs, const PrecisionConfig* precision_config,
          std::optional<ElementType> preferred_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({lhs, rhs});
  if (builder == nullptr) return XlaOp();
  if (!builder->CheckOperands({lhs, rhs}, "dot").ok()) return XlaOp();
  absl::StatusOr<Shape> lhs_shape = builder->GetShape(lhs);
  DotDimensionNumbers dn;
  dn.lhs_contracting_dimensions = {lhs_shape->rank() == 1 ? 0 : 1};
  dn.rhs_contracting_dimensions = {0};
  return DotGeneral(lhs, rhs, dn, precision_config, preferred_element_type);
}

XlaOp DotGeneral(XlaOp lhs, XlaOp rhs,
                 const DotDimensionNumbers& dimension_numbers,
                 const PrecisionConfig* precision_config,
                 std::optional<ElementType> preferred_element_type) {
  AttributeMap attrs;
  AddDotDimensions(dimension_numbers, &attrs);
  return DotLike(Opcode::kDot, {lhs, rhs}, std::move(attrs), precision_config,
                 preferred_element_type);
}

XlaOp RaggedDot(XlaOp lhs, XlaOp rhs, XlaOp group_sizes,
                const RaggedDotDimensionNumbers& dimension_numbers,
                const PrecisionConfig* precision_config,
                std::optional<ElementType> preferred_element_type) {
  AttributeMap attrs;
  AddDotDimensions(dimension_numbers.dot_dimension_numbers, &attrs);
  if (!dimension_numbers.lhs_ragged_dimensions.empty()) {
    attrs.Set(attr::kLhsRaggedDims, dimension_numbers.lhs_ragged_dimensions);
  }
  if (!dimension_numbers.rhs_group_dimensions.empty()) {
    attrs.Set(attr::kRhsGroupDims, dimension_numbers.rhs_group_dimensions);
  }
  return DotLike(Opcode::kRaggedDot, {lhs, rhs, group_sizes}, std::move(attrs),
                 precision_config, preferred_element_type);
}

XlaOp ScaledDot(XlaOp lhs, XlaOp lhs_scale, XlaOp rhs, XlaOp rhs_scale,
                const DotDimensionNumbers& dimension_numbers,
                const PrecisionConfig* precision_config,
                std::optional<ElementType> preferred_element_type) {
  AttributeMap attrs;
  AddDotDimensions(dimension_numbers, &attrs);
  return DotLike(Opcode::kScaledDot, {lhs, rhs, lhs_scale, rhs_scale},
                 std::move(attrs), precision_config, preferred_element_type);
}

ConvolutionDimensionNumbers CreateDefaultConvDimensionNumbers(
    int64_t num_spatial_dims) {
  ConvolutionDimensionNumbers dn;
  dn.input_batch_dimension = 0;
  dn.input_feature_dimension = 1;
  dn.kernel_output_feature_dimension = 0;
  dn.kernel_input_feature_dimension = 1;
  dn.output_batch_dimension = 0;
  dn.output_feature_dimension = 1;
  for (int64_t i = 0; i < num_spatial_dims; ++i) {
    dn.input_spatial_dimensions.push_back(i + 2);
    dn.kernel_spatial_dimensions.push_back(i + 2);
    dn.output_spatial_dimensions.push_back(i + 2);
  }
  return dn;
}

XlaOp Conv(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
           Padding padding, int64_t feature_group_count,
           int64_t batch_group_count, const PrecisionConfig* precision_config,
           std::optional<ElementType> preferred_element_type) {
  return ConvWithGeneralDimensions(
      lhs, rhs, window_strides, padding,
      CreateDefaultConvDimensionNumbers(window_strides.size()),
      feature_group_count, batch_group_count, precision_config,
      preferred_element_type);
}

XlaOp ConvWithGeneralPadding(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    absl::Span<const std::pair<int64_t, int64_t>> padding,
    int64_t feature_group_count, int64_t batch_group_count,
    const PrecisionConfig* precision_config,
    std::optional<ElementType> preferred_element_type) {
  return ConvGeneral(lhs, rhs, window_strides, padding,
                     CreateDefaultConvDimensionNumbers(window_strides.size()),
                     feature_group_count, batch_group_count, precision_config,
                     preferred_element_type);
}

XlaOp ConvWithGeneralDimensions(
    XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> window_strides,
    Padding padding, const ConvolutionDimensionNumbers& dimension_numbers,
    int64_t feature_group_count, int64_t batch_group_count,
    const PrecisionConfig* precision_config,
    std::optional<ElementType> preferred_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({lhs, rhs});
  if (builder == nullptr) return XlaOp();
  if (!builder->CheckOperands({lhs, rhs}, "convolution").ok()) return XlaOp();
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> pads =
      ShorthandPadding(builder, lhs, rhs, window_strides, padding,
                       dimension_numbers);
  if (!pads.ok()) return builder->ReportError(pads.status());
  return ConvGeneral(lhs, rhs, window_strides, *pads, dimension_numbers,
                     feature_group_count, batch_group_count, precision_config,
                     preferred_element_type);
}

XlaOp ConvGeneral(XlaOp lhs, XlaOp rhs,
                  absl::Span<const int64_t> window_strides,
                  absl::Span<const std::pair<int64_t, int64_t>> padding,
                  const ConvolutionDimensionNumbers& dimension_numbers,
                  int64_t feature_group_count, int64_t batch_group_count,
                  const PrecisionConfig* precision_config,
                  std::optional<ElementType> preferred_element_type) {
  return ConvGeneralDilated(lhs, rhs, window_strides, padding, {}, {},
                            dimension_numbers, feature_group_count,
                            batch_group_count, precision_config,
                            preferred_element_type);
}

XlaOp ConvGeneralDilated(XlaOp lhs, XlaOp rhs,
                         absl::Span<const int64_t> window_strides,
                         absl::Span<const std::pair<int64_t, int64_t>> padding,
                         absl::Span<const int64_t> lhs_dilation,
                         absl::Span<const int64_t> rhs_dilation,
                         const ConvolutionDimensionNumbers& dimension_numbers,
                         int64_t feature_group_count, int64_t batch_group_count,
                         const PrecisionConfig* precision_config,
                         std::optional<ElementType> preferred_element_type,
                         std::optional<std::vector<bool>> window_reversal) {
  const ConvWindowArgs args{window_strides, padding, lhs_dilation, rhs_dilation,
                            &window_reversal};
  return ConvFromWindowArgs(lhs, rhs, args, dimension_numbers,
                            feature_group_count, batch_group_count,
                            precision_config, preferred_element_type);
}

XlaOp Fft(XlaOp operand, FftType fft_type,
          absl::Span<const int64_t> fft_length) {
  AttributeMap attrs;
  attrs.Set(attr::kFftType, ToEnumValue(fft_type));
  attrs.Set(attr::kFftLength, Int64List(fft_length.begin(), fft_length.end()));
  return AddToBuilderOf(Opcode::kFft, {operand}, std::move(attrs));
}

XlaOp Cholesky(XlaOp a, bool lower) {
  AttributeMap attrs;
  if (lower) attrs.Set(attr::kLower, true);
  return AddToBuilderOf(Opcode::kCholesky, {a}, std::move(attrs));
}

XlaOp TriangularSolve(XlaOp a, XlaOp b, bool left_side, bool lower,
                      bool unit_diagonal,
                      TriangularSolveTranspose transpose_a) {
  // XLA prints the options that differ from the proto defaults (false, and
  // TRANSPOSE_INVALID for transpose_a, which a builder always sets).
  AttributeMap attrs;
  if (left_side) attrs.Set(attr::kLeftSide, true);
  if (lower) attrs.Set(attr::kLower, true);
  if (unit_diagonal) attrs.Set(attr::kUnitDiagonal, true);
  const char* transpose = "NO_TRANSPOSE";
  if (transpose_a == TriangularSolveTranspose::kTranspose) {
    transpose = "TRANSPOSE";
  } else if (transpose_a == TriangularSolveTranspose::kAdjoint) {
    transpose = "ADJOINT";
  }
  attrs.Set(attr::kTransposeA, EnumValue{transpose});
  return AddToBuilderOf(Opcode::kTriangularSolve, {a, b}, std::move(attrs));
}

XlaOp BatchNormTraining(XlaOp operand, XlaOp scale, XlaOp offset, float epsilon,
                        int64_t feature_index) {
  return AddToBuilderOf(Opcode::kBatchNormTraining, {operand, scale, offset},
                        BatchNormAttrs(epsilon, feature_index));
}

XlaOp BatchNormInference(XlaOp operand, XlaOp scale, XlaOp offset, XlaOp mean,
                         XlaOp variance, float epsilon, int64_t feature_index) {
  return AddToBuilderOf(Opcode::kBatchNormInference,
                        {operand, scale, offset, mean, variance},
                        BatchNormAttrs(epsilon, feature_index));
}

XlaOp BatchNormGrad(XlaOp operand, XlaOp scale, XlaOp batch_mean,
                    XlaOp batch_var, XlaOp grad_output, float epsilon,
                    int64_t feature_index) {
  return AddToBuilderOf(Opcode::kBatchNormGrad,
                        {operand, scale, batch_mean, batch_var, grad_output},
                        BatchNormAttrs(epsilon, feature_index));
}

}  // namespace kiln
