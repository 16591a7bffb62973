// The CUDA emulation shim (emulation/cuda_shim.h) on hand-written kernels:
// it must not hide a missing barrier (a block reduction without its
// __syncthreads gives a wrong sum), it reports a barrier not every thread
// reaches instead of hanging, and its shuffles and atomics behave as
// CUDA's.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/gpu/gpu_backend.h"
#include "gtest/gtest.h"

namespace kiln::gpu {
namespace {

using Kernel = void (*)(const void* const*, void* const*);
using TakeError = const char* (*)();

class EmulationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("KILN_CACHE_DIR", tmp != nullptr ? tmp : "/tmp/kiln-test-cache", 1);
  }
  // Builds `source` against the emulation prelude; null on failure.
  std::shared_ptr<cpu::KernelLibrary> Build(const std::string& source) {
    auto library =
        cpu::BuildKernelLibrary(source, {}, nullptr, EmulationPrelude());
    EXPECT_TRUE(library.ok()) << library.status();
    return library.ok() ? *library : nullptr;
  }
  // Runs `symbol` on one input array and one output array; returns the
  // emulation's error ("" when none).
  std::string Run(const cpu::KernelLibrary& library, const std::string& symbol,
                  const std::vector<float>& input, std::vector<float>& output) {
    auto kernel = reinterpret_cast<Kernel>(library.Find(symbol));
    auto take =
        reinterpret_cast<TakeError>(library.Find("kiln_emu_take_error"));
    EXPECT_NE(kernel, nullptr);
    EXPECT_NE(take, nullptr);
    if (kernel == nullptr || take == nullptr) return "missing";
    const void* in[] = {input.data()};
    void* out[] = {output.data()};
    kernel(in, out);
    const char* error = take();
    return error != nullptr ? error : "";
  }
};

// A block's tree sum through shared memory: one partial sum per thread,
// then halving strides. BARRIER is replaced by __syncthreads() or by
// nothing.
constexpr char kTreeSum[] = R"(
extern "C" __global__ void NAME_gpu(const void* const* in, void* const* out) {
  const float* x = static_cast<const float*>(in[0]);
  float* y = static_cast<float*>(out[0]);
  KILN_SHARED(float, partial, 128);
  const int t = threadIdx.x;
  partial[t] = x[blockIdx.x * 128 + t];
  BARRIER
  for (int stride = 64; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    BARRIER
  }
  if (t == 0) y[blockIdx.x] = partial[0];
}
KILN_LAUNCH(NAME, 4, 128, 1)
)";

std::string TreeSum(const std::string& name, const std::string& barrier) {
  return absl::StrReplaceAll(kTreeSum, {{"NAME", name}, {"BARRIER", barrier}});
}

TEST_F(EmulationTest, AMissingSyncthreadsGivesAWrongSum) {
  std::shared_ptr<cpu::KernelLibrary> library =
      Build(TreeSum("synced", "__syncthreads();") + TreeSum("racy", ""));
  ASSERT_NE(library, nullptr);
  std::vector<float> input(512);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<float>(i % 7);
  std::vector<float> expected(4, 0.0f);
  for (size_t i = 0; i < input.size(); ++i) expected[i / 128] += input[i];

  std::vector<float> synced(4, -1.0f);
  EXPECT_EQ(Run(*library, "synced", input, synced), "");
  EXPECT_EQ(synced, expected);

  // Without the barriers thread 0 runs to its end before thread 1 has
  // written its partial sum: it adds the poison of unwritten shared memory
  // (NaN), as a real GPU may add a stale value. The emulation must not
  // give the right sum.
  std::vector<float> racy(4, -1.0f);
  EXPECT_EQ(Run(*library, "racy", input, racy), "");
  for (int b = 0; b < 4; ++b) EXPECT_NE(racy[b], expected[b]) << b;
}

TEST_F(EmulationTest, ABarrierNotEveryThreadReachesIsReported) {
  const std::string source = R"(
extern "C" __global__ void diverge_gpu(const void* const* in, void* const* out) {
  if (threadIdx.x < 16) __syncthreads();
  static_cast<float*>(out[0])[threadIdx.x] = 1.0f;
}
KILN_LAUNCH(diverge, 1, 64, 1)
extern "C" __global__ void uncooperative_gpu(const void* const* in, void* const* out) {
  __syncthreads();
}
KILN_LAUNCH(uncooperative, 1, 32, 0)
)";
  std::shared_ptr<cpu::KernelLibrary> library = Build(source);
  ASSERT_NE(library, nullptr);
  std::vector<float> input(1), output(64);
  const std::string error = Run(*library, "diverge", input, output);
  EXPECT_NE(error.find("kernel diverge, block 0: a barrier"), std::string::npos)
      << error;
  EXPECT_NE(Run(*library, "uncooperative", input, output)
                .find("__syncthreads in a kernel launched without cooperative"),
            std::string::npos);
}

TEST_F(EmulationTest, ShufflesAndAtomicsBehaveAsCudas) {
  // A warp sum by __shfl_down_sync, then one atomicAdd per warp into the
  // total; __shfl_xor_sync's butterfly gives every lane the warp's max.
  const std::string source = R"(
extern "C" __global__ void warps_gpu(const void* const* in, void* const* out) {
  const float* x = static_cast<const float*>(in[0]);
  float* y = static_cast<float*>(out[0]);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = x[i], top = x[i];
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
    const float other = __shfl_xor_sync(0xffffffffu, top, offset);
    top = other > top ? other : top;
  }
  if (threadIdx.x % 32 == 0) atomicAdd(&y[0], sum);
  y[1 + i] = top;
}
KILN_LAUNCH(warps, 3, 64, 1)
)";
  std::shared_ptr<cpu::KernelLibrary> library = Build(source);
  ASSERT_NE(library, nullptr);
  std::vector<float> input(192), output(193, 0.0f);
  float total = 0;
  for (size_t i = 0; i < input.size(); ++i) {
    input[i] = static_cast<float>((i * 37) % 101);
    total += input[i];
  }
  EXPECT_EQ(Run(*library, "warps", input, output), "");
  EXPECT_EQ(output[0], total);
  for (size_t i = 0; i < input.size(); ++i) {
    float top = 0;
    for (size_t j = i / 32 * 32; j < i / 32 * 32 + 32; ++j) {
      top = std::max(top, input[j]);
    }
    EXPECT_EQ(output[1 + i], top) << i;
  }
}

}  // namespace
}  // namespace kiln::gpu
