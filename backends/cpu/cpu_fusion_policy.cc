#include "backends/cpu/cpu_fusion_policy.h"

#include <memory>

#include "backends/cpu/loop_emitter.h"
#include "compiler/ir/opcode.h"

namespace kiln::cpu {
namespace {

FusionLimits CpuLimits() {
  FusionLimits limits;
  limits.max_instructions = 64;
  limits.max_operands = 32;
  return limits;
}

}  // namespace

CpuFusionPolicy::CpuFusionPolicy() : DefaultFusionPolicy("cpu", CpuLimits()) {
  set_output_fusion(false);
}

bool CpuFusionPolicy::IsLoopFusible(const Instruction& instruction) const {
  const bool fusible = instruction.opcode() == Opcode::kBitcast
                           ? instruction.shape().IsArray()
                           : DefaultFusionPolicy::IsLoopFusible(instruction);
  return fusible && CheckEmittable(instruction).ok();
}

namespace {

const bool kRegistered [[maybe_unused]] =
    FusionPolicyRegistry::Global().Register(
        "cpu", [] { return std::make_unique<CpuFusionPolicy>(); });

}  // namespace
}  // namespace kiln::cpu
