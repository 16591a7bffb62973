// The GPU backends against the reference evaluator: gpu-emulated runs the
// generated CUDA kernels (elementwise chains, reductions, multi-output
// fusions, scans, sorts, scatters, control flow) on the CPU and must agree
// with the evaluator; the kernels are CUDA (__global__, grid-stride
// loops); `gpu` compiles and emits without a device and fails to run with
// the documented message.
#include "backends/gpu/gpu_backend.h"

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/gpu/cuda_driver.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"

namespace kiln::gpu {
namespace {

class GpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("KILN_CACHE_DIR", tmp != nullptr ? tmp : "/tmp/kiln-test-cache", 1);
  }
};

std::unique_ptr<Module> Parse(const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// Runs `module` on gpu-emulated and the reference backend with random
// arguments; returns the emulated executable's --emit=`emit` text ("" when
// the reference cannot run it: the dumps that call LAPACK or Python).
std::string ExpectModuleSameAsReference(const Module& module,
                                        const std::string& what,
                                        const std::string& emit) {
  std::unique_ptr<Backend> gpu = MakeEmulatedBackend();
  return cpu::CompareBackendWithReference(*gpu, module, 11, what, emit).stats;
}

std::string ExpectSameAsReference(const std::string& text,
                                  const std::string& emit = "stats") {
  std::unique_ptr<Module> module = Parse(text);
  if (module == nullptr) return "";
  return ExpectModuleSameAsReference(*module, text, emit);
}

TEST_F(GpuBackendTest, ElementwiseChainsAreGridStrideCudaKernels) {
  const std::string cuda = ExpectSameAsReference(R"(
HloModule m
ENTRY e {
  x = f32[1000] parameter(0)
  y = f32[1000] parameter(1)
  a = f32[1000] add(x, y)
  t = f32[1000] tanh(a)
  h = bf16[1000] convert(t)
  ROOT m = bf16[1000] multiply(h, h)
})",
                                                 "cuda");
  EXPECT_NE(cuda.find("__global__ void"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("blockIdx.x) * blockDim.x + threadIdx.x"),
            std::string::npos);
  EXPECT_NE(cuda.find("KILN_LAUNCH(kiln_kernel_0, 4, 256, 0)"),
            std::string::npos)
      << cuda;
}

TEST_F(GpuBackendTest, ReductionsTransposesAndBroadcastsRun) {
  ExpectSameAsReference(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] maximum(a, b)
}
ENTRY e {
  x = f32[37,65] parameter(0)
  z = f32[] constant(0)
  r = f32[37] reduce(x, z), dimensions={1}, to_apply=add
  b = f32[65,37] broadcast(r), dimensions={1}
  t = f32[65,37] transpose(x), dimensions={1,0}
  d = f32[65,37] divide(t, b)
  i = s32[37,65] convert(x)
  lo = s32[] constant(-100)
  mx = s32[65] reduce(i, lo), dimensions={0}, to_apply=max
  ROOT out = (f32[65,37], s32[65]) tuple(d, mx)
})");
}

TEST_F(GpuBackendTest, MultiOutputFusionsSynchronizeTheirNests) {
  // A softmax: the row max and sum are outputs of their own loop nests,
  // read back by the later nests of the same kernel after a barrier.
  const std::string cuda = ExpectSameAsReference(R"(
HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8,300] parameter(0)
  lo = f32[] constant(-inf)
  m = f32[8] reduce(x, lo), dimensions={1}, to_apply=max
  mb = f32[8,300] broadcast(m), dimensions={0}
  s = f32[8,300] subtract(x, mb)
  e = f32[8,300] exponential(s)
  z = f32[] constant(0)
  d = f32[8] reduce(e, z), dimensions={1}, to_apply=add
  db = f32[8,300] broadcast(d), dimensions={0}
  ROOT y = f32[8,300] divide(e, db)
})",
                                                 "cuda");
  EXPECT_NE(cuda.find("__global__"), std::string::npos);
}

TEST_F(GpuBackendTest, ScansSortsScattersAndLoopsRun) {
  const std::string stats = ExpectSameAsReference(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
cond {
  p = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[16] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[16] add(v, v)
  ROOT t = (s32[], f32[16]) tuple(j, w)
}
ENTRY e {
  x = f32[4,16] parameter(0)
  z = f32[] constant(0)
  c = f32[4,16] reduce-window(x, z), window={size=1x16 pad=0_0x15_0}, to_apply=add
  s = f32[4,16] sort(x), dimensions={1}, to_apply=less
  idx = s32[3,1] parameter(1)
  upd = f32[3,16] parameter(2)
  sc = f32[4,16] scatter(x, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  zero = s32[] constant(0)
  first = f32[1,16] slice(x), slice={[0:1], [0:16]}
  row = f32[16] reshape(first)
  init = (s32[], f32[16]) tuple(zero, row)
  w = (s32[], f32[16]) while(init), condition=cond, body=body
  wv = f32[16] get-tuple-element(w), index=1
  ROOT out = (f32[4,16], f32[4,16], f32[4,16], f32[16]) tuple(c, s, sc, wv)
})");
  EXPECT_NE(stats.find("control-flow thunks: 1"), std::string::npos) << stats;
}

// Scatters whose updates commute run one thread per update element: the
// integer ones (repeated indices included) by compare-and-swap, after a
// copy kernel unless the operand is their own, and a unique_indices one
// by plain stores; a float sum without unique_indices keeps the serial
// kernel, so that it adds in the evaluator's order.
TEST_F(GpuBackendTest, CommutingScattersRunOneThreadPerUpdate) {
  const std::string cuda = ExpectSameAsReference(R"(
HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
max {
  a = u64[] parameter(0)
  b = u64[] parameter(1)
  ROOT m = u64[] maximum(a, b)
}
replace {
  a = f32[] parameter(0)
  ROOT b = f32[] parameter(1)
}
fadd {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = s32[8,16] parameter(0)
  upd = s32[6,16] parameter(1)
  idx = s32[6,1] constant({{0}, {2}, {0}, {3}, {2}, {2}})
  sc = s32[8,16] scatter(x, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  y = u64[8,16] parameter(2)
  yy = u64[8,16] add(y, y)
  updu = u64[6,16] parameter(3)
  scu = u64[8,16] scatter(yy, idx, updu), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=max
  f = f32[8] parameter(4)
  uidx = s32[3,1] constant({{5}, {1}, {7}})
  fu = f32[3] parameter(5)
  scf = f32[8] scatter(f, uidx, fu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, unique_indices=true, to_apply=replace
  fs = f32[6] parameter(6)
  scs = f32[8] scatter(f, idx, fs), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=fadd
  ROOT out = (s32[8,16], u64[8,16], f32[8], f32[8]) tuple(sc, scu, scf, scs)
})",
                                                 "cuda");
  auto count = [&](const std::string& needle) {
    int64_t n = 0;
    for (size_t at = cuda.find(needle); at != std::string::npos;
         at = cuda.find(needle, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("atomicCAS(cell"), 2) << cuda;
  EXPECT_EQ(count("    o0[i] = p0[i];"), 2) << cuda;  // sc's and scf's copies.
  EXPECT_EQ(count("_serial(in, out)"), 1) << cuda;    // scs.
}

TEST_F(GpuBackendTest, EveryXlaDumpMatchesTheEvaluator) {
  const std::vector<std::string> files = DumpFiles();
  EXPECT_GE(files.size(), 90u);
  for (const std::string& path : files) {
    ParseOptions options;
    options.filename = path;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), options);
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectModuleSameAsReference(**module, path, "stats");
  }
}

TEST_F(GpuBackendTest, TheDeviceBackendEmitsWithoutADeviceAndRefusesToRun) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[64] parameter(0)
  ROOT y = f32[64] negate(x)
})");
  ASSERT_NE(module, nullptr);
  absl::StatusOr<std::unique_ptr<Backend>> gpu =
      BackendRegistry::Global().Create("gpu");
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_EQ((*gpu)->name(), "gpu");
  auto executable = (*gpu)->Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> cuda = (*executable)->Emit("cuda");
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_NE(cuda->find("kiln_kernel_0_gpu"), std::string::npos);
  if (CudaDeviceStatus().ok()) GTEST_SKIP() << "a CUDA device is present";
  std::mt19937_64 generator(1);
  std::vector<Literal> arguments;
  arguments.push_back(
      *cli::RandomLiteral(module->entry()->parameter(0)->shape(), generator));
  absl::StatusOr<Literal> result = (*executable)->Run(arguments);
  EXPECT_EQ(result.status().message(),
            "no CUDA driver/device found; use --backend=gpu-emulated to run "
            "the same kernels on the CPU");
}

}  // namespace
}  // namespace kiln::gpu
