// The CPU backend's lowerings of single op families against the reference
// evaluator: library dots and convolutions, gather and scatter, sort,
// select-and-scatter, reduce-window and scans, map, dynamic-update-slice
// (in place too).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/cpu_test_util.h"
#include "backends/reference/reference_backend.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"
#include "tools/cli/run_args.h"
#include "tools/conform/compare.h"
#include "tools/conform/tolerance.h"

namespace kiln::cpu {
namespace {

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
  const std::string thunks = Emitted(*module, "thunks");
  auto line_of = [&](const std::string& name) {
    const size_t at = thunks.find(absl::StrCat("(", name, ")"));
    EXPECT_NE(at, std::string::npos) << name << "\n" << thunks;
    return thunks.substr(at, thunks.find('\n', at) - at);
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

TEST_F(CpuBackendTest, PaddingAndHolesNeverMeetAnInfiniteKernel) {
  // kiln fuzz finding backend-cpu-mismatch-convolution-*: the evaluator
  // leaves the holes of a dilated input (and padding) out of the sums,
  // the GEMM multiplied them as zeros, and 0 x inf gave NaN. A kernel
  // with an inf or NaN now runs on the evaluator's kernel; a finite one
  // stays on the GEMM.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  p0 = f32[2] parameter(0)
  x = f32[1,1,2] reshape(p0)
  p1 = f32[1] parameter(1)
  k = f32[1,1,1] reshape(p1)
  ROOT c = f32[1,1,4] convolution(x, k), window={size=1 pad=0_1 lhs_dilate=2}, dim_labels=bf0_oi0->bf0
})");
  ASSERT_NE(module, nullptr);
  CpuBackend cpu;
  ReferenceBackend reference;
  auto native = cpu.Compile(*module, {});
  auto oracle = reference.Compile(*module, {});
  ASSERT_TRUE(native.ok() && oracle.ok());
  for (float weight : {std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::quiet_NaN(), 3.0f}) {
    std::vector<Literal> arguments;
    arguments.push_back(Literal::VectorF32({1, 2}));
    arguments.push_back(Literal::VectorF32({weight}));
    absl::StatusOr<Literal> expected = (*oracle)->Run(arguments);
    absl::StatusOr<Literal> actual = (*native)->Run(arguments);
    ASSERT_TRUE(expected.ok() && actual.ok());
    conform::Comparison comparison =
        conform::CompareLiterals(*expected, *actual, [&](ElementType type) {
          return conform::DefaultTolerance(*module, type);
        });
    EXPECT_TRUE(comparison.ok) << weight << ":\n" << comparison.report;
  }
  const std::string stats = Emitted(*module, "stats");
  EXPECT_NE(stats.find("library calls: 1"), std::string::npos) << stats;
}

TEST_F(CpuBackendTest, RngBitGeneratorsRunAsKernels) {
  // ThreeFry and Philox (2- and 3-word states), 64-bit, 32-bit, sub-byte,
  // scalar and empty results: the evaluator's bits and new states, from
  // generated kernels (no library call, no fallback).
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  s = u64[2] parameter(0)
  r = (u64[2], u32[3,5]) rng-bit-generator(s), algorithm=rng_three_fry
  s3 = u64[3] parameter(1)
  q = (u64[3], s4[7]) rng-bit-generator(s3), algorithm=rng_philox
  p = (u64[2], u8[9]) rng-bit-generator(s), algorithm=rng_default
  w = (u64[2], u64[1,5]) rng-bit-generator(s), algorithm=rng_three_fry
  x = (u64[3], s64[3]) rng-bit-generator(s3), algorithm=rng_philox
  y = (u64[2], u32[]) rng-bit-generator(s), algorithm=rng_three_fry
  z = (u64[2], u16[0,4]) rng-bit-generator(s), algorithm=rng_three_fry
  d = u32[3,5] get-tuple-element(r), index=1
  n = u64[2] get-tuple-element(r), index=0
  e = s4[7] get-tuple-element(q), index=1
  h = u8[9] get-tuple-element(p), index=1
  ROOT t = (u32[3,5], u64[2], s4[7], u8[9], (u64[2], u64[1,5]), (u64[3], s64[3]), (u64[2], u32[]), (u64[2], u16[0,4])) tuple(d, n, e, h, w, x, y, z)
})");
  ASSERT_NE(module, nullptr);
  const std::string stats = ExpectSameAsReference(*module, 61, "rbg");
  EXPECT_NE(stats.find("fallback instructions: 0"), std::string::npos) << stats;
  EXPECT_NE(stats.find("library calls: 0"), std::string::npos) << stats;
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
  const std::string source = Emitted(*module, "cpp");
  int prefix = 0, suffix = 0;
  for (size_t at = 0;
       (at = source.find("prefix scan", at)) != std::string::npos; ++at) {
    ++prefix;
  }
  for (size_t at = 0;
       (at = source.find("suffix scan", at)) != std::string::npos; ++at) {
    ++suffix;
  }
  EXPECT_EQ(prefix, 5) << source;  // prefix, wide, cummax, cumprod, cumb.
  EXPECT_EQ(suffix, 1) << source;
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
  const std::string thunks = Emitted(*module, "thunks");
  const auto [w_in, w_out] = StepSlots(thunks, "(w) in=[");
  EXPECT_EQ(w_in, w_out) << thunks;
  const auto [p_in, p_out] = StepSlots(thunks, "(p) in=[");
  EXPECT_NE(p_in, p_out) << thunks;
}

TEST_F(CpuBackendTest, ScattersIntoAnUnsharedValueWriteInPlace) {
  // s1's operand (the dot) is read by nothing else: the scatter adds into
  // the dot's own slot, without copying it first. s2 scatters into a
  // parameter and s3 into a value it also reads as its updates: both
  // write a new value.
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[8,8] parameter(0)
  b = f32[8,8] parameter(1)
  d = f32[8,8] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  idx = s32[3,1] parameter(2)
  upd = f32[3,8] parameter(3)
  s1 = f32[8,8] scatter(d, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  n = f32[8,8] negate(s1)
  s2 = f32[8,8] scatter(a, idx, upd), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  idx8 = s32[8,1] parameter(4)
  e2 = f32[8,8] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s3 = f32[8,8] scatter(e2, idx8, e2), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  ROOT out = (f32[8,8], f32[8,8], f32[8,8]) tuple(n, s2, s3)
})");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {51, 52}) {
    ExpectSameAsReference(*module, seed, "in-place scatter");
  }
  const std::string thunks = Emitted(*module, "thunks");
  // The pipeline may rename the scatters (s1 -> s1.1): a step is found by
  // its name's prefix.
  auto slots_of = [&](const std::string& name) {
    return StepSlots(thunks, absl::StrCat("(", name));
  };
  EXPECT_EQ(slots_of("s1").first, slots_of("s1").second) << thunks;
  EXPECT_NE(slots_of("s2").first, slots_of("s2").second) << thunks;
  EXPECT_NE(slots_of("s3").first, slots_of("s3").second) << thunks;
}

}  // namespace
}  // namespace kiln::cpu
