// The registry of `kiln` subcommands. Each subcommand lives in its own file
// under tools/cli/ and registers itself with KILN_REGISTER_COMMAND, so adding
// one (verify, run, opt, conform, fuzz, ...) touches that file and one line
// of tools/BUILD, never main().
#ifndef KILN_TOOLS_CLI_COMMAND_H_
#define KILN_TOOLS_CLI_COMMAND_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace kiln::cli {

// Exit statuses shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // Bad input, failed check.
inline constexpr int kExitUsage = 2;    // Bad command line.

struct Command {
  // What the user types: `kiln <name> ...`.
  const char* name;
  // One line for `kiln help`.
  const char* summary;
  // The synopsis and details for `kiln help <name>`; flags are appended
  // automatically from the flags defined in `source_file`.
  const char* usage;
  // __FILE__ of the command, to find its flags.
  const char* source_file;
  // Runs the command on its positional arguments (flags are already parsed
  // into their absl flags). Returns the process exit status.
  int (*run)(const std::vector<std::string>& args);
};

// All registered commands, sorted by name.
std::vector<const Command*> AllCommands();

// The command called `name`, or nullptr.
const Command* FindCommand(absl::string_view name);

// Registers a command at static initialization; use KILN_REGISTER_COMMAND.
class CommandRegistration {
 public:
  explicit CommandRegistration(const Command& command);
};

}  // namespace kiln::cli

// KILN_REGISTER_COMMAND(fmt, "one line summary", "usage text", RunFmt);
#define KILN_REGISTER_COMMAND(name, summary, usage, run) \
  static const ::kiln::cli::CommandRegistration          \
      kiln_cli_command_registration_##name(              \
          ::kiln::cli::Command{#name, summary, usage, __FILE__, run})

#endif  // KILN_TOOLS_CLI_COMMAND_H_
