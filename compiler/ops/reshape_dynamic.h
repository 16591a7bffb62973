// Which sizes a reshape of an operand with dynamic dimensions gives its
// result's dynamic dimensions. Shared by reshape's shape rule (which
// refuses what cannot be decided) and the evaluator's reshape kernel.
#ifndef KILN_COMPILER_OPS_RESHAPE_DYNAMIC_H_
#define KILN_COMPILER_OPS_RESHAPE_DYNAMIC_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/shape.h"

namespace kiln {

// For each dimension d of `out`: the dimension of `in` it passes through
// unchanged, or -1. A dynamic result dimension passes an operand dimension
// through when that one is dynamic too, has the same bound, and the
// dimensions before each (at their bounds) hold the same number of
// elements; it then takes that dimension's size.
std::vector<int64_t> ReshapePassThroughDimensions(const Shape& in,
                                                  const Shape& out);

// Whether a reshape of `in` to `out` has sizes for its dynamic result
// dimensions: `in` is static, or at most one dynamic dimension of `out`
// does not pass one of `in` through (that one's size makes the element
// count come out).
bool ReshapeDynamicSizesDecided(const Shape& in, const Shape& out);

// The words both the shape rule and the evaluator use to refuse the rest.
inline constexpr char kReshapeDynamicRefusal[] =
    "reshape of a dynamic operand to more than one dynamic dimension is "
    "not supported unless all but one pass a dynamic operand dimension "
    "through (same bound, same number of elements before it)";

}  // namespace kiln

#endif  // KILN_COMPILER_OPS_RESHAPE_DYNAMIC_H_
