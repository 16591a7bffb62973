// scatter-simplification: rewrites trivial scatters into slicing ops and
// puts the others in XLA's canonical form.
//
// Trivial cases, tried in this order (each exact):
//  - no update element (empty updates) or an empty operand: the operands;
//  - one index vector held in a constant: its window is checked against the
//    operand at compile time, element by element (the spec's rule: an
//    update element whose operand index is out of bounds is dropped, the
//    rest of its window applies). Nothing inside: the scatter is its
//    operands; otherwise the part inside (a `slice` of the update window)
//    is written at constant starts as below, with no run-time check;
//  - one index vector: the update window (a reshape of the updates) is
//    written with `dynamic-update-slice`. A plain overwrite computation
//    (it returns its update parameters) writes the updates themselves;
//    any other computation is applied by `map` to the current window (a
//    `dynamic-slice`), through one wrapper computation per output when the
//    scatter has several operands. dynamic-slice and dynamic-update-slice
//    clamp the start so that the window fits, while scatter drops each
//    element outside the operand, so unless the index type keeps the start
//    in bounds: in an indexed dim of window size > 1 the updates are
//    realigned to the clamped window (concatenated three times, then a
//    `dynamic-slice` at size + clamped start - start) and an iota-based
//    mask marks the positions that receive an update element; in a dim of
//    window size 1 the mask is the scalar 0 <= start < dim. A `select` on
//    the mask keeps the current value elsewhere (gather_simplification_util.h,
//    PlaceWindow). XLA drops the whole window instead; Kiln follows the
//    spec (docs/choices.md).
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
