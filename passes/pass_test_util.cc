#include "passes/pass_test_util.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/pass/pass.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"

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

}  // namespace pass_test
}  // namespace kiln
