// `kiln`: one binary, many subcommands (see tools/cli/). main() only handles
// help, parses flags and dispatches through the command registry.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "tools/cli/command.h"
#include "tools/cli/io.h"

namespace kiln::cli {
namespace {

std::string GeneralHelp() {
  std::string help =
      "kiln: a compiler framework and conformance suite for XLA's HLO\n"
      "\n"
      "usage: kiln COMMAND [FLAGS] ARGS...\n"
      "\n"
      "commands:\n";
  for (const Command* command : AllCommands()) {
    absl::StrAppendFormat(&help, "  %-10s %s\n", command->name,
                          command->summary);
  }
  absl::StrAppend(&help,
                  "  help       show this list, or `kiln help COMMAND`\n");
  return help;
}

// The usage text of `command` followed by the flags defined in its file.
std::string CommandHelp(const Command& command) {
  std::string help = command.usage;
  std::vector<std::string> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (absl::EndsWith(flag->Filename(), command.source_file) ||
        absl::EndsWith(command.source_file, flag->Filename())) {
      flags.push_back(absl::StrFormat("  --%s (default %s)\n      %s\n", name,
                                      flag->DefaultValue(), flag->Help()));
    }
  }
  std::sort(flags.begin(), flags.end());
  if (!flags.empty()) absl::StrAppend(&help, "\nflags:\n");
  for (const std::string& flag : flags) absl::StrAppend(&help, flag);
  return help;
}

bool IsHelpFlag(absl::string_view arg) {
  return arg == "--help" || arg == "-help" || arg == "-h" ||
         arg == "--helpfull";
}

// Handles `kiln`, `kiln help [COMMAND]`, `kiln --help` and
// `kiln COMMAND --help` before absl sees the flags. Returns the exit status,
// or -1 when this is not a request for help.
int MaybeShowHelp(const std::vector<absl::string_view>& args) {
  if (args.size() < 2) {
    WriteStderr(GeneralHelp());
    return kExitUsage;
  }
  absl::string_view first = args[1];
  if (first == "help" || IsHelpFlag(first)) {
    if (first == "help" && args.size() > 2) {
      const Command* command = FindCommand(args[2]);
      if (command == nullptr) {
        WriteStderr(absl::StrCat("kiln: unknown command '", args[2], "'"));
        return kExitUsage;
      }
      WriteStdout(CommandHelp(*command));
      return kExitOk;
    }
    WriteStdout(GeneralHelp());
    return kExitOk;
  }
  for (size_t i = 2; i < args.size() && args[i] != "--"; ++i) {
    if (!IsHelpFlag(args[i])) continue;
    if (const Command* command = FindCommand(first)) {
      WriteStdout(CommandHelp(*command));
      return kExitOk;
    }
  }
  return -1;
}

// Flags whose value may be left out, and the value that stands for it
// (`kiln run --random-args model.hlo` means seed 0).
constexpr std::pair<absl::string_view, absl::string_view> kOptionalValues[] = {
    {"random_args", "0"},
    {"check_semantics", "3"},
};

// Accepts GNU-style spellings: `--args-file=x` is `--args_file=x` (Abseil
// flag names cannot hold '-'), and a flag of kOptionalValues written alone
// gets its default value. Arguments after `--` are left alone.
std::vector<std::string> NormalizeFlagSpellings(int argc, char** argv) {
  std::vector<std::string> normalized(argv, argv + argc);
  for (int i = 1; i < argc; ++i) {
    std::string& arg = normalized[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '\0') continue;
    const size_t dashes = arg[1] == '-' ? 2 : 1;
    const size_t name_end = std::min(arg.find('='), arg.size());
    std::replace(arg.begin() + dashes, arg.begin() + name_end, '-', '_');
    const absl::string_view name =
        absl::string_view(arg).substr(dashes, name_end - dashes);
    for (const auto& [flag, value] : kOptionalValues) {
      if (name == flag && name_end == arg.size()) {
        absl::StrAppend(&arg, "=", value);
      }
    }
  }
  return normalized;
}

int Main(int argc, char** argv) {
  std::vector<absl::string_view> raw_args(argv, argv + argc);
  if (int status = MaybeShowHelp(raw_args); status >= 0) return status;

  absl::SetProgramUsageMessage("kiln COMMAND [FLAGS] ARGS... (see kiln help)");
  std::vector<std::string> spelled = NormalizeFlagSpellings(argc, argv);
  std::vector<char*> pointers;
  for (std::string& arg : spelled) pointers.push_back(arg.data());
  std::vector<char*> positional = absl::ParseCommandLine(
      static_cast<int>(pointers.size()), pointers.data());
  // positional[0] is the program; positional[1] the command (flags may come
  // before it, e.g. `kiln --check fmt x.hlo`).
  if (positional.size() < 2) {
    WriteStderr(GeneralHelp());
    return kExitUsage;
  }
  const Command* command = FindCommand(positional[1]);
  if (command == nullptr) {
    WriteStderr(absl::StrCat("kiln: unknown command '", positional[1],
                             "' (run `kiln help` for the list)"));
    return kExitUsage;
  }
  std::vector<std::string> args(positional.begin() + 2, positional.end());
  return command->run(args);
}

}  // namespace
}  // namespace kiln::cli

int main(int argc, char** argv) { return kiln::cli::Main(argc, argv); }
