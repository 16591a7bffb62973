#include "compiler/ir/module.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace kiln {
namespace {

enum class Mark : uint8_t { kNew, kOpen, kDone };

// Depth-first post order of the call graph below `start`, appended to
// `out`. Only computations accepted by `include` are visited. Iterative, so
// deep call chains cannot overflow the stack.
template <typename Include>
absl::Status AppendCallPostOrder(
    Computation* start, const Include& include,
    absl::flat_hash_map<const Computation*, Mark>* marks,
    std::vector<Computation*>* out) {
  if ((*marks)[start] != Mark::kNew) return absl::OkStatus();
  struct Frame {
    Computation* computation;
    std::vector<Computation*> callees;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  (*marks)[start] = Mark::kOpen;
  stack.push_back({start, start->callees()});
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next == frame.callees.size()) {
      (*marks)[frame.computation] = Mark::kDone;
      out->push_back(frame.computation);
      stack.pop_back();
      continue;
    }
    Computation* callee = frame.callees[frame.next++];
    if (!include(callee)) continue;
    Mark& mark = (*marks)[callee];
    if (mark == Mark::kOpen) {
      return absl::FailedPreconditionError(absl::StrCat(
          "computation ", callee->name(), " calls itself recursively"));
    }
    if (mark == Mark::kDone) continue;
    mark = Mark::kOpen;
    stack.push_back({callee, callee->callees()});
  }
  return absl::OkStatus();
}

}  // namespace

bool ModuleConfig::operator==(const ModuleConfig& o) const {
  return replica_count == o.replica_count &&
         num_partitions == o.num_partitions &&
         entry_computation_layout == o.entry_computation_layout &&
         input_output_alias == o.input_output_alias &&
         buffer_donor == o.buffer_donor && is_scheduled == o.is_scheduled &&
         frontend_attributes == o.frontend_attributes &&
         extra_attributes == o.extra_attributes;
}

Module::Module(std::string name) : name_(std::move(name)) {}

std::string Module::UniqueName(const std::string& base) {
  // Fast path for the parser: a fresh name costs one hash insertion.
  if (names_.insert(base).second) return base;
  std::string name = internal::UniqueNameFor(
      base, [this](const std::string& n) { return names_.contains(n); },
      &next_suffix_);
  names_.insert(name);
  return name;
}

std::string Module::UniqueComputationName(const std::string& base) {
  if (computation_names_.insert(base).second) return base;
  std::string name = internal::UniqueNameFor(
      base,
      [this](const std::string& n) { return computation_names_.contains(n); },
      &next_computation_suffix_);
  computation_names_.insert(name);
  return name;
}

bool Module::IsFusionCallee(const Computation* computation) const {
  if (!fusion_callees_valid_) {
    fusion_callees_.clear();
    for (const auto& caller : computations_) {
      const Computation& computation = *caller;
      for (const Instruction* instruction : computation.instructions()) {
        if (instruction->opcode() != Opcode::kFusion) continue;
        for (const Computation* callee : instruction->called_computations()) {
          fusion_callees_.insert(callee);
        }
      }
    }
    fusion_callees_valid_ = true;
  }
  return fusion_callees_.contains(computation);
}

Computation* Module::AddComputation(std::unique_ptr<Computation> computation) {
  InvalidateFusionCallees();
  Computation* raw = computation.get();
  raw->parent_ = this;
  raw->name_ = UniqueComputationName(raw->name_);
  bool renamed = false;
  const std::vector<Instruction*> instructions = raw->instructions();
  for (Instruction* instruction : instructions) {
    std::string unique = UniqueName(instruction->name());
    if (unique != instruction->name()) {
      instruction->set_name(std::move(unique));
      renamed = true;
    }
  }
  if (renamed) {
    raw->by_name_.clear();
    for (Instruction* instruction : instructions) {
      raw->by_name_.emplace(instruction->name(), instruction);
    }
  }
  raw->next_suffix_.clear();  // The module's counters rule from now on.
  computation_by_name_[raw->name_] = raw;
  computations_.push_back(std::move(computation));
  return raw;
}

Computation* Module::AddEntryComputation(
    std::unique_ptr<Computation> computation) {
  entry_ = AddComputation(std::move(computation));
  return entry_;
}

std::vector<Computation*> Module::computations() const {
  std::vector<Computation*> result;
  result.reserve(computations_.size());
  for (const auto& computation : computations_) {
    result.push_back(computation.get());
  }
  return result;
}

Computation* Module::FindComputation(absl::string_view name) const {
  auto it = computation_by_name_.find(name);
  if (it != computation_by_name_.end() && it->second->name() == name) {
    return it->second;
  }
  for (const auto& computation : computations_) {
    if (computation->name() == name) return computation.get();
  }
  return nullptr;
}

void Module::RebuildComputationIndex() {
  computation_by_name_.clear();
  for (const auto& computation : computations_) {
    computation_by_name_.emplace(computation->name(), computation.get());
  }
}

absl::StatusOr<std::vector<Computation*>> Module::PostOrderComputations()
    const {
  absl::flat_hash_map<const Computation*, Mark> marks;
  std::vector<Computation*> result;
  auto in_module = [this](const Computation* c) { return c->parent() == this; };
  // Entry last: every other computation (and so all of the entry's callees)
  // is placed first.
  for (const auto& computation : computations_) {
    if (computation.get() == entry_) continue;
    absl::Status status =
        AppendCallPostOrder(computation.get(), in_module, &marks, &result);
    if (!status.ok()) return status;
  }
  if (entry_ != nullptr) {
    absl::Status status =
        AppendCallPostOrder(entry_, in_module, &marks, &result);
    if (!status.ok()) return status;
  }
  return result;
}

absl::StatusOr<Computation*> Module::CloneComputation(
    const Computation* computation, const std::string& suffix) {
  if (computation == nullptr) {
    return absl::InvalidArgumentError("CloneComputation: null computation");
  }
  absl::flat_hash_map<const Computation*, Mark> marks;
  std::vector<Computation*> order;
  absl::Status status = AppendCallPostOrder(
      const_cast<Computation*>(computation),
      [](const Computation*) { return true; }, &marks, &order);
  if (!status.ok()) return status;
  absl::flat_hash_map<const Computation*, Computation*> clones;
  for (Computation* original : order) {
    std::unique_ptr<Computation> clone =
        original->Clone(original->name() + suffix);
    const std::vector<Instruction*> instructions = clone->instructions();
    for (Instruction* instruction : instructions) {
      instruction->set_name(instruction->name() + suffix);
      instruction->RemapCalledComputations([&clones](Computation* callee) {
        auto it = clones.find(callee);
        return it == clones.end() ? callee : it->second;
      });
    }
    clone->by_name_.clear();
    for (Instruction* instruction : instructions) {
      clone->by_name_.emplace(instruction->name(), instruction);
    }
    clones[original] = AddComputation(std::move(clone));
  }
  return clones[computation];
}

int64_t Module::RemoveDeadComputations() {
  if (entry_ == nullptr) return 0;
  absl::flat_hash_map<const Computation*, Mark> marks;
  std::vector<Computation*> live;
  auto in_module = [this](const Computation* c) { return c->parent() == this; };
  // On recursion, reachability is unknown: remove nothing.
  if (!AppendCallPostOrder(entry_, in_module, &marks, &live).ok()) return 0;
  size_t before = computations_.size();
  computations_.erase(
      std::remove_if(computations_.begin(), computations_.end(),
                     [&marks](const std::unique_ptr<Computation>& c) {
                       return !marks.contains(c.get());
                     }),
      computations_.end());
  InvalidateFusionCallees();
  RebuildComputationIndex();
  return static_cast<int64_t>(before - computations_.size());
}

absl::Status Module::RemoveComputation(Computation* computation) {
  auto it = std::find_if(
      computations_.begin(), computations_.end(),
      [computation](const auto& c) { return c.get() == computation; });
  if (computation == nullptr || it == computations_.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RemoveComputation: computation is not in module ", name_));
  }
  if (computation == entry_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot remove the entry computation ", computation->name()));
  }
  for (const auto& caller : computations_) {
    if (caller.get() == computation) continue;
    for (const Computation* callee : caller->callees()) {
      if (callee == computation) {
        return absl::FailedPreconditionError(
            absl::StrCat("cannot remove computation ", computation->name(),
                         ": it is called from ", caller->name()));
      }
    }
  }
  computations_.erase(it);
  InvalidateFusionCallees();
  RebuildComputationIndex();
  return absl::OkStatus();
}

std::unique_ptr<Module> Module::Clone() const {
  auto clone = std::make_unique<Module>(name_);
  clone->config_ = config_;
  clone->location_ = location_;
  absl::flat_hash_map<const Computation*, Computation*> map;
  std::vector<std::unique_ptr<Computation>> copies;
  copies.reserve(computations_.size());
  for (const auto& computation : computations_) {
    copies.push_back(computation->Clone(computation->name()));
    map[computation.get()] = copies.back().get();
  }
  auto remap = [&map](Computation* callee) {
    auto it = map.find(callee);
    return it == map.end() ? callee : it->second;
  };
  for (auto& copy : copies) {
    for (Instruction* instruction : copy->instructions()) {
      instruction->RemapCalledComputations(remap);
    }
  }
  for (auto& copy : copies) clone->AddComputation(std::move(copy));
  if (entry_ != nullptr) clone->entry_ = map[entry_];
  return clone;
}

}  // namespace kiln
