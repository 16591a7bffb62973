// The generated convolution kernel on its CUDA target: gpu-emulated runs
// every convolution as that kernel (one thread per output element, the
// same text NVRTC compiles for `gpu`) and must equal the evaluator bit for
// bit, f32, f64 and bf16 included (on the host those take the im2col
// library thunk instead, backends/cpu/convolution_emitter_test.cc).
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "backends/backend.h"
#include "backends/cpu/convolution_test_cases.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/gpu/gpu_backend.h"
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

}  // namespace
}  // namespace kiln::gpu
