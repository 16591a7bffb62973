#include "tools/conform/sample.h"

#include <set>
#include <string>
#include <utility>

namespace kiln::conform {

std::vector<size_t> CoverSample(const std::vector<CaseTraits>& traits,
                                const std::vector<size_t>& candidates,
                                Cover cover) {
  // (op, element type); "" for no op and -1 for no type, so that ops and
  // types alone are counted in the same set.
  std::set<std::pair<std::string, int>> covered;
  std::vector<size_t> kept;
  for (size_t i : candidates) {
    bool adds = false;
    for (const std::string& op : traits[i].ops) {
      if (cover == Cover::kOpsAndTypes || traits[i].types.empty()) {
        adds |= covered.emplace(op, -1).second;
      }
      if (cover != Cover::kPairs) continue;
      for (ElementType type : traits[i].types) {
        adds |= covered.emplace(op, static_cast<int>(type)).second;
      }
    }
    if (cover == Cover::kOpsAndTypes) {
      for (ElementType type : traits[i].types) {
        adds |= covered.emplace("", static_cast<int>(type)).second;
      }
    }
    if (adds) kept.push_back(i);
  }
  return kept;
}

}  // namespace kiln::conform
