#include "passes/pass_test_util.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"

namespace kiln {
namespace pass_test {

absl::StatusOr<std::unique_ptr<Module>> Parse(absl::string_view hlo) {
  return ParseModule(hlo);
}

std::string Print(const Module& module) {
  return PrintModule(module, ShortParsablePrintOptions());
}

absl::StatusOr<bool> RunPass(absl::string_view pass_name, Module& module) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(pass_name);
  if (pass == nullptr) {
    return absl::NotFoundError(absl::StrCat("no pass named ", pass_name));
  }
  return pass->Run(module);
}

::testing::AssertionResult ContainsInOrder(
    absl::string_view text, const std::vector<std::string>& expected) {
  size_t from = 0;
  for (const std::string& part : expected) {
    const size_t at = text.find(part, from);
    if (at == absl::string_view::npos) {
      return ::testing::AssertionFailure() << "missing (after offset " << from
                                           << "): \"" << part << "\"\nin:\n"
                                           << text;
    }
    from = at + part.size();
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult RoundTrips(const Module& module) {
  const std::string text = Print(module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  if (!reparsed.ok()) {
    return ::testing::AssertionFailure()
           << "printed module does not parse: " << reparsed.status() << "\n"
           << text;
  }
  const std::string again = Print(**reparsed);
  if (again != text) {
    return ::testing::AssertionFailure() << "reprinted text differs:\n"
                                         << text << "\nvs\n"
                                         << again;
  }
  return ::testing::AssertionSuccess();
}

std::string RunAndCheckValues(absl::string_view pass_name,
                              const std::string& hlo,
                              const std::vector<std::string>& arguments,
                              bool expect_change, Pass* pass, ShapeForm form) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  std::vector<Literal> args;
  for (const std::string& text : arguments) {
    absl::StatusOr<Literal> literal = ParseLiteral(text);
    EXPECT_TRUE(literal.ok()) << literal.status();
    if (!literal.ok()) return "";
    args.push_back(*std::move(literal));
  }
  absl::StatusOr<Literal> before = Evaluate(**module, args);
  EXPECT_TRUE(before.ok()) << before.status();
  const std::string original = Print(**module);
  absl::StatusOr<bool> changed =
      pass != nullptr ? pass->Run(**module) : RunPass(pass_name, **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return "";
  EXPECT_EQ(*changed, expect_change) << Print(**module);
  if (!expect_change) {
    EXPECT_EQ(Print(**module), original);
  }
  VerifyOptions verify_options;
  verify_options.form = form;
  absl::Status verified = VerifyModule(**module, verify_options);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << Print(**module);
  EXPECT_TRUE(RoundTrips(**module));
  absl::StatusOr<Literal> after = Evaluate(**module, args);
  EXPECT_TRUE(after.ok()) << after.status();
  if (before.ok() && after.ok()) {
    EXPECT_EQ(DescribeDifference(*before, *after), std::nullopt);
  }
  return Print(**module);
}

}  // namespace pass_test
}  // namespace kiln
