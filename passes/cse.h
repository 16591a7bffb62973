// cse: common-subexpression elimination within each computation, after
// XLA's HloCSE.
//
// Two instructions of one computation are merged (the later one's uses go
// to the earlier one, in post order, and the later one is removed) when
// they have the same opcode, the same operands in the same order (or, for
// the commutative ops below, the same two operands in either order) and
// are Instruction::IdenticalIgnoringOperands: same shape (layout included),
// attributes, literal, sharding, backend_config and frontend attributes.
// Called computations compare by identity (AttributeMap::Equals compares
// their module-unique names): two calls of distinct but structurally equal
// computations are not merged. Constants merge when their literals are
// equal bit for bit (0.0 and -0.0 stay apart, as do NaNs of different
// payloads), as do iotas, replica-id and partition-id.
//
// Never merged, as in XLA (HasSideEffect), plus what Kiln adds for safety:
//   - parameters and every other operand-less op but constant, iota,
//     replica-id and partition-id (after-all() makes a fresh token);
//   - instructions with a side effect (op_traits.h: HasOwnSideEffect: rng,
//     infeed/outfeed, send/recv, custom-call with side effect, collectives
//     with a channel id or constrain_layout, ...) or calling a computation
//     that has one, transitively;
//   - asynchronous pairs (the AsyncRole trait: async-*, copy-start/-done,
//     *-start/-done, send, recv and their -done): one start must keep
//     exactly one done;
//   - domain instructions, and constants in a computation with a domain
//     (constants would be shared across a domain boundary);
//   - instructions with control predecessors or successors, as the merged
//     copy or as the one kept: moving control edges may create a cycle.
//
// Commutative operand order (option, on by default; IsCommutativeFor in
// op_traits.h): add, multiply, and, or, xor for every element type, and
// maximum/minimum for integers and pred. maximum/minimum of floats are left out: the evaluator (like XLA's
// CPU backend) returns lhs on ties, so max(-0, +0) is -0 but max(+0, -0)
// is +0. For float add and multiply, swapping operands changes at most the
// payload of a NaN result (IEEE 754 does not fix which input NaN
// propagates), which Kiln's semantic check treats as equal.
//
// Linear time: one post-order walk per computation; each instruction is
// hashed once by (opcode, operands, shape, attributes, literal) and
// compared only with the instructions of its hash bucket.
#ifndef KILN_PASSES_CSE_H_
#define KILN_PASSES_CSE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

struct CseOptions {
  // Merge `add(a, b)` with `add(b, a)` (see the list above).
  bool canonicalize_commutative = true;
};

class CsePass : public Pass {
 public:
  CsePass() = default;
  explicit CsePass(CseOptions options) : options_(options) {}
  absl::string_view name() const override { return "cse"; }
  absl::StatusOr<bool> Run(Module& module) override;

 private:
  CseOptions options_;
};

}  // namespace kiln

#endif  // KILN_PASSES_CSE_H_
