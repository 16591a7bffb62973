#include "backends/cpu/donation.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kiln::cpu {
namespace {

// The leaf of `tree` at `index`, or null when the path leaves the tree.
const ValueTree* LeafAt(const ValueTree& tree,
                        const std::vector<int64_t>& index) {
  const ValueTree* node = &tree;
  for (int64_t i : index) {
    if (i < 0 || i >= static_cast<int64_t>(node->elements.size())) {
      return nullptr;
    }
    node = &node->elements[i];
  }
  return node->slot >= 0 ? node : nullptr;
}

// The slot of parameter `parameter` as a whole array, or -1.
int64_t ParameterSlot(const Program& entry, int64_t parameter) {
  for (size_t i = 0; i < entry.slots.size(); ++i) {
    const BufferSlot& slot = entry.slots[i];
    if (slot.kind == BufferSlot::Kind::kParameter &&
        slot.parameter == parameter && slot.path.empty()) {
      return static_cast<int64_t>(i);
    }
  }
  return -1;
}

bool ResultCopies(const ValueTree& tree, int64_t slot) {
  if (tree.slot == slot) return true;
  for (const ValueTree& element : tree.elements) {
    if (ResultCopies(element, slot)) return true;
  }
  return false;
}

// Empty when the alias can be honoured, else why not.
std::string Refusal(const InputOutputAlias& alias, const Program& entry,
                    const std::vector<SlotSteps>& steps,
                    const absl::flat_hash_set<int64_t>& flat_kernels) {
  if (!alias.parameter_index.empty()) {
    return "the parameter is a tuple (only whole array parameters are shared)";
  }
  const ValueTree* leaf = LeafAt(entry.result, alias.output_index);
  if (leaf == nullptr ||
      entry.slots[leaf->slot].kind != BufferSlot::Kind::kResult ||
      entry.slots[leaf->slot].path != alias.output_index) {
    return "the output is not computed in place (it copies another value)";
  }
  const int64_t parameter = ParameterSlot(entry, alias.parameter_number);
  if (parameter < 0) return "the parameter has no buffer of its own";
  if (entry.slots[parameter].shape.dimensions() !=
          entry.slots[leaf->slot].shape.dimensions() ||
      entry.slots[parameter].shape.element_type() !=
          entry.slots[leaf->slot].shape.element_type()) {
    return "the output and the parameter differ in shape";
  }
  if (ResultCopies(entry.result, parameter)) {
    return "an output is a copy of the parameter";
  }
  const int64_t written = steps[leaf->slot].defined;
  const int64_t read = steps[parameter].last_use;
  if (read < written || (read == written && flat_kernels.contains(written))) {
    return "";
  }
  return "the parameter is read after the output is first written";
}

}  // namespace

Donation DonatableAliases(const Module& module, const Program& entry,
                          const std::vector<SlotSteps>& steps,
                          const absl::flat_hash_set<int64_t>& flat_kernels) {
  Donation donation;
  for (const InputOutputAlias& alias : module.config().input_output_alias) {
    const std::string why = Refusal(alias, entry, steps, flat_kernels);
    const std::string what =
        absl::StrCat("output {", absl::StrJoin(alias.output_index, ","),
                     "} <- parameter ", alias.parameter_number);
    if (why.empty()) {
      donation.aliases.push_back({alias.output_index, alias.parameter_number});
      donation.report.push_back(absl::StrCat(what, ": shared"));
    } else {
      donation.report.push_back(absl::StrCat(what, ": not shared, ", why));
    }
  }
  return donation;
}

}  // namespace kiln::cpu
