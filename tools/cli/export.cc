// `kiln export`: an HLO module in another IR. Today: StableHLO MLIR text
// (compiler/stablehlo, docs/stablehlo.md).
#include "compiler/stablehlo/export.h"

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/text/parser.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

ABSL_FLAG(std::string, to, "",
          "export: the target format (stablehlo is the only one)");
ABSL_FLAG(std::string, out, "",
          "export: write the result to this file instead of standard output");

namespace kiln::cli {
namespace {

// The export of one module's text, or the error to print.
absl::StatusOr<std::string> ExportText(const std::string& name,
                                       const std::string& text) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(text, InputParseOptions(name));
  if (!module.ok()) return module.status();
  return stablehlo::ExportModule(**module);
}

// Exports `path` (each part under --split-input-file) into `*output`;
// returns whether every part exported.
bool ExportFile(const std::string& path, std::string* output) {
  std::string name = DisplayName(path);
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    WriteStderr(FileError(name, text.status()));
    return false;
  }
  std::vector<std::string> parts = {*text};
  if (absl::GetFlag(FLAGS_split_input_file)) parts = SplitInputFile(*text);
  bool all_ok = true;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) absl::StrAppend(output, "// -----\n");
    absl::StatusOr<std::string> exported = ExportText(name, parts[i]);
    if (!exported.ok()) {
      WriteStderr(FileError(name, exported.status()));
      all_ok = false;
      continue;
    }
    absl::StrAppend(output, *exported);
  }
  return all_ok;
}

int RunExport(const std::vector<std::string>& args) {
  if (absl::GetFlag(FLAGS_to) != "stablehlo") {
    WriteStderr(absl::StrCat("kiln export: --to=", absl::GetFlag(FLAGS_to),
                             " is not a format (use --to=stablehlo)"));
    return kExitUsage;
  }
  if (args.size() != 1) {
    WriteStderr("kiln export: give one input file (- is standard input)");
    return kExitUsage;
  }
  std::string output;
  bool ok = ExportFile(args[0], &output);
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) {
    WriteStdout(output);
  } else {
    std::ofstream file(out, std::ios::binary);
    file << output;
    if (!file.good()) {
      WriteStderr(absl::StrCat("kiln export: cannot write ", out));
      return kExitFailure;
    }
  }
  return ok ? kExitOk : kExitFailure;
}

}  // namespace

KILN_REGISTER_COMMAND(
    export, "write an HLO module as StableHLO MLIR",
    "usage: kiln export --to=stablehlo [--out=FILE] [--split-input-file] "
    "FILE\n"
    "\n"
    "Parses FILE (- is standard input) as HLO text and writes it as\n"
    "StableHLO MLIR text (generic operation form), which stablehlo-opt,\n"
    "JAX's MLIR bindings and XLA's PJRT plugins parse (program format\n"
    "`mlir`). Client-form broadcasting is legalized first. The entry\n"
    "becomes func.func @main with its parameters and results flattened to\n"
    "arrays and tokens; computations called by call and fusion become\n"
    "private functions, the others regions. An instruction with no\n"
    "StableHLO form is an error naming it and the reason, with exit\n"
    "status 1. docs/stablehlo.md has the op mapping and the refusals.\n",
    RunExport);

}  // namespace kiln::cli
