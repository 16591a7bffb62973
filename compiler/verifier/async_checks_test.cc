// Async chains, the dedicated start/done pairs and execution threads
// (async_checks.cc): for each rule a module that verifies and one that
// breaks the rule, whose error names the rule and the instruction.
#include <memory>
#include <string>
#include <vector>

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
using ::testing::IsEmpty;

// Line 15: %start, 16: %update, 17: %done.
constexpr char kChain[] = R"(HloModule chain

%wrapped (a: f32[10]) -> f32[10] {
  %a = f32[10]{0} parameter(0)
  ROOT %neg = f32[10]{0} negate(f32[10]{0} %a)
}

%other (b: f32[10]) -> f32[10] {
  %b = f32[10]{0} parameter(0)
  ROOT %abs = f32[10]{0} abs(f32[10]{0} %b)
}

ENTRY %main (p: f32[10]) -> f32[10] {
  %p = f32[10]{0} parameter(0)
  %start = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), calls=%wrapped
  %update = ((f32[10]{0}), f32[10]{0}, s32[]) async-update(((f32[10]{0}), f32[10]{0}, s32[]) %start)
  ROOT %done = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %update)
}
)";

VerifyOptions Strict() {
  VerifyOptions options;
  options.form = ShapeForm::kStrict;
  return options;
}

TEST(AsyncChecksTest, ChainVerifiesInBothForms) {
  std::unique_ptr<Module> module = ParseForVerifier(kChain);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module), IsEmpty());
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(AsyncChecksTest, DoneOperandMustBeStartOrUpdate) {
  std::unique_ptr<Module> module = ParseForVerifier(kChain);
  ASSERT_NE(module, nullptr);
  Instruction* done = module->entry()->root();
  done->ReplaceOperandWith(0, module->entry()->FindInstruction("p"));
  EXPECT_THAT(ErrorsOfRule(*module, "async.operand"),
              ElementsAre("test.hlo:17:8: error: done: operand 0 (p) is "
                          "parameter, expected async-start or async-update "
                          "(async.operand)"));
  // The update it no longer continues is now a dead end.
  EXPECT_THAT(ErrorsOfRule(*module, "async.users"),
              ElementsAre("test.hlo:16:3: error: update: has 0 users, "
                          "expected exactly one async-update or async-done "
                          "that continues the chain (async.users)"));
}

TEST(AsyncChecksTest, StartMustNotFanOutToTwoDones) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule fan_out

%wrapped (a: f32[10]) -> f32[10] {
  %a = f32[10]{0} parameter(0)
  ROOT %neg = f32[10]{0} negate(f32[10]{0} %a)
}

ENTRY %main (p: f32[10]) -> (f32[10], f32[10]) {
  %p = f32[10]{0} parameter(0)
  %start = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), calls=%wrapped
  %done1 = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %start)
  %done2 = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %start)
  ROOT %t = (f32[10]{0}, f32[10]{0}) tuple(f32[10]{0} %done1, f32[10]{0} %done2)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:10:3: error: start: has 2 users (done1, "
                          "done2), expected exactly one async-update or "
                          "async-done that continues the chain "
                          "(async.users)"));
}

TEST(AsyncChecksTest, StartMustReachADone) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule dangling

%wrapped (a: f32[10]) -> f32[10] {
  %a = f32[10]{0} parameter(0)
  ROOT %neg = f32[10]{0} negate(f32[10]{0} %a)
}

ENTRY %main (p: f32[10]) -> f32[10] {
  %p = f32[10]{0} parameter(0)
  %start = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), calls=%wrapped
  %result = f32[10]{0} get-tuple-element(((f32[10]{0}), f32[10]{0}, s32[]) %start), index=1
  %lonely = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), calls=%wrapped
  ROOT %neg.1 = f32[10]{0} negate(f32[10]{0} %result)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(
      ErrorsOfRule(*module, "async.users"),
      ElementsAre("test.hlo:10:3: error: start: its user result is "
                  "get-tuple-element, expected async-update or async-done "
                  "(async.users)",
                  "test.hlo:12:3: error: lonely: has 0 users, expected "
                  "exactly one async-update or async-done that continues "
                  "the chain (async.users)"));
}

TEST(AsyncChecksTest, ChainWrapsOneComputation) {
  std::unique_ptr<Module> module = ParseForVerifier(kChain);
  ASSERT_NE(module, nullptr);
  module->entry()->FindInstruction("update")->mutable_attrs()->Set(
      "calls", module->FindComputation("other"));
  EXPECT_THAT(ErrorsOfRule(*module, "async.computation"),
              ElementsAre("test.hlo:16:3: error: update: calls other but its "
                          "operand start calls wrapped; an async chain wraps "
                          "one computation (async.computation)",
                          "test.hlo:17:8: error: done: calls wrapped but its "
                          "operand update calls other; an async chain wraps "
                          "one computation (async.computation)"));
}

constexpr char kHostThread[] = R"(HloModule threads

%offloaded (a: f32[10]) -> f32[10] {
  %a = f32[10]{0} parameter(0)
  ROOT %neg = f32[10]{0} negate(f32[10]{0} %a)
}, execution_thread="host"

ENTRY %main (p: f32[10]) -> f32[10] {
  %p = f32[10]{0} parameter(0)
  %start = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), async_execution_thread="host", calls=%offloaded
  ROOT %done = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %start)
}
)";

TEST(AsyncChecksTest, WrappedComputationRunsOnTheStartsThread) {
  std::unique_ptr<Module> module = ParseForVerifier(kHostThread);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
  Instruction* start = module->entry()->FindInstruction("start");
  start->mutable_attrs()->Set("async_execution_thread", std::string("gpu"));
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:10:3: error: start: "
                          "async_execution_thread is \"gpu\" but the wrapped "
                          "computation offloaded runs on \"host\" "
                          "(async.execution_thread)"));
  // Without the attribute the start runs its computation on "main".
  start->mutable_attrs()->Erase("async_execution_thread");
  EXPECT_THAT(ErrorsOfRule(*module, "async.execution_thread"),
              ElementsAre("test.hlo:10:3: error: start: "
                          "async_execution_thread is \"main\" but the "
                          "wrapped computation offloaded runs on \"host\" "
                          "(async.execution_thread)"));
  // A done that names a thread must name the chain's.
  start->mutable_attrs()->Set("async_execution_thread", std::string("host"));
  Instruction* done = module->entry()->root();
  done->mutable_attrs()->Set("async_execution_thread", std::string("host"));
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
  done->mutable_attrs()->Set("async_execution_thread", std::string("main"));
  EXPECT_THAT(ErrorsOfRule(*module, "async.execution_thread"),
              ElementsAre("test.hlo:11:8: error: done: "
                          "async_execution_thread is \"main\" but the "
                          "wrapped computation offloaded runs on \"host\" "
                          "(async.execution_thread)"));
}

TEST(AsyncChecksTest, CalleesRunOnTheCallersThread) {
  constexpr char kCall[] = R"(HloModule call_thread

%helper (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %neg = f32[4]{0} negate(f32[4]{0} %a)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(f32[4]{0} %x), to_apply=%helper
}
)";
  std::unique_ptr<Module> module = ParseForVerifier(kCall);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
  module->FindComputation("helper")->set_execution_thread("host");
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:10:8: error: c: calls helper, which runs "
                          "on \"host\", from computation main on \"main\"; "
                          "only async ops change threads "
                          "(thread.called_computation)"));
}

// Line 13: %ag_start, 14: %ag_done, 15: %ar_start, 16: %ar_done,
// 17: %cp_start, 18: %cp_done, 19: %copy_start, 20: %copy_done.
constexpr char kPairs[] = R"(HloModule pairs, replica_count=2

%add (lhs: f32[], rhs: f32[]) -> f32[] {
  %lhs = f32[] parameter(0)
  %rhs = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %lhs, f32[] %rhs)
}

ENTRY %main (p: f32[10], q: f32[4,2], h: f32[2,3]) -> (f32[8,2], f32[10], f32[4,2], f32[2,3]) {
  %p = f32[10]{0} parameter(0)
  %q = f32[4,2]{1,0} parameter(1)
  %h = f32[2,3]{1,0} parameter(2)
  %ag_start = (f32[4,2]{1,0}, f32[8,2]{1,0}) all-gather-start(f32[4,2]{1,0} %q), replica_groups={{0,1}}, dimensions={0}
  %ag_done = f32[8,2]{1,0} all-gather-done((f32[4,2]{1,0}, f32[8,2]{1,0}) %ag_start)
  %ar_start = f32[10]{0} all-reduce-start(f32[10]{0} %p), replica_groups={}, to_apply=%add
  %ar_done = f32[10]{0} all-reduce-done(f32[10]{0} %ar_start)
  %cp_start = (f32[4,2]{1,0}, f32[4,2]{1,0}, u32[], u32[]) collective-permute-start(f32[4,2]{1,0} %q), source_target_pairs={{0,1},{1,0}}
  %cp_done = f32[4,2]{1,0} collective-permute-done((f32[4,2]{1,0}, f32[4,2]{1,0}, u32[], u32[]) %cp_start)
  %copy_start = (f32[2,3]{1,0}, f32[2,3]{1,0}, u32[]) copy-start(f32[2,3]{1,0} %h)
  %copy_done = f32[2,3]{1,0} copy-done((f32[2,3]{1,0}, f32[2,3]{1,0}, u32[]) %copy_start)
  ROOT %t = (f32[8,2]{1,0}, f32[10]{0}, f32[4,2]{1,0}, f32[2,3]{1,0}) tuple(%ag_done, %ar_done, %cp_done, %copy_done)
}
)";

TEST(AsyncChecksTest, DedicatedPairsVerify) {
  std::unique_ptr<Module> module = ParseForVerifier(kPairs);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(AsyncChecksTest, DoneOfAPairNeedsItsOwnStart) {
  std::unique_ptr<Module> module = ParseForVerifier(kPairs);
  ASSERT_NE(module, nullptr);
  Computation* entry = module->entry();
  // collective-permute-done now reads the all-gather-start: the permute's
  // start dangles and the all-gather's start fans out.
  entry->FindInstruction("cp_done")->ReplaceOperandWith(
      0, entry->FindInstruction("ag_start"));
  entry->FindInstruction("ar_done")->ReplaceOperandWith(
      0, entry->FindInstruction("p"));
  EXPECT_THAT(
      ErrorsOfRule(*module, "async.operand"),
      ElementsAre("test.hlo:16:3: error: ar_done: operand 0 (p) is "
                  "parameter, expected all-reduce-start (async.operand)",
                  "test.hlo:18:3: error: cp_done: operand 0 (ag_start) is "
                  "all-gather-start, expected collective-permute-start "
                  "(async.operand)"));
  EXPECT_THAT(
      ErrorsOfRule(*module, "async.users"),
      ElementsAre("test.hlo:13:3: error: ag_start: has 2 users (ag_done, "
                  "cp_done), expected exactly one all-gather-done that "
                  "continues the chain (async.users)",
                  "test.hlo:15:3: error: ar_start: has 0 users, expected "
                  "exactly one all-reduce-done that continues the chain "
                  "(async.users)",
                  "test.hlo:17:3: error: cp_start: has 0 users, expected "
                  "exactly one collective-permute-done that continues the "
                  "chain (async.users)"));
}

TEST(AsyncChecksTest, CopyStartHasOneCopyDone) {
  std::unique_ptr<Module> module = ParseForVerifier(kPairs);
  ASSERT_NE(module, nullptr);
  Computation* entry = module->entry();
  entry->FindInstruction("copy_done")
      ->ReplaceOperandWith(0, entry->FindInstruction("cp_start"));
  EXPECT_THAT(
      ErrorsOfRule(*module, "async.users"),
      ElementsAre("test.hlo:17:3: error: cp_start: has 2 users (cp_done, "
                  "copy_done), expected exactly one collective-permute-done "
                  "that continues the chain (async.users)",
                  "test.hlo:19:3: error: copy_start: has 0 users, expected "
                  "exactly one copy-done that continues the chain "
                  "(async.users)"));
  EXPECT_THAT(ErrorsOfRule(*module, "async.operand"),
              ElementsAre("test.hlo:20:3: error: copy_done: operand 0 "
                          "(cp_start) is collective-permute-start, expected "
                          "copy-start (async.operand)"));
}

// Line 6: %send, 7: %send_done, 8: %recv, 9: %recv_done.
constexpr char kTransfers[] = R"(HloModule transfers

ENTRY %main (v: f32[3]) -> (f32[3], token[]) {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
  %send = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %v, token[] %tok), channel_id=1
  %send_done = token[] send-done((f32[3]{0}, u32[], token[]) %send), channel_id=1
  %recv = (f32[3]{0}, u32[], token[]) recv(token[] %send_done), channel_id=1
  ROOT %recv_done = (f32[3]{0}, token[]) recv-done((f32[3]{0}, u32[], token[]) %recv), channel_id=1
}
)";

TEST(AsyncChecksTest, SendAndRecvPairWithTheirDones) {
  std::unique_ptr<Module> module = ParseForVerifier(kTransfers);
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
  Computation* entry = module->entry();
  // recv-done now reads the send: the recv is left without its done.
  entry->FindInstruction("recv_done")
      ->ReplaceOperandWith(0, entry->FindInstruction("send"));
  EXPECT_THAT(ErrorsOfRule(*module, "async.operand"),
              ElementsAre("test.hlo:9:8: error: recv_done: operand 0 (send) "
                          "is send, expected recv or get-tuple-element "
                          "(async.operand)"));
  EXPECT_THAT(
      ErrorsOfRule(*module, "async.users"),
      ElementsAre("test.hlo:6:3: error: send: has 2 users (send_done, "
                  "recv_done), expected exactly one send-done or tuple that "
                  "continues the chain (async.users)",
                  "test.hlo:8:3: error: recv: has 0 users, expected exactly "
                  "one recv-done or tuple that continues the chain "
                  "(async.users)"));
}

constexpr char kSendBody[] = R"(HloModule wrapped_send

%send_body (d: f32[3], t: token[]) -> (f32[3], u32[], token[]) {
  %d = f32[3]{0} parameter(0)
  %t = token[] parameter(1)
  ROOT %send = (f32[3]{0}, u32[], token[]) send(f32[3]{0} %d, token[] %t), channel_id=1
}

ENTRY %main (v: f32[3]) -> (f32[3], u32[], token[]) {
  %v = f32[3]{0} parameter(0)
  %tok = token[] after-all()
)";

TEST(AsyncChecksTest, WrappedSendNeedsNoDoneOfItsOwn) {
  std::unique_ptr<Module> module = ParseForVerifier(std::string(kSendBody) + R"(
  %start = ((f32[3]{0}, token[]), (f32[3]{0}, u32[], token[]), s32[]) async-start(f32[3]{0} %v, token[] %tok), calls=%send_body
  ROOT %done = (f32[3]{0}, u32[], token[]) async-done(((f32[3]{0}, token[]), (f32[3]{0}, u32[], token[]), s32[]) %start)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module, Strict()), IsEmpty());
}

TEST(AsyncChecksTest, CalledSendNeedsItsDone) {
  std::unique_ptr<Module> module = ParseForVerifier(std::string(kSendBody) + R"(
  ROOT %c = (f32[3]{0}, u32[], token[]) call(f32[3]{0} %v, token[] %tok), to_apply=%send_body
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:6:8: error: send: has 0 users, expected "
                          "exactly one send-done or tuple that continues "
                          "the chain (async.users)"));
}

}  // namespace
}  // namespace kiln
