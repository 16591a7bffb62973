// gather-simplification: rewrites trivial gathers into slicing ops and puts
// the others in XLA's canonical form.
//
// Trivial cases, tried in this order (each exact):
//  - an empty result: a broadcast zero;
//  - one index vector held in a constant: a `slice` at the start gather
//    would use (clamped into [0, dim - slice size] at compile time), then a
//    reshape; up to 16 constant index vectors: one such slice each, joined
//    by a `concatenate`, then reshape and transpose;
//  - no batching dims and every indexed dim sliced whole (slice size =
//    operand dim, including an empty index vector): clamping forces start
//    0, so the value does not depend on the indices: slice, reshape and a
//    `broadcast` over the batch dims;
//  - one index vector (the index batch has one element): a `dynamic-slice`
//    plus a reshape. dynamic-slice clamps each start into [0, dim - size]
//    exactly as gather does (any integer index type, u64 included).
//
// Canonical form (as XLA's BatchedGatherScatterNormalizer and
// GatherSimplifier leave a gather): no batching dims (each becomes an iota
// appended to the index vectors plus a collapsed dim in start_index_map,
// exact because a batching coordinate is always in bounds), indices s[B,K]
// with index_vector_dim=1 (index vector dim moved last or made explicit,
// batch dims flattened row-major), the operand transposed so that
// start_index_map is {0..K-1}, no collapsed dims and offset_dims={1..rank}.
// A reshape (dropping the collapsed size-1 dims, unflattening the batch)
// and a transpose (offset dims back in place) give the original result.
//
// Left alone: dynamic shapes, gathers in fusion computations, and zero
// slice sizes on collapsed dims with a non-empty result.
#ifndef KILN_PASSES_GATHER_SIMPLIFICATION_H_
#define KILN_PASSES_GATHER_SIMPLIFICATION_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

class GatherSimplificationPass : public Pass {
 public:
  absl::string_view name() const override { return "gather-simplification"; }
  absl::StatusOr<bool> Run(Module& module) override;
};

}  // namespace kiln

#endif  // KILN_PASSES_GATHER_SIMPLIFICATION_H_
