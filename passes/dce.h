// dce: removes instructions whose value nobody uses and computations nobody
// calls, as XLA's HloDCE does.
//
// An instruction is removed when it has no users, is not its computation's
// ROOT, is not a parameter, has no control successors (it orders something
// that stays) and has no side effect. Removal cascades to operands that
// become unused. Side effects are HasOwnSideEffect (compiler/ir/op_traits.h,
// the SideEffect trait of each opcode, XLA's HloInstruction::HasSideEffect):
//   - always: send, send-done, recv, recv-done, infeed, outfeed, rng,
//     rng-get-and-update-state, collective-broadcast, all-reduce-start/-done,
//     all-gather-start/-done, collective-permute-start/-done;
//   - custom-call with custom_call_has_side_effect=true;
//   - all-reduce, all-gather, all-to-all, reduce-scatter with
//     constrain_layout=true, and those and collective-permute with a
//     channel_id (Kiln modules are not SPMD-partitioned in XLA's sense, so
//     XLA's use_spmd_partitioning exception never applies);
//   - any instruction calling a computation that has a side effect
//     (while, call, conditional, async-start, fusion, ...), transitively.
// after-all, rng-bit-generator, iota and everything else are pure. Then
// computations not reachable from the entry are removed.
//
// Linear in module size: one post-order sweep over the called computations
// decides side effects (memoized per computation), then a worklist per
// computation.
#ifndef KILN_PASSES_DCE_H_
#define KILN_PASSES_DCE_H_

#include <functional>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/ir/op_traits.h"  // HasOwnSideEffect
#include "compiler/pass/pass.h"

namespace kiln {

class DcePass : public Pass {
 public:
  absl::string_view name() const override { return "dce"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

// The called computations in which some instruction satisfies `own`, or
// calls a computation that does (transitively). Only computations some
// instruction calls are decided (a caller asks about its callees; the
// entry's answer matters to nobody), callees first in one sweep. Error
// when the call graph has recursion. dce, cse and constant-folding ask it
// for side effects and for ops that cannot be folded.
absl::StatusOr<absl::flat_hash_set<const Computation*>>
CalledComputationsContaining(
    const Module& module, const std::function<bool(const Instruction&)>& own);

// CalledComputationsContaining(module, HasOwnSideEffect).
absl::StatusOr<absl::flat_hash_set<const Computation*>>
CalledComputationsWithSideEffects(const Module& module);

}  // namespace kiln

#endif  // KILN_PASSES_DCE_H_
