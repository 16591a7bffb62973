// What `kiln run` and `kiln compile` share: reading and verifying the
// input module, and the compile options from --replicas, --partitions and
// the evaluation limits (flags defined in run.cc).
#ifndef KILN_TOOLS_CLI_MODULE_LOADING_H_
#define KILN_TOOLS_CLI_MODULE_LOADING_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/backend.h"
#include "compiler/ir/module.h"

namespace kiln::cli {

// Parses `path` (- is standard input) and verifies the module.
absl::StatusOr<std::unique_ptr<Module>> LoadModule(const std::string& path);

// --replicas/--partitions (0: the module's own counts),
// --max_while_iterations, --max_steps and --max_live_bytes.
absl::StatusOr<CompileOptions> MakeCompileOptions(const Module& module);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_MODULE_LOADING_H_
