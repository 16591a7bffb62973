// One invalid case per constraint the spec states for the random and I/O
// ops (operation_semantics.md: RngUniform, RngNormal, RngBitGenerator per
// algorithm, RngGetAndUpdateState, Infeed, Outfeed, Send, SendDone, Recv,
// RecvDone), each checking that the error names the op's section, plus
// valid cases. The table in docs/shape_rule_coverage_compute_control.md maps
// constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "compiler/ops/testing/rule_cases.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::ExpectRuleErrors;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::Rule;
using shape_test::RuleCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A module whose ROOT r is `root` over the parameters below.
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  t = token[] after-all()
  v = f32[3] parameter(0)
  ctx = (f32[3], u32[], token[]) parameter(1)
  bad_ctx = (f32[3], s32[], token[]) parameter(2)
  lo = f32[] parameter(3)
  hi = f32[] parameter(4)
  i = s32[] parameter(5)
  c = c64[] parameter(6)
  st2 = u64[2] parameter(7)
  st3 = u64[3] parameter(8)
  st4 = u64[4] parameter(9)
  s32st = s32[2] parameter(10)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(RngConstraintsTest, UniformAndNormal) {
  EXPECT_EQ(*InferText(Module("f32[2,3] rng(lo, hi), "
                              "distribution=rng_normal")),
            "f32[2,3]");
  EXPECT_EQ(*InferText(Module("s32[4] rng(i, i), distribution=rng_uniform")),
            "s32[4]");
  ExpectRuleErrors({
      {"normal: mu and sigma are floating point",
       Module("s32[4] rng(i, i), distribution=rng_normal"),
       Rule("rng expects a floating-point element type, got s32[] for "
            "operand 0",
            "RngNormal")},
      {"normal: parameters are scalars",
       Module("f32[3] rng(v, hi), distribution=rng_normal"),
       Rule("operand 0 is f32[3], expected a scalar parameter", "RngNormal")},
      {"uniform: pred, integral or floating point",
       Module("c64[4] rng(c, c), distribution=rng_uniform"),
       Rule("got c64[] for operand 0", "RngUniform")},
      {"uniform: parameter types consistent",
       Module("f32[4] rng(lo, i), distribution=rng_uniform"),
       Rule("operand 1 is s32[] but operand 0 is f32[]; element types must "
            "be equal",
            "RngUniform")},
      {"uniform: parameters are scalars",
       Module("f32[3] rng(lo, v), distribution=rng_uniform"),
       Rule("operand 1 is f32[3], expected a scalar parameter", "RngUniform")},
      {"the output shape is an array of type T",
       Module("(f32[3]) rng(lo, hi), distribution=rng_uniform"),
       Rule("declared shape (f32[3]) is not an array", "RngUniform")},
  });
}

TEST(RngBitGeneratorConstraintsTest, StatePerAlgorithm) {
  EXPECT_EQ(*InferText(Module("(u64[2], u32[4,4]) rng-bit-generator(st2), "
                              "algorithm=rng_three_fry")),
            "(u64[2], u32[4,4])");
  EXPECT_EQ(*InferText(Module("(u64[3], u64[8]) rng-bit-generator(st3), "
                              "algorithm=rng_philox")),
            "(u64[3], u64[8])");
  // rng_default: backend-specific state, any u64[n].
  EXPECT_EQ(*InferText(Module("(u64[4], u8[5]) rng-bit-generator(st4), "
                              "algorithm=rng_default")),
            "(u64[4], u8[5])");
  ExpectRuleErrors({
      {"rng_three_fry: state is u64[2]",
       Module("(u64[3], u32[4]) rng-bit-generator(st3), "
              "algorithm=rng_three_fry"),
       Rule("initial state is u64[3], expected u64[2] for rng_three_fry",
            "RngBitGenerator")},
      {"rng_philox: state is u64[3] (u64[2] too, as XLA)",
       Module("(u64[4], u32[4]) rng-bit-generator(st4), "
              "algorithm=rng_philox"),
       Rule("initial state is u64[4], expected u64[2] or u64[3] for "
            "rng_philox",
            "RngBitGenerator")},
      {"rng_default: state is a u64 vector",
       Module("(s32[2], u32[4]) rng-bit-generator(s32st), "
              "algorithm=rng_default"),
       Rule("initial state is s32[2], expected u64[n] for rng_default",
            "RngBitGenerator")},
      {"returns (state, random bits)",
       Module("(u64[2], f32[4]) rng-bit-generator(st2), "
              "algorithm=rng_three_fry"),
       Rule("declared shape (u64[2], f32[4]) is not (state, integral data "
            "array)",
            "RngBitGenerator")},
  });
}

TEST(RngGetAndUpdateStateConstraintsTest, IsU64Pair) {
  EXPECT_EQ(*InferText(Module("u64[2] rng-get-and-update-state(), delta=4")),
            "u64[2]");
}

TEST(InfeedOutfeedConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("((f32[3], pred[]), token[]) infeed(t)")),
            "((f32[3], pred[]), token[])");
  // An empty tuple: the no-op infeed.
  EXPECT_EQ(*InferText(Module("((), token[]) infeed(t)")), "((), token[])");
  EXPECT_EQ(*InferText(Module("token[] outfeed(v, t), outfeed_shape=f32[3]")),
            "token[]");
  ExpectRuleErrors({
      {"infeed: nested tuple shapes are not supported",
       Module("((f32[3], (pred[])), token[]) infeed(t)"),
       Rule("data (f32[3], (pred[])) is a nested tuple; expected an array "
            "or a tuple of arrays",
            "Infeed")},
      {"infeed: ordered by a token", Module("(f32[3], token[]) infeed(v)"),
       Rule("operand 0 is f32[3], expected token[]", "Infeed")},
      {"infeed: returns (data, token)", Module("f32[3] infeed(t)"),
       Rule("declared shape f32[3] is not (data, token[])", "Infeed")},
      {"outfeed: operand is data (array of type T)",
       Module("token[] outfeed(t, t)"),
       Rule("operand 0 is token[], expected an array or tuple of arrays",
            "Outfeed")},
      {"outfeed: shape_with_layout is the operand's shape",
       Module("token[] outfeed(v, t), outfeed_shape=f32[4]"),
       Rule("outfeed_shape=f32[4] differs from operand 0 f32[3]", "Outfeed")},
      {"outfeed: ordered by a token", Module("token[] outfeed(v, v)"),
       Rule("operand 1 is f32[3], expected token[]", "Outfeed")},
  });
}

TEST(SendRecvConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("(f32[3], u32[], token[]) send(v, t), "
                              "channel_id=1")),
            "(f32[3], u32[], token[])");
  EXPECT_EQ(*InferText(Module("(f32[3], u32[], token[]) recv(t), "
                              "channel_id=1")),
            "(f32[3], u32[], token[])");
  EXPECT_EQ(*InferText(Module("token[] send-done(ctx), channel_id=1")),
            "token[]");
  EXPECT_EQ(*InferText(Module("(f32[3], token[]) recv-done(ctx), "
                              "channel_id=1")),
            "(f32[3], token[])");
  ExpectRuleErrors({
      {"send: the operand is data",
       Module("(token[], u32[], token[]) send(t, t), channel_id=1"),
       Rule("operand 0 is token[], expected an array or tuple of arrays",
            "Send")},
      {"send: ordered by a token",
       Module("(f32[3], u32[], token[]) send(v, v), channel_id=1"),
       Rule("operand 1 is f32[3], expected token[]", "Send")},
      {"send-done: takes the {operand, u32 request id} context",
       Module("token[] send-done(bad_ctx), channel_id=1"),
       Rule("operand 0 is (f32[3], s32[], token[]), expected (data, u32[], "
            "token[])",
            "SendDone")},
      {"recv: the context is {buffer, u32 request id}",
       Module("(f32[3], s32[], token[]) recv(t), channel_id=1"),
       Rule("declared shape (f32[3], s32[], token[]) is not (data, u32[], "
            "token[])",
            "Recv")},
      {"recv: ordered by a token",
       Module("(f32[3], u32[], token[]) recv(v), channel_id=1"),
       Rule("operand 0 is f32[3], expected token[]", "Recv")},
      {"recv-done: takes a recv context",
       Module("(f32[3], token[]) recv-done(v), channel_id=1"),
       Rule("operand 0 is f32[3], expected (data, u32[], token[])",
            "RecvDone")},
  });
}

}  // namespace
}  // namespace kiln
