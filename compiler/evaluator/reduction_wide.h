// reduce's accurate path for the float reductions it recognises: a
// combiner that is a single add (float and complex types) or multiply
// (float types) of its two parameters accumulates in a wider type and
// rounds once to the element type:
//
//   f32 and every narrower float: in double (f64's 53 bits hold each f32
//     sum or product to within 2^-53, far below f32's half ULP; the double
//     range holds every intermediate f32 would overflow on);
//   f64: compensated, Neumaier's summation for add and the FMA-based
//     compensated product for multiply (about twice f64's precision);
//   c64: each part in double; c128: each part compensated.
//
// The spec leaves the order of an associative reduction to the
// implementation; XLA's backends sum in trees and in vector lanes. The
// oracle is the most accurate party in every comparison instead: its
// result is the true value rounded (for sums of up to ~2^29 elements of
// f32 or narrower, exactly the correctly rounded sum unless the terms
// cancel to below 2^-53 of their magnitude). Every other reducer folds in
// the spec's sequential order (reduction_walk.h) in the element type.
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_WIDE_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_WIDE_H_

#include "absl/status/status.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/reduction_fast_path.h"
#include "compiler/evaluator/reduction_walk.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

// Whether reduce with a combiner of `op` on `type` takes the accurate path:
// add on float and complex types, multiply on float types.
bool AccumulatesWide(CombinerOp op, ElementType type);

// Folds `input` into `output` (pre-filled with the init value) along
// `walk` with `op` in the wide accumulator of the type, and rounds each
// output element once. The accumulators (8 to 32 bytes per output
// element) are allocated through `context` under its memory budget.
// AccumulatesWide(op, input's type) must hold.
absl::Status RunWideReduce(const Instruction& instruction, CombinerOp op,
                           const ReduceWalk& walk, const Literal& input,
                           Literal& output, EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_WIDE_H_
