#include "backends/gpu/nvrtc_compiler.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace kiln::cpu::embedded {
extern const char* const kDeviceStd;
}  // namespace kiln::cpu::embedded

namespace kiln::gpu {
namespace {

// nvrtc.h's signatures, declared here so that nothing needs the toolkit
// to build (nvrtcProgram is an opaque pointer, nvrtcResult an enum).
using Program = void*;
struct Nvrtc {
  const char* (*error_string)(int);
  int (*create)(Program*, const char*, const char*, int, const char* const*,
                const char* const*);
  int (*compile)(Program, int, const char* const*);
  int (*log_size)(Program, size_t*);
  int (*log)(Program, char*);
  int (*ptx_size)(Program, size_t*);
  int (*ptx)(Program, char*);
  int (*destroy)(Program*);
  // NVRTC 11.1 and later: machine code for an sm_XY architecture.
  int (*cubin_size)(Program, size_t*);
  int (*cubin)(Program, char*);
  int (*version)(int*, int*);  // May be missing.
  std::string path;            // The library loaded.
};

absl::StatusOr<Nvrtc> LoadNvrtc() {
  void* library = nullptr;
  std::string nvrtc_path;
  for (const std::string& path :
       {CudaHome() + "/lib64/libnvrtc.so.13", CudaHome() + "/lib64/libnvrtc.so",
        std::string("libnvrtc.so.13"), std::string("libnvrtc.so")}) {
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) {
      nvrtc_path = path;
      break;
    }
  }
  if (library == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "cannot load NVRTC (libnvrtc.so.13) from ", CudaHome(),
        "/lib64 or the loader's path; set CUDA_HOME to the CUDA toolkit"));
  }
  Nvrtc nvrtc = {};
  bool complete = true;
  auto find = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
        dlsym(library, name));
    complete &= function != nullptr;
  };
  find(nvrtc.error_string, "nvrtcGetErrorString");
  find(nvrtc.create, "nvrtcCreateProgram");
  find(nvrtc.compile, "nvrtcCompileProgram");
  find(nvrtc.log_size, "nvrtcGetProgramLogSize");
  find(nvrtc.log, "nvrtcGetProgramLog");
  find(nvrtc.ptx_size, "nvrtcGetPTXSize");
  find(nvrtc.ptx, "nvrtcGetPTX");
  find(nvrtc.destroy, "nvrtcDestroyProgram");
  if (!complete) return absl::UnavailableError("NVRTC lacks a function");
  nvrtc.cubin_size = reinterpret_cast<int (*)(Program, size_t*)>(
      dlsym(library, "nvrtcGetCUBINSize"));
  nvrtc.cubin = reinterpret_cast<int (*)(Program, char*)>(
      dlsym(library, "nvrtcGetCUBIN"));
  nvrtc.version =
      reinterpret_cast<int (*)(int*, int*)>(dlsym(library, "nvrtcVersion"));
  nvrtc.path = nvrtc_path;
  return nvrtc;
}

absl::StatusOr<std::string> Compile(const std::string& source,
                                    absl::string_view architecture, bool cubin);

const absl::StatusOr<Nvrtc>& GetNvrtc() {
  static const auto* const nvrtc = new absl::StatusOr<Nvrtc>(LoadNvrtc());
  return *nvrtc;
}

// NVRTC's log with each "k.cu(LINE): error" line followed by the
// instruction whose kernel holds that line.
std::string AnnotatedLog(const std::string& log, absl::string_view source) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    absl::StrAppend(&out, line, "\n");
    absl::string_view rest = line;
    int number = 0;
    if (!absl::ConsumePrefix(&rest, "kernel.cu(") ||
        !absl::StrContains(rest, "error")) {
      continue;
    }
    if (absl::SimpleAtoi(rest.substr(0, rest.find(')')), &number)) {
      const std::string instruction = InstructionAtLine(source, number);
      if (!instruction.empty()) {
        absl::StrAppend(&out, "  (in the kernel of instruction ", instruction,
                        ")\n");
      }
    }
  }
  return out;
}

}  // namespace

std::string CudaHome() {
  const char* home = std::getenv("CUDA_HOME");
  return home != nullptr && *home != '\0' ? home : "/usr/local/cuda";
}

std::string NvrtcIdentity() {
  const absl::StatusOr<Nvrtc>& nvrtc = GetNvrtc();
  if (!nvrtc.ok()) return "no NVRTC";
  int major = 0, minor = 0;
  if (nvrtc->version != nullptr) nvrtc->version(&major, &minor);
  return absl::StrCat("NVRTC ", major, ".", minor, " ", nvrtc->path);
}

std::string InstructionAtLine(absl::string_view source, int line) {
  std::vector<absl::string_view> lines = absl::StrSplit(source, '\n');
  for (int k = std::min<int>(line, lines.size()) - 1; k >= 0; --k) {
    absl::string_view text = lines[k];
    // Lowering's marker: "// NAME" alone on its line, right after a blank.
    if (absl::ConsumePrefix(&text, "// ") && !absl::StrContains(text, " ") &&
        k > 0 && lines[k - 1].empty()) {
      return std::string(text);
    }
  }
  return "";
}

absl::StatusOr<std::string> CompileToPtx(const std::string& source,
                                         absl::string_view architecture) {
  return Compile(source, architecture, /*cubin=*/false);
}

absl::StatusOr<std::string> CompileToCubin(const std::string& source,
                                           absl::string_view architecture) {
  const absl::StatusOr<Nvrtc>& loaded = GetNvrtc();
  if (!loaded.ok()) return loaded.status();
  if (loaded->cubin == nullptr || loaded->cubin_size == nullptr) {
    return absl::UnimplementedError("this NVRTC has no nvrtcGetCUBIN");
  }
  return Compile(source, architecture, /*cubin=*/true);
}

namespace {

absl::StatusOr<std::string> Compile(const std::string& source,
                                    absl::string_view architecture,
                                    bool cubin) {
  const absl::StatusOr<Nvrtc>& loaded = GetNvrtc();
  if (!loaded.ok()) return loaded.status();
  const Nvrtc& nvrtc = *loaded;
  // Every standard header the prelude includes is device_std.h.
  static const char* const kNames[] = {
      "algorithm", "cmath",   "complex",          "cstdint",
      "cstring",   "limits",  "type_traits",      "vector",
      "omp.h",     "utility", "kiln_device_std.h"};
  constexpr int kCount = sizeof(kNames) / sizeof(kNames[0]);
  const char* const redirect = "#include \"kiln_device_std.h\"\n";
  std::vector<const char*> texts(kCount - 1, redirect);
  texts.push_back(cpu::embedded::kDeviceStd);
  Program program = nullptr;
  if (int error = nvrtc.create(&program, source.c_str(), "kernel.cu", kCount,
                               texts.data(), kNames);
      error != 0) {
    return absl::InternalError(
        absl::StrCat("nvrtcCreateProgram: ", nvrtc.error_string(error)));
  }
  const std::string arch = absl::StrCat("--gpu-architecture=", architecture);
  const std::string cccl = absl::StrCat("-I", CudaHome(), "/include/cccl");
  const std::string include = absl::StrCat("-I", CudaHome(), "/include");
  // -default-device: the prelude's unannotated functions are device
  // functions; IEEE semantics as on the host (no FMA contraction, no
  // flushing of subnormals, exact division and square root).
  const char* options[] = {"--std=c++17",      "-default-device",
                           arch.c_str(),       cccl.c_str(),
                           include.c_str(),    "--fmad=false",
                           "--ftz=false",      "--prec-div=true",
                           "--prec-sqrt=true", "-diag-suppress=177,550"};
  const int error =
      nvrtc.compile(program, sizeof(options) / sizeof(options[0]), options);
  size_t size = 0;
  nvrtc.log_size(program, &size);
  std::string log(size, '\0');
  if (size > 0) nvrtc.log(program, log.data());
  while (!log.empty() && log.back() == '\0') log.pop_back();
  std::string ptx;
  if (error == 0 && cubin) {
    nvrtc.cubin_size(program, &size);
    ptx.assign(size, '\0');
    nvrtc.cubin(program, ptx.data());
  } else if (error == 0) {
    nvrtc.ptx_size(program, &size);
    ptx.assign(size, '\0');
    nvrtc.ptx(program, ptx.data());
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  }
  nvrtc.destroy(&program);
  if (error != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "NVRTC cannot compile the generated CUDA (", nvrtc.error_string(error),
        "):\n", AnnotatedLog(log, source)));
  }
  return ptx;
}

}  // namespace
}  // namespace kiln::gpu
