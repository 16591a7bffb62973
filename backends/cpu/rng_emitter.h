// rng-bit-generator as a generated kernel: the generator's blocks
// (compiler/evaluator/bit_generator_blocks.h, pasted into the prelude, the
// definition the evaluator also runs) laid out over the result as XLA
// lays them, each element stored in its type's width.
#ifndef KILN_BACKENDS_CPU_RNG_EMITTER_H_
#define KILN_BACKENDS_CPU_RNG_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// The kernel `void NAME(const void* const* in, void* const* out)` reading
// the state in[0] and writing the new state out[0] and the bits out[1];
// Unimplemented when the state does not fit the algorithm (the
// evaluator's error) or the shapes are not an rng-bit-generator's.
absl::StatusOr<std::string> EmitRngBitGeneratorKernel(const Instruction& rng,
                                                      absl::string_view name);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_RNG_EMITTER_H_
