// gather-expander: lowers every gather to a `while` loop over its index
// vectors, for backends without a native gather.
//
// Each iteration reads one index vector (a dynamic-slice of the indices,
// flattened to s64[B,K]), builds the full start index (index vector through
// start_index_map, the batch coordinate at operand batching dims, 0
// elsewhere), takes a dynamic-slice of slice_sizes from the operand and
// writes it into row i of an accumulator [B, window sizes...] with a
// dynamic-update-slice. A reshape and a transpose put the accumulator in
// the result's dimension order.
//
// Exact: dynamic-slice clamps each start into [0, dim - size], which is
// gather's out-of-bounds rule; u64 indices above INT64_MAX saturate as the
// evaluator reads them. A gather with an empty result becomes a broadcast
// zero. Left alone: dynamic shapes, gathers in fusion computations, and a
// non-empty gather with a zero slice size on a collapsed dimension (which
// has no value to compute).
#ifndef KILN_PASSES_GATHER_EXPANDER_H_
#define KILN_PASSES_GATHER_EXPANDER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class GatherExpanderPass : public Pass {
 public:
  absl::string_view name() const override { return "gather-expander"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_GATHER_EXPANDER_H_
