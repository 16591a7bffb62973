// `kiln fmt`: prints HLO text in canonical form, or checks that it is.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "tools/cli/canonical.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_FLAG(bool, check, false,
          "fmt: print nothing; exit 1 and name the files that are not in "
          "canonical form");

ABSL_FLAG(bool, no_op_rules, false,
          "fmt: do not check declared shapes against the ops' shape rules, "
          "so that text XLA's parser accepts but Kiln's rules refuse (see "
          "docs/hlo_text_format.md) is still formatted");

namespace kiln::cli {
namespace {

// CanonicalText without the op rules (--no-op-rules): the same print and
// round-trip check, parsing with ParseOptions::check_shapes off. Shapes the
// text omits are still inferred.
absl::StatusOr<std::string> CanonicalTextWithoutOpRules(
    absl::string_view text, const std::string& filename) {
  ParseOptions options = InputParseOptions(filename);
  options.check_shapes = false;
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
  if (int64_t line = FirstDifferentLine(printed, PrintModule(**reparsed));
      line != 0) {
    return absl::InternalError(absl::StrCat(
        filename,
        ": error: printer bug: print(parse(print(m))) differs from "
        "print(m) at line ",
        line, " of the print"));
  }
  return printed;
}

// Formats or checks one file; returns whether it succeeded.
bool FormatOne(const std::string& path, bool check) {
  std::string name = DisplayName(path);
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    WriteStderr(FileError(name, text.status()));
    return false;
  }
  absl::StatusOr<std::string> canonical =
      absl::GetFlag(FLAGS_no_op_rules)
          ? CanonicalTextWithoutOpRules(*text, name)
          : CanonicalText(*text, name);
  if (!canonical.ok()) {
    WriteStderr(FileError(name, canonical.status()));
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
    "usage: kiln fmt [--check] [--no-op-rules] FILE...\n"
    "\n"
    "Parses each FILE (- is standard input) as XLA HLO text and prints it\n"
    "in Kiln's canonical form, which XLA parses too. Every print is checked\n"
    "to parse back to itself. Parse errors go to stderr as\n"
    "FILE:LINE:COL: error: MESSAGE and make the exit status 1.\n"
    "With --check nothing is printed; files not in canonical form are named\n"
    "on stderr with the first differing line, and the exit status is 1.\n"
    "--no-op-rules skips checking declared shapes against the ops' shape\n"
    "rules, for text XLA's parser accepts where Kiln is stricter on purpose\n"
    "(docs/hlo_text_format.md); syntax errors are still reported.\n",
    RunFmt);

}  // namespace kiln::cli
