// Lowering: an optimized module (the `cpu` pipeline's output) to the CPU
// backend's program: a thunk per step of the entry computation, the
// generated kernels' source, buffer slots placed by buffer assignment, and
// statistics of what runs natively.
#ifndef KILN_BACKENDS_CPU_LOWERING_H_
#define KILN_BACKENDS_CPU_LOWERING_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/cpu/donation.h"
#include "backends/cpu/kernel_target.h"
#include "backends/cpu/thunks.h"
#include "compiler/ir/module.h"

namespace kiln::cpu {

struct LoweringStats {
  // Instructions run by generated kernels or library calls (a fusion's
  // fused instructions each count), and by the evaluator's kernels.
  int64_t native_instructions = 0;
  int64_t fallback_instructions = 0;
  // Fallback instructions by op, and the reason of each op's first one.
  std::map<std::string, int64_t> fallback_by_op;
  std::map<std::string, std::string> fallback_reason;
  int64_t kernels = 0;
  int64_t library_calls = 0;
  // while, conditional and call thunks running lowered programs.
  int64_t control_flow = 0;
  // Collectives: the evaluator's collective kernels exchanging through the
  // execution's hub between device threads (counted apart from fallbacks:
  // they are the backend's collective runtime, not a missing lowering).
  int64_t collectives = 0;
  int64_t arena_bytes = 0;
  int64_t unshared_bytes = 0;
  // Set when the whole entry runs on the evaluator (why in the string).
  std::string whole_module_fallback;
};

// The entry computation's program and what lowering found.
struct LoweredModule {
  std::unique_ptr<Program> entry;
  // The generated kernels of every program (the translation unit is
  // KernelPrelude() followed by this text); empty without kernels.
  std::string kernel_source;
  LoweringStats stats;
  // The input_output_alias pairs whose donated buffers the entry writes
  // its output into (donation.h).
  Donation donation;
};

// Lowers `module`'s entry computation, and the computations its whiles,
// conditionals and calls run; `module` must outlive the programs (thunks
// point at its instructions). Fails only on internal errors: what has no
// native lowering becomes a fallback thunk. `max_while_iterations` bounds
// every while loop. `target` says what the kernels are written in (the GPU
// backends lower with KernelTarget::kCuda).
absl::StatusOr<LoweredModule> LowerModule(
    const Module& module, int64_t max_while_iterations,
    KernelTarget target = KernelTarget::kHostCpp);

// Every program of `program`'s thunks, recursively, `program` first.
std::vector<Program*> AllPrograms(Program& program);

// Why the entry cannot be lowered step by step (dynamic shapes, tokens,
// ...), or empty when it can.
std::string WholeModuleFallbackReason(const Module& module);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_LOWERING_H_
