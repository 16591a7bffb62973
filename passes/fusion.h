// fusion: groups producers and consumers into XLA-format `fusion`
// instructions, each calling a fused computation with parameters
// param_0..param_N:
//   - loop fusion (kind=kLoop) of elementwise ops with broadcast, reshape,
//     transpose, slice, pad, concatenate, iota, convert, dynamic-slice,
//     reverse and small constants;
//   - input fusion (kind=kInput): a reduce with its loop-fusible producers;
//   - output fusion (kind=kOutput): a dot or convolution with the
//     elementwise consumers of its result;
//   - sibling fusion: fusions (or single fusible ops) reading the same
//     operand become one multi-output fusion with a tuple root, its users
//     reading get-tuple-element.
// What may fuse and the size limits come from a FusionPolicy
// (fusion_policy.h); the cost model is fusion_cost_model.h and
// docs/passes.md ("Fusion cost model"). The planning is fusion_plan.h.
//
// Never fused: side-effecting ops, collectives, custom-calls, while,
// conditional, call, sort, ... (anything the policy does not list), ops
// with dynamic shapes, and non-root instructions with control
// dependencies (a fusion's root hands its control dependencies to the
// fusion). Only the entry computation and computations called by while,
// conditional and call are fused; fused computations and reducers are left
// alone, and nothing crosses computations. Exact: the fused computation
// computes the same values, and the evaluator runs it.
#ifndef KILN_PASSES_FUSION_H_
#define KILN_PASSES_FUSION_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "passes/fusion_policy.h"

namespace kiln {

class FusionPass : public Pass {
 public:
  // The policy registered as "default" (a DefaultFusionPolicy).
  FusionPass();
  explicit FusionPass(std::unique_ptr<FusionPolicy> policy);

  absl::string_view name() const override { return "fusion"; }
  absl::StatusOr<bool> Run(Module& module) override;

  const FusionPolicy& policy() const { return *policy_; }

 private:
  std::unique_ptr<FusionPolicy> policy_;
};

// The fusion pass under `policy` (for backend pipelines).
std::unique_ptr<Pass> MakeFusionPass(std::unique_ptr<FusionPolicy> policy);

// The fusion pass under the policy registered for `backend`; an error
// naming the backend and the registered ones when there is none.
absl::StatusOr<std::unique_ptr<Pass>> MakeFusionPassForBackend(
    absl::string_view backend);

}  // namespace kiln

#endif  // KILN_PASSES_FUSION_H_
