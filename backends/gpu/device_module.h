// The gpu backend's kernels on the device: the translation unit compiled
// by NVRTC (a cubin for the device's architecture, else PTX the driver
// compiles), cached like the CPU backend's shared objects (the kernel
// cache's "gpu" folder: content-addressed, atomic writes), loaded with
// cuModuleLoadDataEx, with each kernel's function and the launch its
// KILN_LAUNCH line gives.
#ifndef KILN_BACKENDS_GPU_DEVICE_MODULE_H_
#define KILN_BACKENDS_GPU_DEVICE_MODULE_H_

#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/cpu/kernel_target.h"
#include "backends/gpu/cuda_driver.h"

namespace kiln::gpu {

struct DeviceKernel {
  CuFunction function = nullptr;
  std::string device_name;  // NAME_gpu.
  cpu::LaunchDims dims;
};

class DeviceModule {
 public:
  DeviceModule(const CudaDevice& device, CuModule module)
      : device_(device), module_(module) {}
  ~DeviceModule();
  DeviceModule(const DeviceModule&) = delete;
  DeviceModule& operator=(const DeviceModule&) = delete;

  // The kernel whose host name (the kernel thunk's symbol) is `name`, or
  // null.
  const DeviceKernel* Find(const std::string& name) const;

  // "cubin sm_90" or "ptx compute_80", the cache entry and its use.
  const std::string& image() const { return image_; }
  const cpu::KernelBuildStats& build() const { return build_; }

 private:
  friend absl::StatusOr<std::unique_ptr<DeviceModule>> LoadDeviceModule(
      const CudaDevice& device, const std::string& unit,
      const cpu::KernelCompilerOptions& options);

  const CudaDevice& device_;
  CuModule module_;
  absl::flat_hash_map<std::string, DeviceKernel> kernels_;
  std::string image_;
  cpu::KernelBuildStats build_;
};

// Compiles (or takes from the cache) and loads `unit`: DevicePrelude()
// and the kernels. A module the driver refuses gives its JIT error log;
// a kernel without its function names the kernel.
absl::StatusOr<std::unique_ptr<DeviceModule>> LoadDeviceModule(
    const CudaDevice& device, const std::string& unit,
    const cpu::KernelCompilerOptions& options = {});

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_DEVICE_MODULE_H_
