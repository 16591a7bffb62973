#include "backends/gpu/cuda_driver.h"

#include <dlfcn.h>

#include "absl/strings/str_cat.h"

namespace kiln::gpu {
namespace {

// The driver API's signatures used here (cuda.h), declared so that nothing
// needs the toolkit to build.
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int*);

absl::Status Probe() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) return absl::FailedPreconditionError(kNoDevice);
  auto init = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
  auto count =
      reinterpret_cast<CuDeviceGetCount>(dlsym(driver, "cuDeviceGetCount"));
  if (init == nullptr || count == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat(kNoDevice, "\nlibcuda.so.1 lacks cuInit"));
  }
  if (int error = init(0); error != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(kNoDevice, "\ncuInit failed with CUresult ", error));
  }
  int devices = 0;
  if (count(&devices) != 0 || devices == 0) {
    return absl::FailedPreconditionError(kNoDevice);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CudaDeviceStatus() {
  static const absl::Status* const status = new absl::Status(Probe());
  return *status;
}

}  // namespace kiln::gpu
