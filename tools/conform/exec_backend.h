// The `exec:COMMAND` backend: runs an external toolchain through files, so
// that any compiler or device can run the conformance suite. For each run
// the module (HLO text) and the arguments (HLO literal text and .npy) are
// written to a fresh temporary directory, COMMAND is run by /bin/sh with
// placeholders replaced, and the results are read back from files. A
// crash, a non-zero exit or a run past the time limit is an error of that
// run. docs/conformance.md ("The exec protocol") is the contract.
#ifndef KILN_TOOLS_CONFORM_EXEC_BACKEND_H_
#define KILN_TOOLS_CONFORM_EXEC_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/backend.h"

namespace kiln::conform {

// Exit status with which a command says "this module uses something I do
// not support" (the case is then unsupported, not failed).
inline constexpr int kExecUnsupportedExit = 77;

struct ExecOptions {
  std::string command;
  // Wall-clock limit of one run of the command; <= 0: none.
  double time_limit_seconds = 60;
  // Keep the temporary directories (for debugging an adapter).
  bool keep_files = false;
};

std::unique_ptr<Backend> MakeExecBackend(const ExecOptions& options);

// Reject cases: gives `module_text` (which Kiln's front end refuses) to the
// command with no arguments. OK when the command refuses it too (an
// ordinary non-zero exit other than 77); FailedPrecondition when it
// accepts it (exit 0); the command's crash, hang or exit 77 as for a run.
absl::Status ExecExpectRejection(const ExecOptions& options,
                                 const std::string& module_text);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_EXEC_BACKEND_H_
