// The two collectives that move data point to point rather than over a
// whole group: collective-permute (source_target_pairs) and
// ragged-all-to-all (offsets and sizes per destination). The callers
// (collective_kernels.cc) have run the shape rule.
#ifndef KILN_COMPILER_EVALUATOR_COLLECTIVE_PERMUTE_H_
#define KILN_COMPILER_EVALUATOR_COLLECTIVE_PERMUTE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// The value collective-permute's target receives: the operand of the
// source paired with this device, zeros when no pair targets it; several
// operands (the combined form) give the tuple of those values. The
// in-place form (slice_sizes) goes to CollectivePermuteInPlaceValue.
absl::StatusOr<Literal> CollectivePermuteValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

// The four-operand in-place form (input, output, input_start_indices,
// output_start_indices; collective_permute_in_place.cc): this device's
// output buffer after the slices its sources send have been written in.
absl::StatusOr<Literal> CollectivePermuteInPlaceValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

// ragged-all-to-all's output buffer after every member of the group has
// written its updates into it.
absl::StatusOr<Literal> RaggedAllToAllValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_COLLECTIVE_PERMUTE_H_
