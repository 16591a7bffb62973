#include "passes/zero_sized_elimination.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

// Runs the pass on `hlo` with the arguments `args` (HLO literal text);
// checks the module verifies, round-trips and computes what it computed
// before; returns the printed result.
std::string RunAndCheck(const std::string& hlo,
                        const std::vector<std::string>& args,
                        bool expect_changed) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  std::vector<Literal> arguments;
  for (const std::string& text : args) {
    absl::StatusOr<Literal> literal = ParseLiteral(text);
    EXPECT_TRUE(literal.ok()) << literal.status();
    if (literal.ok()) arguments.push_back(*std::move(literal));
  }
  std::vector<std::vector<Literal>> sets;
  sets.push_back(std::move(arguments));
  absl::StatusOr<SemanticChecker> checker =
      SemanticChecker::Create(**module, std::move(sets));
  EXPECT_TRUE(checker.ok()) << checker.status();
  absl::StatusOr<bool> changed = RunPass("zero-sized-elimination", **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(changed.ok() && *changed, expect_changed);
  EXPECT_TRUE(VerifyModule(**module).ok());
  EXPECT_TRUE(RoundTrips(**module));
  if (checker.ok()) {
    absl::Status same = checker->Check("zero-sized-elimination", **module);
    EXPECT_TRUE(same.ok()) << same;
  }
  return Print(**module);
}

TEST(ZeroSizedEliminationTest, ReplacesEmptyElementwiseResult) {
  std::string out = RunAndCheck(R"(HloModule m
ENTRY e {
  p = f32[0,3] parameter(0)
  ROOT r = f32[0,3] exponential(p)
})",
                                {"f32[0,3] {}"}, true);
  EXPECT_THAT(out, HasSubstr("f32[0,3]{1,0} constant("));
  EXPECT_THAT(out, Not(HasSubstr("exponential(")));
}

TEST(ZeroSizedEliminationTest, ReplacesEmptySliceAndConcatenatePart) {
  std::string out = RunAndCheck(R"(HloModule m
ENTRY e {
  p = s32[4] parameter(0)
  s = s32[0] slice(p), slice={[2:2]}
  ROOT c = s32[4] concatenate(p, s), dimensions={0}
})",
                                {"s32[4] {1, 2, 3, 4}"}, true);
  EXPECT_THAT(out, Not(HasSubstr("slice(")));
  EXPECT_THAT(out, HasSubstr("s32[0]{0} constant({})"));
}

TEST(ZeroSizedEliminationTest, LeavesArraysWithElementsAlone) {
  std::string out = RunAndCheck(R"(HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  ROOT r = f32[2] negate(p)
})",
                                {"f32[2] {1, -2}"}, false);
  EXPECT_THAT(out, HasSubstr("negate("));
}

TEST(ZeroSizedEliminationTest, LeavesEmptyParametersAndControlDepsAlone) {
  std::string out = RunAndCheck(R"(HloModule m
ENTRY e {
  p = f32[0] parameter(0)
  a = f32[0] negate(p)
  ROOT b = f32[0] abs(p), control-predecessors={a}
})",
                                {"f32[0] {}"}, false);
  EXPECT_THAT(out, HasSubstr("negate("));
  EXPECT_THAT(out, HasSubstr("abs("));
}

TEST(ZeroSizedEliminationTest, ReplacesInsideCalledComputations) {
  std::string out = RunAndCheck(R"(HloModule m
callee {
  x = f32[0] parameter(0)
  ROOT y = f32[0] sine(x)
}
ENTRY e {
  p = f32[0] parameter(0)
  ROOT c = f32[0] call(p), to_apply=callee
})",
                                {"f32[0] {}"}, true);
  EXPECT_THAT(out, Not(HasSubstr("sine(")));
}

}  // namespace
}  // namespace kiln
