#include "compiler/ir/computation.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "compiler/ir/module.h"
#include "compiler/ir/op_traits.h"

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

// Side effects anywhere in `computation` or what it calls. `visiting`
// guards against (invalid) recursive calls.
bool ComputationHasSideEffect(const Computation* computation,
                              absl::flat_hash_set<const Computation*>* seen);

bool HasSideEffect(const Instruction& instruction,
                   absl::flat_hash_set<const Computation*>* seen) {
  if (HasOwnSideEffect(instruction)) return true;
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

Computation::~Computation() { DeleteAllInstructions(); }

void Computation::DeleteAllInstructions() {
  for (Instruction* instruction : order_) delete instruction;
  for (auto& [slot, group] : pending_) {
    for (Instruction* instruction : group) delete instruction;
  }
  order_.clear();
  pending_.clear();
}

bool Computation::is_fusion_computation() const {
  return parent_ != nullptr && parent_->IsFusionCallee(this);
}

void Computation::NoteEdgesOf(const Instruction* instruction) {
  if (!known_in_definition_order_) return;
  // An instruction arriving with edges already made (moved in from
  // another computation, or wired before it was added).
  for (const Instruction* operand : instruction->operands()) {
    NoteEdge(operand, instruction);
  }
  for (const Instruction* pred : instruction->control_predecessors()) {
    NoteEdge(pred, instruction);
  }
  for (const Instruction* user : instruction->users()) {
    if (user->parent() == this) NoteEdge(instruction, user);
  }
  for (const Instruction* successor : instruction->control_successors()) {
    if (successor->parent() == this) NoteEdge(instruction, successor);
  }
}

bool Computation::SurelyBefore(const Instruction* a, const Instruction* b) {
  if (b->slot_ < 0) return true;  // `b` is not placed yet: it goes last.
  if (a->slot_ < 0) return false;
  if (!a->pending_) {
    // A placed instruction precedes later slots and their pending groups.
    return a->slot_ < b->slot_;
  }
  // A pending `a` goes just before its slot: before the instruction placed
  // there and everything after; within one group, unsure.
  return b->pending_ ? a->slot_ < b->slot_ : a->slot_ <= b->slot_;
}

const std::vector<Computation*>& Computation::callees() const {
  if (callees_valid_) return callees_;
  callees_.clear();
  for (const Instruction* instruction : instructions()) {
    if (!instruction->attrs().MayReferenceComputations()) continue;
    for (Computation* callee : instruction->called_computations()) {
      callees_.push_back(callee);
    }
  }
  callees_valid_ = true;
  return callees_;
}

std::string Computation::UniqueInstructionName(const std::string& base) {
  if (parent_ != nullptr) return parent_->UniqueName(base);
  return internal::UniqueNameFor(
      base, [this](const std::string& n) { return by_name_.contains(n); },
      &next_suffix_);
}

void Computation::AppendToOrder(Instruction* instruction) {
  instruction->slot_ = static_cast<int64_t>(order_.size());
  instruction->pending_ = false;
  order_.push_back(instruction);
}

Instruction* Computation::AddInstruction(
    std::unique_ptr<Instruction> instruction) {
  Instruction* raw = instruction.release();
  raw->parent_ = this;
  raw->InvalidateFusionCallees();
  if (raw->attrs().MayReferenceComputations()) InvalidateCallees();
  std::string unique = UniqueInstructionName(raw->name());
  if (unique != raw->name()) raw->set_name(std::move(unique));
  by_name_.emplace(raw->name(), raw);
  AppendToOrder(raw);
  ++live_count_;
  NoteEdgesOf(raw);
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
  if (before == nullptr || before->parent() != this || before == raw) {
    return raw;  // Not ours: stays at the end.
  }
  // Take `raw` back out of the last slot and file it just before `before`:
  // in front of `before` in its pending group, or at the end of the group
  // of before's slot (after what was inserted there earlier).
  order_.pop_back();
  std::vector<Instruction*>& group = pending_[before->slot_];
  auto position = group.end();
  if (before->pending_) {
    position = std::find(group.begin(), group.end(), before);
  }
  group.insert(position, raw);
  raw->slot_ = before->slot_;
  raw->pending_ = true;
  ++pending_count_;
  NoteEdgesOf(raw);
  return raw;
}

std::vector<Instruction*> Computation::instructions() {
  Settle();
  return order_;
}

std::vector<Instruction*> Computation::instructions() const {
  if (IsSettled()) return order_;
  std::vector<Instruction*> result;
  result.reserve(live_count_);
  for (size_t slot = 0; slot < order_.size(); ++slot) {
    if (pending_count_ > 0) {
      auto group = pending_.find(static_cast<int64_t>(slot));
      if (group != pending_.end()) {
        result.insert(result.end(), group->second.begin(), group->second.end());
      }
    }
    if (order_[slot] != nullptr) result.push_back(order_[slot]);
  }
  return result;
}

void Computation::ResetOrder(std::vector<Instruction*> order) {
  order_ = std::move(order);
  for (size_t slot = 0; slot < order_.size(); ++slot) {
    order_[slot]->slot_ = static_cast<int64_t>(slot);
    order_[slot]->pending_ = false;
  }
  pending_.clear();
  pending_count_ = 0;
  empty_slots_ = 0;
}

void Computation::Settle() {
  if (IsSettled()) return;
  ResetOrder(std::as_const(*this).instructions());
}

bool Computation::IsInDefinitionOrder() {
  if (known_in_definition_order_) return true;
  Settle();
  known_in_definition_order_ = std::as_const(*this).IsInDefinitionOrder();
  return known_in_definition_order_;
}

bool Computation::IsInDefinitionOrder() const {
  if (known_in_definition_order_) return true;
  if (IsSettled()) {
    // Slots are positions: an input must sit in an earlier slot.
    for (const Instruction* instruction : order_) {
      for (const Instruction* operand : instruction->operands()) {
        if (operand->parent() == this && operand->slot_ >= instruction->slot_) {
          return false;
        }
      }
      for (const Instruction* pred : instruction->control_predecessors()) {
        if (pred->parent() == this && pred->slot_ >= instruction->slot_) {
          return false;
        }
      }
    }
    return true;
  }
  absl::flat_hash_set<const Instruction*> defined;
  defined.reserve(live_count_);
  for (const Instruction* instruction : instructions()) {
    for (const Instruction* operand : instruction->operands()) {
      if (operand->parent() == this && !defined.contains(operand)) return false;
    }
    for (const Instruction* pred : instruction->control_predecessors()) {
      if (pred->parent() == this && !defined.contains(pred)) return false;
    }
    defined.insert(instruction);
  }
  return true;
}

absl::Status Computation::RestoreDefinitionOrder() {
  if (IsInDefinitionOrder()) return absl::OkStatus();
  absl::StatusOr<std::vector<Instruction*>> order = PostOrder();
  if (!order.ok()) return order.status();
  ResetOrder(*std::move(order));
  known_in_definition_order_ = true;
  return absl::OkStatus();
}

Instruction* Computation::AddParameter(std::unique_ptr<Instruction> parameter) {
  if (parameter->parameter_number() < 0) {
    parameter->set_parameter_number(static_cast<int64_t>(parameters_.size()));
  }
  return AddInstruction(std::move(parameter));
}

Instruction* Computation::FindInstruction(absl::string_view name) const {
  auto it = by_name_.find(name);  // Heterogeneous: no string copy.
  return it == by_name_.end() ? nullptr : it->second;
}

namespace {

// Depth-first post order of `order` (a computation's instructions in
// stable order); `index_of` maps each of them to a distinct index below
// order.size(). Operands before users, control predecessors before
// successors, ties broken by `order`.
template <typename IndexOf>
absl::StatusOr<std::vector<Instruction*>> PostOrderOf(
    const Computation* computation, absl::Span<Instruction* const> order,
    const IndexOf& index_of) {
  enum class Mark : uint8_t { kNew, kOpen, kDone };
  std::vector<Mark> marks(order.size(), Mark::kNew);
  std::vector<Instruction*> result;
  result.reserve(order.size());
  // Explicit stack of (instruction, next input index) to survive deep graphs.
  std::vector<std::pair<Instruction*, size_t>> stack;
  auto input = [](const Instruction* x, size_t i) -> Instruction* {
    size_t n = x->operands().size();
    if (i < n) return x->operand(i);
    i -= n;
    return i < x->control_predecessors().size() ? x->control_predecessors()[i]
                                                : nullptr;
  };
  for (Instruction* start : order) {
    if (marks[index_of(start)] != Mark::kNew) continue;
    marks[index_of(start)] = Mark::kOpen;
    stack.emplace_back(start, 0);
    while (!stack.empty()) {
      auto& [current, next] = stack.back();
      Instruction* in = input(current, next);
      if (in == nullptr) {
        marks[index_of(current)] = Mark::kDone;
        result.push_back(current);
        stack.pop_back();
        continue;
      }
      ++next;
      if (in->parent() != computation) continue;  // Foreign: the verifier's.
      Mark& mark = marks[index_of(in)];
      if (mark == Mark::kOpen) {
        return absl::FailedPreconditionError(
            absl::StrCat("computation ", computation->name(),
                         " has a cycle through ", in->name()));
      }
      if (mark == Mark::kNew) {
        mark = Mark::kOpen;
        stack.emplace_back(in, 0);
      }
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<std::vector<Instruction*>> Computation::PostOrder() {
  Settle();
  return std::as_const(*this).PostOrder();
}

absl::StatusOr<std::vector<Instruction*>> Computation::PostOrder() const {
  // In a definition order, the depth-first post order below visits every
  // instruction's inputs before it as earlier starts, so it emits the
  // stable order unchanged.
  if (known_in_definition_order_) return instructions();
  if (IsSettled()) {
    return PostOrderOf(this, order_,
                       [](const Instruction* x) { return x->slot_; });
  }
  std::vector<Instruction*> order = instructions();
  absl::flat_hash_map<const Instruction*, int64_t> index;
  index.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  return PostOrderOf(this, order,
                     [&index](const Instruction* x) { return index.at(x); });
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
      instruction->slot_ < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RemoveInstruction: instruction is not in computation ", name_));
  }
  if (instruction->user_count() > 0 || instruction == root_ ||
      instruction->opcode() == Opcode::kParameter) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove ", instruction->name(), " from ", name_,
                     ": it has users, is ROOT or is a parameter"));
  }
  instruction->DetachOperands();
  instruction->DropAllControlDeps();
  DetachInstruction(instruction);  // Destroys it.
  return absl::OkStatus();
}

std::unique_ptr<Instruction> Computation::DetachInstruction(
    Instruction* instruction) {
  if (instruction == nullptr || instruction->parent() != this ||
      instruction->slot_ < 0 || instruction == root_ ||
      instruction->opcode() == Opcode::kParameter) {
    return nullptr;
  }
  instruction->InvalidateFusionCallees();
  if (instruction->attrs().MayReferenceComputations()) InvalidateCallees();
  auto by_name = by_name_.find(instruction->name());
  if (by_name != by_name_.end() && by_name->second == instruction) {
    by_name_.erase(by_name);
  }
  if (instruction->pending_) {
    auto group = pending_.find(instruction->slot_);
    group->second.erase(
        std::find(group->second.begin(), group->second.end(), instruction));
    if (group->second.empty()) pending_.erase(group);
    --pending_count_;
  } else {
    order_[instruction->slot_] = nullptr;
    ++empty_slots_;
  }
  --live_count_;
  instruction->parent_ = nullptr;
  instruction->slot_ = -1;
  instruction->pending_ = false;
  return std::unique_ptr<Instruction>(instruction);
}

int64_t Computation::RemoveDeadInstructions() {
  if (root_ == nullptr) return 0;
  absl::flat_hash_set<const Instruction*> live;
  std::vector<Instruction*> work = {root_};
  absl::flat_hash_set<const Computation*> seen;
  const std::vector<Instruction*> order = instructions();
  for (Instruction* x : order) {
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
  for (Instruction* x : order) {
    if (!live.contains(x)) dead.push_back(x);
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
  const std::vector<Instruction*> order = instructions();
  absl::flat_hash_map<const Instruction*, Instruction*> map;
  map.reserve(order.size());
  // Two phases (create, then wire) so operand order in the text is no
  // constraint and even a cyclic graph clones faithfully.
  for (const Instruction* instruction : order) {
    Instruction* copy = clone->AddInstruction(instruction->CloneWithNewOperands(
        instruction->shape(), {}, instruction->name()));
    map.emplace(instruction, copy);
  }
  auto mapped = [&map](Instruction* x) {
    auto it = map.find(x);
    return it == map.end() ? x : it->second;
  };
  for (const Instruction* instruction : order) {
    Instruction* copy = map[instruction];
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
