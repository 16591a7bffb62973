// Contractions and linear algebra: dot (dot_general), convolution, fft,
// cholesky, triangular-solve, the batch norms; and the random ops.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "compiler/ir/attr_names.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

std::vector<int64_t> List(const Instruction& i, absl::string_view name) {
  const Int64List* list = i.attrs().Get<Int64List>(name);
  return list == nullptr ? std::vector<int64_t>{} : *list;
}

// ", precision_config = [...]" or nothing; packed_nibble and dot
// algorithms are refused.
absl::StatusOr<std::string> PrecisionAttrs(const Instruction& i) {
  const EnumValue* algorithm = i.attrs().Get<EnumValue>(attr::kAlgorithm);
  if (algorithm != nullptr && algorithm->spelling != "unset") {
    return NoForm(absl::StrCat("the dot algorithm ", algorithm->spelling,
                               " is not exported (StableHLO's DotAlgorithm "
                               "spells precisions differently)"));
  }
  const EnumList* precision = i.attrs().Get<EnumList>(attr::kOperandPrecision);
  if (precision == nullptr || precision->spellings.empty())
    return std::string();
  std::vector<std::string> parts;
  for (const std::string& p : precision->spellings) {
    if (p == "packed_nibble") {
      return NoForm("packed_nibble precision has no StableHLO form");
    }
    parts.push_back(
        absl::StrCat("#stablehlo<precision ", absl::AsciiStrToUpper(p), ">"));
  }
  return absl::StrCat(", precision_config = [", absl::StrJoin(parts, ", "),
                      "]");
}

// ragged-dot(lhs, rhs, group_sizes) as chlo.ragged_dot: StableHLO has no
// ragged dot; CHLO's (2024) is what JAX writes and XLA imports to its own
// ragged-dot.
absl::StatusOr<Value> EmitRaggedDot(FunctionEmitter& e, const Instruction& i) {
  if (i.operand_count() != 3) return NoForm("ragged-dot takes 3 operands");
  absl::StatusOr<std::string> precision = PrecisionAttrs(i);
  if (!precision.ok()) return precision.status();
  const std::string chlo_precision =
      precision->empty()
          ? ", precision_config = [#chlo<precision DEFAULT>, "
            "#chlo<precision DEFAULT>]"
          : absl::StrReplaceAll(*precision, {{"#stablehlo<", "#chlo<"}});
  std::string numbers = absl::StrCat(
      "ragged_dot_dimension_numbers = #chlo.ragged_dot<"
      "lhs_batching_dimensions = ",
      I64List(List(i, attr::kLhsBatchDims)),
      ", rhs_batching_dimensions = ", I64List(List(i, attr::kRhsBatchDims)),
      ", lhs_contracting_dimensions = ",
      I64List(List(i, attr::kLhsContractingDims)),
      ", rhs_contracting_dimensions = ",
      I64List(List(i, attr::kRhsContractingDims)),
      ", lhs_ragged_dimensions = ", I64List(List(i, attr::kLhsRaggedDims)),
      ", rhs_group_dimensions = ", I64List(List(i, attr::kRhsGroupDims)), ">");
  return EmitSimple(e, i, "chlo.ragged_dot",
                    absl::StrCat(numbers, chlo_precision));
}

absl::StatusOr<Value> EmitDot(FunctionEmitter& e, const Instruction& i) {
  if (i.operand_count() != 2 || i.attrs().Has(attr::kSparsity)) {
    return NoForm("sparse dot has no StableHLO form");
  }
  absl::StatusOr<std::string> precision = PrecisionAttrs(i);
  if (!precision.ok()) return precision.status();
  std::string numbers = absl::StrCat(
      "dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = ",
      I64List(List(i, attr::kLhsBatchDims)),
      ", rhs_batching_dimensions = ", I64List(List(i, attr::kRhsBatchDims)),
      ", lhs_contracting_dimensions = ",
      I64List(List(i, attr::kLhsContractingDims)),
      ", rhs_contracting_dimensions = ",
      I64List(List(i, attr::kRhsContractingDims)), ">");
  return EmitSimple(e, i, "stablehlo.dot_general",
                    absl::StrCat(numbers, *precision));
}

std::string ConvDimensionNumbers(const ConvolutionDimensionNumbers& d) {
  return absl::StrCat(
      "#stablehlo.conv<raw input_batch_dimension = ", d.input_batch_dimension,
      ", input_feature_dimension = ", d.input_feature_dimension,
      ", input_spatial_dimensions = ", I64List(d.input_spatial_dimensions),
      ", kernel_input_feature_dimension = ", d.kernel_input_feature_dimension,
      ", kernel_output_feature_dimension = ", d.kernel_output_feature_dimension,
      ", kernel_spatial_dimensions = ", I64List(d.kernel_spatial_dimensions),
      ", output_batch_dimension = ", d.output_batch_dimension,
      ", output_feature_dimension = ", d.output_feature_dimension,
      ", output_spatial_dimensions = ", I64List(d.output_spatial_dimensions),
      ">");
}

std::string ConvWindow(const Window& window) {
  std::vector<int64_t> strides, lhs, rhs;
  std::vector<bool> reversal;
  for (const WindowDimension& d : window.dimensions) {
    strides.push_back(d.stride);
    lhs.push_back(d.base_dilation);
    rhs.push_back(d.window_dilation);
    reversal.push_back(d.window_reversal);
  }
  return absl::StrCat("window_strides = ", I64Array(strides),
                      ", padding = ", WindowPadding(window),
                      ", lhs_dilation = ", I64Array(lhs),
                      ", rhs_dilation = ", I64Array(rhs),
                      ", window_reversal = ", BoolArray(reversal));
}

absl::StatusOr<Value> EmitConvolution(FunctionEmitter& e,
                                      const Instruction& i) {
  const auto* numbers =
      i.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  if (numbers == nullptr) return NoForm("convolution without dim_labels");
  const Window* given = i.attrs().Get<Window>(attr::kWindow);
  Window window;
  if (given != nullptr) window = *given;
  window.dimensions.resize(numbers->input_spatial_dimensions.size());
  const int64_t* features = i.attrs().Get<int64_t>(attr::kFeatureGroupCount);
  const int64_t* batches = i.attrs().Get<int64_t>(attr::kBatchGroupCount);
  absl::StatusOr<std::string> precision = PrecisionAttrs(i);
  if (!precision.ok()) return precision.status();
  return EmitSimple(
      e, i, "stablehlo.convolution",
      absl::StrCat(ConvWindow(window),
                   ", dimension_numbers = ", ConvDimensionNumbers(*numbers),
                   ", feature_group_count = ", features ? *features : 1,
                   " : i64, batch_group_count = ", batches ? *batches : 1,
                   " : i64", *precision));
}

absl::StatusOr<Value> EmitFft(FunctionEmitter& e, const Instruction& i) {
  const EnumValue* type = i.attrs().Get<EnumValue>(attr::kFftType);
  if (type == nullptr) return NoForm("fft without fft_type");
  return EmitSimple(
      e, i, "stablehlo.fft",
      absl::StrCat("fft_type = #stablehlo<fft_type ", type->spelling,
                   ">, fft_length = ", I64Array(List(i, attr::kFftLength))));
}

std::string Bool(const Instruction& i, absl::string_view name) {
  const bool* value = i.attrs().Get<bool>(name);
  return value && *value ? "true" : "false";
}

absl::StatusOr<Value> EmitCholesky(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.cholesky",
                    absl::StrCat("lower = ", Bool(i, attr::kLower)));
}

absl::StatusOr<Value> EmitTriangularSolve(FunctionEmitter& e,
                                          const Instruction& i) {
  const EnumValue* transpose = i.attrs().Get<EnumValue>(attr::kTransposeA);
  std::string t = transpose ? transpose->spelling : "NO_TRANSPOSE";
  if (t == "TRANSPOSE_INVALID") t = "NO_TRANSPOSE";
  return EmitSimple(
      e, i, "stablehlo.triangular_solve",
      absl::StrCat("left_side = ", Bool(i, attr::kLeftSide),
                   ", lower = ", Bool(i, attr::kLower),
                   ", unit_diagonal = ", Bool(i, attr::kUnitDiagonal),
                   ", transpose_a = #stablehlo<transpose ", t, ">"));
}

absl::StatusOr<Value> EmitBatchNorm(FunctionEmitter& e, const Instruction& i) {
  const double* epsilon = i.attrs().Get<double>(attr::kEpsilon);
  const int64_t* feature = i.attrs().Get<int64_t>(attr::kFeatureIndex);
  if (epsilon == nullptr || feature == nullptr) {
    return NoForm("batch norm without epsilon or feature_index");
  }
  const char* name = i.opcode() == Opcode::kBatchNormTraining
                         ? "stablehlo.batch_norm_training"
                     : i.opcode() == Opcode::kBatchNormInference
                         ? "stablehlo.batch_norm_inference"
                         : "stablehlo.batch_norm_grad";
  return EmitSimple(
      e, i, name,
      absl::StrCat("epsilon = ", FloatLiteral(*epsilon),
                   " : f32, feature_index = ", *feature, " : i64"));
}

// rng(a, b): stablehlo.rng also takes the result's shape as a tensor.
absl::StatusOr<Value> EmitRng(FunctionEmitter& e, const Instruction& i) {
  const EnumValue* distribution = i.attrs().Get<EnumValue>(attr::kDistribution);
  if (distribution == nullptr) return NoForm("rng without distribution");
  const std::vector<int64_t>& dims = i.shape().dimensions();
  std::string dense = absl::StrCat("dense<", I64List(dims), "> : tensor<",
                                   dims.size(), "xi64>");
  Shape shape_type =
      Shape::Array(ElementType::kS64, {static_cast<int64_t>(dims.size())});
  absl::StatusOr<std::vector<Value>> shape =
      e.Emit(Op{"stablehlo.constant",
                {},
                absl::StrCat("value = ", dense),
                {},
                {shape_type}},
             "shape");
  if (!shape.ok()) return shape.status();
  Op op{"stablehlo.rng",
        {e.Operand(i, 0), e.Operand(i, 1), (*shape)[0]},
        absl::StrCat(
            "rng_distribution = #stablehlo<rng_distribution ",
            distribution->spelling == "rng_normal" ? "NORMAL" : "UNIFORM", ">"),
        {},
        {i.shape()}};
  return e.EmitAs(op, i.shape(), i.name());
}

absl::StatusOr<Value> EmitRngBitGenerator(FunctionEmitter& e,
                                          const Instruction& i) {
  const EnumValue* algorithm = i.attrs().Get<EnumValue>(attr::kAlgorithm);
  std::string name = "DEFAULT";
  if (algorithm != nullptr && algorithm->spelling == "rng_three_fry") {
    name = "THREE_FRY";
  } else if (algorithm != nullptr && algorithm->spelling == "rng_philox") {
    name = "PHILOX";
  }
  return EmitSimple(
      e, i, "stablehlo.rng_bit_generator",
      absl::StrCat("rng_algorithm = #stablehlo<rng_algorithm ", name, ">"));
}

}  // namespace

void AddLinalgHandlers(HandlerTable* table) {
  (*table)[Opcode::kDot] = &EmitDot;
  (*table)[Opcode::kRaggedDot] = &EmitRaggedDot;
  (*table)[Opcode::kConvolution] = &EmitConvolution;
  (*table)[Opcode::kFft] = &EmitFft;
  (*table)[Opcode::kCholesky] = &EmitCholesky;
  (*table)[Opcode::kTriangularSolve] = &EmitTriangularSolve;
  (*table)[Opcode::kBatchNormTraining] = &EmitBatchNorm;
  (*table)[Opcode::kBatchNormInference] = &EmitBatchNorm;
  (*table)[Opcode::kBatchNormGrad] = &EmitBatchNorm;
  (*table)[Opcode::kRng] = &EmitRng;
  (*table)[Opcode::kRngBitGenerator] = &EmitRngBitGenerator;
}

}  // namespace kiln::stablehlo
