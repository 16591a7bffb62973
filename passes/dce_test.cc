#include "passes/dce.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/module.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kSum[] =
    "sum {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n}\n\n";

// Runs dce on `hlo`; expects `changed` and a valid module; returns the text.
std::string RunDce(const std::string& hlo, bool expect_changed = true) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  absl::StatusOr<bool> changed = RunPass("dce", **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(changed.ok() && *changed, expect_changed);
  absl::Status verified = VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified;
  EXPECT_TRUE(RoundTrips(**module));
  return Print(**module);
}

std::string Entry(const std::string& body, const std::string& prelude = "") {
  return absl::StrCat("HloModule m\n\n", prelude,
                      "ENTRY e {\n  p0 = f32[2] parameter(0)\n"
                      "  p1 = f32[2] parameter(1)\n",
                      body, "\n}\n");
}

// --- Positive cases ---

TEST(DceTest, RemovesUnusedInstructionAndItsNowUnusedOperands) {
  const std::string out = RunDce(
      Entry("  a = f32[2] add(p0, p1)\n  b = f32[2] multiply(a, a)\n"
            "  c = f32[2] negate(b)\n  ROOT r = f32[2] subtract(p0, p1)"));
  EXPECT_TRUE(ContainsInOrder(out, {"p0 = ", "p1 = ", "ROOT r = "}));
  EXPECT_THAT(out, Not(HasSubstr("add(")));
  EXPECT_THAT(out, Not(HasSubstr("multiply(")));
  EXPECT_THAT(out, Not(HasSubstr("negate(")));
}

TEST(DceTest, KeepsWhatTheRootUses) {
  const std::string out =
      RunDce(Entry("  a = f32[2] add(p0, p1)\n  dead = f32[2] exponential(a)\n"
                   "  ROOT n = f32[2] negate(a)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"a = f32[2]{0} add(p0, p1)", "ROOT n = f32[2]{0} negate(a)"}));
  EXPECT_THAT(out, Not(HasSubstr("exponential")));
}

TEST(DceTest, RemovesPureCustomCallAndAfterAll) {
  const std::string out = RunDce(
      Entry("  cc = f32[2] custom-call(p0), custom_call_target=\"pure\"\n"
            "  tok = token[] after-all()\n  ROOT r = f32[2] add(p0, p1)"));
  EXPECT_THAT(out, Not(HasSubstr("custom-call")));
  EXPECT_THAT(out, Not(HasSubstr("after-all")));
}

TEST(DceTest, RemovesCollectiveWithoutChannelAndItsDeadComputation) {
  const std::string out = RunDce(
      Entry("  ar = f32[2] all-reduce(p0), replica_groups={}, to_apply=sum\n"
            "  ROOT r = f32[2] add(p0, p1)",
            kSum));
  EXPECT_THAT(out, Not(HasSubstr("all-reduce")));
  EXPECT_THAT(out, Not(HasSubstr("sum")));
}

TEST(DceTest, RemovesDeadCodeInCalledComputations) {
  const std::string out =
      RunDce(Entry("  ROOT c = f32[2] call(p0), to_apply=f",
                   "f {\n  x = f32[2] parameter(0)\n  unused = f32[2] sine(x)\n"
                   "  ROOT y = f32[2] cosine(x)\n}\n\n"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"f {", "ROOT y = f32[2]{0} cosine(x)", "ENTRY e", "to_apply=f"}));
  EXPECT_THAT(out, Not(HasSubstr(" sine(")));
}

TEST(DceTest, RemovesDeadCallAndTheComputationOnlyItCalled) {
  const std::string out = RunDce(Entry(
      "  c = f32[2] call(p0), to_apply=f\n  ROOT r = f32[2] negate(p1)",
      "f {\n  x = f32[2] parameter(0)\n  ROOT y = f32[2] cosine(x)\n}\n\n"));
  EXPECT_THAT(out, Not(HasSubstr("call(")));
  EXPECT_THAT(out, Not(HasSubstr("cosine")));
}

TEST(DceTest, RemovesUncalledComputations) {
  const std::string out = RunDce(Entry(
      "  ROOT r = f32[2] negate(p1)",
      "orphan {\n  x = f32[] parameter(0)\n  ROOT y = f32[] sine(x)\n}\n\n"));
  EXPECT_THAT(out, Not(HasSubstr("orphan")));
}

TEST(DceTest, RemovesDeadGetTupleElementButKeepsTupleRoot) {
  const std::string out =
      RunDce(Entry("  t = (f32[2], f32[2]) tuple(p0, p1)\n"
                   "  g = f32[2] get-tuple-element(t), index=0\n"
                   "  ROOT r = (f32[2], f32[2]) tuple(p1, p0)"));
  EXPECT_THAT(out, Not(HasSubstr("get-tuple-element")));
  EXPECT_THAT(out, Not(HasSubstr("t = ")));
  EXPECT_TRUE(
      ContainsInOrder(out, {"ROOT r = (f32[2]{0}, f32[2]{0}) tuple(p1, p0)"}));
}

TEST(DceTest, RemovesADeadInstructionThatHasOnlyControlPredecessors) {
  const std::string out =
      RunDce(Entry("  a = f32[2] add(p0, p1)\n"
                   "  b = f32[2] sine(p0), control-predecessors={a}\n"
                   "  ROOT r = f32[2] negate(a)"));
  EXPECT_THAT(out, Not(HasSubstr(" sine(")));
  EXPECT_TRUE(ContainsInOrder(out, {"a = ", "ROOT r = "}));
}

// --- Negative cases: kept ---

TEST(DceTest, LiveModuleIsUnchanged) {
  const std::string hlo =
      Entry("  a = f32[2] add(p0, p1)\n  ROOT r = f32[2] negate(a)");
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string before = Print(**module);
  absl::StatusOr<bool> changed = RunPass("dce", **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(Print(**module), before);
}

TEST(DceTest, KeepsUnusedParametersAndAParameterRoot) {
  const std::string out = RunDce(Entry("  ROOT r = f32[2] parameter(2)"),
                                 /*expect_changed=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"p0 = ", "p1 = ", "ROOT r = "}));
}

TEST(DceTest, KeepsSideEffectingCustomCall) {
  const std::string out = RunDce(
      Entry("  cc = f32[2] custom-call(p0), custom_call_target=\"log\", "
            "custom_call_has_side_effect=true\n  ROOT r = f32[2] add(p0, p1)"),
      /*expect_changed=*/false);
  EXPECT_THAT(out, HasSubstr("custom_call_has_side_effect=true"));
}

TEST(DceTest, KeepsCollectiveWithChannelId) {
  const std::string out = RunDce(
      Entry("  ar = f32[2] all-reduce(p0), channel_id=1, replica_groups={}, "
            "to_apply=sum\n  ROOT r = f32[2] add(p0, p1)",
            kSum),
      /*expect_changed=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"sum", "all-reduce(p0), channel_id=1"}));
}

TEST(DceTest, KeepsOutfeedAndRng) {
  const std::string out =
      RunDce(Entry("  tok = token[] after-all()\n"
                   "  of = token[] outfeed(p0, tok), outfeed_shape=f32[2]{0}\n"
                   "  lo = f32[] constant(0)\n  hi = f32[] constant(1)\n"
                   "  rn = f32[2] rng(lo, hi), distribution=rng_uniform\n"
                   "  ROOT r = f32[2] add(p0, p1)"),
             /*expect_changed=*/false);
  EXPECT_TRUE(
      ContainsInOrder(out, {"after-all()", "outfeed(p0, tok)", "rng(lo, hi)"}));
}

TEST(DceTest, KeepsCallOfAComputationWithASideEffect) {
  const std::string out = RunDce(
      Entry("  c = f32[2] call(p0), to_apply=f\n  ROOT r = f32[2] negate(p1)",
            "f {\n  x = f32[2] parameter(0)\n"
            "  ROOT y = f32[2] custom-call(x), custom_call_target=\"log\", "
            "custom_call_has_side_effect=true\n}\n\n"),
      /*expect_changed=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"f {", "c = f32[2]{0} call(p0)"}));
}

TEST(DceTest, KeepsAnInstructionThatOrdersALiveOne) {
  const std::string out =
      RunDce(Entry("  a = f32[2] sine(p0)\n"
                   "  ROOT r = f32[2] negate(p1), control-predecessors={a}"),
             /*expect_changed=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"a = f32[2]{0} sine(p0)", "ROOT r = "}));
}

TEST(DceTest, OwnSideEffectList) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(
      Entry("  tok = token[] after-all()\n"
            "  inf = ((f32[2]), token[]) infeed(tok)\n"
            "  ar = f32[2] all-reduce(p0), replica_groups={}, to_apply=sum\n"
            "  cp = f32[2] collective-permute(p0), channel_id=2, "
            "source_target_pairs={{0,0}}\n"
            "  ROOT r = f32[2] add(p0, p1)",
            kSum));
  ASSERT_TRUE(module.ok()) << module.status();
  const Computation& entry = *(*module)->entry();
  EXPECT_FALSE(HasOwnSideEffect(*entry.FindInstruction("tok")));
  EXPECT_TRUE(HasOwnSideEffect(*entry.FindInstruction("inf")));
  EXPECT_FALSE(HasOwnSideEffect(*entry.FindInstruction("ar")));
  EXPECT_TRUE(HasOwnSideEffect(*entry.FindInstruction("cp")));
  EXPECT_FALSE(HasOwnSideEffect(*entry.FindInstruction("r")));
}

// --- Scale: a long dead chain goes in linear time, without recursion ---

TEST(DceTest, RemovesALongDeadChain) {
  constexpr int kLength = 100000;
  std::string body = "  c0 = f32[2] negate(p0)\n";
  for (int i = 1; i < kLength; ++i) {
    absl::StrAppend(&body, "  c", i, " = f32[2] negate(c", i - 1, ")\n");
  }
  absl::StrAppend(&body, "  ROOT r = f32[2] add(p0, p1)");
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(Entry(body));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = RunPass("dce", **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_EQ((*module)->entry()->instruction_count(), 3);
}

}  // namespace
}  // namespace kiln
