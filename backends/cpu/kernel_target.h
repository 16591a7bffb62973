// What the loop emitter's output looks like for each target: the one place
// where a kernel's function header, its parallel loops and its launch differ
// between the host C++ the CPU backend compiles and the CUDA C++ the GPU
// backends compile (with NVRTC for a device, or as host C++ against the
// emulation shim, backends/gpu/emulation/cuda_shim.h). Everything between
// (the expressions computing an element at an index) is the same text.
//
// CUDA kernels: `extern "C" __global__ void NAME_gpu(const void* const* in,
// void* const* out)` (the pointer arrays live where the kernel runs), whose
// loops are grid-stride loops over the output's elements, followed by
// `KILN_LAUNCH(NAME, grid, block, cooperative)`: the launch configuration,
// which the emulation expands into the host entry `NAME(in, out)` and the
// device path reads back with ParseLaunches.
#ifndef KILN_BACKENDS_CPU_KERNEL_TARGET_H_
#define KILN_BACKENDS_CPU_KERNEL_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace kiln::cpu {

enum class KernelTarget { kHostCpp, kCuda };

// Threads per block of the CUDA kernels (a multiple of the warp size).
inline constexpr int64_t kCudaBlock = 256;
// At most this many blocks per grid-stride launch.
inline constexpr int64_t kCudaMaxGrid = 4096;

struct LaunchDims {
  int64_t grid = 1;
  int64_t block = 1;
  // Uses __syncthreads or warp shuffles: its threads must run as
  // cooperating fibers under the emulation.
  bool cooperative = false;
};

// The launch of a grid-stride loop over `elements` elements.
LaunchDims GridStrideLaunch(int64_t elements);

// The first line of kernel `name`'s function (ending in "{\n").
std::string KernelHeader(KernelTarget target, absl::string_view name);

// The text after the function's closing brace: the launch line on CUDA.
std::string KernelTrailer(KernelTarget target, absl::string_view name,
                          const LaunchDims& dims);

// The opening line of a loop over [0, count) with variable `var` that the
// target runs in parallel (a plain loop on the host when `parallel` is
// false; a grid-stride loop on CUDA).
std::string ParallelLoop(KernelTarget target, absl::string_view var,
                         int64_t count, bool parallel);

// A kernel written for the host (`extern "C" void NAME(const void* const*
// in, void* const* out)`, a sort, a scatter) as a CUDA kernel run by one
// thread. The host text is returned unchanged for the host target.
std::string SerialKernel(KernelTarget target, std::string host_text,
                         absl::string_view name);

// One launch line of a CUDA translation unit.
struct ParsedLaunch {
  std::string name;  // The host name; the __global__ function is NAME_gpu.
  LaunchDims dims;
};
// Every KILN_LAUNCH line of `source`, in order.
std::vector<ParsedLaunch> ParseLaunches(absl::string_view source);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_KERNEL_TARGET_H_
