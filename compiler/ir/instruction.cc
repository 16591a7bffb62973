#include "compiler/ir/instruction.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"

namespace kiln {
namespace {

bool Contains(const std::vector<Instruction*>& list, const Instruction* x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

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

void Instruction::AddUser(Instruction* user) {
  if (!Contains(users_, user)) users_.push_back(user);
}

void Instruction::RemoveUser(Instruction* user) { EraseOne(&users_, user); }

void Instruction::AppendOperand(Instruction* operand) {
  // Checking our own (short) operand list keeps the users list deduplicated
  // without scanning the operand's possibly long users list.
  // Most instructions have one or two operands and users; starting at two
  // saves a reallocation for the common binary case.
  if (operands_.empty()) operands_.reserve(2);
  if (!Contains(operands_, operand)) {
    if (operand->users_.empty()) operand->users_.reserve(2);
    operand->users_.push_back(this);
  }
  operands_.push_back(operand);
}

void Instruction::ReplaceOperandWith(int64_t i, Instruction* new_operand) {
  Instruction* old_operand = operands_[i];
  if (old_operand == new_operand) return;
  bool new_already_used = Contains(operands_, new_operand);
  operands_[i] = new_operand;
  if (!Contains(operands_, old_operand)) old_operand->RemoveUser(this);
  if (!new_already_used) new_operand->users_.push_back(this);
}

void Instruction::ReplaceOperandAll(Instruction* old_operand,
                                    Instruction* new_operand) {
  if (old_operand == new_operand || !Contains(operands_, old_operand)) return;
  bool new_already_used = Contains(operands_, new_operand);
  std::replace(operands_.begin(), operands_.end(), old_operand, new_operand);
  old_operand->RemoveUser(this);
  if (!new_already_used) new_operand->users_.push_back(this);
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
  std::vector<Instruction*> kept;
  for (Instruction* user : users_) {
    if (user == new_producer) {
      kept.push_back(user);
      continue;
    }
    bool already_used = Contains(user->operands_, new_producer);
    std::replace(user->operands_.begin(), user->operands_.end(), this,
                 new_producer);
    if (!already_used) new_producer->users_.push_back(user);
  }
  users_ = std::move(kept);
  if (parent_ != nullptr && parent_->root() == this) {
    parent_->set_root(new_producer);
  }
  return absl::OkStatus();
}

void Instruction::DetachOperands() {
  for (size_t i = 0; i < operands_.size(); ++i) {
    Instruction* operand = operands_[i];
    // Each distinct operand once: skip later repeats.
    if (std::find(operands_.begin(), operands_.begin() + i, operand) ==
        operands_.begin() + i) {
      operand->RemoveUser(this);
    }
  }
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
  if (Contains(control_successors_, successor)) return absl::OkStatus();
  control_successors_.push_back(successor);
  successor->control_predecessors_.push_back(this);
  return absl::OkStatus();
}

absl::Status Instruction::RemoveControlDependencyTo(Instruction* successor) {
  if (successor == nullptr || !EraseOne(&control_successors_, successor)) {
    return absl::NotFoundError(absl::StrCat(
        "no control dependency from ", name_, " to ",
        successor == nullptr ? std::string("null") : successor->name()));
  }
  EraseOne(&successor->control_predecessors_, this);
  return absl::OkStatus();
}

void Instruction::DropAllControlDeps() {
  for (Instruction* predecessor : control_predecessors_) {
    EraseOne(&predecessor->control_successors_, this);
  }
  for (Instruction* successor : control_successors_) {
    EraseOne(&successor->control_predecessors_, this);
  }
  control_predecessors_.clear();
  control_successors_.clear();
}

std::vector<Computation*> Instruction::called_computations() const {
  std::vector<Computation*> result;
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
