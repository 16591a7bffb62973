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

// reduction_scan.cc
absl::StatusOr<Literal> ScanKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_INTERNAL_H_
