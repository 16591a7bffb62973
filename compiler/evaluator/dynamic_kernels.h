// Dynamic sizes through the ops that neither compute on plain valid
// elements (RunOnValidElements, data_movement_dynamic.h) nor keep the
// padding in place: dot, convolution, gather, scatter, select-and-scatter
// and the collectives. Each follows XLA's dynamic dimension inference for
// the result's sizes and its dynamic padder for what the padding may do;
// docs/evaluator_dynamic.md gives every decision.
//
// Register `&WithDynamicSizes<Kernel, Runner>`: operands without dynamic
// sizes go straight to the kernel, at the cost of one check per operand.
#ifndef KILN_COMPILER_EVALUATOR_DYNAMIC_KERNELS_H_
#define KILN_COMPILER_EVALUATOR_DYNAMIC_KERNELS_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

// Runs `kernel` for an instruction some of whose operands have sizes.
using DynamicRunner = absl::StatusOr<Literal> (*)(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// dot: the operands' padding is zero, the identity of the sum, so a
// contracted dimension sums only its valid elements; batch and free
// dimensions keep their operand's size.
absl::StatusOr<Literal> RunDotDynamic(Kernel kernel,
                                      const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context);

// convolution: the input's and the kernel's padding is zero (contracted
// input features sum only valid elements); the batch keeps its size.
absl::StatusOr<Literal> RunConvolutionDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// gather: only valid index vectors are gathered (the result's batch
// dimensions take the indices' sizes); an offset dimension that takes a
// dynamic operand dimension whole keeps its size.
absl::StatusOr<Literal> RunGatherDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// scatter: only valid index vectors and their valid update rows are
// scattered; the results keep operand 0's sizes.
absl::StatusOr<Literal> RunScatterDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// select-and-scatter: windows over the operand's valid elements only; the
// result keeps the operand's sizes.
absl::StatusOr<Literal> RunSelectAndScatterDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// Collectives: computed on the bounded arrays; every result dimension of
// the operand's bound keeps the operand's size. A dimension the collective
// gathers, scatters or splits must be whole (size = bound).
absl::StatusOr<Literal> RunCollectiveDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

template <Kernel K, DynamicRunner R>
absl::StatusOr<Literal> WithDynamicSizes(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (!AnyDynamicOperand(operands)) return K(instruction, operands, context);
  return R(K, instruction, operands, context);
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_DYNAMIC_KERNELS_H_
