// Builder functions for the ops that call computations or order execution
// (operation_semantics.md: While, Conditional, Call, OptimizationBarrier,
// AfterAll, AddDependency), in XlaBuilder's style. The called computations'
// signatures are checked by the ops' shape rules when the op is added;
// errors are deferred (builder.h).
#ifndef KILN_COMPILER_BUILDER_CONTROL_FLOW_H_
#define KILN_COMPILER_BUILDER_CONTROL_FLOW_H_

#include "absl/types/span.h"
#include "compiler/builder/builder.h"

namespace kiln {

// while(init), condition: T -> pred[], body: T -> T.
XlaOp While(const XlaComputation& condition, const XlaComputation& body,
            XlaOp init);

// conditional(predicate, true_operand, false_operand) with a pred[]
// predicate; true_computation: T_0 -> S, false_computation: T_1 -> S.
XlaOp Conditional(XlaOp predicate, XlaOp true_operand,
                  const XlaComputation& true_computation, XlaOp false_operand,
                  const XlaComputation& false_computation);

// conditional(branch_index, branch_operands...) with an s32[] index;
// branch_computations[b]: T_b -> S. A pred[] index takes two branches,
// true's first as in XLA, and is built (and printed) as the form above.
XlaOp Conditional(XlaOp branch_index,
                  absl::Span<const XlaComputation* const> branch_computations,
                  absl::Span<const XlaOp> branch_operands);

// call(operands...), to_apply=computation. `operands` may be empty, hence
// the builder argument.
XlaOp Call(XlaBuilder* builder, const XlaComputation& computation,
           absl::Span<const XlaOp> operands);

// opt-barrier(operand): a tuple passed through unchanged, which passes may
// not move computation across.
XlaOp OptimizationBarrier(XlaOp operand);

// after-all(tokens...): a token ordered after every token in `tokens`;
// with none, a fresh token (XlaBuilder's CreateToken).
XlaOp AfterAll(XlaBuilder* builder, absl::Span<const XlaOp> tokens);

// add-dependency(operand, token): `operand`, ordered after `token`.
XlaOp AddDependency(XlaOp operand, XlaOp token);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_CONTROL_FLOW_H_
