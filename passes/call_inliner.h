// call-inliner: replaces each `call` by a copy of the computation it calls,
// as XLA's CallInliner does before its backends' pipelines.
//
// A call is a boundary for every other pass: fusion, layout assignment and
// the simplifier work inside one computation, and a backend runs the
// callee as a program of its own (the CPU backend: its own arena, its
// result copied out). JAX emits a call for every `jax.jit` nested in
// another and for the body of each `fori_loop` step, so a loop body's
// elementwise tail cannot fuse with the slice of the loop's input it adds.
// Inlined, they are one computation.
//
// Each instruction of the callee is cloned just before the call (names
// made unique), parameters replaced by the call's operands, control edges
// between the callee's instructions copied; the call's users then use the
// clone of the callee's root. Computations are visited from the entry,
// callers first, and a copied call is inlined in turn, so a chain of calls
// costs the size of its result, not the square of its depth; computations
// reached only through inlined calls are left as they are. A call
// with control predecessors or successors is left alone (its ordering
// constraint has no single instruction to move to). Callees that no call
// uses any more are left to dce.
#ifndef KILN_PASSES_CALL_INLINER_H_
#define KILN_PASSES_CALL_INLINER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class CallInlinerPass : public Pass {
 public:
  absl::string_view name() const override { return "call-inliner"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_CALL_INLINER_H_
