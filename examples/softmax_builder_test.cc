// The builder example of docs/builder.md, kept compiling and checked.
#include "examples/softmax_builder.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(DocExampleTest, SoftmaxBuildsPrintsAndReparses) {
  absl::StatusOr<std::string> text = SoftmaxHlo();
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(absl::StrContains(*text, "broadcast_dimensions={0}")) << *text;
  EXPECT_TRUE(absl::StrContains(*text, "ROOT")) << *text;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(*text);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_TRUE(VerifyModule(**module).ok());
  // Strict form rejects the implicit broadcasts until broadcast
  // legalization rewrites them.
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  EXPECT_FALSE(VerifyModule(**module, strict).ok());
  EXPECT_EQ(PrintModule(**module), *text);
}

}  // namespace
}  // namespace kiln
