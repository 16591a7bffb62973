// `kiln verify`: checks that HLO modules are well formed (structure, declared
// shapes against the spec's shape rules, module config).
#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_FLAG(bool, strict, false,
          "verify: check shapes in strict HLO form (no implicit broadcasting "
          "via broadcast_dimensions on elementwise ops)");

namespace kiln::cli {
namespace {

struct Totals {
  int64_t checked = 0;
  int64_t without_rule = 0;
};

// Verifies the module `text` read from `path`, printing its errors; returns
// whether it verified.
bool VerifyText(const std::string& path, const std::string& text,
                const VerifyOptions& options, Totals* totals) {
  ParseOptions parse_options = InputParseOptions(DisplayName(path));
  // The verifier reports every shape error, not just the first.
  parse_options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(text, parse_options);
  if (!module.ok()) {
    WriteStderr(FileError(DisplayName(path), module.status()));
    return false;
  }
  VerifyReport report = VerifyModuleReport(**module, options);
  for (const absl::Status& error : report.errors) {
    WriteStderr(FileError(DisplayName(path), error));
  }
  totals->checked += report.instructions_checked;
  totals->without_rule += report.without_shape_rule;
  return report.ok();
}

// Verifies one file (each part of it under --split-input-file, printing
// "ok" or "error" per part separated by `// -----`); returns whether
// everything verified.
bool VerifyOne(const std::string& path, const VerifyOptions& options,
               Totals* totals) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    WriteStderr(FileError(DisplayName(path), text.status()));
    return false;
  }
  if (!absl::GetFlag(FLAGS_split_input_file)) {
    return VerifyText(path, *text, options, totals);
  }
  bool all_ok = true;
  std::vector<std::string> parts = SplitInputFile(*text);
  for (size_t i = 0; i < parts.size(); ++i) {
    bool ok = VerifyText(path, parts[i], options, totals);
    all_ok &= ok;
    WriteStdout(
        absl::StrCat(i > 0 ? "// -----\n" : "", ok ? "ok" : "error", "\n"));
  }
  return all_ok;
}

int RunVerify(const std::vector<std::string>& args) {
  if (args.empty()) {
    WriteStderr("kiln verify: no input files (use - for standard input)");
    return kExitUsage;
  }
  VerifyOptions options;
  if (absl::GetFlag(FLAGS_strict)) options.form = ShapeForm::kStrict;
  Totals totals;
  bool all_ok = true;
  for (const std::string& path : args) {
    all_ok &= VerifyOne(path, options, &totals);
  }
  if (!all_ok) return kExitFailure;
  if (!absl::GetFlag(FLAGS_split_input_file)) WriteStdout("ok\n");
  WriteStderr(absl::StrCat(totals.checked, " instructions checked, ",
                           totals.without_rule, " without a shape rule yet"));
  return kExitOk;
}

}  // namespace

KILN_REGISTER_COMMAND(
    verify, "check that HLO modules are well formed",
    "usage: kiln verify [--strict] [--split-input-file] FILE...\n"
    "\n"
    "Parses each FILE (- is standard input) as XLA HLO text and verifies it:\n"
    "every computation has a ROOT and no cycle, operands are local,\n"
    "parameters are numbered 0..n-1, called computations exist and do not\n"
    "recurse, instruction names are unique, every declared shape is valid\n"
    "and equals the shape its op's rule infers (ignoring layouts), and\n"
    "entry_computation_layout and input_output_alias match the entry.\n"
    "Prints ok (and on stderr how many instructions were checked and how\n"
    "many have no shape rule yet), or every error on stderr as\n"
    "FILE:LINE:COL: error: NAME: MESSAGE (RULE) with exit status 1.\n"
    "With --strict, shapes are checked in strict HLO form: implicit\n"
    "broadcasting through broadcast_dimensions is an error.\n"
    "With --split-input-file, each part of a FILE between '// -----' lines\n"
    "is its own module and gets its own ok or error line.\n",
    RunVerify);

}  // namespace kiln::cli
