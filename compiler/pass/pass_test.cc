#include "compiler/pass/pass.h"

#include "gtest/gtest.h"

namespace kiln {
namespace {

class RenamePass : public Pass {
 public:
  absl::string_view name() const override { return "test-rename"; }
  absl::StatusOr<bool> Run(Module& module) override {
    if (module.name() == "renamed") return false;
    module.set_name("renamed");
    return true;
  }
};
KILN_REGISTER_PASS(RenamePass);

TEST(PassRegistryTest, RegisteredPassesAreCreatedByName) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create("test-rename");
  ASSERT_NE(pass, nullptr);
  Module module("m");
  EXPECT_EQ(*pass->Run(module), true);
  EXPECT_EQ(*pass->Run(module), false);
  EXPECT_EQ(module.name(), "renamed");
  EXPECT_EQ(PassRegistry::Global().Create("no-such-pass"), nullptr);
  const std::vector<std::string> names = PassRegistry::Global().Names();
  EXPECT_NE(std::find(names.begin(), names.end(), "test-rename"), names.end());
}

TEST(PassRegistryTest, DuplicateNamesAreRefused) {
  PassRegistry registry;
  EXPECT_TRUE(registry.Register("a", [] { return nullptr; }));
  EXPECT_FALSE(registry.Register("a", [] { return nullptr; }));
}

}  // namespace
}  // namespace kiln
