// The loop emitter: turns a computation of elementwise and index-mapping
// ops (a loop or input fusion's fused computation, or one op wrapped in a
// computation) into one C++ function, a loop nest over the output with
// every producer computed inline at the element's index. This is the one
// place where HLO semantics become C++: the CPU backend compiles its output
// with the host compiler; a GPU backend would place the same body inside a
// CUDA kernel (docs/backends.md, "One emitter, several targets").
//
// Values are dense row-major arrays (the CPU backend's native layout), so
// the emitter computes with logical indices only. Elementwise ops call the
// evaluator's own scalar functors (elementwise_unary_ops.h,
// elementwise_binary_ops.h), pasted into the generated source, so a
// generated kernel and the reference evaluator share each op's semantics.
#ifndef KILN_BACKENDS_CPU_LOOP_EMITTER_H_
#define KILN_BACKENDS_CPU_LOOP_EMITTER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/cpu/kernel_target.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// The C++ type generated code computes and stores `type` in, when the
// emitter handles the type natively: pred, s8..s64, u8..u64, f32, f64.
std::optional<std::string> NativeCType(ElementType type);

// OK when the emitter can lower `instruction` inside a kernel: its op is
// one the emitter knows, every element type it touches is native and its
// shapes are static. Otherwise an Unimplemented error saying why (the
// backend then runs the instruction on the evaluator and counts it).
absl::Status CheckEmittable(const Instruction& instruction);

// CheckEmittable for every instruction of `computation` (and of the
// reducers it calls), plus the kernel-level rules: outputs are the root or
// the root tuple's elements, arrays of one common set of dimensions.
absl::Status CheckEmittable(const Computation& computation);

// Whether EmitKernel lowers `computation` to one flat loop over every
// output's elements, which reads element i of each operand of its size
// before it writes element i (an output may then share an operand's
// buffer: donation.h).
bool IsFlatKernel(const Computation& computation);

// The C++ source of
//   extern "C" void NAME(const void* const* in, void* const* out);
// computing `computation`: in[k] points at parameter k's elements, out[k]
// at output k's (the root, or element k of a tuple root). `computation`
// must pass CheckEmittable.
// For KernelTarget::kCuda the text is the CUDA kernel NAME_gpu and its
// KILN_LAUNCH line (kernel_target.h).
absl::StatusOr<std::string> EmitKernel(
    const Computation& computation, absl::string_view name,
    KernelTarget target = KernelTarget::kHostCpp);

// The kernel of a dynamic-update-slice done in place: out[0] is the same
// buffer as in[0] (the operand), and only the update's window (its start
// clamped so that it fits, as the evaluator) is written from in[1].
absl::StatusOr<std::string> EmitInPlaceUpdateKernel(
    const Instruction& dynamic_update_slice, absl::string_view name);

// A scalar computation (a comparator, a reducer) as C++ statements.
struct ScalarFunction {
  std::string globals;  // File-scope definitions (constants) it needs.
  std::string body;     // Statements, indented.
  std::string result;   // The variable holding the root's value.
};

// `computation` with parameter k bound to the C++ expression `names[k]`.
// Every instruction must be scalar and emittable; `prefix` makes the
// names of its constants unique in the translation unit.
absl::StatusOr<ScalarFunction> EmitScalarFunction(
    const Computation& computation, const std::vector<std::string>& names,
    absl::string_view prefix, int depth);

// The text every generated translation unit starts with: the evaluator's
// scalar functors and kernel_prelude.h.
const std::string& KernelPrelude();

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_LOOP_EMITTER_H_
