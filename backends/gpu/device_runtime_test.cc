// The gpu backend's device runtime on the fake CUDA driver
// (testing/fake_cuda_driver.cc): device memory and copies, cuBLAS dots,
// host fallbacks, launch geometry, and the errors of launches, faults,
// out-of-memory and module loads. The fake runs no kernels (launches are
// recorded), so values are compared only where no kernel computes them;
// device_emulated_test runs the kernels too.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "backends/backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/cpu/kernel_target.h"
#include "backends/gpu/cuda_driver.h"
#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/nvrtc_compiler.h"
#include "backends/gpu/testing/fake_driver.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::gpu {
namespace {

class DeviceRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    cache_ = tmp != nullptr ? tmp : "/tmp/kiln-test-cache";
    setenv("KILN_CACHE_DIR", cache_.c_str(), 1);
    fake_ = testing::UseFakeDriver();
    ASSERT_NE(fake_, nullptr);
    fake_->reset();
    absl::StatusOr<const CudaDevice*> device = GetCudaDevice();
    ASSERT_TRUE(device.ok()) << device.status();
    ASSERT_EQ((*device)->name, "Fake CUDA Device");
  }
  // Every device allocation is freed with its executable.
  void TearDown() override {
    if (fake_ != nullptr) {
      EXPECT_EQ(fake_->live_allocations(), 0);
    }
  }

  std::unique_ptr<Executable> Compile(const std::string& text) {
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return nullptr;
    absl::StatusOr<std::unique_ptr<Executable>> executable =
        MakeDeviceBackend()->Compile(**module, CompileOptions());
    EXPECT_TRUE(executable.ok()) << executable.status();
    return executable.ok() ? *std::move(executable) : nullptr;
  }

  // Compares with the reference backend on random arguments; the stats.
  std::string ExpectSameAsReference(const std::string& text) {
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return "";
    std::unique_ptr<Backend> gpu = MakeDeviceBackend();
    return cpu::CompareBackendWithReference(*gpu, **module, 5, text, "stats")
        .stats;
  }

  static bool HaveNvrtc() {
    static const bool have =
        CompileToPtx("extern \"C\" __global__ void k() {}", "compute_80").ok();
    return have;
  }

  std::string cache_;
  const testing::FakeDriver* fake_ = nullptr;
};

// Zero arguments for `executable`'s parameters.
std::vector<Literal> ZeroArguments(const Executable& executable) {
  std::vector<Literal> arguments;
  for (const Shape& shape : executable.parameter_shapes()) {
    absl::StatusOr<Literal> literal = Literal::Create(shape);
    EXPECT_TRUE(literal.ok());
    arguments.push_back(*std::move(literal));
  }
  return arguments;
}

constexpr char kDots[] = R"(
HloModule dots
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  at = f32[3,2] parameter(2)
  bt = f32[4,3] parameter(3)
  ba = f64[2,2,3] parameter(4)
  bb = f64[2,3,5] parameter(5)
  d0 = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d1 = f32[2,4] dot(at, bt), lhs_contracting_dims={0}, rhs_contracting_dims={1}
  d2 = f64[2,2,5] dot(ba, bb), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ROOT t = (f32[2,4], f32[2,4], f64[2,2,5]) tuple(d0, d1, d2)
}
)";

TEST_F(DeviceRuntimeTest, DotsRunThroughCublasAndValuesRoundTrip) {
  const std::string stats = ExpectSameAsReference(kDots);
  EXPECT_TRUE(absl::StrContains(stats, "device library calls (cuBLAS): 3"))
      << stats;
  EXPECT_TRUE(absl::StrContains(stats,
                                "host fallback thunks (operands copied "
                                "to the host, results back): 0"))
      << stats;
  EXPECT_EQ(fake_->gemm_count(), 3);
  EXPECT_EQ(fake_->launch_count(), 0);
}

TEST_F(DeviceRuntimeTest, OpsWithoutADevicePathRunOnHostCopies) {
  // Cholesky has no native lowering: the evaluator runs it on host copies
  // of its operand, and its result goes back to the device.
  const std::string stats = ExpectSameAsReference(R"(
HloModule fallback
ENTRY e {
  x = f64[3,3] parameter(0)
  ROOT c = f64[3,3] cholesky(x), lower=true
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "on host: fallback cholesky")) << stats;
  EXPECT_TRUE(absl::StrContains(stats, "host round trips so far: 1")) << stats;
}

TEST_F(DeviceRuntimeTest, DeviceOutOfMemoryIsResourceExhausted) {
  std::unique_ptr<Executable> executable = Compile(kDots);
  ASSERT_NE(executable, nullptr);
  fake_->fail_alloc_over(64);
  absl::StatusOr<Literal> result = executable->Run(ZeroArguments(*executable));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kResourceExhausted)
      << result.status();
  EXPECT_TRUE(
      absl::StrContains(result.status().message(), "device out of memory"))
      << result.status();
}

constexpr char kKernels[] = R"(
HloModule kernels
ENTRY e {
  x = f32[64,300] parameter(0)
  y = f32[64,300] parameter(1)
  s = f32[64,300] add(x, y)
  m = f32[64,300] exponential(s)
  zero = f32[] constant(0)
  r = f32[64] reduce(m, zero), dimensions={1}, to_apply=add
  ROOT t = (f32[64,300], f32[64]) tuple(m, r)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
)";

// The instruction of the kernel `symbol` in --emit=thunks text.
std::string KernelInstruction(const std::string& thunks,
                              const std::string& symbol) {
  const std::string marker = absl::StrCat("kernel ", symbol, " (");
  const size_t at = thunks.find(marker);
  if (at == std::string::npos) return "";
  const size_t start = at + marker.size();
  return thunks.substr(start, thunks.find(')', start) - start);
}

TEST_F(DeviceRuntimeTest, LaunchesUseTheGeometryOfTheLaunchLines) {
  if (!HaveNvrtc()) GTEST_SKIP() << "NVRTC is not installed";
  std::unique_ptr<Executable> executable = Compile(kKernels);
  ASSERT_NE(executable, nullptr);
  absl::StatusOr<std::string> cuda = executable->Emit("cuda");
  ASSERT_TRUE(cuda.ok());
  const std::vector<cpu::ParsedLaunch> lines = cpu::ParseLaunches(*cuda);
  ASSERT_FALSE(lines.empty());
  ASSERT_TRUE(executable->Run(ZeroArguments(*executable)).ok());
  ASSERT_EQ(fake_->launch_count(), static_cast<int>(lines.size()));
  for (int i = 0; i < fake_->launch_count(); ++i) {
    unsigned grid = 0, block = 0;
    const std::string function = fake_->launch(i, &grid, &block);
    bool found = false;
    for (const cpu::ParsedLaunch& line : lines) {
      if (function != line.name + "_gpu") continue;
      found = true;
      EXPECT_EQ(grid, line.dims.grid) << function;
      EXPECT_EQ(block, line.dims.block) << function;
    }
    EXPECT_TRUE(found) << function << " has no launch line";
  }
  absl::StatusOr<std::string> stats = executable->Emit("stats");
  ASSERT_TRUE(stats.ok());
  EXPECT_TRUE(
      absl::StrContains(*stats, absl::StrCat("device kernels: ", lines.size())))
      << *stats;
}

TEST_F(DeviceRuntimeTest, ALaunchErrorNamesTheKernelAndItsInstruction) {
  if (!HaveNvrtc()) GTEST_SKIP() << "NVRTC is not installed";
  std::unique_ptr<Executable> executable = Compile(kKernels);
  ASSERT_NE(executable, nullptr);
  const std::string name =
      cpu::ParseLaunches(*executable->Emit("cuda")).back().name;
  const std::string instruction =
      KernelInstruction(*executable->Emit("thunks"), name);
  ASSERT_FALSE(instruction.empty());
  fake_->fail_launch((name + "_gpu").c_str(), 701);
  absl::StatusOr<Literal> result = executable->Run(ZeroArguments(*executable));
  ASSERT_FALSE(result.ok());
  const std::string message(result.status().message());
  EXPECT_TRUE(absl::StrContains(message, name + "_gpu")) << message;
  EXPECT_TRUE(absl::StrContains(
      message, absl::StrCat("(instruction ", instruction, ")")))
      << message;
  EXPECT_TRUE(absl::StrContains(message, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"))
      << message;
}

TEST_F(DeviceRuntimeTest, AFaultReportedLaterNamesTheLastKernels) {
  if (!HaveNvrtc()) GTEST_SKIP() << "NVRTC is not installed";
  std::unique_ptr<Executable> executable = Compile(kKernels);
  ASSERT_NE(executable, nullptr);
  const std::string name =
      cpu::ParseLaunches(*executable->Emit("cuda")).back().name;
  fake_->fail_next_copy(700);
  absl::StatusOr<Literal> result = executable->Run(ZeroArguments(*executable));
  ASSERT_FALSE(result.ok());
  const std::string message(result.status().message());
  EXPECT_TRUE(absl::StrContains(message, "CUDA_ERROR_ILLEGAL_ADDRESS"))
      << message;
  EXPECT_TRUE(absl::StrContains(message, name + "_gpu")) << message;
}

TEST_F(DeviceRuntimeTest, AModuleLoadErrorCarriesTheJitLog) {
  if (!HaveNvrtc()) GTEST_SKIP() << "NVRTC is not installed";
  fake_->fail_module_load("ptxas fatal   : fake failure in fusion_gpu");
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kKernels);
  ASSERT_TRUE(module.ok());
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      MakeDeviceBackend()->Compile(**module, CompileOptions());
  ASSERT_FALSE(executable.ok());
  const std::string message(executable.status().message());
  EXPECT_TRUE(absl::StrContains(message, "CUDA_ERROR_INVALID_PTX")) << message;
  EXPECT_TRUE(absl::StrContains(message,
                                "the driver's JIT error log:\n"
                                "ptxas fatal   : fake failure"))
      << message;
}

TEST_F(DeviceRuntimeTest, TheDeviceImageIsCachedByContent) {
  if (!HaveNvrtc()) GTEST_SKIP() << "NVRTC is not installed";
  const std::string text = R"(
HloModule cached
ENTRY e {
  x = f32[100] parameter(0)
  c = f32[] constant(7.25)
  b = f32[100] broadcast(c), dimensions={}
  ROOT y = f32[100] multiply(x, b)
}
)";
  std::unique_ptr<Executable> first = Compile(text);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(absl::StrContains(*first->Emit("stats"),
                                "device image: cubin sm_80, kernel cache miss"))
      << *first->Emit("stats");
  std::unique_ptr<Executable> second = Compile(text);
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(absl::StrContains(*second->Emit("stats"), "kernel cache hit"))
      << *second->Emit("stats");
  // The entry is the path the stats name; a torn one is rebuilt.
  const std::string stats = *second->Emit("stats");
  const size_t at = stats.find(cache_ + "/gpu/");
  ASSERT_NE(at, std::string::npos) << stats;
  const std::string path = stats.substr(at, stats.find('\n', at) - at);
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  std::unique_ptr<Executable> third = Compile(text);
  ASSERT_NE(third, nullptr);
  EXPECT_TRUE(absl::StrContains(*third->Emit("stats"),
                                "kernel cache miss (corrupt entry rebuilt)"))
      << *third->Emit("stats");
}

}  // namespace
}  // namespace kiln::gpu
