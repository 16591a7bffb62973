// `kiln fmt`: prints HLO text in canonical form, or checks that it is.
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tools/cli/canonical.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_FLAG(bool, check, false,
          "fmt: print nothing; exit 1 and name the files that are not in "
          "canonical form");

namespace kiln::cli {
namespace {

// Formats or checks one file; returns whether it succeeded.
bool FormatOne(const std::string& path, bool check) {
  std::string name = DisplayName(path);
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    WriteStderr(text.status().message());
    return false;
  }
  absl::StatusOr<std::string> canonical = CanonicalText(*text, name);
  if (!canonical.ok()) {
    WriteStderr(canonical.status().message());
    return false;
  }
  if (!check) {
    WriteStdout(*canonical);
    return true;
  }
  if (int64_t line = FirstDifferentLine(*text, *canonical); line != 0) {
    WriteStderr(absl::StrCat(name, ":", line,
                             ": not in canonical form (run `kiln fmt ", path,
                             "` to see it)"));
    return false;
  }
  return true;
}

int RunFmt(const std::vector<std::string>& args) {
  if (args.empty()) {
    WriteStderr("kiln fmt: no input files (use - for standard input)");
    return kExitUsage;
  }
  bool check = absl::GetFlag(FLAGS_check);
  bool all_ok = true;
  for (const std::string& path : args) all_ok &= FormatOne(path, check);
  return all_ok ? kExitOk : kExitFailure;
}

}  // namespace

KILN_REGISTER_COMMAND(
    fmt, "print HLO text in canonical form, or --check that it is",
    "usage: kiln fmt [--check] FILE...\n"
    "\n"
    "Parses each FILE (- is standard input) as XLA HLO text and prints it\n"
    "in Kiln's canonical form, which XLA parses too. Every print is checked\n"
    "to parse back to itself. Parse errors go to stderr as\n"
    "FILE:LINE:COL: error: MESSAGE and make the exit status 1.\n"
    "With --check nothing is printed; files not in canonical form are named\n"
    "on stderr with the first differing line, and the exit status is 1.\n",
    RunFmt);

}  // namespace kiln::cli
