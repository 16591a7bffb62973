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

// On CUDA, a scatter whose updates commute runs in parallel instead, one
// thread per update element, in two kernels: EmitScatterCopyKernel copies
// the operand to the result (skipped in place), then
// EmitParallelScatterKernel combines the updates into it. Which scatters
// may: kUnique, those marked unique_indices (no two updates meet, so
// any update computation; a repeated index is then the spec's
// implementation-defined case), and kAtomic, those whose update
// computation is an integer add, multiply, max, min, and, or or xor of
// 4 or 8 bytes, combined by compare-and-swap, so that every order gives
// the evaluator's result. The others (float sums, a replacing update
// without unique_indices) keep the serial kernel: deterministic, in the
// evaluator's order.
// (Unimplemented for the others.)
enum class ParallelScatter { kNone, kUnique, kAtomic };
// CUDA kernels (in[0] operand, out[0] result).
absl::StatusOr<std::string> EmitScatterCopyKernel(const Instruction& scatter,
                                                  absl::string_view name);
// (in[1] indices, in[2] updates, out[0] the result holding the operand.)
absl::StatusOr<std::string> EmitParallelScatterKernel(
    const Instruction& scatter, absl::string_view name);

// The kernel for a select-and-scatter (in[0] operand, in[1] source, in[2]
// init value, out[0] result), with the select and scatter computations
// inlined; Unimplemented for types the kernels do not compute or
// computations that cannot be emitted.
absl::StatusOr<std::string> EmitSelectAndScatterKernel(
    const Instruction& instruction, absl::string_view name);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_SCATTER_EMITTER_H_
