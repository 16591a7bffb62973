// Channels (channel_checks.cc), token use by the I/O ops (their shape rules)
// and layouts (layout_checks.cc, Shape::Validate): for each rule a module
// that verifies and one that breaks it, whose error names the rule and the
// instruction (or the module, for the entry layout).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/verifier/verifier.h"
#include "compiler/verifier/verifier_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::kiln::verifier_test::ErrorsOfRule;
using ::kiln::verifier_test::ParseForVerifier;
using ::kiln::verifier_test::VerifierErrors;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

VerifyOptions Strict() {
  VerifyOptions options;
  options.form = ShapeForm::kStrict;
  return options;
}

// Line 6: %send, 7: %send_done, 8: %recv, 9: %recv_done.
constexpr char kChannel[] = R"(HloModule channel

ENTRY %main (v: f32[3]) -> (f32[3], token[]) {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
  %send = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %v, token[] %tok), channel_id=1
  %send_done = token[] send-done((f32[3]{0}, u32[], token[]) %send), channel_id=1
  %recv = (f32[3]{0}, u32[], token[]) recv(token[] %send_done), channel_id=1
  ROOT %recv_done = (f32[3]{0}, token[]) recv-done((f32[3]{0}, u32[], token[]) %recv), channel_id=1
}
)";

TEST(ChannelChecksTest, MatchingSendAndRecvVerify) {
  std::unique_ptr<Module> module = ParseForVerifier(kChannel);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(ChannelChecksTest, DoneUsesItsStartsChannel) {
  std::unique_ptr<Module> module = ParseForVerifier(kChannel);
  ASSERT_NE(module, nullptr);
  Instruction* send_done = module->entry()->FindInstruction("send_done");
  send_done->mutable_attrs()->Set("channel_id", int64_t{2});
  send_done->mutable_attrs()->Set("is_host_transfer", true);
  EXPECT_THAT(ErrorsOfRule(*module, "channel.done"),
              ElementsAre("test.hlo:7:3: error: send_done: channel_id is 2 "
                          "but its operand send uses channel_id 1 "
                          "(channel.done)",
                          "test.hlo:7:3: error: send_done: is_host_transfer "
                          "is true but its operand send has false "
                          "(channel.done)"));
}

TEST(ChannelChecksTest, SendAndRecvAgreeOnTheData) {
  std::unique_ptr<Module> module = ParseForVerifier(kChannel);
  ASSERT_NE(module, nullptr);
  Instruction* recv = module->entry()->FindInstruction("recv");
  recv->set_shape(
      Shape::Tuple({Shape::Array(ElementType::kS32, {3}),
                    Shape::Scalar(ElementType::kU32), Shape::Token()}));
  EXPECT_THAT(ErrorsOfRule(*module, "channel.send_recv"),
              ElementsAre("test.hlo:8:3: error: recv: recv of s32[3] on "
                          "channel_id 1 does not match send (send of f32[3]) "
                          "(channel.send_recv)"));
}

TEST(ChannelChecksTest, SendAndRecvAgreeOnHostTransfer) {
  std::unique_ptr<Module> module = ParseForVerifier(kChannel);
  ASSERT_NE(module, nullptr);
  for (const char* name : {"recv", "recv_done"}) {
    module->entry()->FindInstruction(name)->mutable_attrs()->Set(
        "is_host_transfer", true);
  }
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:8:3: error: recv: is_host_transfer "
                          "differs from send on the same channel_id 1 "
                          "(channel.send_recv)"));
}

TEST(ChannelChecksTest, SeveralSendsMayShareAChannel) {
  // Pipelined loops issue one send per stage on one channel; XLA accepts it.
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule pipelined

ENTRY %main (v: f32[3]) -> (token[], token[]) {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
  %send = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %v, token[] %tok), channel_id=1
  %send_done = token[] send-done((f32[3]{0}, u32[], token[]) %send), channel_id=1
  %send.1 = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %v, token[] %send_done), channel_id=1
  %send_done.1 = token[] send-done((f32[3]{0}, u32[], token[]) %send.1), channel_id=1
  ROOT %r = (token[], token[]) tuple(%send_done, %send_done.1)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(ChannelChecksTest, AChannelIsSendRecvOrCollective) {
  std::unique_ptr<Module> module =
      ParseForVerifier(R"(HloModule kinds, num_partitions=2

%add (lhs: f32[], rhs: f32[]) -> f32[] {
  %lhs = f32[] parameter(0)
  %rhs = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %lhs, f32[] %rhs)
}

ENTRY %main (v: f32[3]) -> (f32[3], token[]) {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
  %ar = f32[3]{0} all-reduce(f32[3]{0} %v), channel_id=1, replica_groups={{0,1}}, to_apply=%add
  %send = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %ar, token[] %tok), channel_id=1
  %send_done = token[] send-done((f32[3]{0}, u32[], token[]) %send), channel_id=1
  ROOT %r = (f32[3]{0}, token[]) tuple(%ar, %send_done)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre("test.hlo:13:3: error: send: channel_id 1 is also used by "
                  "ar (all-reduce); a channel is either send/recv or "
                  "collective (channel.kind)",
                  "test.hlo:14:3: error: send_done: channel_id 1 is also "
                  "used by ar (all-reduce); a channel is either send/recv or "
                  "collective (channel.kind)"));
  module->entry()->FindInstruction("ar")->mutable_attrs()->Set("channel_id",
                                                               int64_t{2});
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

// Tokens: the I/O ops' shape rules check that they take and produce tokens;
// the verifier reports those errors with the instruction's location.
TEST(TokenChecksTest, IoOpsTakeTokens) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule io

ENTRY %main (v: f32[3]) -> token[] {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
  %infeed = (f32[3]{0}, token[]) infeed(token[] %tok)
  %data = f32[3]{0} get-tuple-element((f32[3]{0}, token[]) %infeed), index=0
  %itok = token[] get-tuple-element((f32[3]{0}, token[]) %infeed), index=1
  %outfeed = token[] outfeed(f32[3]{0} %data, token[] %itok), outfeed_shape=f32[3]{0}
  ROOT %joined = token[] after-all(token[] %tok, token[] %outfeed)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
  Computation* entry = module->entry();
  Instruction* v = entry->FindInstruction("v");
  entry->FindInstruction("infeed")->ReplaceOperandWith(0, v);
  entry->FindInstruction("outfeed")->ReplaceOperandWith(1, v);
  entry->FindInstruction("joined")->ReplaceOperandWith(0, v);
  std::vector<std::string> errors = VerifierErrors(*module);
  ASSERT_EQ(errors.size(), 3) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("test.hlo:6:3: error: infeed: operand 0 "
                                   "is f32[3], expected token[]"));
  EXPECT_THAT(errors[0], HasSubstr("Infeed"));
  EXPECT_THAT(errors[1], HasSubstr("test.hlo:9:3: error: outfeed: operand 1 "
                                   "is f32[3], expected token[]"));
  EXPECT_THAT(errors[1], HasSubstr("Outfeed"));
  EXPECT_THAT(errors[2], HasSubstr("test.hlo:10:8: error: joined: "));
  EXPECT_THAT(errors[2], HasSubstr("AfterAll"));
}

constexpr char kLayouts[] =
    R"(HloModule layouts, entry_computation_layout={(s4[8]{0:E(4)}, f32[2,3]{1,0})->f32[2,3]{1,0}}

ENTRY %main (n: s4[8], x: f32[2,3]) -> f32[2,3] {
  %n = s4[8]{0:E(4)} parameter(0)
  %x = f32[2,3]{1,0} parameter(1)
  ROOT %neg = f32[2,3]{1,0} negate(f32[2,3]{1,0} %x)
}
)";

TEST(LayoutChecksTest, PackedSubByteLayoutVerifies) {
  std::unique_ptr<Module> module = ParseForVerifier(kLayouts);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(LayoutChecksTest, ElementSizeMustHoldAnElement) {
  std::unique_ptr<Module> module = ParseForVerifier(kLayouts);
  ASSERT_NE(module, nullptr);
  Instruction* neg = module->entry()->root();
  neg->mutable_shape()->mutable_layout()->element_size_in_bits = 16;
  EXPECT_THAT(ErrorsOfRule(*module, "layout.element_size"),
              ElementsAre("test.hlo:6:8: error: neg: layout element size "
                          "E(16) of f32[2,3]{1,0:E(16)} at {} cannot hold a "
                          "32-bit f32 element (layout.element_size)"));
}

TEST(LayoutChecksTest, MinorToMajorMustBeAPermutation) {
  // Shape::Validate's part: reported as shape.valid with the instruction.
  std::unique_ptr<Module> module = ParseForVerifier(kLayouts);
  ASSERT_NE(module, nullptr);
  module->entry()->root()->mutable_shape()->set_layout(Layout({1, 1}));
  std::vector<std::string> errors = ErrorsOfRule(*module, "shape.valid");
  ASSERT_EQ(errors.size(), 1);
  EXPECT_THAT(errors[0], HasSubstr("test.hlo:6:8: error: neg: declared shape "
                                   "f32[2,3]{1,1} is invalid: "));
  EXPECT_THAT(errors[0], HasSubstr("permutation"));
}

TEST(LayoutChecksTest, EntryLayoutAgreesWithTheEntry) {
  std::unique_ptr<Module> module = ParseForVerifier(kLayouts);
  ASSERT_NE(module, nullptr);
  ComputationLayout& layout = *module->config().entry_computation_layout;
  layout.parameters[1].set_layout(Layout({0, 1}));
  layout.result.set_layout(Layout({0, 0}));
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre(
          "test.hlo:1:1: error: layouts: entry_computation_layout "
          "parameter 1 at {} is f32[2,3]{0,1} but the entry's "
          "is f32[2,3]{1,0} (layout.entry)",
          HasSubstr("test.hlo:1:1: error: layouts: entry_computation_layout "
                    "result f32[2,3]{0,0} is invalid: ")));
}

std::unique_ptr<Module> BitcastModule(const std::string& result) {
  return ParseForVerifier(absl::StrCat(R"(HloModule bitcast

ENTRY %main (x: f32[2,3]) -> )",
                                       result, R"( {
  %x = f32[2,3]{1,0} parameter(0)
  ROOT %b = )",
                                       result, R"({0} bitcast(f32[2,3]{1,0} %x)
}
)"));
}

TEST(LayoutChecksTest, StrictBitcastKeepsTheByteSize) {
  // The bitcast shape rule checks the byte size; the verifier reports it.
  std::unique_ptr<Module> same_size = BitcastModule("s32[6]");
  ASSERT_NE(same_size, nullptr);
  EXPECT_THAT(VerifierErrors(*same_size, Strict()), IsEmpty());
  std::unique_ptr<Module> other_size = BitcastModule("s16[6]");
  ASSERT_NE(other_size, nullptr);
  std::vector<std::string> errors = VerifierErrors(*other_size, Strict());
  ASSERT_EQ(errors.size(), 1) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("test.hlo:5:8: error: b: bitcast from "
                                   "f32[2,3]"));
  EXPECT_THAT(errors[0], HasSubstr("changes the byte size"));
  EXPECT_THAT(errors[0], HasSubstr("Bitcast"));
}

}  // namespace
}  // namespace kiln
