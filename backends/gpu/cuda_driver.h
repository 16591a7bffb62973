// The CUDA driver, loaded with dlopen("libcuda.so.1") so that Kiln builds,
// starts and runs every other backend on a machine without a GPU or a
// driver. Nothing here links against CUDA.
#ifndef KILN_BACKENDS_GPU_CUDA_DRIVER_H_
#define KILN_BACKENDS_GPU_CUDA_DRIVER_H_

#include "absl/status/status.h"

namespace kiln::gpu {

// The error `kiln run --backend=gpu` gives without a driver or a device.
inline constexpr char kNoDevice[] =
    "no CUDA driver/device found; use --backend=gpu-emulated to run the same "
    "kernels on the CPU";

// OK when libcuda.so.1 loads, cuInit succeeds and there is a device;
// otherwise FailedPrecondition(kNoDevice) (with the driver's reason
// appended after a newline when it loaded but failed). Asked once.
absl::Status CudaDeviceStatus();

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_CUDA_DRIVER_H_
