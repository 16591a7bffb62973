// The generated convolution kernel: on the cpu backend it runs every
// convolution the im2col library thunk does not take (integers, narrow
// floats, complex, batch groups) and must equal the evaluator bit for bit;
// the text for each target (an OpenMP loop on the host, a grid-stride
// __global__ kernel on CUDA that SerialKernel leaves alone) and the cases
// it refuses. backends/gpu/convolution_kernel_test.cc runs the same cases
// on gpu-emulated.
#include "backends/cpu/convolution_emitter.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "backends/cpu/convolution_test_cases.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/cpu/kernel_target.h"
#include "compiler/ir/module.h"
#include "gtest/gtest.h"

namespace kiln::cpu {
namespace {

using ConvolutionEmitterTest = CpuBackendTest;

TEST_F(ConvolutionEmitterTest, KernelEqualsTheEvaluatorBitForBit) {
  for (const ConvolutionCase& c : ConvolutionKernelCases()) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Module> module = Parse(c.hlo);
    ASSERT_NE(module, nullptr);
    if (c.library_on_host) {
      ExpectSameAsReference(*module, 3, c.hlo);
      EXPECT_TRUE(absl::StrContains(ConvolutionStep(Emitted(*module, "thunks")),
                                    "library im2col-gemm (c)"));
      continue;
    }
    CpuBackend cpu;
    const std::string thunks =
        ExpectBitIdenticalToReference(cpu, c.hlo, 3, "thunks");
    EXPECT_TRUE(absl::StrContains(ConvolutionStep(thunks), ": kernel "))
        << thunks;
  }
}

// The instruction `c` of `text`'s entry (null with a failure).
const Instruction* Convolution(const Module* module) {
  EXPECT_NE(module, nullptr);
  if (module == nullptr) return nullptr;
  return module->entry()->root();
}

constexpr char kConvolution[] = R"(HloModule m
ENTRY e {
  x = s32[1,2,300,300] parameter(0)
  k = s32[3,2,3,3] parameter(1)
  ROOT c = s32[1,3,298,298] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01
})";

TEST_F(ConvolutionEmitterTest, HostTextIsAnOpenMpLoop) {
  std::unique_ptr<Module> module = Parse(kConvolution);
  absl::StatusOr<std::string> text = EmitConvolutionKernel(
      *Convolution(module.get()), "conv", KernelTarget::kHostCpp);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(absl::StrContains(
      *text, "extern \"C\" void conv(const void* const* in, void* const* out)"))
      << *text;
  EXPECT_TRUE(absl::StrContains(*text, "#pragma omp parallel for")) << *text;
  EXPECT_TRUE(absl::StrContains(*text, "uint32_t acc")) << *text;
  EXPECT_EQ(SerialKernel(KernelTarget::kHostCpp, *text, "conv"), *text);
}

TEST_F(ConvolutionEmitterTest, CudaTextIsAGridStrideKernelNotWrapped) {
  std::unique_ptr<Module> module = Parse(kConvolution);
  absl::StatusOr<std::string> text = EmitConvolutionKernel(
      *Convolution(module.get()), "conv", KernelTarget::kCuda);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(absl::StrContains(*text, "__global__")) << *text;
  EXPECT_TRUE(absl::StrContains(*text, "conv_gpu(")) << *text;
  EXPECT_TRUE(absl::StrContains(*text, "gridDim.x")) << *text;
  EXPECT_FALSE(absl::StrContains(*text, "#pragma omp")) << *text;
  // 3 * 298 * 298 outputs, one thread each: 1041 blocks of 256 threads,
  // not cooperative (no barriers, so the emulation needs no fibers).
  EXPECT_TRUE(absl::StrContains(*text, "KILN_LAUNCH(conv, 1041, 256, 0)"))
      << *text;
  // The lowering passes every kernel through SerialKernel: this one has
  // no host entry for it to wrap.
  EXPECT_EQ(SerialKernel(KernelTarget::kCuda, *text, "conv"), *text);
}

TEST_F(ConvolutionEmitterTest, RefusesConversionsThatAreNotExactWidenings) {
  for (const char* types :
       {"f32[1,2,5,5], f32[3,2,3,3], s32", "s32[1,2,5,5], s32[3,2,3,3], f32",
        "s32[1,2,5,5], s32[3,2,3,3], s16", "s16[1,2,5,5], s16[3,2,3,3], u32",
        "f32[1,2,5,5], f32[3,2,3,3], bf16",
        "c64[1,2,5,5], c64[3,2,3,3], c128"}) {
    SCOPED_TRACE(types);
    const std::vector<std::string> parts = absl::StrSplit(types, ", ");
    const std::string text =
        absl::StrCat("HloModule m\nENTRY e {\n  x = ", parts[0],
                     " parameter(0)\n  k = ", parts[1],
                     " parameter(1)\n  ROOT c = ", parts[2],
                     "[1,3,3,3] convolution(x, k), window={size=3x3}, "
                     "dim_labels=bf01_oi01->bf01\n}\n");
    std::unique_ptr<Module> module = Parse(text);
    for (KernelTarget target : {KernelTarget::kHostCpp, KernelTarget::kCuda}) {
      absl::StatusOr<std::string> kernel =
          EmitConvolutionKernel(*Convolution(module.get()), "conv", target);
      EXPECT_TRUE(absl::IsUnimplemented(kernel.status())) << kernel.status();
    }
    // The cpu backend still runs it, on the evaluator (where the reference
    // takes the conversion at all).
    const ReferenceComparison run = CompareWithReference(*module, 5, text);
    if (run.not_compared.empty()) {
      EXPECT_TRUE(absl::StrContains(run.stats, "fallback convolution: 1"))
          << run.stats;
    }
  }
}

TEST_F(ConvolutionEmitterTest, RefusesOffsetsThatCouldOverflow) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m
ENTRY e {
  x = s32[1,1,5] parameter(0)
  k = s32[1,1,2] parameter(1)
  ROOT c = s32[1,1,1] convolution(x, k), window={size=2 stride=4611686018427387904}, dim_labels=bf0_oi0->bf0
})");
  absl::StatusOr<std::string> kernel = EmitConvolutionKernel(
      *Convolution(module.get()), "conv", KernelTarget::kCuda);
  EXPECT_TRUE(absl::IsUnimplemented(kernel.status())) << kernel.status();
}

}  // namespace
}  // namespace kiln::cpu
