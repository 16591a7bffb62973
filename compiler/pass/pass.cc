#include "compiler/pass/pass.h"

#include <algorithm>
#include <utility>

namespace kiln {

PassRegistry& PassRegistry::Global() {
  static PassRegistry* registry = new PassRegistry();
  return *registry;
}

bool PassRegistry::Register(std::string name, PassFactory factory) {
  for (const auto& entry : factories_) {
    if (entry.first == name) return false;
  }
  factories_.emplace_back(std::move(name), std::move(factory));
  return true;
}

std::unique_ptr<Pass> PassRegistry::Create(absl::string_view name) const {
  for (const auto& entry : factories_) {
    if (entry.first == name) return entry.second();
  }
  return nullptr;
}

std::vector<std::string> PassRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& entry : factories_) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace kiln
