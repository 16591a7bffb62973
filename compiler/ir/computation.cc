#include "compiler/ir/computation.h"

#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/module.h"

namespace kiln {

namespace internal {

std::string UniqueNameFor(
    const std::string& base,
    const std::function<bool(const std::string&)>& is_used,
    absl::flat_hash_map<std::string, int64_t>* next_suffix) {
  if (!is_used(base)) return base;
  // "add.3" and "add" share the root "add", as in XLA's name uniquer.
  std::string root = base;
  size_t dot = base.rfind('.');
  int64_t ignored = 0;
  if (dot != std::string::npos && dot + 1 < base.size() &&
      absl::SimpleAtoi(absl::string_view(base).substr(dot + 1), &ignored) &&
      absl::ascii_isdigit(base[dot + 1])) {
    root = base.substr(0, dot);
  }
  int64_t& next = (*next_suffix)[root];
  if (next < 1) next = 1;
  std::string candidate;
  do {
    candidate = absl::StrCat(root, ".", next++);
  } while (is_used(candidate));
  return candidate;
}

}  // namespace internal

namespace {

// Opcodes whose execution is observable beyond their result, so dead-code
// removal keeps them (XLA's HasSideEffect, without the custom-call flag).
constexpr Opcode kSideEffectingOpcodes[] = {
    Opcode::kSend,
    Opcode::kSendDone,
    Opcode::kRecv,
    Opcode::kRecvDone,
    Opcode::kInfeed,
    Opcode::kOutfeed,
    Opcode::kRng,
    Opcode::kRngGetAndUpdateState,
    Opcode::kAllReduceStart,
    Opcode::kAllReduceDone,
    Opcode::kAllGatherStart,
    Opcode::kAllGatherDone,
    Opcode::kCollectivePermuteStart,
    Opcode::kCollectivePermuteDone,
};

bool HasSideEffectNoRecurse(const Instruction& instruction) {
  for (Opcode op : kSideEffectingOpcodes) {
    if (instruction.opcode() == op) return true;
  }
  if (instruction.opcode() == Opcode::kCustomCall) {
    const bool* flag =
        instruction.attrs().Get<bool>("custom_call_has_side_effect");
    return flag != nullptr && *flag;
  }
  return false;
}

// Side effects anywhere in `computation` or what it calls. `visiting`
// guards against (invalid) recursive calls.
bool ComputationHasSideEffect(const Computation* computation,
                              absl::flat_hash_set<const Computation*>* seen);

bool HasSideEffect(const Instruction& instruction,
                   absl::flat_hash_set<const Computation*>* seen) {
  if (HasSideEffectNoRecurse(instruction)) return true;
  for (const Computation* callee : instruction.called_computations()) {
    if (ComputationHasSideEffect(callee, seen)) return true;
  }
  return false;
}

bool ComputationHasSideEffect(const Computation* computation,
                              absl::flat_hash_set<const Computation*>* seen) {
  if (!seen->insert(computation).second) return false;
  for (const Instruction* instruction : computation->instructions()) {
    if (HasSideEffect(*instruction, seen)) return true;
  }
  return false;
}

}  // namespace

Computation::Computation(std::string name) : name_(std::move(name)) {}

Computation::~Computation() = default;

bool Computation::is_fusion_computation() const {
  return parent_ != nullptr && parent_->IsFusionCallee(this);
}

std::string Computation::UniqueInstructionName(const std::string& base) {
  if (parent_ != nullptr) return parent_->UniqueName(base);
  return internal::UniqueNameFor(
      base, [this](const std::string& n) { return by_name_.contains(n); },
      &next_suffix_);
}

Instruction* Computation::AddInstruction(
    std::unique_ptr<Instruction> instruction) {
  Instruction* raw = instruction.get();
  raw->parent_ = this;
  raw->InvalidateFusionCallees();
  std::string unique = UniqueInstructionName(raw->name());
  if (unique != raw->name()) raw->set_name(std::move(unique));
  by_name_.emplace(raw->name(), raw);
  order_.push_back(std::move(instruction));
  position_.emplace(raw, std::prev(order_.end()));
  if (raw->opcode() == Opcode::kParameter) {
    int64_t number = raw->parameter_number();
    if (number < 0) {
      number = static_cast<int64_t>(parameters_.size());
      raw->set_parameter_number(number);
    }
    // Text may list parameters out of order; holes are filled later and
    // reported by the verifier if they remain.
    if (number >= static_cast<int64_t>(parameters_.size())) {
      parameters_.resize(number + 1, nullptr);
    }
    parameters_[number] = raw;
  }
  return raw;
}

Instruction* Computation::AddInstructionBefore(
    std::unique_ptr<Instruction> instruction, const Instruction* before) {
  Instruction* raw = AddInstruction(std::move(instruction));
  auto target = position_.find(before);
  if (target == position_.end()) return raw;  // Not ours: stays at the end.
  auto current = position_.at(raw);
  order_.splice(target->second, order_, current);
  return raw;
}

bool Computation::IsInDefinitionOrder() const {
  absl::flat_hash_set<const Instruction*> defined;
  defined.reserve(order_.size());
  for (const auto& instruction : order_) {
    for (const Instruction* operand : instruction->operands()) {
      if (operand->parent() == this && !defined.contains(operand)) return false;
    }
    for (const Instruction* pred : instruction->control_predecessors()) {
      if (pred->parent() == this && !defined.contains(pred)) return false;
    }
    defined.insert(instruction.get());
  }
  return true;
}

absl::Status Computation::RestoreDefinitionOrder() {
  if (IsInDefinitionOrder()) return absl::OkStatus();
  absl::StatusOr<std::vector<Instruction*>> order = PostOrder();
  if (!order.ok()) return order.status();
  // std::list::splice moves nodes without invalidating iterators, so
  // position_ stays valid while each instruction is moved to the end.
  for (Instruction* instruction : *order) {
    order_.splice(order_.end(), order_, position_.at(instruction));
  }
  return absl::OkStatus();
}

Instruction* Computation::AddParameter(std::unique_ptr<Instruction> parameter) {
  if (parameter->parameter_number() < 0) {
    parameter->set_parameter_number(static_cast<int64_t>(parameters_.size()));
  }
  return AddInstruction(std::move(parameter));
}

std::vector<Instruction*> Computation::instructions() const {
  std::vector<Instruction*> result;
  result.reserve(order_.size());
  for (const auto& instruction : order_) result.push_back(instruction.get());
  return result;
}

Instruction* Computation::FindInstruction(absl::string_view name) const {
  auto it = by_name_.find(name);  // Heterogeneous: no string copy.
  return it == by_name_.end() ? nullptr : it->second;
}

absl::StatusOr<std::vector<Instruction*>> Computation::PostOrder() const {
  enum class Mark : uint8_t { kNew, kOpen, kDone };
  absl::flat_hash_map<const Instruction*, Mark> marks;
  marks.reserve(order_.size());
  std::vector<Instruction*> result;
  result.reserve(order_.size());
  // Explicit stack of (instruction, next input index) to survive deep graphs.
  std::vector<std::pair<Instruction*, size_t>> stack;
  auto input = [](const Instruction* x, size_t i) -> Instruction* {
    size_t n = x->operands().size();
    if (i < n) return x->operand(i);
    i -= n;
    return i < x->control_predecessors().size() ? x->control_predecessors()[i]
                                                : nullptr;
  };
  for (const auto& start : order_) {
    if (marks[start.get()] != Mark::kNew) continue;
    marks[start.get()] = Mark::kOpen;
    stack.emplace_back(start.get(), 0);
    while (!stack.empty()) {
      auto& [current, next] = stack.back();
      Instruction* in = input(current, next);
      if (in == nullptr) {
        marks[current] = Mark::kDone;
        result.push_back(current);
        stack.pop_back();
        continue;
      }
      ++next;
      if (in->parent() != this) continue;  // Foreign: the verifier's job.
      Mark& mark = marks[in];
      if (mark == Mark::kOpen) {
        return absl::FailedPreconditionError(absl::StrCat(
            "computation ", name_, " has a cycle through ", in->name()));
      }
      if (mark == Mark::kNew) {
        mark = Mark::kOpen;
        stack.emplace_back(in, 0);
      }
    }
  }
  return result;
}

absl::Status Computation::ReplaceInstruction(Instruction* old_instruction,
                                             Instruction* new_instruction) {
  if (old_instruction == nullptr || new_instruction == nullptr ||
      old_instruction->parent() != this || new_instruction->parent() != this) {
    return absl::InvalidArgumentError(
        absl::StrCat("ReplaceInstruction in ", name_,
                     ": both instructions must belong to this computation"));
  }
  if (old_instruction == new_instruction) return absl::OkStatus();
  absl::Status status = old_instruction->ReplaceAllUsesWith(new_instruction);
  if (!status.ok()) return status;
  for (Instruction* predecessor : old_instruction->control_predecessors()) {
    if (predecessor == new_instruction) continue;
    status = predecessor->AddControlDependencyTo(new_instruction);
    if (!status.ok()) return status;
  }
  for (Instruction* successor : old_instruction->control_successors()) {
    if (successor == new_instruction) continue;
    status = new_instruction->AddControlDependencyTo(successor);
    if (!status.ok()) return status;
  }
  old_instruction->DropAllControlDeps();
  // The old instruction stays when the new one still uses it (x -> f(x))
  // or when it is a parameter, which only the caller may renumber.
  if (old_instruction->user_count() > 0 ||
      old_instruction->opcode() == Opcode::kParameter) {
    return absl::OkStatus();
  }
  return RemoveInstruction(old_instruction);
}

absl::Status Computation::RemoveInstruction(Instruction* instruction) {
  if (instruction == nullptr || instruction->parent() != this ||
      !position_.contains(instruction)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RemoveInstruction: instruction is not in computation ", name_));
  }
  if (instruction->user_count() > 0 || instruction == root_ ||
      instruction->opcode() == Opcode::kParameter) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove ", instruction->name(), " from ", name_,
                     ": it has users, is ROOT or is a parameter"));
  }
  instruction->InvalidateFusionCallees();
  instruction->DetachOperands();
  instruction->DropAllControlDeps();
  auto by_name = by_name_.find(instruction->name());
  if (by_name != by_name_.end() && by_name->second == instruction) {
    by_name_.erase(by_name);
  }
  auto position = position_.find(instruction);
  auto list_it = position->second;
  position_.erase(position);
  order_.erase(list_it);  // Destroys the instruction.
  return absl::OkStatus();
}

int64_t Computation::RemoveDeadInstructions() {
  if (root_ == nullptr) return 0;
  absl::flat_hash_set<const Instruction*> live;
  std::vector<Instruction*> work = {root_};
  absl::flat_hash_set<const Computation*> seen;
  for (const auto& instruction : order_) {
    Instruction* x = instruction.get();
    if (x->opcode() == Opcode::kParameter || HasSideEffect(*x, &seen)) {
      work.push_back(x);
    }
    seen.clear();
  }
  while (!work.empty()) {
    Instruction* x = work.back();
    work.pop_back();
    if (!live.insert(x).second) continue;
    for (Instruction* operand : x->operands()) work.push_back(operand);
    for (Instruction* pred : x->control_predecessors()) work.push_back(pred);
  }
  std::vector<Instruction*> dead;
  for (const auto& instruction : order_) {
    if (!live.contains(instruction.get())) dead.push_back(instruction.get());
  }
  // Detach every dead instruction first so no dead user blocks removal.
  for (Instruction* x : dead) {
    x->DetachOperands();
    x->DropAllControlDeps();
  }
  for (Instruction* x : dead) {
    x->users_.Clear();  // Only dead users remained.
    absl::Status status = RemoveInstruction(x);
    (void)status;  // Cannot fail: detached, unused, not ROOT, no parameter.
  }
  return static_cast<int64_t>(dead.size());
}

std::unique_ptr<Computation> Computation::Clone(const std::string& name) const {
  auto clone = std::make_unique<Computation>(name);
  clone->execution_thread_ = execution_thread_;
  absl::flat_hash_map<const Instruction*, Instruction*> map;
  map.reserve(order_.size());
  // Two phases (create, then wire) so operand order in the text is no
  // constraint and even a cyclic graph clones faithfully.
  for (const auto& instruction : order_) {
    Instruction* copy = clone->AddInstruction(instruction->CloneWithNewOperands(
        instruction->shape(), {}, instruction->name()));
    map.emplace(instruction.get(), copy);
  }
  auto mapped = [&map](Instruction* x) {
    auto it = map.find(x);
    return it == map.end() ? x : it->second;
  };
  for (const auto& instruction : order_) {
    Instruction* copy = map[instruction.get()];
    for (Instruction* operand : instruction->operands()) {
      copy->AppendOperand(mapped(operand));
    }
    for (Instruction* successor : instruction->control_successors()) {
      absl::Status status = copy->AddControlDependencyTo(mapped(successor));
      (void)status;  // Mirrors an existing edge of the original.
    }
  }
  if (root_ != nullptr) clone->root_ = mapped(root_);
  return clone;
}

}  // namespace kiln
