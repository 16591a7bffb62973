// How close Kiln's printer is to XLA's own: for every dump, Kiln's print of
// the parsed module must equal the text XLA printed, after the normalization
// of dump_files.h (generator header dropped, trailing newlines, print options
// that follow the dump's style). Dumps listed as "print" in
// known_failures.txt may differ (their first differences are logged; a
// listed dump that now matches is reported so its line can be deleted). Kiln's
// prints are also written to $TEST_UNDECLARED_OUTPUTS_DIR for diffing.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr int kMaxLinesPerFile = 4;

void SaveKilnPrint(const std::string& name, const std::string& text) {
  const char* out_dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  if (out_dir == nullptr) return;
  std::ofstream(absl::StrCat(out_dir, "/", name, ".kiln")) << text;
}

// Empty if Kiln reprints the dump exactly as XLA printed it; else why not.
// A dump that does not parse is retried without its stack frame tables, and
// that print is saved as "<name>.stripped.kiln" (for
// tools/gen/classify_xla_dump_diffs.py).
std::string PrintDifference(const std::string& path) {
  const std::string name = BaseName(path);
  const std::string xla = XlaText(ReadDump(path));
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(xla);
  if (!module.ok()) {
    const std::string stripped = WithoutStackFrameTables(xla);
    absl::StatusOr<std::unique_ptr<Module>> retry = ParseModule(stripped);
    if (retry.ok()) {
      SaveKilnPrint(name + ".stripped", TrimTrailingNewlines(PrintModule(
                                            **retry, OptionsLike(stripped))));
    }
    return absl::StrCat("does not parse: ", module.status().message(), "\n");
  }
  const std::string kiln =
      TrimTrailingNewlines(PrintModule(**module, OptionsLike(xla)));
  SaveKilnPrint(name, kiln);
  return LineDifferences(xla, kiln, kMaxLinesPerFile);
}

TEST(XlaPrintTest, KilnPrintsWhatXlaPrinted) {
  const std::set<std::string> known = KnownFailures("print");
  int identical = 0;
  int total = 0;
  for (const std::string& path : DumpFiles()) {
    const std::string name = BaseName(path);
    ++total;
    const std::string difference = PrintDifference(path);
    const bool is_known = known.count(name) > 0;
    if (difference.empty()) {
      ++identical;
      if (is_known) {
        std::cout << "NOTE: " << name << " now prints identically: delete "
                  << "its 'print' line from known_failures.txt\n";
      }
    } else if (is_known) {
      std::cout << "known difference " << name << ":\n" << difference;
    } else {
      ADD_FAILURE() << name << " prints differently from XLA:\n" << difference;
    }
  }
  std::cout << identical << " of " << total
            << " dumps print byte-identical to XLA\n";
}

}  // namespace
}  // namespace kiln
