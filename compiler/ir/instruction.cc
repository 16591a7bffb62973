#include "compiler/ir/instruction.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"

namespace kiln {
namespace {

// Removes `x` keeping the order of the rest; false if absent.
bool EraseOne(std::vector<Instruction*>* list, const Instruction* x) {
  auto it = std::find(list->begin(), list->end(), x);
  if (it == list->end()) return false;
  list->erase(it);
  return true;
}

}  // namespace

std::string SourceLocation::ToString() const {
  if (line <= 0) return "";
  std::string out = file.empty() ? std::string("<unknown>") : file;
  absl::StrAppend(&out, ":", line);
  if (column > 0) absl::StrAppend(&out, ":", column);
  return out;
}

Instruction::Instruction(Opcode opcode, Shape shape, std::string name)
    : opcode_(opcode), shape_(std::move(shape)), name_(std::move(name)) {}

namespace internal {

int64_t UserList::Find(const Instruction* user) const {
  if (index_ == nullptr) {
    for (size_t i = 0; i < users_.size(); ++i) {
      if (users_[i] == user) return static_cast<int64_t>(i);
    }
    return -1;
  }
  auto it = index_->find(user);
  return it == index_->end() ? -1 : static_cast<int64_t>(it->second);
}

void UserList::AddUses(Instruction* user, int32_t uses) {
  const int64_t found = Find(user);
  if (found >= 0) {
    uses_[found] += uses;
    return;
  }
  // Most instructions have one or two users; starting at two saves a
  // reallocation for the common case.
  if (users_.empty()) {
    users_.reserve(2);
    uses_.reserve(2);
  }
  users_.push_back(user);
  uses_.push_back(uses);
  if (index_ != nullptr) {
    index_->emplace(user, users_.size() - 1);
  } else if (users_.size() > kIndexThreshold) {
    index_ =
        std::make_unique<absl::flat_hash_map<const Instruction*, size_t>>();
    index_->reserve(users_.size() * 2);
    for (size_t i = 0; i < users_.size(); ++i) index_->emplace(users_[i], i);
  }
}

void UserList::EraseAt(size_t position) {
  if (index_ == nullptr) {
    users_.erase(users_.begin() + position);
    uses_.erase(uses_.begin() + position);
    return;
  }
  index_->erase(users_[position]);
  if (position + 1 != users_.size()) {
    users_[position] = users_.back();
    uses_[position] = uses_.back();
    (*index_)[users_[position]] = position;
  }
  users_.pop_back();
  uses_.pop_back();
}

void UserList::RemoveUse(const Instruction* user) {
  const int64_t found = Find(user);
  if (found >= 0 && --uses_[found] <= 0) EraseAt(found);
}

void UserList::RemoveUser(const Instruction* user) {
  const int64_t found = Find(user);
  if (found >= 0) EraseAt(found);
}

void UserList::Clear() {
  users_.clear();
  uses_.clear();
  index_.reset();
}

}  // namespace internal

void Instruction::InvalidateFusionCallees() const {
  if (opcode_ == Opcode::kFusion && parent_ != nullptr &&
      parent_->parent() != nullptr) {
    parent_->parent()->InvalidateFusionCallees();
  }
}

AttributeMap* Instruction::mutable_attrs() {
  InvalidateFusionCallees();
  if (parent_ != nullptr) parent_->InvalidateCallees();
  return &attrs_;
}

void Instruction::AppendOperand(Instruction* operand) {
  if (operands_.empty()) operands_.reserve(2);
  operand->users_.AddUses(this, 1);
  operands_.push_back(operand);
  if (parent_ != nullptr) parent_->NoteEdge(operand, this);
}

void Instruction::ReplaceOperandWith(int64_t i, Instruction* new_operand) {
  Instruction* old_operand = operands_[i];
  if (old_operand == new_operand) return;
  operands_[i] = new_operand;
  old_operand->users_.RemoveUse(this);
  new_operand->users_.AddUses(this, 1);
  if (parent_ != nullptr) parent_->NoteEdge(new_operand, this);
}

void Instruction::ReplaceOperandAll(Instruction* old_operand,
                                    Instruction* new_operand) {
  if (old_operand == new_operand) return;
  int32_t replaced = 0;
  for (Instruction*& operand : operands_) {
    if (operand == old_operand) {
      operand = new_operand;
      ++replaced;
    }
  }
  if (replaced == 0) return;
  old_operand->users_.RemoveUser(this);
  new_operand->users_.AddUses(this, replaced);
  if (parent_ != nullptr) parent_->NoteEdge(new_operand, this);
}

absl::Status Instruction::ReplaceAllUsesWith(Instruction* new_producer) {
  if (new_producer == nullptr) {
    return absl::InvalidArgumentError("ReplaceAllUsesWith: null producer");
  }
  if (new_producer == this) return absl::OkStatus();
  if (!shape_.Compatible(new_producer->shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot replace uses of ", name_, " (", shape_.ToString(),
                     ") with ", new_producer->name(), " (",
                     new_producer->shape().ToString(), "): shapes differ"));
  }
  // Like XLA, a new producer that itself uses this instruction keeps doing
  // so; rewiring it would create a cycle.
  int32_t kept_uses = 0;
  const std::vector<Instruction*>& users = users_.list();
  for (size_t u = 0; u < users.size(); ++u) {
    Instruction* user = users[u];
    if (user == new_producer) {
      kept_uses = users_.uses_at(u);
      continue;
    }
    std::replace(user->operands_.begin(), user->operands_.end(), this,
                 new_producer);
    new_producer->users_.AddUses(user, users_.uses_at(u));
    if (user->parent_ != nullptr) user->parent_->NoteEdge(new_producer, user);
  }
  users_.Clear();
  if (kept_uses > 0) users_.AddUses(new_producer, kept_uses);
  if (parent_ != nullptr && parent_->root() == this) {
    parent_->set_root(new_producer);
  }
  return absl::OkStatus();
}

void Instruction::DetachOperands() {
  for (Instruction* operand : operands_) operand->users_.RemoveUse(this);
  operands_.clear();
}

absl::Status Instruction::AddControlDependencyTo(Instruction* successor) {
  if (successor == nullptr || successor == this) {
    return absl::InvalidArgumentError(absl::StrCat(
        "invalid control dependency from ", name_, " to itself or null"));
  }
  if (parent_ != nullptr && successor->parent_ != nullptr &&
      parent_ != successor->parent_) {
    return absl::InvalidArgumentError(
        absl::StrCat("control dependency from ", name_, " to ",
                     successor->name(), " crosses computations"));
  }
  const std::vector<Instruction*>& successors = control_successors();
  if (std::find(successors.begin(), successors.end(), successor) !=
      successors.end()) {
    return absl::OkStatus();
  }
  MutableControlEdges().successors.push_back(successor);
  successor->MutableControlEdges().predecessors.push_back(this);
  if (successor->parent_ != nullptr) {
    successor->parent_->NoteEdge(this, successor);
  }
  return absl::OkStatus();
}

absl::Status Instruction::RemoveControlDependencyTo(Instruction* successor) {
  if (successor == nullptr || control_ == nullptr ||
      !EraseOne(&control_->successors, successor)) {
    return absl::NotFoundError(absl::StrCat(
        "no control dependency from ", name_, " to ",
        successor == nullptr ? std::string("null") : successor->name()));
  }
  EraseOne(&successor->MutableControlEdges().predecessors, this);
  return absl::OkStatus();
}

void Instruction::DropAllControlDeps() {
  if (control_ == nullptr) return;
  for (Instruction* predecessor : control_->predecessors) {
    EraseOne(&predecessor->MutableControlEdges().successors, this);
  }
  for (Instruction* successor : control_->successors) {
    EraseOne(&successor->MutableControlEdges().predecessors, this);
  }
  // Cleared, not freed: a caller may still hold the (now empty) lists.
  control_->predecessors.clear();
  control_->successors.clear();
}

internal::ControlEdges& Instruction::MutableControlEdges() {
  if (control_ == nullptr)
    control_ = std::make_unique<internal::ControlEdges>();
  return *control_;
}

std::vector<Computation*> Instruction::called_computations() const {
  std::vector<Computation*> result;
  if (!attrs_.MayReferenceComputations()) return result;
  for (const auto& entry : attrs_.entries()) {
    const AttrValue& value = entry.second;
    if (const auto* one = std::get_if<Computation*>(&value)) {
      if (*one != nullptr) result.push_back(*one);
    } else if (const auto* list = std::get_if<ComputationList>(&value)) {
      for (Computation* c : *list) {
        if (c != nullptr) result.push_back(c);
      }
    }
  }
  return result;
}

void Instruction::RemapCalledComputations(
    const std::function<Computation*(Computation*)>& map) {
  if (!attrs_.MayReferenceComputations()) return;
  InvalidateFusionCallees();
  if (parent_ != nullptr) parent_->InvalidateCallees();
  for (const auto& entry : attrs_.entries()) {
    AttrValue* value = attrs_.Find(entry.first);
    if (auto* one = std::get_if<Computation*>(value)) {
      if (*one != nullptr) *one = map(*one);
    } else if (auto* list = std::get_if<ComputationList>(value)) {
      for (Computation*& c : *list) {
        if (c != nullptr) c = map(c);
      }
    }
  }
}

void Instruction::set_literal(Literal literal) {
  literal_ = std::make_unique<Literal>(std::move(literal));
}

std::unique_ptr<Instruction> Instruction::CloneWithNewOperands(
    const Shape& shape, absl::Span<Instruction* const> new_operands,
    std::string name) const {
  auto clone = std::make_unique<Instruction>(opcode_, shape, std::move(name));
  for (Instruction* operand : new_operands) clone->AppendOperand(operand);
  clone->attrs_ = attrs_;
  if (literal_ != nullptr)
    clone->literal_ = std::make_unique<Literal>(*literal_);
  clone->parameter_number_ = parameter_number_;
  clone->metadata = metadata;
  clone->sharding = sharding;
  clone->backend_config = backend_config;
  clone->result_accuracy = result_accuracy;
  clone->statistics_viz = statistics_viz;
  clone->origin = origin;
  clone->frontend_attributes = frontend_attributes;
  clone->location = location;
  return clone;
}

bool Instruction::IdenticalIgnoringOperands(const Instruction& other) const {
  // Debug information (metadata, statistics, origin, location) does not
  // change what an instruction computes, so it is not compared.
  if (opcode_ != other.opcode_ || !(shape_ == other.shape_) ||
      parameter_number_ != other.parameter_number_ ||
      !attrs_.Equals(other.attrs_) || !(sharding == other.sharding) ||
      !(backend_config == other.backend_config) ||
      !(result_accuracy == other.result_accuracy) ||
      frontend_attributes != other.frontend_attributes) {
    return false;
  }
  if ((literal_ == nullptr) != (other.literal_ == nullptr)) return false;
  return literal_ == nullptr || *literal_ == *other.literal_;
}

}  // namespace kiln
