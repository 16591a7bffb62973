// NVRTC, loaded with dlopen (libnvrtc.so.13 from $CUDA_HOME/lib64,
// /usr/local/cuda/lib64 or the loader's path): compiles the GPU backend's
// generated CUDA C++ to PTX without a device. NVRTC sees no host headers:
// the standard headers the kernel prelude includes are device_std.h
// (libcu++ from the toolkit's include/cccl).
#ifndef KILN_BACKENDS_GPU_NVRTC_COMPILER_H_
#define KILN_BACKENDS_GPU_NVRTC_COMPILER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln::gpu {

// The CUDA toolkit's root: $CUDA_HOME, else /usr/local/cuda.
std::string CudaHome();

// PTX of `source` (a whole translation unit: DevicePrelude() and kernels)
// for `architecture` ("compute_80"). A failed compile's error holds NVRTC's
// log, each error line followed by the instruction whose kernel it is in
// (the "// NAME" comment lowering writes before each kernel). Unavailable
// when NVRTC cannot be loaded.
absl::StatusOr<std::string> CompileToPtx(const std::string& source,
                                         absl::string_view architecture);

// Machine code (a cubin) of `source` for `architecture` ("sm_90"), with
// the same options and errors as CompileToPtx; Unimplemented when this
// NVRTC cannot write cubins.
absl::StatusOr<std::string> CompileToCubin(const std::string& source,
                                           absl::string_view architecture);

// NVRTC's version and the library's path ("no NVRTC" when it does not
// load): part of the kernel cache's key for device images.
std::string NvrtcIdentity();

// The instruction whose kernel holds line `line` (1-based) of `source`:
// the nearest "// NAME" line before it, or "".
std::string InstructionAtLine(absl::string_view source, int line);

}  // namespace kiln::gpu

#endif  // KILN_BACKENDS_GPU_NVRTC_COMPILER_H_
