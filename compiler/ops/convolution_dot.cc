// Contractions: convolution, dot, ragged-dot, scaled-dot; and fft.
// Schemas, and the convolution and fft shape rules (the dot family's are in
// dot_shapes.cc).
#include <optional>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/attr_enums.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/dot_shapes.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

namespace {

constexpr absl::string_view kConv =
    "operation_semantics.md, ConvGeneralDilated";
constexpr absl::string_view kFftSection = "operation_semantics.md, Fft";

// The dims one side of dim_labels names: its two non-spatial dims then its
// spatial dims. All in range of `rank`, none twice, and rank covered.
absl::Status CheckLabels(const Instruction& instruction, absl::string_view side,
                         int64_t first, int64_t second,
                         const std::vector<int64_t>& spatial, int64_t rank) {
  std::vector<int64_t> all = {first, second};
  all.insert(all.end(), spatial.begin(), spatial.end());
  if (static_cast<int64_t>(all.size()) != rank) {
    return RuleError(instruction,
                     absl::StrCat("dim_labels name ", all.size(), " ", side,
                                  " dimensions but ", side, " has rank ", rank),
                     kConv);
  }
  return CheckDimsPermutation(instruction, absl::StrCat("dim_labels ", side),
                              all, rank, kConv);
}

absl::Status CheckAllLabels(const Instruction& instruction,
                            const ConvolutionDimensionNumbers& dn,
                            const Shape& lhs, const Shape& rhs) {
  const size_t spatial = dn.input_spatial_dimensions.size();
  if (dn.kernel_spatial_dimensions.size() != spatial ||
      dn.output_spatial_dimensions.size() != spatial) {
    return RuleError(instruction,
                     "dim_labels give input, kernel and output different "
                     "numbers of spatial dimensions",
                     kConv);
  }
  absl::Status ok = CheckLabels(instruction, "input", dn.input_batch_dimension,
                                dn.input_feature_dimension,
                                dn.input_spatial_dimensions, lhs.rank());
  if (ok.ok()) {
    ok = CheckLabels(instruction, "kernel", dn.kernel_input_feature_dimension,
                     dn.kernel_output_feature_dimension,
                     dn.kernel_spatial_dimensions, rhs.rank());
  }
  if (ok.ok()) {
    ok = CheckLabels(instruction, "output", dn.output_batch_dimension,
                     dn.output_feature_dimension, dn.output_spatial_dimensions,
                     lhs.rank());
  }
  return ok;
}

// Dynamic dimensions Kiln (like XLA's dynamic dimension inference,
// HandleConvolution) can carry: the input batch, and the contracted input
// and kernel input features. Dynamic spatial dimensions and a dynamic
// kernel output feature are refused, as XLA refuses them.
absl::Status CheckDynamicDims(const Instruction& instruction,
                              const ConvolutionDimensionNumbers& dn,
                              const Shape& lhs, const Shape& rhs) {
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (lhs.is_dynamic_dimension(d) && d != dn.input_batch_dimension &&
        d != dn.input_feature_dimension) {
      return RuleError(instruction,
                       absl::StrCat("lhs ", ShapeText(lhs),
                                    " has a dynamic spatial "
                                    "dimension ",
                                    d,
                                    "; only the batch and the input "
                                    "feature may be dynamic"),
                       kConv);
    }
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (rhs.is_dynamic_dimension(d) && d != dn.kernel_input_feature_dimension) {
      return RuleError(
          instruction,
          absl::StrCat("rhs ", ShapeText(rhs), " has a dynamic dimension ", d,
                       "; only the kernel's input feature may be dynamic"),
          kConv);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> GroupCount(const Instruction& instruction,
                                   absl::string_view name) {
  const int64_t* value = instruction.attrs().Get<int64_t>(name);
  const int64_t count = value == nullptr ? 1 : *value;
  if (count < 1) {
    return RuleError(instruction,
                     absl::StrCat(name, "=", count, " must be >= 1"), kConv);
  }
  return count;
}

// "<what> (<a>) must be divisible by <name> (<b>)".
absl::Status CheckDivides(const Instruction& instruction,
                          absl::string_view what, int64_t size,
                          absl::string_view name, int64_t count) {
  if (size % count == 0) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat(what, " (", size, ") must be divisible by ",
                                name, " (", count, ")"),
                   kConv);
}

// feature_group_count and batch_group_count rules on the feature and batch
// sizes.
absl::Status CheckGroups(const Instruction& instruction,
                         const ConvolutionDimensionNumbers& dn,
                         const Shape& lhs, const Shape& rhs,
                         int64_t feature_groups, int64_t batch_groups) {
  if (feature_groups > 1 && batch_groups > 1) {
    return RuleError(instruction,
                     "feature_group_count and batch_group_count cannot both "
                     "be > 1",
                     kConv);
  }
  const int64_t input_features = lhs.dimension(dn.input_feature_dimension);
  const int64_t kernel_inputs =
      rhs.dimension(dn.kernel_input_feature_dimension);
  const int64_t kernel_outputs =
      rhs.dimension(dn.kernel_output_feature_dimension);
  absl::Status ok =
      CheckDivides(instruction, "input feature size", input_features,
                   "feature_group_count", feature_groups);
  if (ok.ok()) {
    ok = CheckDivides(instruction, "kernel output feature size", kernel_outputs,
                      "feature_group_count", feature_groups);
  }
  if (ok.ok()) {
    ok = CheckDivides(instruction, "input batch size",
                      lhs.dimension(dn.input_batch_dimension),
                      "batch_group_count", batch_groups);
  }
  if (ok.ok()) {
    ok = CheckDivides(instruction, "kernel output feature size", kernel_outputs,
                      "batch_group_count", batch_groups);
  }
  if (!ok.ok()) return ok;
  if (input_features / feature_groups != kernel_inputs) {
    return RuleError(
        instruction,
        absl::StrCat("kernel input feature size ", kernel_inputs,
                     " must equal input feature size ", input_features,
                     " / feature_group_count ", feature_groups),
        kConv);
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> ConvolutionShape(const Instruction& instruction,
                                       ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> lhs_or = ArrayOperand(instruction, 0, kConv);
  if (!lhs_or.ok()) return lhs_or.status();
  absl::StatusOr<const Shape*> rhs_or = ArrayOperand(instruction, 1, kConv);
  if (!rhs_or.ok()) return rhs_or.status();
  const Shape& lhs = **lhs_or;
  const Shape& rhs = **rhs_or;
  const auto* dn =
      instruction.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  if (dn == nullptr) {
    return RuleError(instruction, "missing dim_labels=", kConv);
  }
  absl::Status ok = CheckAllLabels(instruction, *dn, lhs, rhs);
  if (ok.ok()) ok = CheckDynamicDims(instruction, *dn, lhs, rhs);
  if (!ok.ok()) return ok;
  absl::StatusOr<int64_t> feature_groups =
      GroupCount(instruction, attr::kFeatureGroupCount);
  if (!feature_groups.ok()) return feature_groups.status();
  absl::StatusOr<int64_t> batch_groups =
      GroupCount(instruction, attr::kBatchGroupCount);
  if (!batch_groups.ok()) return batch_groups.status();
  ok = CheckGroups(instruction, *dn, lhs, rhs, *feature_groups, *batch_groups);
  if (!ok.ok()) return ok;
  const int64_t spatial = dn->input_spatial_dimensions.size();
  absl::StatusOr<Window> window = WindowAttr(instruction, spatial, kConv);
  if (!window.ok()) return window.status();
  std::vector<int64_t> dims(lhs.rank());
  std::vector<bool> dynamic(lhs.rank(), false);
  // A dynamic batch passes to the output batch (XLA's dynamic dimension
  // inference, HandleConvolution); dynamic features are contracted.
  dynamic[dn->output_batch_dimension] =
      lhs.is_dynamic_dimension(dn->input_batch_dimension);
  if (dynamic[dn->output_batch_dimension] && *batch_groups != 1) {
    return RuleError(instruction,
                     "a dynamic batch dimension needs batch_group_count=1",
                     kConv);
  }
  for (int64_t i = 0; i < spatial; ++i) {
    const WindowDimension& wd = window->dimensions[i];
    const int64_t kernel_size = rhs.dimension(dn->kernel_spatial_dimensions[i]);
    if (wd.size != kernel_size) {
      return RuleError(
          instruction,
          absl::StrCat("window size ", wd.size, " of spatial dimension ", i,
                       " differs from the kernel's size ", kernel_size),
          kConv);
    }
    absl::StatusOr<int64_t> size = WindowedSize(
        instruction, lhs.dimension(dn->input_spatial_dimensions[i]), wd, i,
        kConv);
    if (!size.ok()) return size.status();
    dims[dn->output_spatial_dimensions[i]] = *size;
  }
  dims[dn->output_batch_dimension] =
      lhs.dimension(dn->input_batch_dimension) / *batch_groups;
  dims[dn->output_feature_dimension] =
      rhs.dimension(dn->kernel_output_feature_dimension);
  absl::StatusOr<ElementType> type =
      ContractionResultType(instruction, lhs, rhs, kConv);
  if (!type.ok()) return type.status();
  return ArrayResult(*type, std::move(dims), std::move(dynamic));
}

// The complex type of real `type` (f32 -> c64, f64 -> c128) and back.
std::optional<ElementType> ComplexOf(ElementType type) {
  if (type == ElementType::kF32) return ElementType::kC64;
  if (type == ElementType::kF64) return ElementType::kC128;
  return std::nullopt;
}
std::optional<ElementType> RealOf(ElementType type) {
  if (type == ElementType::kC64) return ElementType::kF32;
  if (type == ElementType::kC128) return ElementType::kF64;
  return std::nullopt;
}

// The last fft_length.size() dims of `operand` must equal fft_length, except
// the innermost, which must equal `innermost`.
absl::Status CheckFftDims(const Instruction& instruction, const Shape& operand,
                          const std::vector<int64_t>& lengths,
                          int64_t innermost) {
  const int64_t offset = operand.rank() - lengths.size();
  for (size_t i = 0; i < lengths.size(); ++i) {
    const int64_t expected = i + 1 == lengths.size() ? innermost : lengths[i];
    if (operand.dimension(offset + i) != expected) {
      return RuleError(
          instruction,
          absl::StrCat("operand dimension ", offset + i, " is ",
                       operand.dimension(offset + i), ", expected ", expected,
                       " for fft_length=", DimsToString(lengths)),
          kFftSection);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> FftShape(const Instruction& instruction,
                               ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> operand_or =
      ArrayOperand(instruction, 0, kFftSection);
  if (!operand_or.ok()) return operand_or.status();
  const Shape& operand = **operand_or;
  absl::StatusOr<const std::vector<int64_t>*> lengths_or =
      RequiredInt64ListAttr(instruction, attr::kFftLength, kFftSection);
  if (!lengths_or.ok()) return lengths_or.status();
  const std::vector<int64_t>& lengths = **lengths_or;
  const int64_t count = lengths.size();
  if (count < 1 || count > 3 || count > operand.rank()) {
    return RuleError(instruction,
                     absl::StrCat("fft_length=", DimsToString(lengths),
                                  " must have 1 to 3 entries and at most the "
                                  "operand's rank ",
                                  operand.rank()),
                     kFftSection);
  }
  if (absl::c_any_of(lengths, [](int64_t n) { return n < 0; })) {
    return RuleError(instruction, "fft_length entries must be >= 0",
                     kFftSection);
  }
  const EnumValue* spelling =
      instruction.attrs().Get<EnumValue>(attr::kFftType);
  const std::optional<FftType> fft_type =
      spelling == nullptr ? std::nullopt : ParseFftType(spelling->spelling);
  if (!fft_type.has_value()) {
    return RuleError(instruction, "missing or unknown fft_type=", kFftSection);
  }
  const bool real_input = *fft_type == FftType::kRfft;
  const std::optional<ElementType> converted =
      real_input ? ComplexOf(operand.element_type())
                 : RealOf(operand.element_type());
  if (!converted.has_value()) {
    return RuleError(instruction,
                     absl::StrCat(spelling->spelling, " takes ",
                                  real_input ? "f32 or f64" : "c64 or c128",
                                  ", got ", ShapeText(operand)),
                     kFftSection);
  }
  const int64_t last = lengths.back();
  const int64_t half = last == 0 ? 0 : last / 2 + 1;
  const bool irfft = *fft_type == FftType::kIrfft;
  absl::Status ok =
      CheckFftDims(instruction, operand, lengths, irfft ? half : last);
  if (!ok.ok()) return ok;
  std::vector<int64_t> dims = operand.dimensions();
  ElementType type = operand.element_type();
  if (real_input) {
    dims.back() = half;
    type = *converted;
  } else if (irfft) {
    dims.back() = last;
    type = *converted;
  }
  return ArrayResult(type, std::move(dims), operand.dynamic_dimensions());
}

}  // namespace

void RegisterConvolutionDotSchemas(SchemaTable* table) {
  Define(table, Opcode::kConvolution, 2, 2,
         Concat({Optional("window", AttrKind::kWindow),
                 Required("dim_labels", AttrKind::kConvDimLabels),
                 Optional("feature_group_count", AttrKind::kInt64),
                 Optional("batch_group_count", AttrKind::kInt64)},
                PrecisionConfigAttrs()));
  // Operands: lhs, rhs, then up to two sparsity metadata arrays described
  // by `sparsity=L.1@2:4` (kept verbatim).
  Define(table, Opcode::kDot, 2, 4,
         Concat(Concat(DotDimensionAttrs(), PrecisionConfigAttrs()),
                {Optional("sparsity", AttrKind::kRawText)}));
  // Operands: lhs, rhs, group_sizes.
  Define(table, Opcode::kRaggedDot, 3, 3,
         Concat(Concat(DotDimensionAttrs(),
                       {Optional("lhs_ragged_dims", AttrKind::kInt64List),
                        Optional("rhs_group_dims", AttrKind::kInt64List)}),
                PrecisionConfigAttrs()));
  // Operands: lhs, rhs, lhs_scale, rhs_scale (newer XLA may append two
  // global scales).
  Define(table, Opcode::kScaledDot, 4, 6,
         Concat(DotDimensionAttrs(), PrecisionConfigAttrs()));
  Define(table, Opcode::kFft, 1, 1,
         {Enum("fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"},
               /*required=*/true),
          Required("fft_length", AttrKind::kInt64List)});
  SetShapeRule(table, Opcode::kConvolution, ConvolutionShape);
  SetShapeRule(table, Opcode::kDot, DotShape);
  SetShapeRule(table, Opcode::kRaggedDot, RaggedDotShape);
  SetShapeRule(table, Opcode::kScaledDot, ScaledDotShape);
  SetShapeRule(table, Opcode::kFft, FftShape);
}

}  // namespace ops_internal
}  // namespace kiln
