#include "compiler/text/text_test_util.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace kiln {
namespace {

std::vector<std::string> Names(const std::vector<Instruction*>& list) {
  std::vector<std::string> names;
  names.reserve(list.size());
  for (const Instruction* instruction : list) {
    names.push_back(instruction->name());
  }
  return names;
}

std::string InstructionDifference(const Instruction& a, const Instruction& b) {
  if (a.name() != b.name()) {
    return absl::StrCat("instruction name ", a.name(), " vs ", b.name());
  }
  if (!a.IdenticalIgnoringOperands(b)) {
    return absl::StrCat("instruction ", a.name(), " differs");
  }
  if (Names(a.operands()) != Names(b.operands())) {
    return absl::StrCat("operands of ", a.name(), " differ");
  }
  if (Names(a.control_predecessors()) != Names(b.control_predecessors())) {
    return absl::StrCat("control predecessors of ", a.name(), " differ");
  }
  return "";
}

std::string ComputationDifference(const Computation& a, const Computation& b) {
  if (a.name() != b.name()) {
    return absl::StrCat("computation name ", a.name(), " vs ", b.name());
  }
  if (a.execution_thread() != b.execution_thread()) {
    return absl::StrCat("execution thread of ", a.name());
  }
  const std::vector<Instruction*> xs = a.instructions();
  const std::vector<Instruction*> ys = b.instructions();
  if (xs.size() != ys.size()) {
    return absl::StrCat("instruction count of ", a.name());
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    std::string difference = InstructionDifference(*xs[i], *ys[i]);
    if (!difference.empty()) return difference;
  }
  if (Names(a.parameters()) != Names(b.parameters())) {
    return absl::StrCat("parameters of ", a.name());
  }
  if ((a.root() == nullptr) != (b.root() == nullptr) ||
      (a.root() != nullptr && a.root()->name() != b.root()->name())) {
    return absl::StrCat("root of ", a.name());
  }
  return "";
}

}  // namespace

std::string ModuleDifference(const Module& a, const Module& b) {
  if (a.name() != b.name()) return "module name";
  if (!(a.config() == b.config())) return "module config";
  const std::vector<Computation*> xs = a.computations();
  const std::vector<Computation*> ys = b.computations();
  if (xs.size() != ys.size()) return "computation count";
  // Printing reorders computations (callees first), so match them by name.
  for (const Computation* x : xs) {
    const Computation* y = b.FindComputation(x->name());
    if (y == nullptr)
      return absl::StrCat("computation ", x->name(), " missing");
    std::string difference = ComputationDifference(*x, *y);
    if (!difference.empty()) return difference;
  }
  if ((a.entry() == nullptr) != (b.entry() == nullptr) ||
      (a.entry() != nullptr && a.entry()->name() != b.entry()->name())) {
    return "entry computation";
  }
  return "";
}

std::string RunfilesDir(const std::string& package) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr) return package;
  return absl::StrCat(srcdir, "/", workspace == nullptr ? "kiln" : workspace,
                      "/", package);
}

std::vector<std::string> HloFilesIn(const std::string& dir) {
  std::vector<std::string> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (absl::EndsWith(name, ".hlo")) files.push_back(dir + "/" + name);
  }
  closedir(handle);
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace kiln
