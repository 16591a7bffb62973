// The result dimensions of the n-ary elementwise ops (broadcasting.md):
// scalars broadcast anywhere; in client form a lower-rank operand is
// matched into the highest rank through broadcast_dimensions ("InDim"
// broadcasting) and equal-rank operands broadcast their size-1
// ("degenerate") dimensions. Strict form (XLA's HLO) accepts only operands
// of one shape, plus the scalars `scalar_ok` allows (clamp's min and max).
#ifndef KILN_COMPILER_OPS_BROADCAST_SHAPES_H_
#define KILN_COMPILER_OPS_BROADCAST_SHAPES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace ops_internal {

struct BroadcastOptions {
  // Operands (by index) whose shapes take part; all must be arrays.
  std::vector<int64_t> operands;
  // Strict form: operands allowed to be scalars among arrays.
  std::vector<int64_t> strict_scalar_ok;
};

// The broadcast result (element type of the first listed operand; callers
// replace it), or an error naming the broadcasting rule that is broken.
absl::StatusOr<Shape> BroadcastOperands(const Instruction& instruction,
                                        const BroadcastOptions& options,
                                        ShapeForm form);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_BROADCAST_SHAPES_H_
