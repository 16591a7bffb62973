#include "backends/gpu/cuda_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace kiln::gpu {
namespace {

std::string DriverPath() {
  const char* path = std::getenv("KILN_CUDA_DRIVER_LIBRARY");
  return path != nullptr && *path != '\0' ? path : "libcuda.so.1";
}

absl::Status NoDevice(absl::string_view reason) {
  if (reason.empty()) return absl::FailedPreconditionError(kNoDevice);
  return absl::FailedPreconditionError(absl::StrCat(kNoDevice, "\n", reason));
}

// Every function of CudaDriver, found by name; false when one is missing.
bool FindFunctions(void* library, CudaDriver& d, std::string* missing) {
  bool complete = true;
  auto find = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
        dlsym(library, name));
    if (function == nullptr && complete) {
      complete = false;
      *missing = name;
    }
  };
  find(d.init, "cuInit");
  find(d.device_get_count, "cuDeviceGetCount");
  find(d.device_get, "cuDeviceGet");
  find(d.device_get_attribute, "cuDeviceGetAttribute");
  find(d.device_get_name, "cuDeviceGetName");
  find(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  find(d.ctx_set_current, "cuCtxSetCurrent");
  find(d.ctx_synchronize, "cuCtxSynchronize");
  find(d.module_load_data_ex, "cuModuleLoadDataEx");
  find(d.module_unload, "cuModuleUnload");
  find(d.module_get_function, "cuModuleGetFunction");
  find(d.launch_kernel, "cuLaunchKernel");
  find(d.mem_alloc, "cuMemAlloc_v2");
  find(d.mem_free, "cuMemFree_v2");
  find(d.memcpy_htod, "cuMemcpyHtoD_v2");
  find(d.memcpy_dtoh, "cuMemcpyDtoH_v2");
  find(d.memcpy_dtod, "cuMemcpyDtoD_v2");
  find(d.get_error_name, "cuGetErrorName");
  find(d.get_error_string, "cuGetErrorString");
  return complete;
}

absl::StatusOr<const CudaDevice*> Open() {
  const std::string path = DriverPath();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return NoDevice("");
  auto device = std::make_unique<CudaDevice>();
  CudaDriver& d = device->driver;
  std::string missing;
  if (!FindFunctions(library, d, &missing)) {
    return NoDevice(absl::StrCat(path, " lacks ", missing));
  }
  if (CuResult error = d.init(0); error != 0) {
    return NoDevice(absl::StrCat("cuInit failed: ", CudaErrorText(d, error)));
  }
  int count = 0;
  if (d.device_get_count(&count) != 0 || count == 0) return NoDevice("");
  if (CuResult error = d.device_get(&device->device, 0); error != 0) {
    return NoDevice(absl::StrCat("cuDeviceGet: ", CudaErrorText(d, error)));
  }
  if (CuResult error = d.primary_ctx_retain(&device->context, device->device);
      error != 0) {
    return NoDevice(
        absl::StrCat("cuDevicePrimaryCtxRetain: ", CudaErrorText(d, error)));
  }
  d.device_get_attribute(&device->major, kCuAttributeComputeCapabilityMajor,
                         device->device);
  d.device_get_attribute(&device->minor, kCuAttributeComputeCapabilityMinor,
                         device->device);
  char name[256] = {};
  if (d.device_get_name(name, sizeof name - 1, device->device) == 0) {
    device->name = name;
  }
  return device.release();
}

}  // namespace

absl::StatusOr<const CudaDevice*> GetCudaDevice() {
  static const auto* const device =
      new absl::StatusOr<const CudaDevice*>(Open());
  return *device;
}

absl::Status CudaDeviceStatus() { return GetCudaDevice().status(); }

std::string CudaErrorText(const CudaDriver& driver, CuResult error) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (driver.get_error_name(error, &name) != 0 || name == nullptr) {
    name = "CUDA_ERROR_UNKNOWN";
  }
  if (driver.get_error_string(error, &text) != 0 || text == nullptr) {
    text = "no description";
  }
  return absl::StrCat(name, " (", error, ": ", text, ")");
}

absl::Status CudaError(const CudaDriver& driver, CuResult error,
                       absl::string_view what) {
  const std::string message =
      absl::StrCat(what, ": ", CudaErrorText(driver, error));
  if (error == kCuErrorOutOfMemory) {
    return absl::ResourceExhaustedError(message);
  }
  return absl::InternalError(message);
}

absl::Status MakeCurrent(const CudaDevice& device) {
  if (CuResult error = device.driver.ctx_set_current(device.context);
      error != 0) {
    return CudaError(device.driver, error, "cuCtxSetCurrent");
  }
  return absl::OkStatus();
}

}  // namespace kiln::gpu
