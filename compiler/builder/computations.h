// Standard scalar computations for the ops that call one: the combiners of
// Reduce and ReduceWindow (add, mul, max, min, and, or) and the comparators
// of Sort (lt, gt). They mirror XlaBuilder's CreateScalar*Computation.
//
// Each is built with a sub-builder of `parent`. If building fails (say, an
// And over f32, which the and rule rejects), the error is recorded in
// `parent`, as XlaBuilder does, so the op that uses the computation and
// parent->Build() report it; the computation returned then is a placeholder
// that must not be used for anything else.
//
//   XlaBuilder b("sum");
//   XlaOp x = Parameter(&b, 0, Shape::Array(ElementType::kF32, {4, 5}));
//   XlaOp zero = ConstantLiteral(&b, Literal::ScalarF32(0));
//   Reduce(x, zero, CreateScalarAddComputation(ElementType::kF32, &b), {1});
#ifndef KILN_COMPILER_BUILDER_COMPUTATIONS_H_
#define KILN_COMPILER_BUILDER_COMPUTATIONS_H_

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/ir/element_type.h"

namespace kiln {

// (T lhs, T rhs) -> T computations. For pred, Add is `or` and Mul is
// `and`, as in XlaBuilder (pred arithmetic is logical).
XlaComputation CreateScalarAddComputation(ElementType type, XlaBuilder* parent);
XlaComputation CreateScalarMultiplyComputation(ElementType type,
                                               XlaBuilder* parent);
XlaComputation CreateScalarMaxComputation(ElementType type, XlaBuilder* parent);
XlaComputation CreateScalarMinComputation(ElementType type, XlaBuilder* parent);
XlaComputation CreateScalarAndComputation(ElementType type, XlaBuilder* parent);
XlaComputation CreateScalarOrComputation(ElementType type, XlaBuilder* parent);

// Sort comparators: parameters p.i.lhs and p.i.rhs (numbers 2i and 2i+1)
// for each operand type i; the result compares the first pair only, so
// the other operands follow the first one's order. Lt sorts ascending, Gt
// descending. `operand_types` must not be empty.
XlaComputation CreateScalarLtComputation(
    absl::Span<const ElementType> operand_types, XlaBuilder* parent);
XlaComputation CreateScalarGtComputation(
    absl::Span<const ElementType> operand_types, XlaBuilder* parent);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_COMPUTATIONS_H_
