#include "backends/gpu/gpu_fusion_policy.h"

#include <memory>

#include "backends/cpu/loop_emitter.h"
#include "compiler/ir/opcode.h"

namespace kiln::gpu {

GpuFusionPolicy::GpuFusionPolicy() : DefaultFusionPolicy("gpu") {
  set_output_fusion(false);
}

bool GpuFusionPolicy::IsLoopFusible(const Instruction& instruction) const {
  const bool fusible = instruction.opcode() == Opcode::kBitcast
                           ? instruction.shape().IsArray()
                           : DefaultFusionPolicy::IsLoopFusible(instruction);
  return fusible && cpu::CheckEmittable(instruction).ok();
}

namespace {

const bool kRegistered [[maybe_unused]] =
    FusionPolicyRegistry::Global().Register(
        "gpu", [] { return std::make_unique<GpuFusionPolicy>(); });

}  // namespace
}  // namespace kiln::gpu
