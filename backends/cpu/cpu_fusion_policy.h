// The CPU backend's fusion policy, registered as "cpu" (the `cpu`
// pipeline's fusion pass asks for it by name, passes/pipelines.h).
//
// A fusion becomes one generated loop nest (loop_emitter.h), so the policy
// asks the emitter: an instruction joins a loop fusion only when the
// emitter can lower it (CheckEmittable). A fusion holding one instruction
// the emitter cannot lower would run whole on the evaluator; left out, only
// that instruction does. On top of the default policy (passes/
// fusion_policy.h):
//   - bitcast fuses (the emitter reads the operand at the element's
//     physical position), so a reshape that layout assignment turned into a
//     bitcast no longer splits a dynamic-slice from the add that consumes
//     it (a loop step's "x[i] + h @ w");
//   - no output fusion: dot and convolution are library calls (Eigen) whose
//     elementwise consumers get kernels of their own, as XLA's CPU backend
//     does;
//   - smaller fusions than the GPU's (64 instructions, 32 operands): a CPU
//     loop gains little from more work per element, and register pressure
//     grows with it.
#ifndef KILN_BACKENDS_CPU_CPU_FUSION_POLICY_H_
#define KILN_BACKENDS_CPU_CPU_FUSION_POLICY_H_

#include "compiler/ir/instruction.h"
#include "passes/fusion_policy.h"

namespace kiln::cpu {

class CpuFusionPolicy : public DefaultFusionPolicy {
 public:
  CpuFusionPolicy();
  bool IsLoopFusible(const Instruction& instruction) const override;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CPU_FUSION_POLICY_H_
