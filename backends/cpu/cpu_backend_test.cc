// The CPU backend against the reference evaluator: the lowering as a
// whole (flat and indexed kernels, fusions, layouts, fallbacks, control
// flow), every XLA dump of compiler/text/xla_dumps on random arguments,
// the kernel cache, the device layer, several devices, and --emit.
#include "backends/cpu/cpu_backend.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/reference/reference_backend.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"
#include "tools/conform/tolerance.h"

namespace kiln::cpu {
namespace {

TEST_F(CpuBackendTest, ElementwiseChainIsOneFlatKernel) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[64,33] parameter(0)
  y = f32[64,33] parameter(1)
  m = f32[64,33] multiply(x, y)
  c = f32[] constant(-0.5)
  b = f32[64,33] broadcast(c), dimensions={}
  a = f32[64,33] add(m, b)
  ROOT t = f32[64,33] tanh(a)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 7, "chain");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("kernels: 1"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, LargeLoopsSplitOverThreadsGiveTheSameValues) {
  // Over kParallelWork elements: the outer loop runs on several threads.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[300,400] parameter(0)
  e = f32[300,400] exponential(x)
  z = f32[] constant(0)
  r = f32[300] reduce(e, z), dimensions={1}, to_apply=add
  t = f32[400,300] transpose(e), dimensions={1,0}
  ROOT out = (f32[300], f32[400,300]) tuple(r, t)
})");
  ASSERT_NE(module, nullptr);
  for (int64_t threads : {1, 2, 3}) {
    CompileOptions options;
    options.threads = threads;
    CpuBackend cpu;
    ReferenceBackend reference;
    auto native = cpu.Compile(*module, options);
    auto oracle = reference.Compile(*module, options);
    ASSERT_TRUE(native.ok() && oracle.ok());
    std::mt19937_64 generator(21);
    std::vector<Literal> arguments;
    arguments.push_back(
        cli::RandomLiteral((*oracle)->parameter_shapes()[0], generator)
            .value());
    absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
    absl::StatusOr<Literal> actual = (*native)->Run(arguments);
    ASSERT_TRUE(expected.ok() && actual.ok());
    conform::Comparison comparison =
        conform::CompareLiterals(*expected, *actual, [&](ElementType type) {
          return conform::DefaultTolerance(*module, type);
        });
    EXPECT_TRUE(comparison.ok) << threads << ":\n" << comparison.report;
    absl::StatusOr<std::string> cpp = (*native)->Emit("cpp");
    ASSERT_TRUE(cpp.ok());
    EXPECT_NE(cpp->find("#pragma omp parallel for"), std::string::npos);
  }
}

TEST_F(CpuBackendTest, LargeFlatOutputsAreStreamedToMemory) {
  // 9 MB of outputs (over kStreamingStoreBytes), in an element count that
  // is not a multiple of the block: computed a block at a time and stored
  // with non-temporal stores, the last block partial. Small outputs keep
  // plain stores.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[1500007] parameter(0)
  y = f32[1500007] parameter(1)
  a = f32[1500007] add(x, y)
  t = f32[1500007] tanh(a)
  h = bf16[1500007] convert(a)
  ROOT out = (f32[1500007], bf16[1500007]) tuple(t, h)
})");
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, 17, "streamed outputs");
  const std::string cpp = Emitted(*module, "cpp");
  EXPECT_NE(cpp.find("kiln_cpu::StreamStore(o0 + i0"), std::string::npos)
      << cpp;
  EXPECT_NE(cpp.find("kiln_cpu::StreamStore(o1 + i0"), std::string::npos);

  std::unique_ptr<Module> small = Parse(R"(
HloModule m
ENTRY e {
  x = f32[1000] parameter(0)
  ROOT t = f32[1000] tanh(x)
})");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(Emitted(*small, "cpp").find("StreamStore(o"), std::string::npos);
}

TEST_F(CpuBackendTest, IndexOpsMatchTheEvaluator) {
  ExpectSameAsReference(R"(
HloModule m
ENTRY e {
  x = f32[4,6] parameter(0)
  t = f32[6,4] transpose(x), dimensions={1,0}
  r = f32[6,4] reverse(t), dimensions={0}
  s = f32[3,4] slice(r), slice={[1:6:2], [0:4]}
  z = f32[] constant(7)
  p = f32[6,9] pad(s, z), padding=1_0_1x-1_0_2
  i = s32[6,9] iota(), iota_dimension=1
  f = f32[6,9] convert(i)
  c = f32[12,9] concatenate(p, f), dimensions={0}
  q = f32[36,3] reshape(c)
  ROOT n = f32[36,3] negate(q)
})");
}

TEST_F(CpuBackendTest, ZeroSizedAndDegenerateShapes) {
  ExpectSameAsReference(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[0,5] parameter(0)
  y = f32[1,1,7] parameter(1)
  n = f32[0,5] negate(x)
  z = f32[] constant(0)
  r = f32[5] reduce(x, z), dimensions={0}, to_apply=add
  e = f32[1,1,7] exponential(y)
  q = f32[7] reduce(e, z), dimensions={0,1}, to_apply=add
  ROOT t = (f32[0,5], f32[5], f32[7]) tuple(n, r, q)
})");
}

TEST_F(CpuBackendTest, NonDefaultEntryLayouts) {
  ExpectSameAsReference(R"(
HloModule m, entry_computation_layout={(f32[3,5]{0,1}, f32[5,3]{1,0})->f32[3,5]{0,1}}
ENTRY e {
  x = f32[3,5]{0,1} parameter(0)
  y = f32[5,3]{1,0} parameter(1)
  t = f32[3,5]{0,1} transpose(y), dimensions={1,0}
  ROOT a = f32[3,5]{0,1} add(x, t)
})");
}

TEST_F(CpuBackendTest, SoftmaxFusionsWithReducesRunNatively) {
  // The cpu pipeline makes multi-output fusions of a reduce and its
  // consumer (outputs of different dimensions): one loop nest per output.
  std::unique_ptr<Module> module = Parse(R"(
HloModule softmax
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
  x = f32[16,33] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[16] reduce(x, ninf), dimensions={1}, to_apply=max
  mb = f32[16,33] broadcast(m), dimensions={0}
  d = f32[16,33] subtract(x, mb)
  ex = f32[16,33] exponential(d)
  zero = f32[] constant(0)
  s = f32[16] reduce(ex, zero), dimensions={1}, to_apply=add
  sb = f32[16,33] broadcast(s), dimensions={0}
  ROOT r = f32[16,33] divide(ex, sb)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 9, "softmax");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, BitcastsReadTheSameBytesUnderBothLayouts) {
  ExpectSameAsReference(R"(
HloModule m
ENTRY e {
  x = f32[4,6]{1,0} parameter(0)
  t = f32[6,4]{0,1} bitcast(x)
  r = f32[3,8]{1,0} bitcast(x)
  c = f32[6,4]{1,0} copy(t)
  n = f32[3,8]{1,0} negate(r)
  ROOT out = (f32[6,4]{1,0}, f32[3,8]{1,0}) tuple(c, n)
})");
}

TEST_F(CpuBackendTest, FallbacksAreCountedAndNamed) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[4,4] parameter(0)
  ROOT c = f32[4,4] cholesky(x), lower=true
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 5, "cholesky");
  EXPECT_NE(stats.find("fallback cholesky: 1"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, WhileBodiesThatPermuteTheirStateRunNatively) {
  // The body swaps two state elements: each copy back must read the
  // values from before the iteration.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
cond {
  p = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  a = f32[4] get-tuple-element(p), index=1
  b = f32[4] get-tuple-element(p), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  d = f32[4] add(a, a)
  ROOT t = (s32[], f32[4], f32[4]) tuple(j, b, d)
}
branch0 {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
branch1 {
  p = f32[4] parameter(0)
  ROOT e = f32[4] exponential(p)
}
callee {
  p = f32[4] parameter(0)
  q = f32[4] parameter(1)
  ROOT m = f32[4] multiply(p, q)
}
ENTRY e {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  k = s32[] parameter(2)
  z = s32[] constant(0)
  t = (s32[], f32[4], f32[4]) tuple(z, x, y)
  r = (s32[], f32[4], f32[4]) while(t), condition=cond, body=body
  u = f32[4] get-tuple-element(r), index=1
  v = f32[4] get-tuple-element(r), index=2
  w = f32[4] call(u, v), to_apply=callee
  first = f32[4] negate(x)
  w2 = f32[4] call(w, v), to_apply=callee, control-predecessors={first}
  ROOT c = f32[4] conditional(k, w2, w2), branch_computations={branch0, branch1}
})");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {1, 2, 3, 4}) {  // Selectors in and out of range.
    const std::string stats = ExpectSameAsReference(*module, seed, "loop");
    EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos)
        << stats;
    // The while, the conditional and the call ordered by a control edge
    // (the cpu pipeline inlines the other call).
    EXPECT_NE(stats.find("control-flow thunks: 3"), std::string::npos) << stats;
  }
}

TEST_F(CpuBackendTest, WhileStateTheBodyNeverChangesIsNotCopied) {
  // x (a parameter) and c (a constant) pass through the body unchanged:
  // the loop reads them where they are, so the arena holds only the
  // counter and the accumulator (about 4 KB; 8 KB if x were copied in).
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
cond {
  p = (s32[], f32[1000], f32[1000], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[1000], f32[1000], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  acc = f32[1000] get-tuple-element(p), index=1
  x = f32[1000] get-tuple-element(p), index=2
  c = f32[4] get-tuple-element(p), index=3
  one = s32[] constant(1)
  j = s32[] add(i, one)
  a = f32[1000] add(acc, x)
  ROOT t = (s32[], f32[1000], f32[1000], f32[4]) tuple(j, a, x, c)
}
ENTRY e {
  acc0 = f32[1000] parameter(0)
  x = f32[1000] parameter(1)
  c = f32[4] constant({1, -2, 3.5, -0})
  z = s32[] constant(0)
  t = (s32[], f32[1000], f32[1000], f32[4]) tuple(z, acc0, x, c)
  r = (s32[], f32[1000], f32[1000], f32[4]) while(t), condition=cond, body=body
  a = f32[1000] get-tuple-element(r), index=1
  xs = f32[1000] get-tuple-element(r), index=2
  cs = f32[4] get-tuple-element(r), index=3
  ROOT out = (f32[1000], f32[1000], f32[4]) tuple(a, xs, cs)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 5, "pass-through");
  const size_t at = stats.find("arena bytes: ");
  ASSERT_NE(at, std::string::npos) << stats;
  EXPECT_LT(std::stoll(stats.substr(at + 13)), 8000) << stats;
}

TEST_F(CpuBackendTest, WhileLoopsOverTuples) {
  ExpectSameAsReference(R"(
HloModule m
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(5)
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[4] add(v, v)
  ROOT t = (s32[], f32[4]) tuple(j, w)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[4]) tuple(z, x)
  r = (s32[], f32[4]) while(t), condition=cond, body=body
  ROOT v = f32[4] get-tuple-element(r), index=1
})");
}

// The dumps whose custom-call targets the evaluator does not implement:
// it refuses them, and so must the cpu backend (docs/backends.md).
const absl::flat_hash_map<std::string, std::string>& NotComparedDumps() {
  static const auto* const dumps =
      new absl::flat_hash_map<std::string, std::string>{
          {"eig_nonsymmetric.hlo", "lapack_sgeev_ffi (LAPACK)"},
          {"eig_nonsymmetric.opt.hlo", "lapack_sgeev_ffi (LAPACK)"},
          {"host_callback.hlo", "xla_ffi_python_cpu_callback (Python)"},
          {"host_callback.opt.hlo", "xla_ffi_python_cpu_callback (Python)"},
          {"linalg.hlo", "lapack_spotrf_ffi (LAPACK)"},
          {"linalg.opt.hlo", "lapack_spotrf_ffi (LAPACK)"},
          {"linalg_decomp.hlo", "lapack_sgeqrf_ffi (LAPACK)"},
          {"linalg_decomp.opt.hlo", "lapack_ssyevd_ffi (LAPACK)"},
      };
  return *dumps;
}

TEST_F(CpuBackendTest, EveryXlaDumpMatchesTheEvaluator) {
  const std::vector<std::string> files = DumpFiles();
  EXPECT_GE(files.size(), 90u);
  int compared = 0;
  for (const std::string& path : files) {
    ParseOptions options;
    options.filename = path;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), options);
    ASSERT_TRUE(module.ok()) << module.status();
    const ReferenceComparison result = CompareWithReference(**module, 11, path);
    const std::string name = path.substr(path.find_last_of('/') + 1);
    const auto known = NotComparedDumps().find(name);
    if (known == NotComparedDumps().end()) {
      EXPECT_TRUE(result.not_compared.empty())
          << path << ": not compared: " << result.not_compared;
      compared += result.not_compared.empty() ? 1 : 0;
    } else {
      // Still refused, for the recorded custom call.
      const std::string target =
          known->second.substr(0, known->second.find(' '));
      EXPECT_NE(result.not_compared.find(target), std::string::npos)
          << path << ": expected not to run (" << known->second << "), got: "
          << (result.not_compared.empty() ? "compared" : result.not_compared);
    }
  }
  EXPECT_EQ(compared,
            static_cast<int>(files.size() - NotComparedDumps().size()));
}

TEST_F(CpuBackendTest, WarmCompilesHitTheCacheAndCorruptEntriesAreRebuilt) {
  const std::string source =
      "extern \"C\" int kiln_probe() { return 42; }\n// cache test\n";
  KernelCompilerOptions options;
  options.cache_dir = absl::StrCat(std::getenv("KILN_CACHE_DIR"), "/probe");
  KernelBuildStats cold, warm, repaired;
  std::string path;
  {
    auto library = BuildKernelLibrary(source, options, &cold);
    ASSERT_TRUE(library.ok()) << library.status();
    EXPECT_FALSE(cold.cache_hit);
    auto probe = reinterpret_cast<int (*)()>((*library)->Find("kiln_probe"));
    ASSERT_NE(probe, nullptr);
    EXPECT_EQ(probe(), 42);
  }
  {
    auto library = BuildKernelLibrary(source, options, &warm);
    ASSERT_TRUE(library.ok()) << library.status();
    EXPECT_TRUE(warm.cache_hit);
    EXPECT_EQ(warm.path, cold.path);
  }
  {
    std::fstream entry(cold.path,
                       std::ios::in | std::ios::out | std::ios::binary);
    entry.seekp(100);
    entry.write("garbage!", 8);
  }
  auto library = BuildKernelLibrary(source, options, &repaired);
  ASSERT_TRUE(library.ok()) << library.status();
  EXPECT_FALSE(repaired.cache_hit);
  EXPECT_TRUE(repaired.rebuilt_corrupt_entry);
  auto probe = reinterpret_cast<int (*)()>((*library)->Find("kiln_probe"));
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe(), 42);
}

TEST_F(CpuBackendTest, AMissingHostCompilerSaysWhichVariableToSet) {
  setenv("KILN_CXX", "/nonexistent/c++", 1);
  auto library = BuildKernelLibrary("// nothing\n", {});
  unsetenv("KILN_CXX");
  ASSERT_FALSE(library.ok());
  EXPECT_NE(library.status().message().find("KILN_CXX"), std::string::npos)
      << library.status();
}

TEST_F(CpuBackendTest, ExecutesOnDeviceBuffers) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  s = f32[8] add(x, y)
  n = f32[8] negate(x)
  ROOT t = (f32[8], f32[8]) tuple(s, n)
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  ASSERT_EQ(cpu.Devices().size(), 1u);
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<DeviceBuffer*> arguments;
  std::vector<Literal> literals;
  for (float base : {1.0f, 10.0f}) {
    std::vector<float> values;
    for (int i = 0; i < 8; ++i) values.push_back(base + i);
    literals.push_back(Literal::VectorF32(values));
    auto buffer = cpu.TransferToDevice(literals.back());
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    arguments.push_back(buffer->get());
    buffers.push_back(*std::move(buffer));
  }
  absl::StatusOr<Literal> expected = (*executable)->Run(literals);
  ASSERT_TRUE(expected.ok()) << expected.status();
  // Twice on the same buffers: executions never write their arguments.
  for (int round = 0; round < 2; ++round) {
    ExecuteResult result = (*executable)->Execute(arguments).get();
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->size(), 2u);
    for (int k = 0; k < 2; ++k) {
      absl::StatusOr<Literal> back = cpu.TransferToHost(*(*result)[k]);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(*back, expected->tuple_elements()[k]);
    }
  }
  // A donated buffer is consumed; using it again is an error.
  ExecuteOptions donate;
  donate.donated = {0};
  ASSERT_TRUE((*executable)->Execute(arguments, donate).get().ok());
  EXPECT_TRUE(arguments[0]->is_deleted());
  ExecuteResult reuse = (*executable)->Execute(arguments).get();
  ASSERT_FALSE(reuse.ok());
  EXPECT_NE(reuse.status().message().find("donated"), std::string::npos);
  donate.donated = {5};
  EXPECT_FALSE((*executable)->Execute(arguments, donate).get().ok());
}

TEST_F(CpuBackendTest, DonatedArgumentsBecomeTheOutputsTheyAlias) {
  // Output 0 (a flat update of x, which reads each element before writing
  // it) is written into x's donated buffer. Output 1 aliases y but is a
  // product reading y while it writes: not shared, y is only released.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, may-alias) }
ENTRY e {
  x = f32[64,64] parameter(0)
  y = f32[64,64] parameter(1)
  h = f32[] constant(0.5)
  hb = f32[64,64] broadcast(h), dimensions={}
  m = f32[64,64] multiply(hb, y)
  s = f32[64,64] subtract(x, m)
  t = f32[64,64] dot(y, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT out = (f32[64,64], f32[64,64]) tuple(s, t)
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::string stats = (*executable)->Emit("stats").value();
  EXPECT_NE(stats.find("donation: output {0} <- parameter 0: shared"),
            std::string::npos)
      << stats;
  EXPECT_NE(stats.find("donation: output {1} <- parameter 1: not shared"),
            std::string::npos)
      << stats;
  std::mt19937_64 generator(3);
  std::vector<Literal> literals;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<DeviceBuffer*> arguments;
  for (int k = 0; k < 2; ++k) {
    literals.push_back(
        cli::RandomLiteral((*executable)->parameter_shapes()[k], generator)
            .value());
    buffers.push_back(cpu.TransferToDevice(literals.back()).value());
    arguments.push_back(buffers.back().get());
  }
  absl::StatusOr<Literal> expected = (*executable)->Run(literals);
  ASSERT_TRUE(expected.ok()) << expected.status();
  const uint8_t* x_bytes =
      static_cast<HostBuffer*>(arguments[0])->value().data().data();
  ExecuteOptions donate;
  donate.donated = {0, 1};
  ExecuteResult result = (*executable)->Execute(arguments, donate).get();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(arguments[0]->is_deleted() && arguments[1]->is_deleted());
  const auto& shared = static_cast<const HostBuffer&>(*(*result)[0]);
  EXPECT_EQ(shared.value().data().data(), x_bytes)
      << literals[0].shape().ToString(true) << " vs "
      << shared.value().shape().ToString(true);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(static_cast<const HostBuffer&>(*(*result)[k]).value(),
              expected->tuple_elements()[k]);
  }
}

TEST_F(CpuBackendTest, DevicesRunAsThreadsWithCollectivesBetweenThem) {
  // 2 replicas x 2 partitions: each device runs the lowered program on its
  // own thread (kernels native), and the collectives meet in one hub.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m, replica_count=2, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8,16] parameter(0)
  t = f32[8,16] tanh(x)
  r = f32[8,16] all-reduce(t), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=add
  g = f32[16,16] all-gather(t), channel_id=2, replica_groups={{0,2},{1,3}}, use_global_device_ids=true, dimensions={0}
  p = f32[8,16] collective-permute(r), channel_id=3, source_target_pairs={{0,1},{1,0}}
  e = f32[8,16] exponential(p)
  id = u32[] partition-id()
  ROOT out = (f32[8,16], f32[16,16], f32[8,16], u32[]) tuple(r, g, e, id)
})");
  ASSERT_NE(module, nullptr);
  CompileOptions options;
  options.replica_count = 2;
  options.num_partitions = 2;
  CpuBackend cpu;
  ReferenceBackend reference;
  absl::StatusOr<std::unique_ptr<Executable>> native =
      cpu.Compile(*module, options);
  ASSERT_TRUE(native.ok()) << native.status();
  absl::StatusOr<std::unique_ptr<Executable>> oracle =
      reference.Compile(*module, options);
  ASSERT_TRUE(oracle.ok()) << oracle.status();
  std::mt19937_64 generator(29);
  std::vector<std::vector<Literal>> arguments(4);
  for (std::vector<Literal>& device : arguments) {
    absl::StatusOr<Literal> argument =
        cli::RandomLiteral(Shape::Array(ElementType::kF32, {8, 16}), generator);
    ASSERT_TRUE(argument.ok()) << argument.status();
    device.push_back(*std::move(argument));
  }
  absl::StatusOr<std::vector<Literal>> expected =
      (*oracle)->RunReplicated(arguments);
  ASSERT_TRUE(expected.ok()) << expected.status();
  absl::StatusOr<std::vector<Literal>> actual =
      (*native)->RunReplicated(arguments);
  ASSERT_TRUE(actual.ok()) << actual.status();
  ASSERT_EQ(actual->size(), 4u);
  for (size_t d = 0; d < 4; ++d) {
    conform::Comparison comparison = conform::CompareLiterals(
        (*expected)[d], (*actual)[d], [&](ElementType type) {
          return conform::DefaultTolerance(*module, type);
        });
    EXPECT_TRUE(comparison.ok) << "device " << d << ":\n" << comparison.report;
  }
  absl::StatusOr<std::string> stats = (*native)->Emit("stats");
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_NE(stats->find("collective thunks: 3"), std::string::npos) << *stats;
  EXPECT_EQ(stats->find("whole module"), std::string::npos) << *stats;
  // A wrong argument for one device is refused, naming the device.
  arguments[2][0] = Literal::ScalarF32(1);
  absl::StatusOr<std::vector<Literal>> refused =
      (*native)->RunReplicated(arguments);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("device 2"), std::string::npos)
      << refused.status();
}

TEST_F(CpuBackendTest, RngSeedIsAPerRunOption) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  ROOT r = f32[16] rng(lo, hi), distribution=rng_uniform
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  ReferenceBackend reference;
  for (Backend* backend : std::vector<Backend*>{&cpu, &reference}) {
    absl::StatusOr<std::unique_ptr<Executable>> executable =
        backend->Compile(*module, {});
    ASSERT_TRUE(executable.ok()) << executable.status();
    ExecuteOptions seeded;
    seeded.rng_seed = 7;
    auto run = [&](const ExecuteOptions& options) {
      ExecuteResult result = (*executable)->Execute({}, options).get();
      EXPECT_TRUE(result.ok()) << result.status();
      return backend->TransferToHost(*(*result)[0]).value();
    };
    EXPECT_EQ(run(seeded), run(seeded)) << backend->name();
    EXPECT_NE(run(seeded), run({})) << backend->name();
  }
}

TEST_F(CpuBackendTest, EmitShowsEachStage) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  ROOT n = f32[8] negate(x)
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> cpp = (*executable)->Emit("cpp");
  ASSERT_TRUE(cpp.ok());
  EXPECT_NE(cpp->find("kiln::eval::NegateOp{32}"), std::string::npos);
  absl::StatusOr<std::string> thunks = (*executable)->Emit("thunks");
  ASSERT_TRUE(thunks.ok());
  EXPECT_NE(thunks->find("kernel kiln_kernel_0"), std::string::npos);
  EXPECT_FALSE((*executable)->Emit("llvm").ok());
}

}  // namespace
}  // namespace kiln::cpu
