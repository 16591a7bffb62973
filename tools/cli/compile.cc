// `kiln compile`: compiles a module for a backend and shows what the
// backend made of it: the optimized module, the thunk sequence with its
// buffers, the generated source, or the statistics of what runs natively
// and what falls back to the evaluator.
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "backends/backend.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"
#include "tools/cli/module_loading.h"

ABSL_FLAG(std::string, emit, "stats",
          "compile: what to show: hlo (the optimized module), thunks, cpp "
          "(generated source) or stats");

namespace kiln::cli {
namespace {

absl::Status CompileAndEmit(const std::string& path) {
  absl::StatusOr<std::unique_ptr<Backend>> backend = MakeBackend();
  if (!backend.ok()) return backend.status();
  absl::StatusOr<std::unique_ptr<Module>> module = LoadModule(path);
  if (!module.ok()) return module.status();
  absl::StatusOr<CompileOptions> options = MakeCompileOptions(**module);
  if (!options.ok()) return options.status();
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      (*backend)->Compile(**module, *options);
  if (!executable.ok()) return executable.status();
  absl::StatusOr<std::string> text =
      (*executable)->Emit(absl::GetFlag(FLAGS_emit));
  if (!text.ok()) return text.status();
  WriteStdout(*text);
  return absl::OkStatus();
}

int RunCompile(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    WriteStderr("kiln compile: give exactly one input file (- is stdin)");
    return kExitUsage;
  }
  if (absl::Status status = CompileAndEmit(args[0]); !status.ok()) {
    WriteStderr(absl::StrCat("kiln compile: ", status.message()));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace
}  // namespace kiln::cli

KILN_REGISTER_COMMAND(
    compile, "compile a module for a backend and show what it made of it",
    "usage: kiln compile --backend=cpu [--emit=hlo|thunks|cpp|stats]\n"
    "                    [--replicas=N] [--partitions=M] FILE\n"
    "\n"
    "Parses and verifies FILE (- is standard input), compiles it for the\n"
    "backend and prints, by --emit: hlo, the module after the backend's\n"
    "pipeline; thunks, the execution steps with their buffer slots (arena\n"
    "offsets); cpp, the generated kernel source; stats (the default), how\n"
    "many instructions run natively and how many fall back to the\n"
    "reference evaluator (by op, with the reason), the kernels, library\n"
    "calls, arena size and the kernel cache's hit or miss. See\n"
    "docs/backends.md.",
    ::kiln::cli::RunCompile);
