#include "backends/gpu/testing/fake_driver.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdio>
#include <type_traits>

namespace kiln::gpu::testing {

std::string FakeDriverPath() {
  // Tests run in their runfiles tree, at the workspace's root.
  char path[PATH_MAX];
  if (realpath("backends/gpu/testing/libfake_cuda_driver.so", path) ==
      nullptr) {
    return "";
  }
  return path;
}

const FakeDriver* UseFakeDriver() {
  static const FakeDriver* const driver = []() -> const FakeDriver* {
    const std::string path = FakeDriverPath();
    if (path.empty()) {
      std::fprintf(stderr, "the fake CUDA driver is not in the runfiles\n");
      return nullptr;
    }
    setenv("KILN_CUDA_DRIVER_LIBRARY", path.c_str(), 1);
    setenv("KILN_CUBLAS_LIBRARY", path.c_str(), 1);
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "cannot load %s: %s\n", path.c_str(), dlerror());
      return nullptr;
    }
    auto* d = new FakeDriver;
    bool complete = true;
    auto find = [&](auto& function, const char* name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
          dlsym(library, name));
      complete &= function != nullptr;
    };
    find(d->reset, "fake_cuda_reset");
    find(d->fail_alloc_over, "fake_cuda_fail_alloc_over");
    find(d->fail_module_load, "fake_cuda_fail_module_load");
    find(d->fail_launch, "fake_cuda_fail_launch");
    find(d->fail_next_copy, "fake_cuda_fail_next_copy");
    find(d->set_launch_hook, "fake_cuda_set_launch_hook");
    find(d->launch_count, "fake_cuda_launch_count");
    find(d->launch, "fake_cuda_launch");
    find(d->live_allocations, "fake_cuda_live_allocations");
    find(d->gemm_count, "fake_cuda_gemm_count");
    if (!complete) {
      std::fprintf(stderr, "%s lacks a fake_cuda_ control\n", path.c_str());
      delete d;
      return nullptr;
    }
    return d;
  }();
  return driver;
}

}  // namespace kiln::gpu::testing
