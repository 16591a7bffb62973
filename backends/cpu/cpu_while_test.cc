// The while loop's state on the cpu backend: elements the body updates are
// written into the state's own buffers when that is safe (no copy-back),
// and values stay the reference backend's when it is not.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "backends/cpu/cpu_test_util.h"
#include "gtest/gtest.h"

namespace kiln::cpu {
namespace {

// Whether `--emit=thunks` text lists `slot` as state element `element` of
// a nested program (a while body writing that element in place).
bool IsStateElement(const std::string& thunks, const std::string& slot,
                    int element) {
  return thunks.find(absl::StrCat("  slot ", slot, ": parameter 0{", element,
                                  "}")) != std::string::npos;
}

constexpr char kScan[] = R"(
HloModule scan

cond {
  s = (s32[], f32[16,8], f32[16,8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(16)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[16,8], f32[16,8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ys = f32[16,8] get-tuple-element(s), index=1
  xs = f32[16,8] get-tuple-element(s), index=2
  h = f32[8] get-tuple-element(s), index=3
  z = s32[] constant(0)
  x = f32[1,8] dynamic-slice(xs, i, z), dynamic_slice_sizes={1,8}
  xr = f32[8] reshape(x)
  h2 = f32[8] maximum(h, xr)
  row = f32[1,8] reshape(h2)
  ys2 = f32[16,8] dynamic-update-slice(ys, row, i, z)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[16,8], f32[16,8], f32[8]) tuple(i2, ys2, xs, h2)
}

ENTRY e {
  xs = f32[16,8] parameter(0)
  h0 = f32[8] parameter(1)
  z = s32[] constant(0)
  zero = f32[] constant(0)
  ys = f32[16,8] broadcast(zero), dimensions={}
  init = (s32[], f32[16,8], f32[16,8], f32[8]) tuple(z, ys, xs, h0)
  w = (s32[], f32[16,8], f32[16,8], f32[8]) while(init), condition=cond, body=body
  ys_out = f32[16,8] get-tuple-element(w), index=1
  h_out = f32[8] get-tuple-element(w), index=3
  ROOT r = (f32[16,8], f32[8]) tuple(ys_out, h_out)
}
)";

TEST_F(CpuBackendTest, ScanAppendsRowsInPlace) {
  std::unique_ptr<Module> module = Parse(kScan);
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {1, 2, 3}) ExpectSameAsReference(*module, seed, "scan");
  const std::string thunks = Emitted(*module, "thunks");
  // The update writes its row into the state's own output array, and the
  // counter's increment writes the state's counter.
  const auto [ys_in, ys_out] = StepSlots(thunks, "(ys2) in=[");
  EXPECT_EQ(ys_in, ys_out) << thunks;
  EXPECT_TRUE(IsStateElement(thunks, ys_out, 1)) << thunks;
}

TEST_F(CpuBackendTest, RecurrenceWritesItsStateAfterTheLastRead) {
  // h is read by the dot, then the new h is computed: written into h's
  // own buffer. c is read by the flat kernel that writes the new c: in
  // place too.
  std::unique_ptr<Module> module = Parse(R"(
HloModule rnn

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

cond {
  s = (s32[], f32[4,8], f32[8,8], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(7)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4,8], f32[8,8], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[4,8] get-tuple-element(s), index=1
  w = f32[8,8] get-tuple-element(s), index=2
  c = f32[4] get-tuple-element(s), index=3
  d = f32[4,8] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  hn = f32[4,8] tanh(d)
  zero = f32[] constant(0)
  r = f32[4] reduce(hn, zero), dimensions={1}, to_apply=add
  c2 = f32[4] add(c, r)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[4,8], f32[8,8], f32[4]) tuple(i2, hn, w, c2)
}

ENTRY e {
  h0 = f32[4,8] parameter(0)
  w = f32[8,8] parameter(1)
  c0 = f32[4] parameter(2)
  z = s32[] constant(0)
  init = (s32[], f32[4,8], f32[8,8], f32[4]) tuple(z, h0, w, c0)
  ROOT l = (s32[], f32[4,8], f32[8,8], f32[4]) while(init), condition=cond, body=body
}
)");
  ASSERT_NE(module, nullptr);
  for (uint64_t seed : {4, 5}) ExpectSameAsReference(*module, seed, "rnn");
  const std::string thunks = Emitted(*module, "thunks");
  const auto [hn_in, hn_out] = StepSlots(thunks, "(hn");
  EXPECT_TRUE(IsStateElement(thunks, hn_out, 1)) << thunks;
  const auto [c_in, c_out] = StepSlots(thunks, "(c2");
  EXPECT_TRUE(IsStateElement(thunks, c_out, 3)) << thunks;
}

TEST_F(CpuBackendTest, StateReadAfterItsUpdateKeepsItsOldValue) {
  // The new a is computed before b's kernel reads the old a; the new b
  // before nothing reads the old b. Swapped elements and a state element
  // that two updates read stay separate buffers; the values must be the
  // reference's either way.
  ExpectSameAsReference(R"(
HloModule swap

cond {
  s = (s32[], f32[64], f32[64], f32[64]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[64], f32[64], f32[64]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  a = f32[64] get-tuple-element(s), index=1
  b = f32[64] get-tuple-element(s), index=2
  c = f32[64] get-tuple-element(s), index=3
  one = f32[] constant(1)
  ones = f32[64] broadcast(one), dimensions={}
  a2 = f32[64] add(b, ones)
  two = f32[] constant(2)
  twos = f32[64] broadcast(two), dimensions={}
  b2 = f32[64] multiply(a, twos)
  rev = f32[64] reverse(b2), dimensions={0}
  c2 = f32[64] add(rev, a)
  c1 = s32[] constant(1)
  i2 = s32[] add(i, c1)
  ROOT t = (s32[], f32[64], f32[64], f32[64]) tuple(i2, a2, c, c2)
}

ENTRY e {
  a = f32[64] parameter(0)
  b = f32[64] parameter(1)
  c = f32[64] parameter(2)
  z = s32[] constant(0)
  init = (s32[], f32[64], f32[64], f32[64]) tuple(z, a, b, c)
  ROOT w = (s32[], f32[64], f32[64], f32[64]) while(init), condition=cond, body=body
}
)",
                        6);
}

TEST_F(CpuBackendTest, MultiOutputLoopFusionUpdatesTwoElementsInPlace) {
  // One flat kernel reads a and b and writes both new values: each
  // element is read before it is written, so both go in place.
  std::unique_ptr<Module> module = Parse(R"(
HloModule fused_swap

cond {
  s = (s32[], f32[4096], f32[4096]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

fused {
  p0 = f32[4096] parameter(0)
  p1 = f32[4096] parameter(1)
  sum = f32[4096] add(p0, p1)
  diff = f32[4096] subtract(p0, p1)
  ROOT t = (f32[4096], f32[4096]) tuple(sum, diff)
}

body {
  s = (s32[], f32[4096], f32[4096]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  a = f32[4096] get-tuple-element(s), index=1
  b = f32[4096] get-tuple-element(s), index=2
  f = (f32[4096], f32[4096]) fusion(b, a), kind=kLoop, calls=fused
  c1 = s32[] constant(1)
  i2 = s32[] add(i, c1)
  f0 = f32[4096] get-tuple-element(f), index=0
  f1 = f32[4096] get-tuple-element(f), index=1
  ROOT t = (s32[], f32[4096], f32[4096]) tuple(i2, f0, f1)
}

ENTRY e {
  a = f32[4096] parameter(0)
  b = f32[4096] parameter(1)
  z = s32[] constant(0)
  init = (s32[], f32[4096], f32[4096]) tuple(z, a, b)
  ROOT w = (s32[], f32[4096], f32[4096]) while(init), condition=cond, body=body
}
)");
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, 7, "fused");
  const std::string thunks = Emitted(*module, "thunks");
  const auto [f_in, f_out] = StepSlots(thunks, "(f) in=[");
  const size_t comma = f_out.find(',');
  ASSERT_NE(comma, std::string::npos) << thunks;
  EXPECT_TRUE(IsStateElement(thunks, f_out.substr(0, comma), 1)) << thunks;
  EXPECT_TRUE(IsStateElement(thunks, f_out.substr(comma + 1), 2)) << thunks;
}

TEST_F(CpuBackendTest, UpdateOfAnElementReadElsewhereCopies) {
  // The old ys is also summed after the update: the update writes a new
  // buffer.
  std::unique_ptr<Module> module = Parse(R"(
HloModule shared

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

cond {
  s = (s32[], f32[8,4], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(8)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[8,4], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ys = f32[8,4] get-tuple-element(s), index=1
  acc = f32[] get-tuple-element(s), index=2
  z = s32[] constant(0)
  one = f32[] constant(1)
  row = f32[1,4] broadcast(one), dimensions={}
  ys2 = f32[8,4] dynamic-update-slice(ys, row, i, z)
  ys_again = f32[8,4] get-tuple-element(s), index=1
  total = f32[] reduce(ys_again, acc), dimensions={0,1}, to_apply=add
  c1 = s32[] constant(1)
  i2 = s32[] add(i, c1)
  ROOT t = (s32[], f32[8,4], f32[]) tuple(i2, ys2, total)
}

ENTRY e {
  ys = f32[8,4] parameter(0)
  z = s32[] constant(0)
  acc = f32[] constant(0)
  init = (s32[], f32[8,4], f32[]) tuple(z, ys, acc)
  ROOT w = (s32[], f32[8,4], f32[]) while(init), condition=cond, body=body
}
)");
  ASSERT_NE(module, nullptr);
  ExpectSameAsReference(*module, 8, "shared");
  const std::string thunks = Emitted(*module, "thunks");
  const auto [ys_in, ys_out] = StepSlots(thunks, "(ys2");
  EXPECT_NE(ys_in, ys_out) << thunks;
}

}  // namespace
}  // namespace kiln::cpu
