// reduce-window with a known monoid as its reducer (add, multiply, maximum,
// minimum, and, or of its two parameters), at a cost independent of how
// much the windows overlap. docs/evaluator_reduction_control.md describes
// the algorithm: per window dimension, van Herk/Gil-Werman block prefix and
// suffix scans over the padded, dilated line (holes and padding taking the
// monoid's identity), then per result element
//   init (+) (the window's elements) (+) init^(its padding cells)
// where (+) is the reducer. Float add accumulates in f64 (f32 and narrower)
// or in double-double (f64) and rounds once; float multiply in f64.
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_WINDOW_MONOID_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_WINDOW_MONOID_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

enum class MonoidOp { kAdd, kMultiply, kMaximum, kMinimum, kAnd, kOr };

// The op of `computation` when it is exactly
//   p0 = T[] parameter(0), p1 = T[] parameter(1), ROOT r = T[] op(p0, p1)
// (or op(p1, p0)) with no other instruction or attribute, and the monoid
// path covers op on `type`: every float type for add, multiply, maximum
// and minimum; every integer type for all six; pred for all six (add and
// maximum are or, multiply and minimum are and). nullopt otherwise.
std::optional<MonoidOp> RecognizeMonoid(const Computation& computation,
                                        ElementType type);

// Computes the reduce-window of `input` (dimensions `input_dims`) with
// `window` (validated: sizes, strides and dilations >= 1, one entry per
// dimension) and scalar `init` into `output` (dimensions `out_dims`, the
// shape rule's). False, with `output` untouched, when the window's cell
// count overflows int64 or the temporaries would pass 2^27 elements of up
// to 16 bytes (the caller takes its general path).
bool MonoidReduceWindow(MonoidOp op, const Window& window,
                        const std::vector<int64_t>& out_dims,
                        const Literal& input, const Literal& init,
                        Literal& output);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_WINDOW_MONOID_H_
