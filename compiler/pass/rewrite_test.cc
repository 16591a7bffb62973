#include "compiler/pass/rewrite.h"

#include <memory>
#include <string>

#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr char kNegates[] = R"(HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  n1 = f32[4] negate(x)
  n2 = f32[4] negate(n1)
  n3 = f32[4] negate(n2)
  ROOT n4 = f32[4] negate(n3)
}
)";

// negate(negate(x)) -> x
absl::StatusOr<bool> DoubleNegation(Instruction* instruction,
                                    RewriteContext& context) {
  if (instruction->opcode() != Opcode::kNegate ||
      instruction->operand(0)->opcode() != Opcode::kNegate) {
    return false;
  }
  return context.Replace(instruction, instruction->operand(0)->operand(0));
}

// An unused negate goes away.
absl::StatusOr<bool> DeadNegate(Instruction* instruction,
                                RewriteContext& context) {
  if (instruction->opcode() != Opcode::kNegate ||
      instruction->user_count() > 0 ||
      instruction->parent()->root() == instruction) {
    return false;
  }
  absl::Status removed = context.Remove(instruction);
  if (!removed.ok()) return removed;
  return true;
}

class DoubleNegationPass : public RewritePass {
 public:
  absl::string_view name() const override { return "test-double-negation"; }
  std::vector<Rewrite> rewrites() const override {
    return {{"double-negation", DoubleNegation}, {"dead-negate", DeadNegate}};
  }
};

std::unique_ptr<Module> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return *std::move(module);
}

TEST(RewriteTest, AppliesRewritesUntilNoneFires) {
  std::unique_ptr<Module> module = Parse(kNegates);
  DoubleNegationPass pass;
  absl::StatusOr<bool> changed = pass.Run(*module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(VerifyModule(*module).ok());
  EXPECT_EQ(module->entry()->instruction_count(), 1);
  EXPECT_EQ(module->entry()->root()->opcode(), Opcode::kParameter);
  changed = pass.Run(*module);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
}

TEST(RewriteTest, OddChainKeepsOneNegate) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  n1 = f32[4] negate(x)
  n2 = f32[4] negate(n1)
  ROOT n3 = f32[4] negate(n2)
}
)");
  ASSERT_TRUE(DoubleNegationPass().Run(*module).ok());
  EXPECT_EQ(module->entry()->instruction_count(), 2);
  EXPECT_EQ(module->entry()->root()->opcode(), Opcode::kNegate);
  EXPECT_EQ(module->entry()->root()->operand(0)->opcode(), Opcode::kParameter);
}

TEST(RewriteTest, NoMatchMeansNoChange) {
  std::unique_ptr<Module> module = Parse(R"(HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  ROOT n1 = f32[4] negate(x)
}
)");
  const std::string before = PrintModule(*module);
  absl::StatusOr<bool> changed = DoubleNegationPass().Run(*module);
  ASSERT_TRUE(changed.ok());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(PrintModule(*module), before);
}

TEST(RewriteTest, RewritesThatNeverSettleAreAnError) {
  std::unique_ptr<Module> module = Parse(kNegates);
  const Rewrite always{"always", [](Instruction*, RewriteContext&) {
                         return absl::StatusOr<bool>(true);
                       }};
  RewriteOptions options;
  options.max_sweeps = 3;
  EXPECT_EQ(ApplyRewrites(*module, {always}, options).status().message(),
            "rewrites still firing after 3 sweeps (last: 'always')");
}

TEST(RewriteTest, ErrorsNameTheRewriteAndInstruction) {
  std::unique_ptr<Module> module = Parse(kNegates);
  const Rewrite failing{
      "failing", [](Instruction*, RewriteContext&) {
        return absl::StatusOr<bool>(absl::InvalidArgumentError("no"));
      }};
  EXPECT_EQ(ApplyRewrites(*module, {failing}).status().message(),
            "rewrite 'failing' on x: no");
}

}  // namespace
}  // namespace kiln
