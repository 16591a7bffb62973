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

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"
#include "backends/cpu/device_runtime.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/cpu/kernel_target.h"

namespace kiln::cpu {

// What a backend built on this one's lowering, thunks and kernel cache
// changes: the GPU backends (backends/gpu) lower with the CUDA target and
// their own pipeline, and compile the kernels against the emulation shim
// (gpu-emulated) or not at all on the host (gpu).
struct HostBackendConfig {
  std::string name = "cpu";
  std::string pipeline = "cpu";
  KernelTarget target = KernelTarget::kHostCpp;
  // Compiled before the kernels; empty: KernelPrelude().
  std::string prelude;
  // What `--emit=` calls the kernels' text.
  std::string source_emit = "cpp";
  // When set, the kernels are not compiled for the host and every run
  // fails with this error (a device backend without its device).
  std::string cannot_run;
  // One more `--emit=` form (the GPU's "ptx"): computed from the whole
  // translation unit (the prelude and the kernels).
  std::string extra_emit;
  std::function<absl::StatusOr<std::string>(const std::string& unit)>
      extra_emitter;
  // A device backend's runtime (the gpu backend with its device): loads
  // the kernels of the whole translation unit `unit` (the prelude and the
  // kernels) for the lowered entry program onto the device, and returns
  // what runs every execution there. When set, the kernels are not
  // compiled for the host.
  std::function<absl::StatusOr<std::unique_ptr<DeviceExecutor>>(
      const std::string& unit, const Program& entry)>
      device_loader;
};

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(KernelCompilerOptions options = {},
                      HostBackendConfig config = {})
      : options_(std::move(options)), config_(std::move(config)) {}

  absl::string_view name() const override { return config_.name; }

  // What the reference evaluator runs: every op the CPU backend does not
  // lower natively falls back to the evaluator's kernel.
  bool Supports(Opcode opcode, ElementType type) const override;

  // Client form is legalized by the pipeline's broadcast-legalization.
  bool accepts_client_form() const override { return true; }

  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override;

 private:
  KernelCompilerOptions options_;
  HostBackendConfig config_;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CPU_BACKEND_H_
