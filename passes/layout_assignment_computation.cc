// The per-computation part of layout-assignment: the backward preference
// sweep, the forward assignment with deferred free producers and copy
// insertion, the root requirement, and the bitcast rewrite.
#include "passes/layout_assignment_computation.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "passes/layout_assignment_util.h"

namespace kiln {
namespace layout_internal {

// Copies the layouts of `from`'s array leaves onto `to` (same structure);
// leaves of `from` without a layout leave `to` alone.
void CopyLayouts(const Shape& from, Shape* to) {
  if (from.IsTuple() && to->IsTuple() &&
      from.tuple_size() == to->tuple_size()) {
    for (int64_t i = 0; i < from.tuple_size(); ++i) {
      CopyLayouts(from.tuple_shape(i), &(*to->mutable_tuple_shapes())[i]);
    }
    return;
  }
  if (from.IsArray() && to->IsArray() && from.has_layout() &&
      from.rank() == to->rank()) {
    to->set_layout(from.layout());
  }
}

// Fills the array leaves of `to` that have no layout from `from`.
void MergeLayouts(const Shape& from, Shape* to) {
  if (from.IsTuple() && to->IsTuple() &&
      from.tuple_size() == to->tuple_size()) {
    for (int64_t i = 0; i < from.tuple_size(); ++i) {
      MergeLayouts(from.tuple_shape(i), &(*to->mutable_tuple_shapes())[i]);
    }
    return;
  }
  if (from.IsArray() && to->IsArray() && from.has_layout() &&
      !to->has_layout() && from.rank() == to->rank()) {
    to->set_layout(from.layout());
  }
}

// Whether `actual` has `target`'s layout at every array leaf where
// `target` has one.
bool LayoutsMatch(const Shape& actual, const Shape& target) {
  if (actual.IsTuple() && target.IsTuple()) {
    if (actual.tuple_size() != target.tuple_size()) return false;
    for (int64_t i = 0; i < actual.tuple_size(); ++i) {
      if (!LayoutsMatch(actual.tuple_shape(i), target.tuple_shape(i))) {
        return false;
      }
    }
    return true;
  }
  if (!target.IsArray() || !target.has_layout()) return true;
  return actual.has_layout() && actual.layout() == target.layout();
}

Shape WithLayout(Shape shape, const Layout& layout) {
  shape.set_layout(layout);
  return shape;
}

void MergeLayout(const Layout& layout, Shape* to) {
  if (to->IsArray() && !to->has_layout() &&
      static_cast<int64_t>(layout.minor_to_major().size()) == to->rank()) {
    to->set_layout(layout);
  }
}

bool SameDimensions(const Shape& a, const Shape& b) {
  return a.IsArray() && b.IsArray() && a.dimensions() == b.dimensions() &&
         a.dynamic_dimensions() == b.dynamic_dimensions();
}

namespace {

// The candidate most of `candidates` equal; ties go to the earliest.
// Elementwise ops have a handful of operands; `map` may have many, so
// long lists are counted through a hash map.
const Layout* MostCommon(const std::vector<const Layout*>& candidates) {
  const Layout* best = candidates.front();
  int64_t best_votes = 0;
  if (candidates.size() <= 8) {
    for (const Layout* candidate : candidates) {
      int64_t votes = 0;
      for (const Layout* other : candidates) votes += *other == *candidate;
      if (votes > best_votes) {
        best_votes = votes;
        best = candidate;
      }
    }
    return best;
  }
  absl::flat_hash_map<std::vector<int64_t>, int64_t> votes;
  for (const Layout* candidate : candidates) {
    ++votes[candidate->minor_to_major()];
  }
  for (const Layout* candidate : candidates) {
    const int64_t count = votes[candidate->minor_to_major()];
    if (count > best_votes) {
      best_votes = count;
      best = candidate;
    }
  }
  return best;
}

}  // namespace

Info* ComputationAssigner::InfoOf(const Instruction* instruction) {
  auto it = info_.find(instruction);
  return it == info_.end() ? nullptr : &it->second;
}

bool ComputationAssigner::IsPending(const Instruction* instruction) const {
  auto it = info_.find(instruction);
  return it != info_.end() && it->second.pending;
}

const Layout* ComputationAssigner::Wanted(
    const Instruction& instruction) const {
  auto it = info_.find(&instruction);
  if (it == info_.end() || !instruction.shape().IsArray()) return nullptr;
  if (it->second.requirement.result.has_value()) {
    return &*it->second.requirement.result;
  }
  if (it->second.preferred.has_layout()) return &it->second.preferred.layout();
  return nullptr;
}

absl::Status ComputationAssigner::Run() {
  absl::Status status = Prepare();
  if (!status.ok()) return status;
  CollectPreferences();
  for (Instruction* instruction : post_order_) {
    status = Process(instruction);
    if (!status.ok()) return status;
  }
  status = FinishRoot();
  if (!status.ok()) return status;
  status = ResolveRemaining();
  if (!status.ok()) return status;
  NoteChanges();
  status = RewriteBitcasts();
  if (!status.ok()) return status;
  return computation_->RestoreDefinitionOrder();
}

absl::Status ComputationAssigner::Prepare() {
  if (request_.parameters.size() != computation_->parameters().size()) {
    return PassError(absl::StrCat(
        "computation ", computation_->name(), " has ",
        computation_->parameters().size(), " parameters but its caller passes ",
        request_.parameters.size(), " (structure.call_signature)"));
  }
  for (size_t i = 0; i < request_.parameters.size(); ++i) {
    if (!request_.parameters[i].Compatible(
            computation_->parameter(i)->shape())) {
      return PassError(absl::StrCat(
          "parameter ", i, " of ", computation_->name(), " is ",
          computation_->parameter(i)->shape().ToString(),
          " but its caller passes ", request_.parameters[i].ToString(),
          " (structure.call_signature)"));
    }
  }
  absl::StatusOr<std::vector<Instruction*>> order = computation_->PostOrder();
  if (!order.ok()) return order.status();
  post_order_ = *std::move(order);
  const LayoutConstraints* constraints = module_.constraints();
  // Operands come first in post order, so each shape is walked once.
  absl::flat_hash_map<const Instruction*, bool> plain;
  plain.reserve(post_order_.size());
  info_.reserve(post_order_.size());
  auto plain_layouts = [&](const Instruction* instruction) {
    auto it = plain.find(instruction);
    if (it != plain.end()) return it->second;
    return plain[instruction] =
               layout_util::HasOnlyPlainLayouts(instruction->shape());
  };
  for (Instruction* instruction : post_order_) {
    if (absl::Status valid = instruction->shape().Validate(); !valid.ok()) {
      return PassError(absl::StrCat("instruction ", instruction->name(),
                                    " has an invalid shape: ", valid.message(),
                                    " (shape.valid)"));
    }
    absl::StatusOr<Rule> rule = RuleOf(*instruction, plain_layouts);
    if (!rule.ok()) return rule.status();
    Info& info = info_[instruction];
    info.rule = *rule;
    info.original = instruction->shape();
    info.original.SetDefaultLayoutIfMissing();
    info.preferred = instruction->shape();
    info.preferred.clear_layout();
    if (constraints != nullptr && info.rule != Rule::kFixed) {
      info.requirement = constraints->Requirement(*instruction);
      absl::Status checked = CheckRequirement(*instruction, info.requirement);
      if (!checked.ok()) return checked;
    }
  }
  return absl::OkStatus();
}

absl::Status ComputationAssigner::CheckRequirement(
    const Instruction& instruction,
    const LayoutRequirement& requirement) const {
  auto check = [&](const Shape& shape, const std::optional<Layout>& layout,
                   const std::string& what) -> absl::Status {
    if (!layout.has_value()) return absl::OkStatus();
    if (shape.IsArray() &&
        layout_util::IsPlainPermutation(*layout, shape.rank())) {
      return absl::OkStatus();
    }
    return PassError(absl::StrCat(
        "backend '", module_.constraints()->name(), "' requires layout {",
        layout->ToString(), "} for ", what, " of ",
        OpcodeName(instruction.opcode()), " ", instruction.name(),
        ", which is ", shape.ToString(false), " (layout constraint)"));
  };
  if (requirement.operands.size() >
      static_cast<size_t>(instruction.operand_count())) {
    return PassError(absl::StrCat("backend '", module_.constraints()->name(),
                                  "' constrains more operands than ",
                                  instruction.name(), " has"));
  }
  for (size_t k = 0; k < requirement.operands.size(); ++k) {
    absl::Status status =
        check(instruction.operand(k)->shape(), requirement.operands[k],
              absl::StrCat("operand ", k));
    if (!status.ok()) return status;
  }
  return check(instruction.shape(), requirement.result, "the result");
}

// --- Backward sweep: preferences ---

void ComputationAssigner::CollectPreferences() {
  if (Info* root = InfoOf(computation_->root())) {
    if (request_.required_root.has_value()) {
      MergeLayouts(*request_.required_root, &root->preferred);
    } else if (request_.preferred_root.has_value()) {
      MergeLayouts(*request_.preferred_root, &root->preferred);
    }
  }
  for (auto it = post_order_.rbegin(); it != post_order_.rend(); ++it) {
    PushDemands(**it);
  }
}

// Users come before operands in this sweep, so `user`'s own preference is
// complete: pass it on to each operand.
void ComputationAssigner::PushDemands(const Instruction& user) {
  for (int64_t k = 0; k < user.operand_count(); ++k) {
    Info* operand = InfoOf(user.operand(k));
    if (operand != nullptr) Demand(user, k, &operand->preferred);
  }
}

void ComputationAssigner::Demand(const Instruction& user, int64_t k,
                                 Shape* target) {
  const Info& info = info_.at(&user);
  const Instruction& operand = *user.operand(k);
  if (info.rule == Rule::kFixed) {
    MergeLayouts(info_.at(&operand).original, target);
    return;
  }
  if (k < static_cast<int64_t>(info.requirement.operands.size()) &&
      info.requirement.operands[k].has_value()) {
    MergeLayout(*info.requirement.operands[k], target);
    return;
  }
  const Layout* wanted = Wanted(user);
  switch (info.rule) {
    case Rule::kElementwise:
      if (wanted && SameDimensions(operand.shape(), user.shape())) {
        MergeLayout(*wanted, target);
      }
      return;
    case Rule::kTranspose:
      if (wanted) {
        MergeLayout(layout_util::TransposeOperandLayoutFor(
                        *wanted, TransposePermutation(user)),
                    target);
      }
      return;
    case Rule::kReshape:
      if (wanted) {
        std::optional<Layout> layout = layout_util::ReshapeBitcastLayout(
            WithLayout(user.shape(), *wanted), operand.shape().dimensions());
        if (layout) MergeLayout(*layout, target);
      }
      return;
    case Rule::kTuple:
      if (k < info.preferred.tuple_size()) {
        MergeLayouts(info.preferred.tuple_shape(k), target);
      }
      return;
    case Rule::kGetTupleElement: {
      const int64_t index = TupleIndex(user);
      if (target->IsTuple() && index < target->tuple_size()) {
        MergeLayouts(info.preferred, &(*target->mutable_tuple_shapes())[index]);
      }
      return;
    }
    case Rule::kPassThrough:
      if (k == 0) MergeLayouts(info.preferred, target);
      return;
    default:
      return;
  }
}

// --- Forward sweep ---

void ComputationAssigner::Decide(Instruction* instruction,
                                 const Layout& layout) {
  instruction->mutable_shape()->set_layout(layout);
  if (Info* info = InfoOf(instruction)) info->pending = false;
}

void ComputationAssigner::FillFromPreference(Instruction* instruction) {
  const Info& info = info_.at(instruction);
  Shape* shape = instruction->mutable_shape();
  if (info.requirement.result.has_value() && shape->IsArray()) {
    shape->set_layout(*info.requirement.result);
    return;
  }
  shape->clear_layout();
  CopyLayouts(info.preferred, shape);
  shape->SetDefaultLayoutIfMissing();
}

absl::Status ComputationAssigner::Process(Instruction* instruction) {
  Info& info = info_.at(instruction);
  // Backend operand constraints first, so that the rules below see the
  // operands as the backend will have them.
  for (size_t k = 0; k < info.requirement.operands.size(); ++k) {
    if (!info.requirement.operands[k].has_value()) continue;
    absl::Status status =
        RequireLayout(instruction, k, *info.requirement.operands[k]);
    if (!status.ok()) return status;
  }
  switch (info.rule) {
    case Rule::kParameter: {
      const int64_t number = instruction->parameter_number();
      if (number < 0 ||
          number >= static_cast<int64_t>(request_.parameters.size()) ||
          computation_->parameter(number) != instruction) {
        return PassError(absl::StrCat(
            "parameter ", instruction->name(), " is not parameter ", number,
            " of ", computation_->name(), " (structure.parameters)"));
      }
      CopyLayouts(request_.parameters[number], instruction->mutable_shape());
      instruction->mutable_shape()->SetDefaultLayoutIfMissing();
      return absl::OkStatus();
    }
    case Rule::kFixed:
      instruction->mutable_shape()->SetDefaultLayoutIfMissing();
      for (int64_t k = 0; k < instruction->operand_count(); ++k) {
        const Info* operand = InfoOf(instruction->operand(k));
        if (operand == nullptr) continue;
        absl::Status status = Require(instruction, k, operand->original);
        if (!status.ok()) return status;
      }
      return absl::OkStatus();
    case Rule::kElementwise:
      return ProcessElementwise(instruction);
    case Rule::kCopy:
    case Rule::kFollow:
    case Rule::kSource:
      return ProcessDeferrable(instruction);
    case Rule::kTranspose:
      return ProcessTranspose(instruction);
    case Rule::kReshape:
      return ProcessReshape(instruction);
    case Rule::kReduce:
      return ProcessReduce(instruction);
    case Rule::kTuple:
      for (int64_t k = 0; k < instruction->operand_count(); ++k) {
        absl::StatusOr<const Shape*> operand = Decided(instruction->operand(k));
        if (!operand.ok()) return operand.status();
        CopyLayouts(
            **operand,
            &(*instruction->mutable_shape()->mutable_tuple_shapes())[k]);
      }
      return absl::OkStatus();
    case Rule::kGetTupleElement:
    case Rule::kPassThrough: {
      absl::StatusOr<const Shape*> operand = Decided(instruction->operand(0));
      if (!operand.ok()) return operand.status();
      if (info.rule == Rule::kGetTupleElement) {
        CopyLayouts((*operand)->tuple_shape(TupleIndex(*instruction)),
                    instruction->mutable_shape());
      } else {
        CopyLayouts(**operand, instruction->mutable_shape());
      }
      instruction->mutable_shape()->SetDefaultLayoutIfMissing();
      return absl::OkStatus();
    }
    case Rule::kCall:
      return ProcessCall(instruction, "to_apply");
    case Rule::kFusion:
      return ProcessCall(instruction, "calls");
    case Rule::kWhile:
      return ProcessWhile(instruction);
    case Rule::kConditional:
      return ProcessConditional(instruction);
    case Rule::kGeneric:
      FillFromPreference(instruction);
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

// Elementwise ops: the result and every operand of the same dimensions
// share one layout, the one most of them (and the users' preference)
// already have; ties go to the preference, then to the earlier operand.
absl::Status ComputationAssigner::ProcessElementwise(Instruction* instruction) {
  const Info& info = info_.at(instruction);
  const Shape& shape = instruction->shape();
  auto constrained = [&](int64_t k) {
    return k < static_cast<int64_t>(info.requirement.operands.size()) &&
           info.requirement.operands[k].has_value();
  };
  // Candidates point into info_ and operand shapes, both stable here.
  std::vector<const Layout*> candidates;
  if (const Layout* wanted = Wanted(*instruction)) candidates.push_back(wanted);
  if (!info.requirement.result.has_value()) {
    for (int64_t k = 0; k < instruction->operand_count(); ++k) {
      const Instruction* operand = instruction->operand(k);
      if (constrained(k) || IsPending(operand) ||
          !SameDimensions(operand->shape(), shape)) {
        continue;
      }
      candidates.push_back(&operand->shape().layout());
    }
  }
  if (candidates.empty()) {
    if (shape.rank() >= 2) {
      info_.at(instruction).pending = true;
      return absl::OkStatus();
    }
    Decide(instruction, Layout::Default(shape.rank()));
    return absl::OkStatus();  // Rank <= 1: one layout, nothing to copy.
  }
  const Layout chosen = *MostCommon(candidates);
  Decide(instruction, chosen);
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    if (constrained(k) ||
        !SameDimensions(instruction->operand(k)->shape(), shape)) {
      continue;
    }
    absl::Status status = RequireLayout(instruction, k, chosen);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// copy, the layout followers (slice, pad, concatenate, ...) and the free
// producers (constant, iota, broadcast, rng): the preference if any; else a
// copy keeps the layout it has (a copy is how layouts change on purpose,
// and keeping it makes a second run find nothing to do), a follower takes
// the first decided same-rank operand's layout, and the rest wait.
absl::Status ComputationAssigner::ProcessDeferrable(Instruction* instruction) {
  Info& info = info_.at(instruction);
  const Shape& shape = instruction->shape();
  if (!shape.IsArray()) {
    FillFromPreference(instruction);
    return absl::OkStatus();
  }
  std::optional<Layout> chosen;
  if (const Layout* wanted = Wanted(*instruction)) chosen = *wanted;
  if (!chosen && info.rule == Rule::kCopy) chosen = info.original.layout();
  if (!chosen && info.rule == Rule::kFollow) {
    for (const Instruction* operand : instruction->operands()) {
      if (operand->shape().IsArray() &&
          operand->shape().rank() == shape.rank() && !IsPending(operand)) {
        chosen = operand->shape().layout();
        break;
      }
    }
  }
  if (!chosen) {
    if (shape.rank() >= 2) {
      info.pending = true;
      return absl::OkStatus();
    }
    chosen = Layout::Default(shape.rank());
  }
  instruction->mutable_shape()->set_layout(*chosen);
  info.pending = true;  // Resolve() passes the layout on to pending operands.
  return Resolve(instruction, *chosen);
}

absl::Status ComputationAssigner::ProcessTranspose(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  const std::vector<int64_t>& permutation = TransposePermutation(*instruction);
  const Layout* wanted = Wanted(*instruction);
  if (IsPending(operand)) {
    absl::Status status = Resolve(
        operand,
        wanted ? layout_util::TransposeOperandLayoutFor(*wanted, permutation)
               : Layout::Default(operand->shape().rank()));
    if (!status.ok()) return status;
  }
  Decide(instruction, wanted ? *wanted
                             : layout_util::TransposeResultLayoutFor(
                                   operand->shape().layout(), permutation));
  return absl::OkStatus();
}

absl::Status ComputationAssigner::ProcessReshape(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  const Shape& shape = instruction->shape();
  const Layout* wanted = Wanted(*instruction);
  if (IsPending(operand)) {
    std::optional<Layout> layout;
    if (wanted) {
      layout = layout_util::ReshapeBitcastLayout(WithLayout(shape, *wanted),
                                                 operand->shape().dimensions());
    }
    absl::Status status = Resolve(
        operand, layout ? *layout : Layout::Default(operand->shape().rank()));
    if (!status.ok()) return status;
  }
  if (wanted) {
    Decide(instruction, *wanted);
    return absl::OkStatus();
  }
  std::optional<Layout> aligned =
      layout_util::ReshapeBitcastLayout(operand->shape(), shape.dimensions());
  Decide(instruction, aligned ? *aligned : Layout::Default(shape.rank()));
  return absl::OkStatus();
}

// reduce: each result keeps the order of the operand's kept dimensions.
absl::Status ComputationAssigner::ProcessReduce(Instruction* instruction) {
  Instruction* operand = instruction->operand(0);
  absl::StatusOr<const Shape*> decided = Decided(operand);
  if (!decided.ok()) return decided.status();
  const std::vector<int64_t>* reduced =
      instruction->attrs().Get<std::vector<int64_t>>("dimensions");
  std::vector<int64_t> renumber(operand->shape().rank(), -1);
  int64_t next = 0;
  for (int64_t d = 0; d < operand->shape().rank(); ++d) {
    if (reduced == nullptr ||
        std::find(reduced->begin(), reduced->end(), d) == reduced->end()) {
      renumber[d] = next++;
    }
  }
  std::vector<int64_t> order;
  for (int64_t d : layout_util::MajorToMinor(operand->shape().layout())) {
    if (renumber[d] >= 0) order.push_back(renumber[d]);
  }
  const Layout derived = layout_util::FromMajorToMinor(std::move(order));
  FillFromPreference(instruction);
  const Info& info = info_.at(instruction);
  auto apply = [&](Shape* leaf, const Shape& preferred) {
    if (leaf->IsArray() && leaf->rank() == next && !preferred.has_layout()) {
      leaf->set_layout(derived);
    }
  };
  Shape* shape = instruction->mutable_shape();
  if (shape->IsTuple()) {
    for (int64_t i = 0; i < shape->tuple_size(); ++i) {
      apply(&(*shape->mutable_tuple_shapes())[i],
            info.preferred.tuple_shape(i));
    }
  } else if (!info.requirement.result.has_value()) {
    apply(shape, info.preferred);
  }
  return absl::OkStatus();
}

}  // namespace layout_internal
}  // namespace kiln
