// The GPU backends, built on the CPU backend's lowering (backends/cpu):
// the `gpu` pipeline (layout assignment with the gpu constraints, fusion
// under the gpu policy), then the same thunk sequence, buffer assignment
// and control-flow thunks, with every kernel written by the same loop
// emitter for the CUDA target (KernelTarget::kCuda): a __global__ function
// with grid-stride loops and its launch line.
//
//   gpu-emulated  the generated CUDA C++ compiled as host C++ against the
//                 emulation shim (emulation/cuda_shim.h) by the CPU
//                 backend's kernel compiler and cache, and run on the CPU;
//                 dot is the CPU backend's library call; convolution is
//                 the generated convolution kernel, as on gpu.
//   gpu           the same lowering for a device: kernels compiled by
//                 NVRTC and run through the CUDA driver (device_executor.h:
//                 device memory, launches, cuBLAS, host fallbacks);
//                 `kiln compile --emit=cuda|ptx|thunks|stats` works
//                 without a device. Without the driver (cuda_driver.h)
//                 every run fails at once with kNoDevice.
#ifndef KILN_BACKENDS_GPU_GPU_BACKEND_H_
#define KILN_BACKENDS_GPU_GPU_BACKEND_H_

#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/cpu/cpu_backend.h"

namespace kiln::gpu {

// The text every emulated translation unit starts with: the CPU kernel
// prelude, then the shim.
const std::string& EmulationPrelude();

// The text every device translation unit starts with.
const std::string& DevicePrelude();

std::unique_ptr<Backend> MakeEmulatedBackend(
    cpu::KernelCompilerOptions options = {});
std::unique_ptr<Backend> MakeDeviceBackend();

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_GPU_BACKEND_H_
