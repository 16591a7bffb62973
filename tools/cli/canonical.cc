#include "tools/cli/canonical.h"

#include <algorithm>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "tools/cli/io.h"

namespace kiln::cli {

int64_t FirstDifferentLine(absl::string_view a, absl::string_view b) {
  if (a == b) return 0;
  size_t common = 0;
  size_t limit = std::min(a.size(), b.size());
  while (common < limit && a[common] == b[common]) ++common;
  return 1 + std::count(a.begin(), a.begin() + common, '\n');
}

absl::StatusOr<std::string> CanonicalText(absl::string_view text,
                                          const std::string& filename) {
  ParseOptions options = InputParseOptions(filename);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  if (!module.ok()) return module.status();
  std::string printed = PrintModule(**module);

  options.filename = absl::StrCat(filename, " (as printed by kiln)");
  absl::StatusOr<std::unique_ptr<Module>> reparsed =
      ParseModule(printed, options);
  if (!reparsed.ok()) {
    return absl::InternalError(
        absl::StrCat("printer bug: the canonical print does not parse back: ",
                     reparsed.status().message()));
  }
  std::string reprinted = PrintModule(**reparsed);
  if (int64_t line = FirstDifferentLine(printed, reprinted); line != 0) {
    return absl::InternalError(absl::StrCat(
        filename,
        ": error: printer bug: print(parse(print(m))) differs from "
        "print(m) at line ",
        line, " of the print"));
  }
  return printed;
}

}  // namespace kiln::cli
