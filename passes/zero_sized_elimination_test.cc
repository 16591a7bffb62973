#include "passes/zero_sized_elimination.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Runs the pass on `hlo` with the arguments `args` (HLO literal text);
// checks the module verifies, round-trips and computes what it computed
// before; returns the printed result.
std::string RunAndCheck(const std::string& hlo,
                        const std::vector<std::string>& args,
                        bool expect_changed) {
  return pass_test::RunAndCheckValues("zero-sized-elimination", hlo, args,
                                      expect_changed);
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
