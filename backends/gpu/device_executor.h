// The gpu backend's device runtime: runs the CPU backend's lowered program
// (backends/cpu/lowering.h) with its values in device memory.
//
// - One device allocation per execution holds the arena, at buffer
//   assignment's offsets, and the parameters and result leaves after it;
//   allocations are kept for later executions. Constants are copied to the
//   device once, when the executable loads.
// - A kernel thunk (convolution's included: the generated convolution
//   kernel, backends/cpu/convolution_emitter.h) launches its __global__
//   function with the grid and block of its KILN_LAUNCH line; the pointer
//   arrays a kernel takes live
//   on the device, one table per binding of a program's slots (built when
//   the program is bound, so a loop body's launches copy nothing).
// - A dot of f32, f64, f16 or bf16 whose operands need no transposing
//   copy is one cublasGemmStridedBatchedEx.
// - Every other thunk (an evaluator fallback, a dot cuBLAS does not take)
//   runs on the host: its operands are copied to the host,
//   the CPU backend's thunk runs, its results are copied back. Counted in
//   `--emit=stats`.
// - while, conditional and call are the CPU backend's control thunks,
//   which allocate, copy and read their predicates through this runtime.
//
// Errors: a launch error names the kernel and its instruction; an error
// the device reports later (at the next copy to the host) names the last
// kernels launched (KILN_GPU_SYNC=1 synchronizes after every launch, so
// that it names exactly one); cuMemAlloc failing is ResourceExhausted.
#ifndef KILN_BACKENDS_GPU_DEVICE_EXECUTOR_H_
#define KILN_BACKENDS_GPU_DEVICE_EXECUTOR_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/cpu/device_runtime.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/cpu/thunks.h"
#include "backends/gpu/cuda_driver.h"

namespace kiln::gpu {

// Loads `unit`'s kernels (empty: none) for `entry` and the programs its
// control thunks run onto `device`. `entry` must outlive the executor.
absl::StatusOr<std::unique_ptr<cpu::DeviceExecutor>> LoadDeviceExecutor(
    const CudaDevice& device, const std::string& unit,
    const cpu::Program& entry, const cpu::KernelCompilerOptions& options = {});

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_DEVICE_EXECUTOR_H_
