#include "compiler/verifier/verifier_test_util.h"

#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::verifier_test {

std::unique_ptr<Module> ParseForVerifier(const std::string& text) {
  ParseOptions options;
  options.filename = "test.hlo";
  options.check_shapes = false;  // The verifier is under test.
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

std::vector<std::string> VerifierErrors(const Module& module,
                                        VerifyOptions options) {
  std::vector<std::string> messages;
  for (const absl::Status& error : VerifyModuleReport(module, options).errors) {
    messages.emplace_back(error.message());
  }
  return messages;
}

std::vector<std::string> ErrorsOfRule(const Module& module,
                                      const std::string& rule,
                                      VerifyOptions options) {
  std::vector<std::string> matching;
  for (std::string& error : VerifierErrors(module, options)) {
    if (absl::EndsWith(error, absl::StrCat("(", rule, ")"))) {
      matching.push_back(std::move(error));
    }
  }
  return matching;
}

}  // namespace kiln::verifier_test
