// scatter-simplification: rewrites trivial scatters into slicing ops and
// puts the others in XLA's canonical form.
//
// Trivial cases, tried in this order (each exact):
//  - no update element (empty updates) or an empty operand: the operands;
//  - one index vector held in a constant: its window is checked against the
//    operand at compile time; out of bounds, the scatter is its operands;
//    in bounds, the window is written at constant starts as below, with no
//    run-time check;
//  - one index vector: the update window (a reshape of the updates) is
//    written with `dynamic-update-slice`. A plain overwrite computation
//    (it returns its update parameters) writes the updates themselves;
//    any other computation is applied by `map` to the current window (a
//    `dynamic-slice`), through one wrapper computation per output when the
//    scatter has several operands. Scatter skips a window that does not
//    fit where dynamic-update-slice would clamp it, so unless the bounds
//    are known, the current window is kept by a `select` on the in-bounds
//    predicate (start >= 0 and start <= dim - window size in each indexed
//    dim; dynamic-slice and dynamic-update-slice clamp alike, so writing the
//    current window back changes nothing).
//
// Canonical form (as XLA's BatchedGatherScatterNormalizer and
// ScatterSimplifier leave a scatter): no batching dims (iota index entries
// plus inserted dims instead; a batching coordinate is always in bounds),
// indices s[B,K] with index_vector_dim=1, operands transposed so that
// scatter_dims_to_operand_dims is {0..K-1}, no inserted dims, updates
// [B, window...] with update_window_dims={1..rank}; the results are
// transposed back. The update order (row-major over the index batch) is
// unchanged, so even non-commutative computations with repeated indices
// agree.
//
// Left alone: dynamic shapes and scatters in fusion computations. The
// update computation is assumed pure (with several operands it runs once
// per output).
#ifndef KILN_PASSES_SCATTER_SIMPLIFICATION_H_
#define KILN_PASSES_SCATTER_SIMPLIFICATION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class ScatterSimplificationPass : public Pass {
 public:
  absl::string_view name() const override { return "scatter-simplification"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_SCATTER_SIMPLIFICATION_H_
