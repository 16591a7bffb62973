// What `kiln run`, `kiln compile` and `kiln bench` share: the backend
// --backend names, reading and verifying the input module, and the compile
// options from --replicas, --partitions, the evaluation limits and
// --threads (flags defined in run.cc).
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

// The backend --backend names (an error listing the registered ones).
absl::StatusOr<std::unique_ptr<Backend>> MakeBackend();

// --replicas/--partitions (0: the module's own counts),
// --max_while_iterations, --max_steps, --max_live_bytes and --threads.
absl::StatusOr<CompileOptions> MakeCompileOptions(const Module& module);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_MODULE_LOADING_H_
