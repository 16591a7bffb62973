// Shape rules of the dot family (dot, ragged-dot, scaled-dot); registered by
// convolution_dot.cc. Internal to compiler/ops/.
#ifndef KILN_COMPILER_OPS_DOT_SHAPES_H_
#define KILN_COMPILER_OPS_DOT_SHAPES_H_

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace ops_internal {

absl::StatusOr<Shape> DotShape(const Instruction& instruction, ShapeForm form);
absl::StatusOr<Shape> RaggedDotShape(const Instruction& instruction,
                                     ShapeForm form);
absl::StatusOr<Shape> ScaledDotShape(const Instruction& instruction,
                                     ShapeForm form);

// The result element type of a contraction (dot, convolution): the type the
// instruction declares (XLA's preferred_element_type), or the operands'
// common type when the instruction declares none.
absl::StatusOr<ElementType> ContractionResultType(
    const Instruction& instruction, const Shape& lhs, const Shape& rhs,
    absl::string_view spec_section);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_DOT_SHAPES_H_
