// The CPU backend against the reference evaluator: hand-written modules
// for each lowering (flat and indexed kernels, reductions, dot, fallback),
// zero-sized and degenerate shapes, non-default entry layouts, and every
// XLA dump of compiler/text/xla_dumps on random arguments.
#include "backends/cpu/cpu_backend.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/reference/reference_backend.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"
#include "tools/conform/tolerance.h"

namespace kiln::cpu {
namespace {

class CpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("KILN_CACHE_DIR", tmp != nullptr ? tmp : "/tmp/kiln-test-cache", 1);
  }
};

std::unique_ptr<Module> Parse(const std::string& text) {
  ParseOptions options;
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

// The suite's default tolerance for `type`, widened when the module also
// computes in a narrower float type: rounding differences of a narrow dot
// or reduction (an f32 GEMM with FMA against the evaluator's sequential
// sum) carry into results converted to a wider type.
conform::Tolerance MixedPrecisionTolerance(const Module& module,
                                           ElementType type) {
  conform::Tolerance tolerance = conform::DefaultTolerance(module, type);
  if (!IsFloatType(type)) return tolerance;
  int narrowest = BitWidth(type);
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const ElementType inner = instruction->shape().element_type();
      if (IsFloatType(inner)) narrowest = std::min(narrowest, BitWidth(inner));
    }
  }
  if (narrowest >= BitWidth(type)) return tolerance;
  const double epsilon = narrowest >= 32 ? 1.2e-7 : 1e-2;
  const double bound =
      16 * epsilon * std::max<int64_t>(1, conform::LongestReduction(module));
  return tolerance.Loosest(conform::Tolerance::AbsRel(bound, bound));
}

// Runs `module` on both backends with random arguments drawn from `seed`
// and compares under the conformance suite's default tolerance. Returns
// the cpu executable's stats.
std::string ExpectSameAsReference(const Module& module, uint64_t seed,
                                  const std::string& what) {
  CpuBackend cpu;
  ReferenceBackend reference;
  absl::StatusOr<std::unique_ptr<Executable>> native = cpu.Compile(module, {});
  absl::StatusOr<std::unique_ptr<Executable>> oracle =
      reference.Compile(module, {});
  if (!oracle.ok()) return "";  // Not runnable at all: nothing to compare.
  EXPECT_TRUE(native.ok()) << what << ": " << native.status();
  if (!native.ok()) return "";
  std::mt19937_64 generator(seed);
  std::vector<Literal> arguments;
  for (const Shape& shape : (*oracle)->parameter_shapes()) {
    absl::StatusOr<Literal> argument = cli::RandomLiteral(shape, generator);
    EXPECT_TRUE(argument.ok()) << argument.status();
    if (!argument.ok()) return "";
    arguments.push_back(*std::move(argument));
  }
  absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
  absl::StatusOr<Literal> actual = (*native)->Run(arguments);
  if (!expected.ok()) {
    EXPECT_FALSE(actual.ok())
        << what << ": the evaluator refused it (" << expected.status() << ")";
    return "";
  }
  EXPECT_TRUE(actual.ok()) << what << ": " << actual.status();
  if (!actual.ok()) return "";
  conform::Comparison comparison = conform::CompareLiterals(
      *expected, *actual,
      [&](ElementType type) { return MixedPrecisionTolerance(module, type); });
  EXPECT_TRUE(comparison.ok) << what << ":\n" << comparison.report;
  absl::StatusOr<std::string> stats = (*native)->Emit("stats");
  return stats.ok() ? *stats : "";
}

void ExpectSameAsReference(const std::string& text, uint64_t seed = 1) {
  std::unique_ptr<Module> module = Parse(text);
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, seed, text);
}

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

TEST_F(CpuBackendTest, VectorizedTranscendentalsStayWithinTolerance) {
  // exp, tanh and logistic of f32, bf16 and f16 use the prelude's
  // branch-free versions (computed in double, rounded once): specials,
  // subnormals, the edges of float's range, the series/exp switch of tanh
  // at 1/16, and a sweep of [-20.48, 20.47].
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  k = f32[24] constant({nan, inf, -inf, -0, 0, 1e-40, -1e-30, 0.0625, 0.06249999, -0.0625, 88.7, 89, -87.4, -103, -104, -150, 709, 1000, -1000, 20, -9.5, 3e-8, 0.5, -1})
  i = f32[4096] iota(), iota_dimension=0
  c = f32[] constant(0.01)
  cb = f32[4096] broadcast(c), dimensions={}
  o = f32[] constant(-20.48)
  ob = f32[4096] broadcast(o), dimensions={}
  m = f32[4096] multiply(i, cb)
  x = f32[4096] add(m, ob)
  ke = f32[24] exponential(k)
  kt = f32[24] tanh(k)
  kl = f32[24] logistic(k)
  xe = f32[4096] exponential(x)
  xt = f32[4096] tanh(x)
  xl = f32[4096] logistic(x)
  h = f16[4096] convert(x)
  he = f16[4096] exponential(h)
  b = bf16[4096] convert(x)
  bt = bf16[4096] tanh(b)
  bl = bf16[4096] logistic(b)
  ROOT t = (f32[24], f32[24], f32[24], f32[4096], f32[4096], f32[4096], f16[4096], bf16[4096], bf16[4096]) tuple(ke, kt, kl, xe, xt, xl, he, bt, bl)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats =
      ExpectSameAsReference(*module, 3, "transcendentals");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> source = (*executable)->Emit("cpp");
  ASSERT_TRUE(source.ok()) << source.status();
  for (const char* function :
       {"kiln_cpu::ExpF32(", "kiln_cpu::TanhF32(", "kiln_cpu::LogisticF32("}) {
    EXPECT_NE(source->find(function), std::string::npos) << function;
  }
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

TEST_F(CpuBackendTest, IndexOpsMatchTheEvaluator) {
  ExpectSameAsReference(R"(
HloModule m
ENTRY e {
  x = f32[4,6] parameter(0)
  t = f32[6,4] transpose(x), dimensions={1,0}
  r = f32[6,4] reverse(t), dimensions={0}
  s = f32[3,4] slice(r), slice={[1:6:2], [0:4]}
  z = f32[] constant(7)
  p = f32[6,9] pad(s, z), padding=1_2_1x-1_2_2
  i = s32[6,9] iota(), iota_dimension=1
  f = f32[6,9] convert(i)
  c = f32[12,9] concatenate(p, f), dimensions={0}
  q = f32[36,3] reshape(c)
  ROOT n = f32[36,3] negate(q)
})");
}

TEST_F(CpuBackendTest, IntegerEdgeCasesFollowTheSpec) {
  // x / 0, INT_MIN / -1, shifts by at least the bit width, float to int
  // saturation and NaN to 0.
  ExpectSameAsReference(R"(
HloModule m
ENTRY e {
  a = s32[6] constant({7, -7, -2147483648, 5, 0, 1})
  b = s32[6] constant({0, 0, -1, 40, -1, 31})
  d = s32[6] divide(a, b)
  r = s32[6] remainder(a, b)
  l = s32[6] shift-left(a, b)
  s = s32[6] shift-right-arithmetic(a, b)
  f = f32[6] constant({nan, inf, -inf, 3e9, -3e9, -0.5})
  g = s32[6] convert(f)
  u = u8[6] convert(f)
  ROOT t = (s32[6], s32[6], s32[6], s32[6], s32[6], u8[6]) tuple(d, r, l, s, g, u)
})");
}

TEST_F(CpuBackendTest, NarrowFloatsRoundAfterEveryOp) {
  // bf16 and f16 computed in float and rounded once per op: specials,
  // overflow to inf, subnormals, underflow and ties through converts, and
  // a bf16 sum (accumulated in double, rounded once, as the evaluator).
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
ENTRY e {
  k = f32[12] constant({nan, inf, -inf, 65520, 65519, 6e-08, 1e-08, -0, 1.00390625, 1.01171875, 3.0517578e-05, -2.9802322e-08})
  h = f16[12] convert(k)
  b = bf16[12] convert(k)
  hb = bf16[12] convert(h)
  x = bf16[64,33] parameter(0)
  y = f16[64,33] parameter(1)
  t = bf16[64,33] tanh(x)
  c = bf16[64,33] convert(y)
  m = bf16[64,33] multiply(t, c)
  z = bf16[] constant(0.1)
  r = bf16[64] reduce(m, z), dimensions={1}, to_apply=add
  ex = f16[64,33] exponential(y)
  i = f16[64,33] iota(), iota_dimension=0
  d = f16[64,33] divide(ex, i)
  ROOT out = (f16[12], bf16[12], bf16[12], bf16[64], f16[64,33]) tuple(h, b, hb, r, d)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 12, "narrow");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, EightBitAndNarrowerTypesRoundOrWrapAfterEveryOp) {
  // f8/f6/f4 floats (computed in float, rounded by compiler/ir's own
  // routines), sub-byte integers (computed in 8 bits, wrapped; float
  // converts saturate to their range, shifts past their width give 0),
  // constants, converts between them, sums that round every step.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add8 {
  a = f8e4m3fn[] parameter(0)
  b = f8e4m3fn[] parameter(1)
  ROOT s = f8e4m3fn[] add(a, b)
}
add4 {
  a = s4[] parameter(0)
  b = s4[] parameter(1)
  ROOT s = s4[] add(a, b)
}
ENTRY e {
  x = f32[6,40] parameter(0)
  spread = f32[] constant(37.5)
  k = f32[6,40] broadcast(spread), dimensions={}
  y = f32[6,40] multiply(x, k)
  a = f8e4m3fn[6,40] convert(y)
  b = f8e5m2[6,40] convert(y)
  c = f4e2m1fn[6,40] convert(y)
  d = f6e2m3fn[6,40] convert(y)
  e8 = f8e8m0fnu[6,40] convert(y)
  m = f8e4m3fn[6,40] multiply(a, a)
  t = f8e5m2[6,40] tanh(b)
  cd = f4e2m1fn[6,40] add(c, c)
  ab = f8e5m2[6,40] convert(a)
  z = f8e4m3fn[] constant(0)
  r = f8e4m3fn[6] reduce(m, z), dimensions={1}, to_apply=add8
  i = s32[6,40] parameter(1)
  s = s4[6,40] convert(i)
  u = u4[6,40] convert(i)
  q = s2[6,40] convert(i)
  sf = s4[6,40] convert(y)
  uf = u4[6,40] convert(y)
  ss = s4[6,40] multiply(s, s)
  three = s4[] constant(-3)
  tb = s4[6,40] broadcast(three), dimensions={}
  sh = s4[6,40] shift-left(s, tb)
  u4_as_s4 = s4[6,40] convert(u)
  sr = s4[6,40] shift-right-arithmetic(s, u4_as_s4)
  ud = u4[6,40] divide(u, u)
  lt = pred[6,40] compare(s, u4_as_s4), direction=LT
  sel = s4[6,40] select(lt, s, ss)
  s4z = s4[] constant(0)
  rs = s4[6] reduce(ss, s4z), dimensions={1}, to_apply=add4
  back = f32[6,40] convert(sel)
  ROOT out = (f8e4m3fn[6,40], f8e5m2[6,40], f4e2m1fn[6,40], f6e2m3fn[6,40], f8e8m0fnu[6,40], f8e5m2[6,40], f8e4m3fn[6], s4[6,40], s2[6,40], s4[6,40], u4[6,40], s4[6,40], s4[6,40], u4[6,40], s4[6,40], s4[6], f32[6,40]) tuple(m, t, cd, d, e8, ab, r, s, q, sf, uf, sh, sr, ud, sel, rs, back)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 21, "narrow");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, ComplexValuesRunAsKernels) {
  // c64 and c128: the evaluator's complex functors, abs/real/imag/complex,
  // constants, converts into and between complex types, equality, and
  // a complex sum (sequential: never reassociated).
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}
ENTRY e {
  x = f32[5,9] parameter(0)
  y = f32[5,9] parameter(1)
  z = c64[5,9] complex(x, y)
  k = c64[9] constant({(1, -2), (0, 0), (-0, 3.5), (inf, 1), (2, nan), (1e-40, 1), (-1, -1), (0.5, 0.25), (3, 4)})
  kb = c64[5,9] broadcast(k), dimensions={1}
  p = c64[5,9] multiply(z, kb)
  q = c64[5,9] divide(p, z)
  ex = c64[5,9] exponential(z)
  sq = c64[5,9] sqrt(q)
  ab = f32[5,9] abs(p)
  re = f32[5,9] real(ex)
  im = f32[5,9] imag(sq)
  ri = f32[5,9] real(x)
  ii = f32[5,9] imag(x)
  eq = pred[5,9] compare(p, kb), direction=NE
  w = c128[5,9] convert(z)
  wl = c128[5,9] log(w)
  i = s32[5,9] convert(x)
  fromi = c64[5,9] convert(i)
  zero = c64[] constant((0, 0))
  r = c64[5] reduce(p, zero), dimensions={1}, to_apply=add
  ROOT out = (c64[5,9], c64[5,9], f32[5,9], f32[5,9], f32[5,9], f32[5,9], f32[5,9], pred[5,9], c128[5,9], c64[5,9], c64[5]) tuple(q, ex, ab, re, im, ri, ii, eq, wl, fromi, r)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 23, "complex");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, DynamicUpdateSlicesRunAsKernels) {
  // Starts clamped so that the update fits (negative, past the end, of
  // several integer types), an update as large as the operand, a single
  // element, a bf16 one, and one fed by an elementwise producer.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[9,7] parameter(0)
  u = f32[3,4] parameter(1)
  e = f32[3,4] exponential(u)
  i = s32[] constant(-2)
  i5 = s32[] constant(5)
  j = s64[] constant(5)
  k = u32[] constant(100)
  kz = u32[] constant(0)
  a = f32[9,7] dynamic-update-slice(x, e, i, i5)
  b = f32[9,7] dynamic-update-slice(x, u, k, kz)
  f = f32[9,7] dynamic-update-slice(x, x, k, k)
  n = f32[1,1] constant({{-0}})
  g = f32[9,7] dynamic-update-slice(x, n, j, j)
  h = bf16[9,7] convert(x)
  hu = bf16[3,4] convert(u)
  c = bf16[9,7] dynamic-update-slice(h, hu, i5, i)
  ROOT out = (f32[9,7], f32[9,7], f32[9,7], f32[9,7], bf16[9,7]) tuple(a, b, f, g, c)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 31, "dus");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, MapsInlineTheirComputation) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
fma {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  m = f32[] multiply(a, b)
  half = f32[] constant(0.5)
  s = f32[] add(m, c)
  ROOT r = f32[] maximum(s, half)
}
neg {
  a = bf16[] parameter(0)
  ROOT n = bf16[] negate(a)
}
ENTRY e {
  x = f32[6,10] parameter(0)
  y = f32[6,10] parameter(1)
  t = f32[6,10] tanh(y)
  f = f32[6,10] map(x, t, y), dimensions={0,1}, to_apply=fma
  b = bf16[6,10] convert(f)
  n = bf16[6,10] map(b), dimensions={0,1}, to_apply=neg
  ROOT out = (f32[6,10], bf16[6,10]) tuple(f, n)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 37, "map");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, SelectAndScattersRunAsKernels) {
  // Max-pool gradients with overlapping windows and padding (padding is
  // never selected), a min selector, ties kept by the first element, and
  // bf16 rounding in the scatter.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
le {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LE
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
geb {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
addb {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
ENTRY e {
  x = f32[2,9,8] parameter(0)
  s = f32[2,5,4] parameter(1)
  zero = f32[] constant(0)
  one = f32[] constant(1)
  a = f32[2,9,8] select-and-scatter(x, s, zero), window={size=1x3x3 stride=1x2x2 pad=0_0x1_1x1_0}, select=ge, scatter=add
  f = f32[2,9,8] floor(x)
  t = f32[2,8,7] parameter(2)
  b = f32[2,9,8] select-and-scatter(f, t, one), window={size=1x2x2}, select=le, scatter=add
  xb = bf16[2,9,8] convert(x)
  sb = bf16[2,5,4] convert(s)
  zb = bf16[] constant(0.5)
  c = bf16[2,9,8] select-and-scatter(xb, sb, zb), window={size=1x3x3 stride=1x2x2 pad=0_0x1_1x1_0}, select=geb, scatter=addb
  ROOT out = (f32[2,9,8], f32[2,9,8], bf16[2,9,8]) tuple(a, b, c)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 41, "sas");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, BitcastConvertsOfOneWidthKeepTheBits) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[4,6] parameter(0)
  i = s32[4,6] bitcast-convert(x)
  k = s32[4] constant({2143289345, -1, -2147483648, 1065353216})
  f = f32[4] bitcast-convert(k)
  b = bf16[4,6] convert(x)
  bs = s16[4,6] bitcast-convert(b)
  h = f16[4,6] bitcast-convert(b)
  n = s32[4,6] convert(x)
  q = s4[4,6] convert(n)
  u = u4[4,6] bitcast-convert(q)
  ROOT out = (s32[4,6], f32[4], s16[4,6], f16[4,6], u4[4,6]) tuple(i, f, bs, h, u)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 43, "bitcast");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, DynamicUpdateSlicesOfAnUnsharedValueWriteInPlace) {
  // The dot's result is read by nothing but the update: the update's
  // kernel writes its window into the dot's own slot. The parameter is
  // shared with the caller, so its update writes a new value.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  a = f32[8,8] parameter(0)
  b = f32[8,8] parameter(1)
  d = f32[8,8] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  u = f32[2,3] parameter(2)
  i = s32[] parameter(3)
  j = s32[] constant(6)
  w = f32[8,8] dynamic-update-slice(d, u, i, j)
  n = f32[8,8] negate(w)
  p = f32[8,8] dynamic-update-slice(a, u, j, i)
  ROOT out = (f32[8,8], f32[8,8]) tuple(n, p)
})");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {47, 48, 49}) {
    ExpectSameAsReference(*module, seed, "in place");
  }
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> thunks = (*executable)->Emit("thunks");
  ASSERT_TRUE(thunks.ok()) << thunks.status();
  auto slots_of = [&](const std::string& name) {
    const size_t at = thunks->find(absl::StrCat("(", name, ") in=["));
    EXPECT_NE(at, std::string::npos) << *thunks;
    const size_t in = thunks->find('[', at) + 1;
    const size_t out = thunks->find("out=[", at) + 5;
    return std::make_pair(
        thunks->substr(in, thunks->find_first_of(",]", in) - in),
        thunks->substr(out, thunks->find(']', out) - out));
  };
  const auto [w_in, w_out] = slots_of("w");
  EXPECT_EQ(w_in, w_out) << *thunks;
  const auto [p_in, p_out] = slots_of("p");
  EXPECT_NE(p_in, p_out) << *thunks;
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

TEST_F(CpuBackendTest, DotsCallTheLibrary) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  x = f32[2,3,4] parameter(0)
  y = f32[2,5,4] parameter(1)
  ROOT d = f32[2,3,5] dot(x, y), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 3, "batched dot");
  EXPECT_NE(stats.find("library calls: 1"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, TransposedDotOperandsAreReadInPlace) {
  // Operands stored [contracting, free] (lhs) or [free, contracting] (rhs),
  // batched or not, f32, f64 and bf16, as backward passes produce them:
  // the GEMM reads them transposed (lhs^T, rhs^T) instead of copying.
  // Other orders of the dimensions still go through a copy.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  a = f32[64,48] parameter(0)
  b = f32[64,40] parameter(1)
  ta = f32[48,40] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  c = f32[40,48] parameter(2)
  tb = f32[64,40] dot(a, c), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  c2 = f32[40,64] parameter(7)
  tt = f32[48,40] dot(a, c2), lhs_contracting_dims={0}, rhs_contracting_dims={1}
  x = f64[3,7,5] parameter(3)
  y = f64[3,6,7] parameter(4)
  bt = f64[3,5,6] dot(x, y), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={2}
  h = bf16[64,48] convert(a)
  g = bf16[40,48] convert(c)
  hb = bf16[64,40] dot(h, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  p = f32[4,3,5] parameter(5)
  q = f32[3,4,6] parameter(6)
  mixed = f32[5,6] dot(p, q), lhs_contracting_dims={0,1}, rhs_contracting_dims={1,0}
  ROOT out = (f32[48,40], f32[64,40], f32[48,40], f64[3,5,6], bf16[64,40], f32[5,6]) tuple(ta, tb, tt, bt, hb, mixed)
})");
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, 53, "transposed dots");
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> thunks = (*executable)->Emit("thunks");
  ASSERT_TRUE(thunks.ok()) << thunks.status();
  auto line_of = [&](const std::string& name) {
    const size_t at = thunks->find(absl::StrCat("(", name, ")"));
    EXPECT_NE(at, std::string::npos) << name << "\n" << *thunks;
    return thunks->substr(at, thunks->find('\n', at) - at);
  };
  EXPECT_NE(line_of("ta").find("lhs^T"), std::string::npos);
  EXPECT_EQ(line_of("ta").find("rhs^T"), std::string::npos);
  EXPECT_NE(line_of("tb").find("rhs^T"), std::string::npos);
  EXPECT_NE(line_of("tt").find("lhs^T rhs^T"), std::string::npos);
  EXPECT_NE(line_of("bt").find("lhs^T rhs^T"), std::string::npos);
  EXPECT_NE(line_of("hb").find("rhs^T"), std::string::npos);
  // p is stored [contracting..., free]: read transposed; q's contracting
  // dimensions are in the other order: copied.
  EXPECT_NE(line_of("mixed").find("lhs^T"), std::string::npos);
  EXPECT_EQ(line_of("mixed").find("rhs^T"), std::string::npos);
}

TEST_F(CpuBackendTest, ConvolutionsCallTheLibrary) {
  // Layouts of every kind, padding (negative too), strides, base and window
  // dilation, window reversal, feature groups, 1 and 3 spatial dimensions.
  const char* const kCases[] = {
      "f32[2,3,9,8] parameter(0)\n  k = f32[4,3,3,3] parameter(1)\n"
      "  ROOT c = f32[2,4,9,8] convolution(x, k), window={size=3x3 "
      "pad=1_1x1_1}, dim_labels=bf01_oi01->bf01",
      "f32[2,9,8,3] parameter(0)\n  k = f32[3,2,3,4] parameter(1)\n"
      "  ROOT c = f32[2,3,4,4] convolution(x, k), window={size=3x2 "
      "stride=2x2 pad=0_-1x1_0 rhs_dilate=1x2}, dim_labels=b01f_01io->b01f",
      "f32[1,5,7,4] parameter(0)\n  k = f32[2,2,4,6] parameter(1)\n"
      "  ROOT c = f32[1,10,14,6] convolution(x, k), window={size=2x2 "
      "pad=1_1x1_1 lhs_dilate=2x2 rhs_reversal=1x0}, "
      "dim_labels=b01f_01io->b01f",
      "f32[2,8,6] parameter(0)\n  k = f32[3,2,8] parameter(1)\n"
      "  ROOT c = f32[2,8,6] convolution(x, k), window={size=3 pad=1_1}, "
      "dim_labels=bf0_0io->bf0, feature_group_count=4",
      "f64[1,2,4,4,3] parameter(0)\n  k = f64[2,2,2,2,5] parameter(1)\n"
      "  ROOT c = f64[1,5,3,3,2] convolution(x, k), window={size=2x2x2}, "
      "dim_labels=bf012_012io->bf012",
      "bf16[1,3,6,6] parameter(0)\n  k = bf16[2,3,3,3] parameter(1)\n"
      "  ROOT c = bf16[1,2,4,4] convolution(x, k), window={size=3x3}, "
      "dim_labels=bf01_oi01->bf01",
  };
  for (const char* body : kCases) {
    std::unique_ptr<Module> module =
        Parse(absl::StrCat("HloModule m\nENTRY e {\n  x = ", body, "\n}\n"));
    ASSERT_NE(module, nullptr) << body;
    const std::string stats = ExpectSameAsReference(*module, 8, body);
    EXPECT_NE(stats.find("library calls: 1"), std::string::npos) << body << "\n"
                                                                 << stats;
  }
}

TEST_F(CpuBackendTest, NarrowFloatDotsWidenAndRoundOnce) {
  for (const char* type : {"bf16", "f16"}) {
    std::unique_ptr<Module> module =
        Parse(absl::StrCat("HloModule m\nENTRY e {\n  x = ", type,
                           "[17,9] parameter(0)\n  y = ", type,
                           "[9,5] parameter(1)\n  ROOT d = ", type,
                           "[17,5] dot(x, y), lhs_contracting_dims={1}, "
                           "rhs_contracting_dims={0}\n}\n"));
    ASSERT_NE(module, nullptr);
    const std::string stats = ExpectSameAsReference(*module, 4, type);
    EXPECT_NE(stats.find("library calls: 1"), std::string::npos) << stats;
  }
}

TEST_F(CpuBackendTest, GathersAndScattersRunAsKernels) {
  // Gathers with clamped starts (random s32 indices in [-10, 10]), an
  // implicit index vector dimension and batching dims; scatters with
  // repeated and out-of-bounds indices (skipped element by element), an
  // add and an overwrite combiner, and bf16 updates.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
last {
  a = bf16[] parameter(0)
  ROOT b = bf16[] parameter(1)
}
ENTRY e {
  table = f32[12,5] parameter(0)
  ids = s32[7] parameter(1)
  g = f32[7,5] gather(table, ids), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,5}
  starts = s32[3,2] parameter(2)
  w = f32[3,4,3] gather(table, starts), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={4,3}
  batched = f32[2,6,4] parameter(3)
  bi = s32[2,3] parameter(4)
  bg = f32[2,3,4] gather(batched, bi), offset_dims={2}, collapsed_slice_dims={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, start_index_map={1}, index_vector_dim=2, slice_sizes={1,1,4}
  updates = f32[7,5] parameter(5)
  sa = f32[12,5] scatter(table, ids, updates), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  wide = f32[3,4,3] parameter(6)
  sw = f32[12,5] scatter(table, starts, wide), update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=add
  bt = bf16[12] parameter(7)
  bu = bf16[7] parameter(8)
  so = bf16[12] scatter(bt, ids, bu), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=last
  ROOT out = (f32[7,5], f32[3,4,3], f32[2,3,4], f32[12,5], f32[12,5], bf16[12]) tuple(g, w, bg, sa, sw, so)
})");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {1, 2}) {
    const std::string stats = ExpectSameAsReference(*module, seed, "indexing");
    EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos)
        << stats;
  }
}

TEST_F(CpuBackendTest, ReduceWindowsRunAsKernels) {
  // Pooling with strides and padding (padding folds in the init value),
  // base dilation (holes skipped), window dilation, a cumulative sum, and
  // bf16 rounding every step.
  std::unique_ptr<Module> module = Parse(R"(
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
addb {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
ENTRY e {
  x = f32[2,7,6] parameter(0)
  ninf = f32[] constant(-inf)
  one = f32[] constant(1)
  mp = f32[2,4,3] reduce-window(x, ninf), window={size=1x2x2 stride=1x2x2 pad=0_0x0_1x0_0}, to_apply=max
  ds = f32[2,4,3] reduce-window(x, one), window={size=1x3x3 stride=1x2x3 pad=0_0x1_1x0_0 lhs_dilate=1x1x2 rhs_dilate=1x1x2}, to_apply=add
  v = f32[40] parameter(1)
  zero = f32[] constant(0)
  cs = f32[40] reduce-window(v, zero), window={size=40 pad=39_0}, to_apply=add
  b = bf16[40] parameter(2)
  bz = bf16[] constant(0)
  bs = bf16[37] reduce-window(b, bz), window={size=4}, to_apply=addb
  ROOT out = (f32[2,4,3], f32[2,4,3], f32[40], bf16[37]) tuple(mp, ds, cs, bs)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 13, "windows");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, ScansRunAsRunningLoops) {
  // Windows covering every element before (or after) the output's, as
  // cumsum and friends lower: prefix and suffix, on an inner and an outer
  // dimension, a window wider than the dimension, max, multiply, bf16
  // (rounded every step) and integers. An init value that is not
  // idempotent (add of 1) keeps the plain window loop.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
mul {
  a = f64[] parameter(0)
  b = f64[] parameter(1)
  ROOT s = f64[] multiply(b, a)
}
maxi {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT m = s32[] maximum(a, b)
}
addb {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT s = bf16[] add(a, b)
}
ENTRY e {
  x = f32[33,300] parameter(0)
  zero = f32[] constant(0)
  one = f32[] constant(1)
  prefix = f32[33,300] reduce-window(x, zero), window={size=1x300 pad=0_0x299_0}, to_apply=add
  suffix = f32[33,300] reduce-window(x, zero), window={size=33x1 pad=0_32x0_0}, to_apply=add
  wide = f32[33,300] reduce-window(x, zero), window={size=1x305 pad=0_0x304_0}, to_apply=add
  plain = f32[33,300] reduce-window(x, one), window={size=1x300 pad=0_0x299_0}, to_apply=add
  i = s32[50,70] parameter(1)
  lowest = s32[] constant(-2147483648)
  cummax = s32[50,70] reduce-window(i, lowest), window={size=50x1 pad=49_0x0_0}, to_apply=maxi
  d = f64[20,30] parameter(2)
  oned = f64[] constant(1)
  cumprod = f64[20,30] reduce-window(d, oned), window={size=1x30 pad=0_0x29_0}, to_apply=mul
  b = bf16[3,200] parameter(3)
  bz = bf16[] constant(0)
  cumb = bf16[3,200] reduce-window(b, bz), window={size=1x200 pad=0_0x199_0}, to_apply=addb
  ROOT out = (f32[33,300], f32[33,300], f32[33,300], f32[33,300], s32[50,70], f64[20,30], bf16[3,200]) tuple(prefix, suffix, wide, plain, cummax, cumprod, cumb)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 17, "scans");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<std::string> source = (*executable)->Emit("cpp");
  ASSERT_TRUE(source.ok()) << source.status();
  int prefix = 0, suffix = 0;
  for (size_t at = 0;
       (at = source->find("prefix scan", at)) != std::string::npos; ++at) {
    ++prefix;
  }
  for (size_t at = 0;
       (at = source->find("suffix scan", at)) != std::string::npos; ++at) {
    ++suffix;
  }
  EXPECT_EQ(prefix, 5) << *source;  // prefix, wide, cummax, cumprod, cumb.
  EXPECT_EQ(suffix, 1) << *source;
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

TEST_F(CpuBackendTest, SortsKeysAndValuesWithTheEvaluatorsOrder) {
  // A total-order comparator on the keys (NaN and -0 included through
  // random values and constants), values carried along; and a comparator
  // that is not a strict weak order (LE), which must give the evaluator's
  // permutation too.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
by_key {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
}
le {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT le = pred[] compare(a, b), direction=LE
}
ENTRY e {
  x = f32[5,40] parameter(0)
  k = f32[3] constant({nan, -0, 0})
  v = s32[5,40] iota(), iota_dimension=1
  s = (f32[5,40], s32[5,40]) sort(x, v), dimensions={1}, to_apply=by_key
  w = s32[5,40] parameter(1)
  t = s32[5,40] sort(w), dimensions={0}, to_apply=le
  f = f32[3] negate(k)
  ks = (f32[3], f32[3]) sort(k, f), dimensions={0}, to_apply=by_key.2
  ROOT out = ((f32[5,40], s32[5,40]), s32[5,40], (f32[3], f32[3])) tuple(s, t, ks)
}
by_key.2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  d = f32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 6, "sorts");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
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
  ROOT c = f32[4] conditional(k, w, w), branch_computations={branch0, branch1}
})");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {1, 2, 3, 4}) {  // Selectors in and out of range.
    const std::string stats = ExpectSameAsReference(*module, seed, "loop");
    EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos)
        << stats;
    EXPECT_NE(stats.find("control-flow thunks: 3"), std::string::npos) << stats;
  }
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

TEST_F(CpuBackendTest, EveryXlaDumpMatchesTheEvaluator) {
  const std::vector<std::string> files = DumpFiles();
  EXPECT_GE(files.size(), 90u);
  for (const std::string& path : files) {
    ParseOptions options;
    options.filename = path;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), options);
    ASSERT_TRUE(module.ok()) << module.status();
    ExpectSameAsReference(**module, 11, path);
  }
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
