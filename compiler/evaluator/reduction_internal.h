// The reduction family's kernels that live outside reduction_kernels.cc;
// RegisterReductionKernels puts them in the table.
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_

#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// reduction_window.cc
absl::StatusOr<Literal> ReduceWindowKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);
absl::StatusOr<Literal> SelectAndScatterKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

// reduction_sort.cc
absl::StatusOr<Literal> SortKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context);
absl::StatusOr<Literal> TopKKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context);
// The top-k of `operand`'s last dimension: (values, s32 indices), ordered
// by `comparator` (stable; it takes two values, or two values and their
// two s32 positions in the row) or, when it is null, by value (`largest`
// first or not, equal values by lower index). Also XLA's TopK custom call.
absl::StatusOr<Literal> TopKOf(const Instruction& instruction,
                               const Literal& operand, int64_t k, bool largest,
                               const Computation* comparator,
                               EvalContext& context);

// reduction_scan.cc
absl::StatusOr<Literal> ScanKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_
