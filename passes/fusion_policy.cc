#include "passes/fusion_policy.h"

#include <algorithm>

#include "passes/fusion_cost_model.h"

namespace kiln {

bool DefaultFusionPolicy::IsLoopFusible(const Instruction& instruction) const {
  if (!IsLoopFusibleOpcode(instruction.opcode())) return false;
  if (!instruction.shape().IsArray()) return false;
  if (instruction.opcode() == Opcode::kConstant) {
    return IsFusibleConstant(instruction, limits_);
  }
  return true;
}

bool DefaultFusionPolicy::AllowInputFusion(const Instruction& reduce) const {
  return input_fusion_ && reduce.opcode() == Opcode::kReduce;
}

bool DefaultFusionPolicy::AllowOutputFusion(const Instruction& dot) const {
  return output_fusion_ &&
         (dot.opcode() == Opcode::kDot || dot.opcode() == Opcode::kConvolution);
}

bool DefaultFusionPolicy::IsExpensive(const Instruction& producer) const {
  return IsExpensiveByDefault(producer, limits_);
}

FusionPolicyRegistry& FusionPolicyRegistry::Global() {
  static FusionPolicyRegistry* registry = new FusionPolicyRegistry();
  return *registry;
}

bool FusionPolicyRegistry::Register(std::string backend,
                                    FusionPolicyFactory factory) {
  for (const auto& [name, unused] : factories_) {
    if (name == backend) return false;
  }
  factories_.emplace_back(std::move(backend), std::move(factory));
  return true;
}

std::unique_ptr<FusionPolicy> FusionPolicyRegistry::Create(
    absl::string_view backend) const {
  for (const auto& [name, factory] : factories_) {
    if (name == backend) return factory();
  }
  return nullptr;
}

std::vector<std::string> FusionPolicyRegistry::Names() const {
  std::vector<std::string> names;
  names.reserve(factories_.size());
  for (const auto& [name, unused] : factories_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

const bool kDefaultPolicyRegistered [[maybe_unused]] =
    FusionPolicyRegistry::Global().Register("default", [] {
      return std::unique_ptr<FusionPolicy>(new DefaultFusionPolicy());
    });

}  // namespace

}  // namespace kiln
