// Every registered pass and pipeline on modules whose calls, whiles and
// conditionals nest thousands of computations deep. The parser accepts any
// such depth (each computation is defined on its own), so a pass that
// recursed once per nesting level would overflow the stack on input the
// parser and verifier accept; walks over nested computations must use
// explicit stacks (layout-assignment overflowed at about 3,350 levels).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// Deeper than the ~3,350 levels that overflowed an 8 MiB stack, with room
// for the larger frames of sanitized builds.
constexpr int kDepth = 5000;

enum class Nesting { kCall, kWhile, kConditional, kMixed };

// c0 negates; c<i> reaches c<i-1> through a call, a while body or a
// conditional branch (kMixed cycles through the three); the entry calls
// the last one.
std::string NestedModule(Nesting nesting, int depth) {
  std::string text = absl::StrCat(
      "HloModule deep\n\nc0 {\n  p = f32[2] parameter(0)\n"
      "  ROOT n = f32[2] negate(p)\n}\n\n",
      "never {\n  p = f32[2] parameter(0)\n"
      "  ROOT f = pred[] constant(false)\n}\n\n");
  for (int i = 1; i < depth; ++i) {
    Nesting kind = nesting;
    if (kind == Nesting::kMixed) kind = static_cast<Nesting>(i % 3);
    absl::StrAppend(&text, "c", i, " {\n  p = f32[2] parameter(0)\n");
    switch (kind) {
      case Nesting::kCall:
        absl::StrAppend(&text, "  ROOT r = f32[2] call(p), to_apply=c", i - 1,
                        "\n");
        break;
      case Nesting::kWhile:
        absl::StrAppend(&text, "  w = f32[2] while(p), condition=never, body=c",
                        i - 1, "\n  ROOT r = f32[2] negate(w)\n");
        break;
      default:
        absl::StrAppend(&text,
                        "  b = pred[] constant(true)\n"
                        "  ROOT r = f32[2] conditional(b, p, p), "
                        "true_computation=c",
                        i - 1, ", false_computation=c0\n");
        break;
    }
    absl::StrAppend(&text, "}\n\n");
  }
  absl::StrAppend(&text, "ENTRY e {\n  p = f32[2] parameter(0)\n",
                  "  ROOT r = f32[2] call(p), to_apply=c", depth - 1, "\n}\n");
  return text;
}

class DeepNestingTest : public ::testing::TestWithParam<Nesting> {};

// Runs `pass` on a fresh parse of the module and verifies the result.
void RunAndVerify(Pass& pass, const std::string& text,
                  const std::string& name) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = pass.Run(**module);
  ASSERT_TRUE(changed.ok()) << name << ": " << changed.status();
  absl::Status verified = VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << name << ": " << verified;
}

TEST_P(DeepNestingTest, EveryPassAndPipelineHandlesTheDepth) {
  const std::string text = NestedModule(GetParam(), kDepth);
  for (const std::string& name : PassRegistry::Global().Names()) {
    std::unique_ptr<Pass> pass = PassRegistry::Global().Create(name);
    RunAndVerify(*pass, text, name);
  }
  for (const std::string& name : PipelineRegistry::Global().Names()) {
    std::unique_ptr<Pass> pipeline = PipelineRegistry::Global().Create(name);
    RunAndVerify(*pipeline, text, absl::StrCat("pipeline ", name));
  }
}

INSTANTIATE_TEST_SUITE_P(Nestings, DeepNestingTest,
                         ::testing::Values(Nesting::kCall, Nesting::kWhile,
                                           Nesting::kConditional,
                                           Nesting::kMixed));

// A call cycle is still refused, now by the explicit stack.
TEST(DeepNestingTest, LayoutAssignmentStillRefusesACallCycle) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(NestedModule(Nesting::kCall, 4));
  ASSERT_TRUE(module.ok()) << module.status();
  Computation* c1 = (*module)->FindComputation("c1");
  Computation* c3 = (*module)->FindComputation("c3");
  ASSERT_NE(c1, nullptr);
  ASSERT_NE(c3, nullptr);
  // The parser refuses cycles, so one is made by hand: c1 -> c3 -> c2 -> c1.
  c1->root()->mutable_attrs()->Set("to_apply", c3);
  std::unique_ptr<Pass> pass =
      PassRegistry::Global().Create("layout-assignment");
  ASSERT_NE(pass, nullptr);
  absl::StatusOr<bool> changed = pass->Run(**module);
  ASSERT_FALSE(changed.ok());
  EXPECT_NE(changed.status().message().find("calls itself"), std::string::npos)
      << changed.status();
}

}  // namespace
}  // namespace kiln
