// The CPU backend, registered as "cpu": HLO lowered to native code.
//
// Compile legalizes client form and runs the `cpu` pipeline (layout
// assignment, fusion under the CPU fusion policy), then lowers the entry
// computation to a thunk sequence (lowering.h): each fusion or elementwise
// op becomes a generated C++ loop-nest kernel (loop_emitter.h), compiled by
// the host compiler into a shared object behind a content-addressed cache
// (kernel_compiler.h); dot calls Eigen's GEMM; any other op runs the
// reference evaluator's kernel as a fallback thunk, counted in the compile
// stats (`kiln compile --backend=cpu --emit=stats`). Values live in one
// arena per execution, placed by buffer assignment.
//
// Modules with dynamic shapes, token values or several devices run whole
// on the evaluator (after the pipeline), and say so in the stats.
//
// Thread safety: an Executable may be Run from several threads at once;
// each execution has its own arena and evaluator state.
#ifndef KILN_BACKENDS_CPU_CPU_BACKEND_H_
#define KILN_BACKENDS_CPU_CPU_BACKEND_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"
#include "backends/cpu/kernel_compiler.h"

namespace kiln::cpu {

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(KernelCompilerOptions options = {})
      : options_(std::move(options)) {}

  absl::string_view name() const override { return "cpu"; }

  // What the reference evaluator runs: every op the CPU backend does not
  // lower natively falls back to the evaluator's kernel.
  bool Supports(Opcode opcode, ElementType type) const override;

  // Client form is legalized by the pipeline's broadcast-legalization.
  bool accepts_client_form() const override { return true; }

  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override;

 private:
  KernelCompilerOptions options_;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CPU_BACKEND_H_
