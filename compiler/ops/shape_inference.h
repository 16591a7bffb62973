// Shape inference: the result shape each op's spec section defines, with an
// error naming the instruction and the rule when the operands, attributes or
// called computations break it. Each op's rule lives in its family file
// (elementwise.cc, data_movement.cc, ...) next to its schema; this header is
// the single entry point.
#ifndef KILN_COMPILER_OPS_SHAPE_INFERENCE_H_
#define KILN_COMPILER_OPS_SHAPE_INFERENCE_H_

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"

namespace kiln {

// Client form accepts the implicit broadcasting of broadcasting.md on the
// elementwise n-ary ops (scalar, InDim via broadcast_dimensions={...},
// degenerate dimensions, composite). Strict form is exactly XLA's HLO.
enum class ShapeForm { kClient, kStrict };

// The shape `instruction` must have given its operands' shapes, its
// attributes and its called computations. Layouts of the result are the
// default ones (layout assignment is a pass). Errors read
// "<name>: <what is wrong> (<spec section>, <rule>)"; callers that know the
// instruction's source location prefix "file:line:col: error: ".
absl::StatusOr<Shape> InferShape(const Instruction& instruction,
                                 ShapeForm form = ShapeForm::kClient);

// True once the op's family file has given it a shape rule.
bool HasShapeRule(Opcode opcode);

}  // namespace kiln

#endif  // KILN_COMPILER_OPS_SHAPE_INFERENCE_H_
