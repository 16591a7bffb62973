// The generated convolution kernel on its CUDA target: gpu-emulated runs
// every convolution as that kernel (one thread per output element, the
// same text NVRTC compiles for `gpu`) and must equal the evaluator bit for
// bit, f32, f64 and bf16 included (on the host those take the im2col
// library thunk instead, backends/cpu/convolution_emitter_test.cc); the
// `gpu` text of every case compiles with NVRTC.
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "backends/backend.h"
#include "backends/cpu/convolution_test_cases.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/nvrtc_compiler.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::gpu {
namespace {

using ConvolutionKernelTest = cpu::CpuBackendTest;

TEST_F(ConvolutionKernelTest, EmulatedKernelEqualsTheEvaluatorBitForBit) {
  for (const cpu::ConvolutionCase& c : cpu::ConvolutionKernelCases()) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Backend> gpu = MakeEmulatedBackend();
    const std::string thunks =
        cpu::ExpectBitIdenticalToReference(*gpu, c.hlo, 3, "thunks");
    EXPECT_TRUE(absl::StrContains(cpu::ConvolutionStep(thunks), ": kernel "))
        << thunks;
  }
}

TEST_F(ConvolutionKernelTest, TheKernelIsAGridStrideCudaKernel) {
  std::unique_ptr<Backend> gpu = MakeEmulatedBackend();
  const std::string cuda = cpu::ExpectBitIdenticalToReference(
      *gpu, cpu::ConvolutionKernelCases()[0].hlo, 4, "cuda");
  EXPECT_TRUE(absl::StrContains(cuda, "__global__")) << cuda;
  EXPECT_TRUE(absl::StrContains(cuda, "gridDim.x")) << cuda;
  EXPECT_FALSE(absl::StrContains(cuda, "_serial(")) << cuda;
  // 2 * 4 * 7 * 4 outputs: one block of 224 threads, not cooperative
  // (the layout copies the pipeline adds launch the same way).
  EXPECT_TRUE(absl::StrContains(cuda, ", 1, 224, 0)")) << cuda;
  EXPECT_TRUE(absl::StrContains(cuda, "uint32_t acc")) << cuda;
}

// The `gpu` backend's text of every case (the same kernels) compiles with
// NVRTC, as one unit with the kernels renamed apart; no device needed.
TEST_F(ConvolutionKernelTest, EveryCaseCompilesWithNvrtc) {
  if (!CompileToPtx("", "compute_80").ok()) {
    GTEST_SKIP() << "no NVRTC: " << CompileToPtx("", "compute_80").status();
  }
  std::unique_ptr<Backend> gpu = MakeDeviceBackend();
  std::string unit = DevicePrelude();
  int k = 0;
  for (const cpu::ConvolutionCase& c : cpu::ConvolutionKernelCases()) {
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(c.hlo);
    ASSERT_TRUE(module.ok()) << c.name << ": " << module.status();
    absl::StatusOr<std::unique_ptr<Executable>> executable =
        gpu->Compile(**module, {});
    ASSERT_TRUE(executable.ok()) << c.name << ": " << executable.status();
    absl::StatusOr<std::string> cuda = (*executable)->Emit("cuda");
    ASSERT_TRUE(cuda.ok()) << cuda.status();
    EXPECT_TRUE(absl::StrContains(*cuda, " acc = ")) << c.name;
    absl::StrAppend(
        &unit,
        absl::StrReplaceAll(
            cuda->substr(DevicePrelude().size()),
            {{"kiln_kernel_", absl::StrCat("kiln_c", k++, "_kernel_")}}));
  }
  absl::StatusOr<std::string> ptx = CompileToPtx(unit, "compute_80");
  EXPECT_TRUE(ptx.ok()) << ptx.status();
}

}  // namespace
}  // namespace kiln::gpu
