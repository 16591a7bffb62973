// The control-flow family's kernels that live outside
// control_flow_kernels.cc; RegisterControlFlowKernels puts them in the table.
#ifndef KILN_COMPILER_EVALUATOR_CONTROL_FLOW_INTERNAL_H_
#define KILN_COMPILER_EVALUATOR_CONTROL_FLOW_INTERNAL_H_

#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// control_flow_async.cc
absl::StatusOr<Literal> AsyncStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);
absl::StatusOr<Literal> AsyncUpdateKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);
absl::StatusOr<Literal> AsyncDoneKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_CONTROL_FLOW_INTERNAL_H_
