// The graph-changing half of the per-computation assigner: deferred
// layouts, copies, called computations, the root requirement and the
// bitcast rewrite.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/opcode.h"
#include "passes/layout_assignment_computation.h"
#include "passes/layout_assignment_util.h"

namespace kiln {
namespace layout_internal {
namespace {

// Whether operand `k` of `user` (rule `rule`) must share `user`'s layout
// when `user` is decided late.
bool SharesLayout(Rule rule, const Instruction& user, int64_t k,
                  const LayoutRequirement& requirement) {
  const Shape& operand = user.operand(k)->shape();
  if (k < static_cast<int64_t>(requirement.operands.size()) &&
      requirement.operands[k].has_value()) {
    return false;
  }
  switch (rule) {
    case Rule::kElementwise:
      return SameDimensions(operand, user.shape());
    case Rule::kCopy:
    case Rule::kFollow:
      return operand.IsArray() && operand.rank() == user.shape().rank();
    default:
      return false;
  }
}

absl::Status Incompatible(const Instruction& user, int64_t k,
                          const Shape& target) {
  return PassError(absl::StrCat("operand ", k, " of ", user.name(), " is ",
                                user.operand(k)->shape().ToString(false),
                                " but must be ", target.ToString(false),
                                " (shape.inferred)"));
}

}  // namespace

absl::Status ComputationAssigner::Resolve(Instruction* instruction,
                                          const Layout& layout) {
  Decide(instruction, layout);
  // Inline storage: this runs for every deferred producer, and most chains
  // are short.
  absl::InlinedVector<Instruction*, 8> work = {instruction};
  while (!work.empty()) {
    Instruction* current = work.back();
    work.pop_back();
    const Info* info = InfoOf(current);
    if (info == nullptr) continue;
    const Layout chosen = current->shape().layout();
    for (int64_t k = 0; k < current->operand_count(); ++k) {
      if (!SharesLayout(info->rule, *current, k, RequirementOf(*info))) {
        continue;
      }
      Instruction* operand = current->operand(k);
      if (IsPending(operand)) {
        Decide(operand, chosen);
        work.push_back(operand);
      } else if (info->rule == Rule::kElementwise &&
                 operand->shape().layout() != chosen) {
        absl::Status status = RequireLayout(current, k, chosen);
        if (!status.ok()) return status;
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const Shape*> ComputationAssigner::Decided(
    Instruction* instruction) {
  if (IsPending(instruction)) {
    absl::Status status =
        Resolve(instruction, Layout::Default(instruction->shape().rank()));
    if (!status.ok()) return status;
  }
  return &instruction->shape();
}

absl::Status ComputationAssigner::RequireLayout(Instruction* user, int64_t k,
                                                const Layout& layout) {
  const Instruction* operand = user->operand(k);
  // The common case, without building a target shape.
  if (!IsPending(operand) && operand->shape().IsArray() &&
      operand->shape().has_layout() && operand->shape().layout() == layout) {
    return absl::OkStatus();
  }
  return Require(user, k, WithLayout(operand->shape(), layout));
}

absl::Status ComputationAssigner::Require(Instruction* user, int64_t k,
                                          const Shape& target) {
  Instruction* operand = user->operand(k);
  if (!operand->shape().Compatible(target)) {
    return Incompatible(*user, k, target);
  }
  if (IsPending(operand)) {
    absl::Status status = target.IsArray() && target.has_layout()
                              ? Resolve(operand, target.layout())
                              : Decided(operand).status();
    if (!status.ok()) return status;
  }
  if (LayoutsMatch(operand->shape(), target)) return absl::OkStatus();
  absl::StatusOr<Instruction*> converted = ConvertTo(operand, target, user);
  if (!converted.ok()) return converted.status();
  user->ReplaceOperandWith(k, *converted);
  return absl::OkStatus();
}

Instruction* ComputationAssigner::Insert(
    std::unique_ptr<Instruction> instruction, const Instruction* before) {
  module_.MarkChanged();
  if (before == nullptr) {
    return computation_->AddInstruction(std::move(instruction));
  }
  return computation_->AddInstructionBefore(std::move(instruction), before);
}

// One copy per (value, layout): later users needing the same layout share
// it. Tuples are taken apart, converted element by element, and rebuilt.
absl::StatusOr<Instruction*> ComputationAssigner::ConvertTo(
    Instruction* value, const Shape& target, const Instruction* before) {
  std::pair<const Instruction*, std::string> key(value, target.ToString());
  if (auto it = conversions_.find(key); it != conversions_.end()) {
    return it->second;
  }
  Shape shape = value->shape();
  Instruction* result = value;
  if (shape.IsArray()) {
    CopyLayouts(target, &shape);
    auto copy = std::make_unique<Instruction>(Opcode::kCopy, shape, "copy");
    copy->AppendOperand(value);
    result = Insert(std::move(copy), before);
  } else if (shape.IsTuple()) {
    std::vector<Instruction*> elements;
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      auto element = std::make_unique<Instruction>(
          Opcode::kGetTupleElement, shape.tuple_shape(i), "get-tuple-element");
      element->mutable_attrs()->Set(attr::kIndex, static_cast<int64_t>(i));
      element->AppendOperand(value);
      Instruction* part = Insert(std::move(element), before);
      if (!LayoutsMatch(part->shape(), target.tuple_shape(i))) {
        absl::StatusOr<Instruction*> converted =
            ConvertTo(part, target.tuple_shape(i), before);
        if (!converted.ok()) return converted.status();
        part = *converted;
      }
      (*shape.mutable_tuple_shapes())[i] = part->shape();
      elements.push_back(part);
    }
    auto tuple = std::make_unique<Instruction>(Opcode::kTuple, shape, "tuple");
    for (Instruction* element : elements) tuple->AppendOperand(element);
    result = Insert(std::move(tuple), before);
  }
  conversions_[key] = result;
  return result;
}

absl::Status ComputationAssigner::ProcessCall(Instruction* instruction,
                                              const Info& info,
                                              absl::string_view attr) {
  Computation* const* found = instruction->attrs().Get<Computation*>(attr);
  Computation* callee = found == nullptr ? nullptr : *found;
  if (callee == nullptr || static_cast<int64_t>(callee->parameters().size()) !=
                               instruction->operand_count()) {
    return PassError(absl::StrCat(instruction->name(),
                                  " must call a computation with one parameter "
                                  "per operand (structure.call_signature)"));
  }
  const Interface* interface = module_.Assigned(callee);
  if (interface == nullptr) {
    Request request;
    for (Instruction* operand : instruction->operands()) {
      absl::StatusOr<const Shape*> shape = Decided(operand);
      if (!shape.ok()) return shape.status();
      request.parameters.push_back(**shape);
    }
    request.preferred_root = PreferredShape(*instruction, info);
    return WaitFor(callee, std::move(request));
  }
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    absl::Status status = Require(instruction, k, interface->parameters[k]);
    if (!status.ok()) return status;
  }
  if (!interface->result.Compatible(instruction->shape())) {
    return PassError(absl::StrCat(
        instruction->name(), " returns ", instruction->shape().ToString(false),
        " but ", callee->name(), " returns ", interface->result.ToString(false),
        " (structure.call_signature)"));
  }
  CopyLayouts(interface->result, instruction->mutable_shape());
  return absl::OkStatus();
}

absl::Status ComputationAssigner::ProcessWhile(Instruction* instruction) {
  Computation* const* body_attr =
      instruction->attrs().Get<Computation*>(attr::kBody);
  Computation* const* condition_attr =
      instruction->attrs().Get<Computation*>(attr::kCondition);
  if (body_attr == nullptr || condition_attr == nullptr ||
      instruction->operand_count() != 1 ||
      (*body_attr)->parameters().size() != 1 ||
      (*condition_attr)->parameters().size() != 1) {
    return PassError(absl::StrCat(
        instruction->name(),
        " must be a while with one operand and one-"
        "parameter body and condition (structure.call_signature)"));
  }
  Computation* body = *body_attr;
  Computation* condition = *condition_attr;
  absl::StatusOr<const Shape*> init = Decided(instruction->operand(0));
  if (!init.ok()) return init.status();
  const Interface* assigned = module_.Assigned(body);
  if (assigned != nullptr && !AssignedForCurrent(body) &&
      !LayoutsMatch(assigned->result, assigned->parameters[0])) {
    absl::StatusOr<Computation*> clone = module_.Clone(body);
    if (!clone.ok()) return clone.status();
    body = *clone;
    instruction->mutable_attrs()->Set(attr::kBody, body);
    assigned = nullptr;
  }
  if (assigned == nullptr) {
    Request request;
    request.parameters = {**init};
    request.required_root = **init;
    return WaitFor(body, std::move(request));
  }
  const Shape state = assigned->parameters[0];
  const Interface* checked = module_.Assigned(condition);
  if (checked != nullptr && !AssignedForCurrent(condition) &&
      !LayoutsMatch(checked->parameters[0], state)) {
    absl::StatusOr<Computation*> clone = module_.Clone(condition);
    if (!clone.ok()) return clone.status();
    condition = *clone;
    instruction->mutable_attrs()->Set(attr::kCondition, condition);
    checked = nullptr;
  }
  if (checked == nullptr) {
    Request request = KeepInterfaceRequest(*condition);
    request.parameters = {state};
    return WaitFor(condition, std::move(request));
  }
  absl::Status status = Require(instruction, 0, state);
  if (!status.ok()) return status;
  CopyLayouts(state, instruction->mutable_shape());
  return absl::OkStatus();
}

absl::Status ComputationAssigner::ProcessConditional(Instruction* instruction,
                                                     const Info& info) {
  std::vector<Computation*> branches;
  const bool listed = instruction->attrs().Has(attr::kBranchComputations);
  if (listed) {
    branches =
        *instruction->attrs().Get<ComputationList>(attr::kBranchComputations);
  } else {
    for (const char* name : {"true_computation", "false_computation"}) {
      Computation* const* branch = instruction->attrs().Get<Computation*>(name);
      if (branch != nullptr) branches.push_back(*branch);
    }
  }
  if (static_cast<int64_t>(branches.size()) + 1 !=
      instruction->operand_count()) {
    return PassError(absl::StrCat(instruction->name(),
                                  " needs one operand per branch "
                                  "(structure.call_signature)"));
  }
  std::optional<Shape> result;
  for (size_t i = 0; i < branches.size(); ++i) {
    Computation* branch = branches[i];
    if (branch->parameters().size() != 1) {
      return PassError(absl::StrCat("branch ", branch->name(), " of ",
                                    instruction->name(),
                                    " must have one parameter "
                                    "(structure.call_signature)"));
    }
    const Interface* assigned = module_.Assigned(branch);
    if (assigned != nullptr && !AssignedForCurrent(branch) &&
        result.has_value() && !LayoutsMatch(assigned->result, *result)) {
      absl::StatusOr<Computation*> clone = module_.Clone(branch);
      if (!clone.ok()) return clone.status();
      branch = branches[i] = *clone;
      if (listed) {
        instruction->mutable_attrs()->Set(attr::kBranchComputations, branches);
      } else {
        instruction->mutable_attrs()->Set(
            i == 0 ? "true_computation" : "false_computation", branch);
      }
      assigned = nullptr;
    }
    if (assigned == nullptr) {
      absl::StatusOr<const Shape*> operand =
          Decided(instruction->operand(i + 1));
      if (!operand.ok()) return operand.status();
      Request request;
      request.parameters = {**operand};
      if (result.has_value()) {
        request.required_root = *result;
      } else {
        request.preferred_root = PreferredShape(*instruction, info);
      }
      return WaitFor(branch, std::move(request));
    }
    if (!result.has_value()) result = assigned->result;
    absl::Status status = Require(instruction, i + 1, assigned->parameters[0]);
    if (!status.ok()) return status;
  }
  if (result.has_value()) CopyLayouts(*result, instruction->mutable_shape());
  instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  return absl::OkStatus();
}

absl::Status ComputationAssigner::FinishRoot() {
  Instruction* root = computation_->root();
  if (root == nullptr) return absl::OkStatus();
  if (!request_.required_root.has_value()) return Decided(root).status();
  const Shape& required = *request_.required_root;
  if (!required.Compatible(root->shape())) {
    return PassError(absl::StrCat("the root of ", computation_->name(), " is ",
                                  root->shape().ToString(false),
                                  " but must be ", required.ToString(false),
                                  " (structure.call_signature)"));
  }
  absl::Status status = IsPending(root) && required.has_layout()
                            ? Resolve(root, required.layout())
                            : Decided(root).status();
  if (!status.ok()) return status;
  if (LayoutsMatch(root->shape(), required)) return absl::OkStatus();
  // A root tuple nobody else reads: fix its elements in place.
  if (root->opcode() == Opcode::kTuple && root->user_count() == 0 &&
      root->operand_count() == required.tuple_size()) {
    for (int64_t k = 0; k < root->operand_count(); ++k) {
      status = Require(root, k, required.tuple_shape(k));
      if (!status.ok()) return status;
      CopyLayouts(root->operand(k)->shape(),
                  &(*root->mutable_shape()->mutable_tuple_shapes())[k]);
    }
    return absl::OkStatus();
  }
  absl::StatusOr<Instruction*> converted = ConvertTo(root, required, nullptr);
  if (!converted.ok()) return converted.status();
  computation_->set_root(*converted);
  return absl::OkStatus();
}

absl::Status ComputationAssigner::ResolveRemaining() {
  for (size_t i = post_order_.size(); i-- > 0;) {
    if (!infos_[i].pending) continue;
    Instruction* instruction = post_order_[i];
    absl::Status status =
        Resolve(instruction, Layout::Default(instruction->shape().rank()));
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

void ComputationAssigner::NoteChanges() {
  for (size_t i = 0; i < post_order_.size(); ++i) {
    Instruction* instruction = post_order_[i];
    instruction->mutable_shape()->SetDefaultLayoutIfMissing();
    if (ChangedFromOriginal(*instruction, infos_[i])) {
      module_.MarkChanged();
      return;
    }
  }
}

// Reshapes and transposes that keep every element where it is in memory
// become bitcasts (static shapes with plain layouts only).
absl::Status ComputationAssigner::RewriteBitcasts() {
  for (size_t i = 0; i < post_order_.size(); ++i) {
    const Rule rule = infos_[i].rule;
    if (rule != Rule::kReshape && rule != Rule::kTranspose) continue;
    Instruction* instruction = post_order_[i];
    const Shape& operand = instruction->operand(0)->shape();
    const Shape& shape = instruction->shape();
    if (!operand.is_static() || !shape.is_static() ||
        !layout_util::HasOnlyPlainLayouts(operand) ||
        !layout_util::HasOnlyPlainLayouts(shape)) {
      continue;
    }
    const bool is_bitcast =
        rule == Rule::kReshape
            ? layout_util::IsReshapeBitcast(operand, shape)
            : layout_util::IsTransposeBitcast(
                  operand, shape, TransposePermutation(*instruction));
    if (!is_bitcast) continue;
    auto bitcast =
        std::make_unique<Instruction>(Opcode::kBitcast, shape, "bitcast");
    bitcast->AppendOperand(instruction->operand(0));
    bitcast->metadata = instruction->metadata;
    bitcast->sharding = instruction->sharding;
    bitcast->frontend_attributes = instruction->frontend_attributes;
    bitcast->location = instruction->location;
    Instruction* added = Insert(std::move(bitcast), instruction);
    absl::Status status = computation_->ReplaceInstruction(instruction, added);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace layout_internal
}  // namespace kiln
