#include "backends/gpu/device_module.h"

#include <chrono>
#include <cstdlib>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "backends/gpu/nvrtc_compiler.h"

namespace kiln::gpu {
namespace {

struct ImageKind {
  bool cubin;
  std::string architecture;
};

// What to ask NVRTC for, best first: machine code for the device, else
// PTX for its architecture, else PTX for sm_80 (the driver compiles PTX
// for any later device). KILN_GPU_IMAGE=ptx skips the cubin.
std::vector<ImageKind> ImageKinds(const CudaDevice& device) {
  const std::string arch = absl::StrCat(device.major, device.minor);
  std::vector<ImageKind> kinds;
  const char* forced = std::getenv("KILN_GPU_IMAGE");
  if (forced == nullptr || absl::string_view(forced) != "ptx") {
    kinds.push_back({true, absl::StrCat("sm_", arch)});
  }
  kinds.push_back({false, absl::StrCat("compute_", arch)});
  if (arch != "80") kinds.push_back({false, "compute_80"});
  return kinds;
}

// Whether NVRTC refused the architecture or the output kind (so the next
// kind may work) rather than the kernels.
bool KindUnsupported(const absl::Status& status) {
  return absl::IsUnimplemented(status) ||
         absl::StrContains(status.message(), "INVALID_OPTION");
}

absl::StatusOr<std::string> Image(const std::string& unit,
                                  const ImageKind& kind,
                                  const cpu::KernelCompilerOptions& options,
                                  cpu::KernelBuildStats* stats) {
  const std::string key = cpu::Fingerprint128(
      absl::StrCat(unit, "\n", kind.cubin ? "cubin " : "ptx ",
                   kind.architecture, "\n", NvrtcIdentity()));
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::string> image = cpu::CachedArtifact(
      "gpu", key, kind.cubin ? ".cubin" : ".ptx",
      [&]() {
        return kind.cubin ? CompileToCubin(unit, kind.architecture)
                          : CompileToPtx(unit, kind.architecture);
      },
      options, stats);
  if (image.ok() && !stats->cache_hit) {
    stats->compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  return image;
}

// Loads `image`, with the driver's JIT logs on failure.
absl::StatusOr<CuModule> Load(const CudaDevice& device,
                              const std::string& image) {
  std::string error_log(16384, '\0'), info_log(16384, '\0');
  int options[] = {kCuJitErrorLogBuffer, kCuJitErrorLogBufferSizeBytes,
                   kCuJitInfoLogBuffer, kCuJitInfoLogBufferSizeBytes};
  void* values[] = {
      error_log.data(), reinterpret_cast<void*>(error_log.size() - 1),
      info_log.data(), reinterpret_cast<void*>(info_log.size() - 1)};
  CuModule module = nullptr;
  const CuResult error = device.driver.module_load_data_ex(
      &module, image.c_str(), 4, options, values);
  if (error == 0) return module;
  error_log.resize(error_log.find('\0'));
  info_log.resize(info_log.find('\0'));
  absl::Status status = CudaError(device.driver, error, "cuModuleLoadDataEx");
  return absl::Status(
      status.code(),
      absl::StrCat(status.message(), "\nthe driver's JIT error log:\n",
                   error_log.empty() ? "(empty)" : error_log,
                   info_log.empty() ? "" : "\nits info log:\n", info_log));
}

}  // namespace

DeviceModule::~DeviceModule() {
  if (module_ != nullptr && MakeCurrent(device_).ok()) {
    device_.driver.module_unload(module_);
  }
}

const DeviceKernel* DeviceModule::Find(const std::string& name) const {
  auto found = kernels_.find(name);
  return found == kernels_.end() ? nullptr : &found->second;
}

absl::StatusOr<std::unique_ptr<DeviceModule>> LoadDeviceModule(
    const CudaDevice& device, const std::string& unit,
    const cpu::KernelCompilerOptions& options) {
  absl::StatusOr<std::string> image = absl::UnknownError("no image kind");
  cpu::KernelBuildStats stats;
  std::string kind_text;
  for (const ImageKind& kind : ImageKinds(device)) {
    stats = cpu::KernelBuildStats();
    image = Image(unit, kind, options, &stats);
    kind_text = absl::StrCat(kind.cubin ? "cubin " : "ptx ", kind.architecture);
    if (image.ok() || !KindUnsupported(image.status())) break;
  }
  if (!image.ok()) return image.status();
  if (absl::Status status = MakeCurrent(device); !status.ok()) return status;
  absl::StatusOr<CuModule> module = Load(device, *image);
  if (!module.ok()) return module.status();
  auto loaded = std::make_unique<DeviceModule>(device, *module);
  loaded->image_ = kind_text;
  loaded->build_ = stats;
  for (const cpu::ParsedLaunch& launch : cpu::ParseLaunches(unit)) {
    DeviceKernel kernel;
    kernel.device_name = absl::StrCat(launch.name, "_gpu");
    kernel.dims = launch.dims;
    if (CuResult error = device.driver.module_get_function(
            &kernel.function, *module, kernel.device_name.c_str());
        error != 0) {
      return CudaError(
          device.driver, error,
          absl::StrCat("cuModuleGetFunction(", kernel.device_name, ")"));
    }
    loaded->kernels_[launch.name] = std::move(kernel);
  }
  return loaded;
}

}  // namespace kiln::gpu
