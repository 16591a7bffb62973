// The GPU backends' fusion policy, registered as "gpu" (the `gpu`
// pipeline's fusion pass asks for it by name; it replaces the provisional
// default policy passes/pipelines.cc used to register).
//
// Each fusion becomes one CUDA kernel written by the same loop emitter as
// the CPU backend's (backends/cpu/loop_emitter.h, KernelTarget::kCuda), so
// the policy asks the emitter, as the CPU one does: an instruction joins a
// loop fusion only when the emitter can lower it. On top of the default
// policy:
//   - bitcast fuses (an index map, no data movement);
//   - no output fusion: dot is a library call (cuBLAS, and the CPU
//     library under the emulation) and convolution a kernel of its own
//     (convolution_emitter.h), whose consumers get kernels of their own;
//   - the default (larger) limits: every fusion saves a launch and a round
//     trip of its intermediates through device memory.
#ifndef KILN_BACKENDS_GPU_GPU_FUSION_POLICY_H_
#define KILN_BACKENDS_GPU_GPU_FUSION_POLICY_H_

#include "compiler/ir/instruction.h"
#include "passes/fusion_policy.h"

namespace kiln::gpu {

class GpuFusionPolicy : public DefaultFusionPolicy {
 public:
  GpuFusionPolicy();
  bool IsLoopFusible(const Instruction& instruction) const override;
};

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_GPU_FUSION_POLICY_H_
