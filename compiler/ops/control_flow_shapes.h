// Shape rules of the control-flow family (control_flow.cc registers them):
// the ops that call computations (call, conditional, while, fusion), the
// async wrappers, and the scheduling helpers. Internal to compiler/ops/.
#ifndef KILN_COMPILER_OPS_CONTROL_FLOW_SHAPES_H_
#define KILN_COMPILER_OPS_CONTROL_FLOW_SHAPES_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace ops_internal {

absl::StatusOr<Shape> AsyncStartShape(const Instruction& instruction,
                                      ShapeForm form);
absl::StatusOr<Shape> AsyncUpdateShape(const Instruction& instruction,
                                       ShapeForm form);
absl::StatusOr<Shape> AsyncDoneShape(const Instruction& instruction,
                                     ShapeForm form);

// The subshape of `shape` at tuple `index`, or nullptr when the index leaves
// the tuple structure.
const Shape* SubshapeAt(const Shape& shape, absl::Span<const int64_t> index);

// Checks output_to_operand_aliasing= (when present): each output index names
// a subshape of `result`, each operand exists and its index names a subshape
// compatible with the aliased output.
absl::Status CheckOutputOperandAliasing(const Instruction& instruction,
                                        const Shape& result,
                                        absl::string_view spec_section);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_CONTROL_FLOW_SHAPES_H_
