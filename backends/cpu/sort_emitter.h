// sort as a generated kernel: each slice along the sort dimension is
// ordered by the evaluator's own stable merge sort (kernel_prelude.h) with
// the comparator computation inlined as C++, then every operand is
// gathered in that order.
#ifndef KILN_BACKENDS_CPU_SORT_EMITTER_H_
#define KILN_BACKENDS_CPU_SORT_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// The kernel `void NAME(const void* const* in, void* const* out)` sorting
// `sort`'s operands in[0..N) into out[0..N); Unimplemented when an operand
// type or the comparator cannot be emitted.
absl::StatusOr<std::string> EmitSortKernel(const Instruction& sort,
                                           absl::string_view name);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_SORT_EMITTER_H_
