#include "tools/bench/xla_module_gen.h"

#include <memory>
#include <string>

#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "gtest/gtest.h"

namespace kiln::bench {
namespace {

TEST(XlaModuleGenTest, IsDeterministic) {
  EXPECT_EQ(GenerateXlaModuleText(500), GenerateXlaModuleText(500));
  EXPECT_NE(GenerateXlaModuleText(500), GenerateXlaModuleText(501));
}

class XlaModuleGenCountTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(XlaModuleGenCountTest, ParsesWithExactlyTheRequestedCount) {
  std::string text = GenerateXlaModuleText(GetParam());
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_NE((*module)->entry(), nullptr);
  EXPECT_EQ((*module)->entry()->instruction_count(), GetParam());
  // The generator writes what XLA's printer writes, so it is canonical
  // except for the spacing choices the printer makes.
  absl::StatusOr<std::unique_ptr<Module>> reparsed =
      ParseModule(PrintModule(**module));
  ASSERT_TRUE(reparsed.ok()) << reparsed.status();
  EXPECT_EQ(PrintModule(**reparsed), PrintModule(**module));
}

INSTANTIATE_TEST_SUITE_P(Counts, XlaModuleGenCountTest,
                         ::testing::Values(16, 21, 100, 1234));

}  // namespace
}  // namespace kiln::bench
