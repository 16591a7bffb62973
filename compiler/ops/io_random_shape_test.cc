// Shape rules of the transfer ops (infeed, outfeed, send, recv and their
// -done halves) and the random ops (rng, rng-bit-generator,
// rng-get-and-update-state); also checked against the declared shapes of
// the HLO corpus.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::DeclaredShapeMismatches;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::ReadCorpusFile;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// An entry whose ROOT is `root` over t = token[], v = f32[3],
// ctx = (f32[3], u32[], token[]), lo/hi = f32[], i = s32[], st = u64[2],
// st3 = u64[3].
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
ENTRY e {
  t = token[] after-all()
  v = f32[3] parameter(0)
  ctx = (f32[3], u32[], token[]) parameter(1)
  lo = f32[] parameter(2)
  hi = f32[] parameter(3)
  i = s32[] parameter(4)
  st = u64[2] parameter(5)
  st3 = u64[3] parameter(6)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(IoRandomCorpusTest, DeclaredShapesMatch) {
  EXPECT_THAT(DeclaredShapeMismatches(
                  ReadCorpusFile("io.hlo"),
                  {Opcode::kInfeed, Opcode::kOutfeed, Opcode::kSend,
                   Opcode::kSendDone, Opcode::kRecv, Opcode::kRecvDone}),
              IsEmpty());
  EXPECT_THAT(DeclaredShapeMismatches(ReadCorpusFile("linalg_random.hlo"),
                                      {Opcode::kRng, Opcode::kRngBitGenerator,
                                       Opcode::kRngGetAndUpdateState}),
              IsEmpty());
}

TEST(InfeedShapeTest, DataAndToken) {
  EXPECT_EQ(*InferText(Module("((u32[3], pred[]), token[]) infeed(t)")),
            "((u32[3], pred[]), token[])");
  EXPECT_THAT(InferError(Module("(f32[3], token[]) infeed(v)")),
              HasSubstr("r: operand 0 is f32[3], expected token[] "
                        "(operation_semantics.md, Infeed)"));
  EXPECT_THAT(InferError(Module("f32[3] infeed(t)")),
              HasSubstr("declared shape f32[3] is not (data, token[])"));
}

TEST(OutfeedShapeTest, ReturnsAToken) {
  EXPECT_EQ(*InferText(Module("token[] outfeed(v, t), outfeed_shape=f32[3]")),
            "token[]");
  EXPECT_THAT(InferError(Module("token[] outfeed(v, v)")),
              HasSubstr("operand 1 is f32[3], expected token[]"));
  EXPECT_THAT(InferError(Module("token[] outfeed(t, t)")),
              HasSubstr("operand 0 is token[], expected an array"));
  EXPECT_THAT(InferError(Module("token[] outfeed(v, t), outfeed_shape=s32[3]")),
              HasSubstr("outfeed_shape=s32[3] differs from operand 0 f32[3] "
                        "(operation_semantics.md, Outfeed)"));
}

TEST(SendRecvShapeTest, ContextTuples) {
  EXPECT_EQ(*InferText(Module("(f32[3], u32[], token[]) send(v, t), "
                              "channel_id=1")),
            "(f32[3], u32[], token[])");
  EXPECT_EQ(*InferText(Module("token[] send-done(ctx), channel_id=1")),
            "token[]");
  EXPECT_EQ(*InferText(Module("(f32[3], u32[], token[]) recv(t), "
                              "channel_id=1")),
            "(f32[3], u32[], token[])");
  EXPECT_EQ(*InferText(Module("(f32[3], token[]) recv-done(ctx), "
                              "channel_id=1")),
            "(f32[3], token[])");
}

TEST(SendRecvShapeTest, RejectsBadOperands) {
  EXPECT_THAT(InferError(Module("(f32[3], u32[], token[]) send(v, v)")),
              HasSubstr("operand 1 is f32[3], expected token[] "
                        "(operation_semantics.md, Send)"));
  EXPECT_THAT(InferError(Module("(f32[3], u32[], token[]) recv(v)")),
              HasSubstr("r: operand 0 is f32[3], expected token[] "
                        "(operation_semantics.md, Recv)"));
  EXPECT_THAT(InferError(Module("(f32[3], token[]) recv(t)")),
              HasSubstr("is not (data, u32[], token[])"));
  EXPECT_THAT(InferError(Module("token[] send-done(v)")),
              HasSubstr("operand 0 is f32[3], expected (data, u32[], token[]) "
                        "(operation_semantics.md, SendDone)"));
  EXPECT_THAT(InferError(Module("(f32[3], token[]) recv-done(t)")),
              HasSubstr("operand 0 is token[], expected (data, u32[], "
                        "token[]) (operation_semantics.md, RecvDone)"));
}

TEST(RngShapeTest, TypedByTheParameters) {
  EXPECT_EQ(*InferText(Module("f32[2,3] rng(lo, hi), "
                              "distribution=rng_uniform")),
            "f32[2,3]");
  EXPECT_EQ(*InferText(Module("s32[5] rng(i, i), distribution=rng_uniform")),
            "s32[5]");
  EXPECT_THAT(InferError(Module("s32[5] rng(i, i), distribution=rng_normal")),
              HasSubstr("rng expects a floating-point element type, got s32[] "
                        "for operand 0 (operation_semantics.md, RngNormal)"));
  EXPECT_THAT(InferError(Module("f32[3] rng(v, hi), "
                                "distribution=rng_uniform")),
              HasSubstr("r: operand 0 is f32[3], expected a scalar parameter "
                        "(operation_semantics.md, RngUniform)"));
  EXPECT_THAT(InferError(Module("f32[3] rng(lo, i), "
                                "distribution=rng_uniform")),
              HasSubstr("operand 1 is s32[] but operand 0 is f32[]; element "
                        "types must be equal"));
}

TEST(RngBitGeneratorShapeTest, StatePerAlgorithm) {
  EXPECT_EQ(*InferText(Module("(u64[2], u32[4,4]) rng-bit-generator(st), "
                              "algorithm=rng_three_fry")),
            "(u64[2], u32[4,4])");
  EXPECT_EQ(*InferText(Module("(u64[3], u8[16]) rng-bit-generator(st3), "
                              "algorithm=rng_philox")),
            "(u64[3], u8[16])");
  EXPECT_THAT(InferError(Module("(u64[3], u32[4]) rng-bit-generator(st3), "
                                "algorithm=rng_three_fry")),
              HasSubstr("r: initial state is u64[3], expected u64[2] for "
                        "rng_three_fry (operation_semantics.md, "
                        "RngBitGenerator)"));
  EXPECT_THAT(InferError(Module("(f32[3], u32[4]) rng-bit-generator(v), "
                                "algorithm=rng_default")),
              HasSubstr("expected u64[n] for rng_default"));
  EXPECT_THAT(InferError(Module("(u64[2], f32[4]) rng-bit-generator(st), "
                                "algorithm=rng_default")),
              HasSubstr("is not (state, integral data array)"));
}

TEST(RngGetAndUpdateStateShapeTest, IsU64Pair) {
  EXPECT_EQ(*InferText(Module("u64[2] rng-get-and-update-state(), delta=8")),
            "u64[2]");
}

}  // namespace
}  // namespace kiln
