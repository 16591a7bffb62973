// The CPU backend's element types against the reference evaluator:
// integer edge cases, bf16/f16 and the 8-bit and narrower floats rounded
// after every op, sub-byte integers, complex values, the vectorized
// transcendentals and same-width bitcast-convert.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/reference/reference_backend.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"
#include "tools/conform/tolerance.h"

namespace kiln::cpu {
namespace {

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
  const std::string source = Emitted(*module, "cpp");
  for (const char* function :
       {"kiln_cpu::ExpF32(", "kiln_cpu::TanhF32(", "kiln_cpu::LogisticF32("}) {
    EXPECT_NE(source.find(function), std::string::npos) << function;
  }
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

TEST_F(CpuBackendTest, BitcastConvertsOfEightBitFloatsKeepNanPayloads) {
  // kiln fuzz finding: kernels hold f8 values as floats, which drop a
  // NaN's payload, so these bitcast-converts run on the evaluator (and
  // say so) and keep every bit.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  k = u8[4] parameter(0)
  x = f8e3m4[4] bitcast-convert(k)
  y = f8e5m2[4] bitcast-convert(x)
  ROOT z = u8[4] bitcast-convert(y)
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::vector<uint8_t> expected = {255, 115, 48, 0};
  std::vector<Literal> arguments;
  arguments.push_back(
      Literal::Create((*executable)->parameter_shapes()[0]).value());
  std::copy(expected.begin(), expected.end(),
            arguments[0].mutable_data().begin());
  absl::StatusOr<Literal> result = (*executable)->Run(arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(std::vector<uint8_t>(result->data().begin(), result->data().end()),
            expected);
  const std::string stats = (*executable)->Emit("stats").value();
  EXPECT_NE(stats.find("fallback bitcast-convert"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, TotalOrderPlacesTheFnuzNanJustBelowPositiveZero) {
  // kiln fuzz finding: kernels hold f8 values as floats, where the fnuz
  // types' one NaN (the bits of -0, 0x80) became an ordinary NaN and
  // ordered above everything. The evaluator orders the type's own bits as
  // sign and magnitude (comparison.h), as XLA does: below +0, above every
  // negative number.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  bits = u8[4] constant({128, 128, 128, 128})
  nan = f8e4m3fnuz[4] bitcast-convert(bits)
  x = f8e4m3fnuz[4] parameter(0)
  gt = pred[4] compare(nan, x), direction=GT, type=TOTALORDER
  y = f8e5m2fnuz[4] convert(x)
  n2 = f8e5m2fnuz[4] bitcast-convert(bits)
  lt = pred[4] compare(n2, y), direction=LT, type=TOTALORDER
  ROOT t = (pred[4], pred[4]) tuple(gt, lt)
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      cpu.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<Literal> arguments;
  arguments.push_back(
      cli::ItemToLiteral("f8e4m3fnuz[4] {-0.0234375, 0, 1, -240}",
                         (*executable)->parameter_shapes()[0])
          .value());
  absl::StatusOr<Literal> result = (*executable)->Run(arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(LiteralToString(*result),
            "(pred[4], pred[4]) ( {1, 0, 0, 1}, {0, 1, 1, 0} )");
  const std::string stats = (*executable)->Emit("stats").value();
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
  ExpectSameAsReference(*module, 5, "fnuz total order");
}

}  // namespace
}  // namespace kiln::cpu
