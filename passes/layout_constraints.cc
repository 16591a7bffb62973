#include "passes/layout_constraints.h"

#include <algorithm>

#include "compiler/ir/attr_names.h"
#include "compiler/ir/opcode.h"
#include "passes/layout_assignment_util.h"

namespace kiln {

bool LayoutRequirement::empty() const {
  if (result.has_value()) return false;
  return std::none_of(
      operands.begin(), operands.end(),
      [](const std::optional<Layout>& l) { return l.has_value(); });
}

LayoutConstraintsRegistry& LayoutConstraintsRegistry::Global() {
  static LayoutConstraintsRegistry* registry = new LayoutConstraintsRegistry();
  return *registry;
}

bool LayoutConstraintsRegistry::Register(std::string name,
                                         LayoutConstraintsFactory factory) {
  for (const auto& entry : factories_) {
    if (entry.first == name) return false;
  }
  factories_.emplace_back(std::move(name), std::move(factory));
  return true;
}

std::unique_ptr<LayoutConstraints> LayoutConstraintsRegistry::Create(
    absl::string_view name) const {
  for (const auto& entry : factories_) {
    if (entry.first == name) return entry.second();
  }
  return nullptr;
}

std::vector<std::string> LayoutConstraintsRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& entry : factories_) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

// NHWC: batch most major, then the spatial dimensions in order, then the
// feature dimension most minor.
Layout ConvolutionInputNhwcLayout(const ConvolutionDimensionNumbers& dnums) {
  std::vector<int64_t> order = {dnums.input_batch_dimension};
  order.insert(order.end(), dnums.input_spatial_dimensions.begin(),
               dnums.input_spatial_dimensions.end());
  order.push_back(dnums.input_feature_dimension);
  return layout_util::FromMajorToMinor(std::move(order));
}

// HWIO: the spatial dimensions most major, then input feature, then output
// feature most minor.
Layout ConvolutionKernelHwioLayout(const ConvolutionDimensionNumbers& dnums) {
  std::vector<int64_t> order = dnums.kernel_spatial_dimensions;
  order.push_back(dnums.kernel_input_feature_dimension);
  order.push_back(dnums.kernel_output_feature_dimension);
  return layout_util::FromMajorToMinor(std::move(order));
}

Layout ConvolutionOutputNhwcLayout(const ConvolutionDimensionNumbers& dnums) {
  std::vector<int64_t> order = {dnums.output_batch_dimension};
  order.insert(order.end(), dnums.output_spatial_dimensions.begin(),
               dnums.output_spatial_dimensions.end());
  order.push_back(dnums.output_feature_dimension);
  return layout_util::FromMajorToMinor(std::move(order));
}

LayoutRequirement StandardLayoutConstraints::Requirement(
    const Instruction& instruction) const {
  LayoutRequirement requirement;
  if (instruction.opcode() == Opcode::kDot && rules_.dot_row_major &&
      instruction.shape().IsArray() && instruction.operand_count() == 2) {
    for (const Instruction* operand : instruction.operands()) {
      if (!operand->shape().IsArray()) return {};
      requirement.operands.push_back(Layout::Default(operand->shape().rank()));
    }
    requirement.result = Layout::Default(instruction.shape().rank());
    return requirement;
  }
  if (instruction.opcode() == Opcode::kConvolution && rules_.convolution_nhwc &&
      instruction.operand_count() == 2) {
    const auto* dnums =
        instruction.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
    if (dnums == nullptr) return {};
    requirement.operands.push_back(ConvolutionInputNhwcLayout(*dnums));
    requirement.operands.push_back(ConvolutionKernelHwioLayout(*dnums));
    requirement.result = ConvolutionOutputNhwcLayout(*dnums);
  }
  return requirement;
}

namespace {

std::unique_ptr<LayoutConstraints> MakeStandard(std::string name) {
  return std::make_unique<StandardLayoutConstraints>(std::move(name),
                                                     StandardLayoutRules());
}

}  // namespace

KILN_REGISTER_LAYOUT_CONSTRAINTS(cpu, "cpu",
                                 [] { return MakeStandard("cpu"); });
KILN_REGISTER_LAYOUT_CONSTRAINTS(gpu, "gpu",
                                 [] { return MakeStandard("gpu"); });

}  // namespace kiln
