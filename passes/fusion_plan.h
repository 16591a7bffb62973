// Planning of the fusion pass: which instructions of one computation go
// into which fusion. The plan is computed without touching the IR;
// fusion.cc then builds the fused computations from it.
//
// Producer-consumer fusion visits instructions consumers first (reverse
// post order), so every user of a producer is decided before the producer:
//   - A producer all of whose users sit in one fusion moves into it.
//   - A cheap producer (FusionPolicy::IsExpensive false) whose users sit in
//     several fusions, or also outside any, is copied into each fusion that
//     accepts it; it stays in place only if some user still needs it.
//     Such copies are not copied again: a producer read by a copied
//     instruction is not duplicated (unless it has no operands, like a
//     constant), so duplication never chains and the fused output stays
//     proportional to the input.
//   - An expensive producer is never duplicated, nor fused below a
//     consumer that reads its elements several times (a broadcast).
//   - A producer kept in place starts its own fusion when it can be a root:
//     a loop-fusible op (kLoop) or a reduce (kInput). A dot or convolution
//     whose only consumers are in one loop fusion joins it (kOutput);
//     producers feeding the dot itself then stay outside.
// Every join respects FusionLimits (instruction count, operands + outputs).
// Because a producer joins only fusions of its already-visited users, data
// never leaves a fusion and re-enters it: no cycles.
//
// Sibling fusion then merges fusions (single ops included) that read the
// same non-scalar operand and iterate over the same shape (a loop root's
// dimensions, or a reduce's input dimensions) into one multi-output fusion,
// when the limits allow and the merge cannot create a cycle: the planner
// keeps a topological order of the graph after fusion (a key per node) and
// merges only when the merged fusion fits between everything it reads and
// everything reading it. No reachability search, so this stays linear.
#ifndef KILN_PASSES_FUSION_PLAN_H_
#define KILN_PASSES_FUSION_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ops/attr_enums.h"
#include "passes/fusion_policy.h"

namespace kiln {

// One fusion to build.
struct PlannedFusion {
  FusionKind kind = FusionKind::kLoop;
  // The outputs in program order; more than one makes a multi-output
  // fusion (tuple root, users read get-tuple-element).
  std::vector<Instruction*> roots;
  // Every instruction to clone into the fused computation (roots included),
  // operands before users.
  std::vector<Instruction*> members;
  // Parallel to members: whether the member leaves the computation into
  // this fusion (it is removed, not a root, and this is the last fusion
  // holding it), so it is moved rather than cloned. Every other member is
  // cloned: roots (their users are rewired later) and producers that stay
  // in place or whose move goes to a later fusion.
  std::vector<bool> moved;
  // What the members read from outside, in program order: the fusion's
  // operands, param_0..param_N of the fused computation.
  std::vector<Instruction*> inputs;
};

struct FusionPlan {
  // In program order of their last root.
  std::vector<PlannedFusion> fusions;
  // Instructions to remove once the fusions replace them: the roots, and
  // the producers fused into every user (those moved into a fusion
  // included). Users before operands.
  std::vector<Instruction*> removed;
};

// Plans the fusions of `computation` (one not called by a fusion or as a
// reducer) under `policy`. Errors only for a cyclic computation.
absl::StatusOr<FusionPlan> PlanFusion(const Computation& computation,
                                      const FusionPolicy& policy);

}  // namespace kiln

#endif  // KILN_PASSES_FUSION_PLAN_H_
