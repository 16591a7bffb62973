// Shape rules of gather and scatter, which share their dimension-number
// rules; registered by indexing.cc. Internal to compiler/ops/.
#ifndef KILN_COMPILER_OPS_GATHER_SCATTER_SHAPES_H_
#define KILN_COMPILER_OPS_GATHER_SCATTER_SHAPES_H_

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace ops_internal {

absl::StatusOr<Shape> GatherShape(const Instruction& instruction,
                                  ShapeForm form);
absl::StatusOr<Shape> ScatterShape(const Instruction& instruction,
                                   ShapeForm form);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_GATHER_SCATTER_SHAPES_H_
