#include "tools/cli/command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kiln::cli {
namespace {

// Function-local so registration works whatever the static init order is.
std::vector<Command>& Registry() {
  static auto* commands = new std::vector<Command>();
  return *commands;
}

}  // namespace

CommandRegistration::CommandRegistration(const Command& command) {
  if (FindCommand(command.name) != nullptr) {
    // A programming error caught at startup by every test of the binary.
    std::fprintf(stderr, "kiln: command '%s' registered twice\n", command.name);
    std::abort();
  }
  Registry().push_back(command);
}

std::vector<const Command*> AllCommands() {
  std::vector<const Command*> commands;
  for (const Command& command : Registry()) commands.push_back(&command);
  std::sort(commands.begin(), commands.end(),
            [](const Command* a, const Command* b) {
              return std::strcmp(a->name, b->name) < 0;
            });
  return commands;
}

const Command* FindCommand(absl::string_view name) {
  for (const Command& command : Registry()) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

}  // namespace kiln::cli
