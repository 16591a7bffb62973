// scatter as a generated kernel: the operand is copied to the result (not
// when the result is the operand's own buffer, an in-place scatter), then
// every update element is combined into its result element by the update
// computation, inlined as C++, in the evaluator's order (index vectors in
// row-major order of the indices' batch positions, window elements
// row-major within each); start indices are not clamped and an element
// whose result index is out of bounds is skipped (the evaluator's choice,
// docs/choices.md).
#ifndef KILN_BACKENDS_CPU_SCATTER_EMITTER_H_
#define KILN_BACKENDS_CPU_SCATTER_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// The kernel `void NAME(const void* const* in, void* const* out)` for a
// scatter of one operand (in[0] operand, in[1] indices, in[2] updates,
// out[0] result); Unimplemented for variadic scatters, types the kernels
// do not compute, or an update computation that cannot be emitted.
absl::StatusOr<std::string> EmitScatterKernel(const Instruction& scatter,
                                              absl::string_view name);

// The kernel for a select-and-scatter (in[0] operand, in[1] source, in[2]
// init value, out[0] result), with the select and scatter computations
// inlined; Unimplemented for types the kernels do not compute or
// computations that cannot be emitted.
absl::StatusOr<std::string> EmitSelectAndScatterKernel(
    const Instruction& instruction, absl::string_view name);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_SCATTER_EMITTER_H_
