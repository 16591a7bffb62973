// scatter-expander: lowers every scatter (any update computation, any
// number of operands, batching dims, out-of-bounds indices) to a `while`
// loop over its index vectors, for backends without a native scatter.
//
// Iteration i reads index vector i (indices flattened to s64[B,K]) and
// builds the full start index (index_map entries, the batch coordinate at
// input batching dims, 0 elsewhere). For each operand j it takes the
// current window (dynamic-slice of the window shape), combines it with
// update window i through the update computation applied elementwise
// (`map`; for N > 1 operands one wrapper per output that `call`s the
// computation and takes element j), keeps the current value at every
// position that no in-bounds update element reaches (`select` on a
// per-element mask), and writes the window back with dynamic-update-slice.
//
// Exact, as the evaluator defines scatter: updates are applied in
// row-major order of the index batch positions (repeated indices combine
// in that order, so non-commutative computations agree); each update
// element whose operand index (unclamped start + window position) is out
// of bounds is dropped and the rest of its window applies, as the spec
// says (XLA drops the whole window; docs/choices.md). dynamic-slice and
// dynamic-update-slice clamp the start so that the window fits, so in an
// indexed dim of window size > 1 the update window is realigned to the
// clamped window and masked (gather_simplification_util.h, PlaceWindow);
// in a dim of window size 1 the mask is 0 <= start < dim. The update
// computation is assumed pure (for N > 1 it runs once per output). A scatter
// with no update elements is replaced by its operands. Left alone: dynamic
// shapes and scatters inside fusion computations.
#ifndef KILN_PASSES_SCATTER_EXPANDER_H_
#define KILN_PASSES_SCATTER_EXPANDER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class ScatterExpanderPass : public Pass {
 public:
  absl::string_view name() const override { return "scatter-expander"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_SCATTER_EXPANDER_H_
