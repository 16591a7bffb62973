// The gpu backend's device runtime end to end on the fake CUDA driver,
// with each launch run by the gpu emulation's host entry of the same
// kernel (the fake's "device" memory is host memory): parameters copied
// in, kernels on the arena at buffer assignment's offsets through the
// device pointer tables, cuBLAS dots, host fallbacks, while loops and
// conditionals reading their predicates from the device, results copied
// out, all against the reference evaluator.
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "backends/backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/cpu/thunks.h"
#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/testing/fake_driver.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"

namespace kiln::gpu {
namespace {

// The emulated kernels of the module under test; the fake's launch hook
// runs NAME_gpu as the emulation's host entry NAME (which runs the grid).
std::shared_ptr<cpu::KernelLibrary>* emulated = nullptr;

void RunEmulated(const char* function, const void* const* in,
                 void* const* out) {
  std::string name(function);
  if (absl::EndsWith(name, "_gpu")) name.resize(name.size() - 4);
  void* entry = emulated != nullptr && *emulated != nullptr
                    ? (*emulated)->Find(name)
                    : nullptr;
  if (entry == nullptr) {
    ADD_FAILURE() << "no emulated kernel " << name;
    return;
  }
  reinterpret_cast<cpu::KernelFunction>(entry)(in, out);
}

class DeviceEmulatedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("KILN_CACHE_DIR", tmp != nullptr ? tmp : "/tmp/kiln-test-cache", 1);
    fake_ = testing::UseFakeDriver();
    ASSERT_NE(fake_, nullptr);
    fake_->reset();
    fake_->set_launch_hook(&RunEmulated);
    emulated = &library_;
  }
  void TearDown() override {
    emulated = nullptr;
    if (fake_ != nullptr) {
      EXPECT_EQ(fake_->live_allocations(), 0);
    }
  }

  // Runs `text` on the device backend (kernels emulated) and the
  // reference; returns the device executable's stats.
  std::string ExpectSameAsReference(const std::string& text) {
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return "";
    return ExpectModuleSameAsReference(**module, text);
  }

  std::string ExpectModuleSameAsReference(const Module& module,
                                          const std::string& text) {
    // The emulated executable loads the kernel library; the same source
    // and prelude find it again in the kernel cache.
    absl::StatusOr<std::unique_ptr<Executable>> host =
        MakeEmulatedBackend()->Compile(module, CompileOptions());
    EXPECT_TRUE(host.ok()) << host.status();
    if (!host.ok()) return "";
    std::string source = *(*host)->Emit("cuda");
    if (absl::StartsWith(source, EmulationPrelude())) {
      source = source.substr(EmulationPrelude().size());
      absl::StatusOr<std::shared_ptr<cpu::KernelLibrary>> library =
          cpu::BuildKernelLibrary(source, {}, nullptr, EmulationPrelude());
      EXPECT_TRUE(library.ok()) << library.status();
      if (library.ok()) library_ = *library;
    }
    std::unique_ptr<Backend> gpu = MakeDeviceBackend();
    const std::string stats =
        cpu::CompareBackendWithReference(*gpu, module, 3, text, "stats").stats;
    library_ = nullptr;
    return stats;
  }

  const testing::FakeDriver* fake_ = nullptr;
  std::shared_ptr<cpu::KernelLibrary> library_;
};

TEST_F(DeviceEmulatedTest, FusedKernelsReductionsAndDotsRun) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule softmax_dot
ENTRY e {
  x = f32[16,40] parameter(0)
  w = f32[40,24] parameter(1)
  d = f32[16,24] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ninf = f32[] constant(-inf)
  max = f32[16] reduce(d, ninf), dimensions={1}, to_apply=maximum
  mb = f32[16,24] broadcast(max), dimensions={0}
  s = f32[16,24] subtract(d, mb)
  ex = f32[16,24] exponential(s)
  zero = f32[] constant(0)
  sum = f32[16] reduce(ex, zero), dimensions={1}, to_apply=add
  sb = f32[16,24] broadcast(sum), dimensions={0}
  ROOT y = f32[16,24] divide(ex, sb)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
maximum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "device library calls (cuBLAS): 1"))
      << stats;
  EXPECT_GT(fake_->launch_count(), 0);
}

TEST_F(DeviceEmulatedTest, LoopsAndConditionalsReadTheirPredicatesBack) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule control
cond {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  half = f32[] constant(0.5)
  hb = f32[8] broadcast(half), dimensions={}
  v2 = f32[8] add(v, hb)
  ROOT t = (s32[], f32[8]) tuple(i2, v2)
}
negate_branch {
  p = f32[8] parameter(0)
  ROOT n = f32[8] negate(p)
}
square_branch {
  p = f32[8] parameter(0)
  ROOT s = f32[8] multiply(p, p)
}
ENTRY e {
  x = f32[8] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[8]) tuple(z, x)
  w = (s32[], f32[8]) while(t), condition=cond, body=body
  v = f32[8] get-tuple-element(w), index=1
  first = f32[1] slice(v), slice={[0:1]}
  f = f32[] reshape(first)
  zero = f32[] constant(0)
  positive = pred[] compare(f, zero), direction=GT
  ROOT c = f32[8] conditional(positive, v, v), true_computation=negate_branch, false_computation=square_branch
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "host control thunks: 2")) << stats;
}

TEST_F(DeviceEmulatedTest, FallbacksMeetKernelsOnTheDevice) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule mixed
ENTRY e {
  x = f64[3,3] parameter(0)
  xt = f64[3,3] transpose(x), dimensions={1,0}
  xx = f64[3,3] dot(x, xt), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  eye = f64[3,3] constant({{3, 0, 0}, {0, 3, 0}, {0, 0, 3}})
  spd = f64[3,3] add(xx, eye)
  c = f64[3,3] cholesky(spd), lower=true
  ROOT y = f64[3,3] multiply(c, c)
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "on host: fallback cholesky")) << stats;
  EXPECT_TRUE(absl::StrContains(stats, "device library calls (cuBLAS): 1"))
      << stats;
}

// The narrow float types convert through compiler/ir/float_bits.h, which
// NVRTC compiles into the device's kernels as the host compiler does into
// the emulated ones: nothing of theirs runs on the host.
TEST_F(DeviceEmulatedTest, NarrowFloatKernelsRunOnTheDevice) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule narrow
add {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT c = bf16[] add(a, b)
}
ENTRY e {
  x = f32[4,64] parameter(0)
  e4 = f8e4m3fn[4,64] convert(x)
  e5 = f8e5m2[4,64] convert(x)
  fnuz = f8e4m3fnuz[4,64] convert(x)
  f4 = f4e2m1fn[4,64] convert(x)
  e8 = f8e8m0fnu[4,64] convert(x)
  s = f8e4m3fn[4,64] multiply(e4, e4)
  w = f32[4,64] convert(s)
  v = f32[4,64] convert(e5)
  u = f32[4,64] convert(fnuz)
  t = f32[4,64] convert(f4)
  r = f32[4,64] convert(e8)
  b = bf16[4,64] convert(x)
  zero = bf16[] constant(0)
  rows = bf16[4] reduce(b, zero), dimensions={1}, to_apply=add
  rf = f32[4] convert(rows)
  sum = f32[4,64] add(w, v)
  sum2 = f32[4,64] add(sum, u)
  sum3 = f32[4,64] add(sum2, t)
  ROOT out = (f32[4,64], f32[4,64], f32[4]) tuple(sum3, r, rf)
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "results back): 0\n")) << stats;
  EXPECT_GT(fake_->launch_count(), 0);
}

// Convolution is a generated kernel on the device (convolution_emitter.h),
// for a bf16 result (rounded through float_bits.h) as for an integer one.
TEST_F(DeviceEmulatedTest, ConvolutionsRunOnTheDevice) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule conv
ENTRY e {
  x = bf16[2,6,6,3] parameter(0)
  k = bf16[3,3,3,4] parameter(1)
  c = bf16[2,3,3,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  i = s32[1,4,7] parameter(2)
  w = s32[2,2,3] parameter(3)
  d = s32[1,2,5] convolution(i, w), window={size=3 rhs_dilate=1}, dim_labels=bf0_io0->bf0, feature_group_count=2
  ROOT out = (bf16[2,3,3,4], s32[1,2,5]) tuple(c, d)
}
)");
  EXPECT_TRUE(absl::StrContains(stats, "results back): 0\n")) << stats;
  EXPECT_GT(fake_->launch_count(), 0);
}

// The XLA dumps through the device runtime: minutes (each dump is compiled
// by NVRTC and by the host compiler), so run by hand with
// --test_timeout=1200 --test_arg=--gtest_also_run_disabled_tests
// --test_arg=--gtest_filter=*Dump*.
TEST_F(DeviceEmulatedTest, DISABLED_EveryXlaDumpMatchesTheEvaluator) {
  for (const std::string& path : DumpFiles()) {
    ParseOptions options;
    options.filename = path;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), options);
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectModuleSameAsReference(**module, path);
  }
}

}  // namespace
}  // namespace kiln::gpu
