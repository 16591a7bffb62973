// Input and output helpers shared by the `kiln` subcommands.
#ifndef KILN_TOOLS_CLI_IO_H_
#define KILN_TOOLS_CLI_IO_H_

#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/text/parser.h"

ABSL_DECLARE_FLAG(bool, split_input_file);

namespace kiln::cli {

// Reads a whole file; "-" reads standard input.
absl::StatusOr<std::string> ReadInput(const std::string& path);

// The name to use for `path` in messages ("<stdin>" for "-").
std::string DisplayName(const std::string& path);

// Parse options for an input shown as `display_name`, honouring the flags
// every subcommand that reads HLO shares (--allow_elided_constants).
ParseOptions InputParseOptions(const std::string& display_name);

// The parts of `text` between `// -----` lines (MLIR's --split-input-file
// marker), for the subcommands' --split-input-file flag. Each part is
// preceded by as many newlines as lines came before it, so that error
// locations still point into the original file.
std::vector<std::string> SplitInputFile(const std::string& text);

// `status` as an error about the input shown as `display_name`, in the one
// form every subcommand prints: "FILE:LINE:COL: error: MESSAGE". A message
// that already carries a location in that file is kept as it is, except
// that text before the location (the evaluator's "device D (...): ")
// moves after "error: "; any other message has no place in the file and
// becomes "FILE: error: MESSAGE".
std::string FileError(const std::string& display_name,
                      const absl::Status& status);

// Whether `message` carries a location ("FILE:LINE[:COL]: error: ") in the
// input shown as `display_name`.
bool HasFileLocation(const std::string& display_name,
                     absl::string_view message);

// Writes `text` to standard output as is.
void WriteStdout(absl::string_view text);

// Writes `message` and a newline to standard error.
void WriteStderr(absl::string_view message);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_IO_H_
