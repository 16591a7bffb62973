// The CUDA driver, loaded with dlopen("libcuda.so.1") so that Kiln builds,
// starts and runs every other backend on a machine without a GPU or a
// driver. Nothing here links against CUDA: the few driver-API signatures
// used are declared below (cuda.h's, with its handles as opaque pointers).
//
// KILN_CUDA_DRIVER_LIBRARY names another library to load instead (tests
// point it at backends/gpu/testing's fake driver).
#ifndef KILN_BACKENDS_GPU_CUDA_DRIVER_H_
#define KILN_BACKENDS_GPU_CUDA_DRIVER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln::gpu {

// The error `kiln run --backend=gpu` gives without a driver or a device.
inline constexpr char kNoDevice[] =
    "no CUDA driver/device found; use --backend=gpu-emulated to run the same "
    "kernels on the CPU";

// cuda.h's types.
using CuResult = int;
using CuDevice = int;
using CuDevicePtr = unsigned long long;  // NOLINT: cuda.h's CUdeviceptr.
using CuContext = struct CuContextOpaque*;
using CuModule = struct CuModuleOpaque*;
using CuFunction = struct CuFunctionOpaque*;
using CuStream = struct CuStreamOpaque*;

// cuda.h's enumerators used here.
inline constexpr int kCuErrorOutOfMemory = 2;
inline constexpr int kCuAttributeComputeCapabilityMajor = 75;
inline constexpr int kCuAttributeComputeCapabilityMinor = 76;
inline constexpr int kCuJitInfoLogBuffer = 3;
inline constexpr int kCuJitInfoLogBufferSizeBytes = 4;
inline constexpr int kCuJitErrorLogBuffer = 5;
inline constexpr int kCuJitErrorLogBufferSizeBytes = 6;

// The driver's functions (the _v2 entry points where cuda.h maps to them).
struct CudaDriver {
  CuResult (*init)(unsigned flags);
  CuResult (*device_get_count)(int* count);
  CuResult (*device_get)(CuDevice* device, int ordinal);
  CuResult (*device_get_attribute)(int* value, int attribute, CuDevice device);
  CuResult (*device_get_name)(char* name, int length, CuDevice device);
  CuResult (*primary_ctx_retain)(CuContext* context, CuDevice device);
  CuResult (*ctx_set_current)(CuContext context);
  CuResult (*ctx_synchronize)();
  CuResult (*module_load_data_ex)(CuModule* module, const void* image,
                                  unsigned count, int* options, void** values);
  CuResult (*module_unload)(CuModule module);
  CuResult (*module_get_function)(CuFunction* function, CuModule module,
                                  const char* name);
  CuResult (*launch_kernel)(CuFunction function, unsigned grid_x,
                            unsigned grid_y, unsigned grid_z, unsigned block_x,
                            unsigned block_y, unsigned block_z,
                            unsigned shared_bytes, CuStream stream,
                            void** parameters, void** extra);
  CuResult (*mem_alloc)(CuDevicePtr* pointer, size_t bytes);
  CuResult (*mem_free)(CuDevicePtr pointer);
  CuResult (*memcpy_htod)(CuDevicePtr to, const void* from, size_t bytes);
  CuResult (*memcpy_dtoh)(void* to, CuDevicePtr from, size_t bytes);
  CuResult (*memcpy_dtod)(CuDevicePtr to, CuDevicePtr from, size_t bytes);
  CuResult (*get_error_name)(CuResult error, const char** name);
  CuResult (*get_error_string)(CuResult error, const char** text);
};

// The loaded driver with its device 0 and that device's primary context
// (the one cuBLAS's runtime uses too), made once per process.
struct CudaDevice {
  CudaDriver driver;
  CuDevice device = 0;
  CuContext context = nullptr;
  int major = 0, minor = 0;  // Compute capability.
  std::string name;
};

// The device, or FailedPrecondition(kNoDevice) when libcuda.so.1 does not
// load or has no device (with the driver's reason appended after a
// newline when it loaded but failed). Asked once.
absl::StatusOr<const CudaDevice*> GetCudaDevice();

// OK when GetCudaDevice() succeeds, else its error.
absl::Status CudaDeviceStatus();

// "NAME (text)" for a driver error code.
std::string CudaErrorText(const CudaDriver& driver, CuResult error);

// An error for a failed driver call: ResourceExhausted for out-of-memory,
// Internal otherwise; `what` says what was being done.
absl::Status CudaError(const CudaDriver& driver, CuResult error,
                       absl::string_view what);

// Makes the device's primary context current on the calling thread.
absl::Status MakeCurrent(const CudaDevice& device);

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_CUDA_DRIVER_H_
