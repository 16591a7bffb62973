// The fake CUDA driver (fake_cuda_driver.cc) as tests use it: UseFakeDriver
// points KILN_CUDA_DRIVER_LIBRARY and KILN_CUBLAS_LIBRARY at it (call it
// before anything asks for the device: the driver is loaded once per
// process) and returns its controls.
#ifndef KILN_BACKENDS_GPU_TESTING_FAKE_DRIVER_H_
#define KILN_BACKENDS_GPU_TESTING_FAKE_DRIVER_H_

#include <string>

namespace kiln::gpu::testing {

using LaunchHook = void (*)(const char* function, const void* const* in,
                            void* const* out);

struct FakeDriver {
  void (*reset)();
  // Allocations over this many bytes fail with out-of-memory (-1: none).
  void (*fail_alloc_over)(long long bytes);  // NOLINT: the C signature.
  // Module loads fail with CUDA_ERROR_INVALID_PTX and this JIT log.
  void (*fail_module_load)(const char* log);
  // Launches of `function` (NAME_gpu) fail with `error`.
  void (*fail_launch)(const char* function, int error);
  // The next copy to the host fails with `error` (a kernel's fault).
  void (*fail_next_copy)(int error);
  void (*set_launch_hook)(LaunchHook hook);
  int (*launch_count)();
  const char* (*launch)(int i, unsigned* grid, unsigned* block);
  int (*live_allocations)();
  int (*gemm_count)();
};

// The fake's controls (a test failure, and null, when it cannot load).
const FakeDriver* UseFakeDriver();

// The fake library's absolute path.
std::string FakeDriverPath();

}  // namespace kiln::gpu::testing

#endif  // KILN_BACKENDS_GPU_TESTING_FAKE_DRIVER_H_
