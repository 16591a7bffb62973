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
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "compiler/ir/attr_names.h"
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
const Layout* MostCommon(absl::Span<const Layout* const> candidates) {
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
  auto it = index_.find(instruction);
  return it == index_.end() ? nullptr : &infos_[it->second];
}

const Info* ComputationAssigner::InfoOf(const Instruction* instruction) const {
  auto it = index_.find(instruction);
  return it == index_.end() ? nullptr : &infos_[it->second];
}

bool ComputationAssigner::IsPending(const Instruction* instruction) const {
  const Info* info = InfoOf(instruction);
  return info != nullptr && info->pending;
}

void ComputationAssigner::RecordOriginal(const Shape& shape, Info& info) {
  if (shape.IsArray() && !shape.has_layout()) {
    info.original = static_cast<int32_t>(original_layouts_.size());
    for (int64_t d = shape.rank() - 1; d >= 0; --d) {
      original_layouts_.push_back(d);  // Layout::Default's order.
    }
    return;
  }
  if (shape.IsArray() && shape.layout().HasOnlyMinorToMajor() &&
      static_cast<int64_t>(shape.layout().minor_to_major().size()) ==
          shape.rank()) {
    info.original = static_cast<int32_t>(original_layouts_.size());
    const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
    original_layouts_.insert(original_layouts_.end(), m2m.begin(), m2m.end());
    return;
  }
  info.original_is_shape = true;
  info.original = static_cast<int32_t>(original_shapes_.size());
  original_shapes_.push_back(shape);
  original_shapes_.back().SetDefaultLayoutIfMissing();
}

// Dimensions and element types never change in this pass, so the current
// shape with the recorded layout is the original.
Shape ComputationAssigner::OriginalShape(const Instruction& instruction,
                                         const Info& info) const {
  if (info.original_is_shape) return original_shapes_[info.original];
  return WithLayout(instruction.shape(), OriginalLayout(instruction, info));
}

Layout ComputationAssigner::OriginalLayout(const Instruction& instruction,
                                           const Info& info) const {
  if (info.original_is_shape) return original_shapes_[info.original].layout();
  // Only arrays are recorded in original_layouts_; their rank is the length.
  const int64_t rank = instruction.shape().rank();
  const auto begin = original_layouts_.begin() + info.original;
  return Layout(std::vector<int64_t>(begin, begin + rank));
}

bool ComputationAssigner::ChangedFromOriginal(const Instruction& instruction,
                                              const Info& info) const {
  const Shape& shape = instruction.shape();
  if (info.original_is_shape) return shape != original_shapes_[info.original];
  // What Shape::operator== would say against the plain recorded layout.
  if (!shape.has_layout() || !shape.layout().HasOnlyMinorToMajor()) {
    return true;
  }
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
  return static_cast<int64_t>(m2m.size()) != shape.rank() ||
         !std::equal(m2m.begin(), m2m.end(),
                     original_layouts_.begin() + info.original);
}

const LayoutRequirement& ComputationAssigner::RequirementOf(
    const Info& info) const {
  static const LayoutRequirement* const kNone = new LayoutRequirement();
  return info.requirement < 0 ? *kNone : requirements_[info.requirement];
}

const Layout* ComputationAssigner::Wanted(const Instruction& instruction,
                                          const Info& info) const {
  if (!instruction.shape().IsArray()) return nullptr;
  const LayoutRequirement& requirement = RequirementOf(info);
  if (requirement.result.has_value()) return &*requirement.result;
  if (info.preferred != nullptr && info.preferred->has_layout()) {
    return &info.preferred->layout();
  }
  return nullptr;
}

Shape ComputationAssigner::PreferredShape(const Instruction& instruction,
                                          const Info& info) {
  if (info.preferred != nullptr) return *info.preferred;
  Shape shape = instruction.shape();
  shape.clear_layout();
  return shape;
}

Shape* ComputationAssigner::MutablePreferred(const Instruction& instruction,
                                             Info& info) {
  if (info.preferred == nullptr) {
    info.preferred = std::make_unique<Shape>(PreferredShape(instruction, info));
  }
  return info.preferred.get();
}

absl::StatusOr<bool> ComputationAssigner::Resume() {
  if (!prepared_) {
    absl::Status status = Prepare();
    if (!status.ok()) return status;
    CollectPreferences();
    prepared_ = true;
  }
  if (wait_.has_value()) {
    return absl::InternalError("layout-assignment: resumed while waiting");
  }
  for (; next_ < post_order_.size(); ++next_) {
    absl::Status status = Process(post_order_[next_], infos_[next_]);
    if (!status.ok()) return status;
    // Process re-runs this instruction once the callee is assigned.
    if (wait_.has_value()) {
      assigned_for_current_.insert(wait_->callee);
      return false;
    }
    assigned_for_current_.clear();
  }
  absl::Status status = Finish();
  if (!status.ok()) return status;
  return true;
}

absl::Status ComputationAssigner::WaitFor(Computation* callee,
                                          Request request) {
  wait_ = Wait{callee, std::move(request)};
  return absl::OkStatus();
}

absl::Status ComputationAssigner::Finish() {
  absl::Status status = FinishRoot();
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
  infos_.resize(post_order_.size());
  index_.reserve(post_order_.size());
  original_layouts_.reserve(2 * post_order_.size());
  // Operands come first in post order, so each operand's Info (and its
  // memoized plainness) is filled before its users look at it.
  for (size_t i = 0; i < post_order_.size(); ++i) {
    index_.emplace(post_order_[i], static_cast<int32_t>(i));
    absl::Status status = PrepareInstruction(post_order_[i], infos_[i]);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ComputationAssigner::PrepareInstruction(Instruction* instruction,
                                                     Info& info) {
  const Shape& shape = instruction->shape();
  if (absl::Status valid = shape.Validate(); !valid.ok()) {
    return PassError(absl::StrCat("instruction ", instruction->name(),
                                  " has an invalid shape: ", valid.message(),
                                  " (shape.valid)"));
  }
  info.plain = layout_util::HasOnlyPlainLayouts(shape);
  // An array is checked directly (cheap); a tuple's answer is memoized.
  auto plain_layouts = [&](const Instruction* of) {
    if (of == instruction) return info.plain;
    if (of->shape().IsArray()) {
      return layout_util::HasOnlyPlainLayouts(of->shape());
    }
    const Info* known = InfoOf(of);
    return known != nullptr ? known->plain
                            : layout_util::HasOnlyPlainLayouts(of->shape());
  };
  absl::StatusOr<Rule> rule = RuleOf(*instruction, plain_layouts);
  if (!rule.ok()) return rule.status();
  info.rule = *rule;
  RecordOriginal(shape, info);
  const LayoutConstraints* constraints = module_.constraints();
  if (constraints == nullptr || info.rule == Rule::kFixed) {
    return absl::OkStatus();
  }
  LayoutRequirement requirement = constraints->Requirement(*instruction);
  absl::Status checked = CheckRequirement(*instruction, requirement);
  if (!checked.ok()) return checked;
  // An empty requirement (no layout anywhere) constrains nothing.
  if (!requirement.empty()) {
    info.requirement = static_cast<int32_t>(requirements_.size());
    requirements_.push_back(std::move(requirement));
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
  Instruction* root = computation_->root();
  if (Info* info = InfoOf(root)) {
    if (request_.required_root.has_value()) {
      MergeLayouts(*request_.required_root, MutablePreferred(*root, *info));
    } else if (request_.preferred_root.has_value()) {
      MergeLayouts(*request_.preferred_root, MutablePreferred(*root, *info));
    }
  }
  for (size_t i = post_order_.size(); i-- > 0;) {
    PushDemands(*post_order_[i], infos_[i]);
  }
}

// Users come before operands in this sweep, so `user`'s own preference is
// complete: pass it on to each operand.
void ComputationAssigner::PushDemands(const Instruction& user,
                                      const Info& info) {
  for (int64_t k = 0; k < user.operand_count(); ++k) {
    Info* operand = InfoOf(user.operand(k));
    if (operand != nullptr) Demand(user, info, k, *operand);
  }
}

void ComputationAssigner::Demand(const Instruction& user, const Info& info,
                                 int64_t k, Info& operand_info) {
  const Instruction& operand = *user.operand(k);
  // Built only when something is merged in (see Info::preferred).
  auto target = [&] { return MutablePreferred(operand, operand_info); };
  if (info.rule == Rule::kFixed) {
    MergeLayouts(OriginalShape(operand, operand_info), target());
    return;
  }
  const LayoutRequirement& requirement = RequirementOf(info);
  if (k < static_cast<int64_t>(requirement.operands.size()) &&
      requirement.operands[k].has_value()) {
    MergeLayout(*requirement.operands[k], target());
    return;
  }
  const Layout* wanted = Wanted(user, info);
  // A user without a preference of its own has nothing to pass on.
  const Shape* preferred = info.preferred.get();
  switch (info.rule) {
    case Rule::kElementwise:
      if (wanted && SameDimensions(operand.shape(), user.shape())) {
        MergeLayout(*wanted, target());
      }
      return;
    case Rule::kTranspose:
      if (wanted) {
        MergeLayout(layout_util::TransposeOperandLayoutFor(
                        *wanted, TransposePermutation(user)),
                    target());
      }
      return;
    case Rule::kReshape:
      if (wanted) {
        std::optional<Layout> layout = layout_util::ReshapeBitcastLayout(
            WithLayout(user.shape(), *wanted), operand.shape().dimensions());
        if (layout) MergeLayout(*layout, target());
      }
      return;
    case Rule::kTuple:
      if (preferred != nullptr && k < preferred->tuple_size()) {
        MergeLayouts(preferred->tuple_shape(k), target());
      }
      return;
    case Rule::kGetTupleElement: {
      const int64_t index = TupleIndex(user);
      if (preferred != nullptr && operand.shape().IsTuple() &&
          index < operand.shape().tuple_size()) {
        MergeLayouts(*preferred, &(*target()->mutable_tuple_shapes())[index]);
      }
      return;
    }
    case Rule::kPassThrough:
      if (k == 0 && preferred != nullptr) MergeLayouts(*preferred, target());
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

void ComputationAssigner::FillFromPreference(Instruction* instruction,
                                             const Info& info) {
  Shape* shape = instruction->mutable_shape();
  const LayoutRequirement& requirement = RequirementOf(info);
  if (requirement.result.has_value() && shape->IsArray()) {
    shape->set_layout(*requirement.result);
    return;
  }
  shape->clear_layout();
  if (info.preferred != nullptr) CopyLayouts(*info.preferred, shape);
  shape->SetDefaultLayoutIfMissing();
}

absl::Status ComputationAssigner::Process(Instruction* instruction,
                                          Info& info) {
  // Backend operand constraints first, so that the rules below see the
  // operands as the backend will have them.
  const LayoutRequirement& requirement = RequirementOf(info);
  for (size_t k = 0; k < requirement.operands.size(); ++k) {
    if (!requirement.operands[k].has_value()) continue;
    absl::Status status =
        RequireLayout(instruction, k, *requirement.operands[k]);
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
        const Instruction* operand = instruction->operand(k);
        const Info* operand_info = InfoOf(operand);
        if (operand_info == nullptr) continue;
        absl::Status status =
            Require(instruction, k, OriginalShape(*operand, *operand_info));
        if (!status.ok()) return status;
      }
      return absl::OkStatus();
    case Rule::kElementwise:
      return ProcessElementwise(instruction, info);
    case Rule::kCopy:
    case Rule::kFollow:
    case Rule::kSource:
      return ProcessDeferrable(instruction, info);
    case Rule::kTranspose:
      return ProcessTranspose(instruction, info);
    case Rule::kReshape:
      return ProcessReshape(instruction, info);
    case Rule::kReduce:
      return ProcessReduce(instruction, info);
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
      return ProcessCall(instruction, info, "to_apply");
    case Rule::kFusion:
      return ProcessCall(instruction, info, "calls");
    case Rule::kWhile:
      return ProcessWhile(instruction);
    case Rule::kConditional:
      return ProcessConditional(instruction, info);
    case Rule::kGeneric:
      FillFromPreference(instruction, info);
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

// Elementwise ops: the result and every operand of the same dimensions
// share one layout, the one most of them (and the users' preference)
// already have; ties go to the preference, then to the earlier operand.
absl::Status ComputationAssigner::ProcessElementwise(Instruction* instruction,
                                                     Info& info) {
  const Shape& shape = instruction->shape();
  const LayoutRequirement& requirement = RequirementOf(info);
  auto constrained = [&](int64_t k) {
    return k < static_cast<int64_t>(requirement.operands.size()) &&
           requirement.operands[k].has_value();
  };
  // Candidates point into infos_, requirements_ and operand shapes, all
  // stable here. Inline storage: most elementwise ops have few operands,
  // and this runs once per instruction.
  absl::InlinedVector<const Layout*, 4> candidates;
  if (const Layout* wanted = Wanted(*instruction, info)) {
    candidates.push_back(wanted);
  }
  if (!requirement.result.has_value()) {
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
      info.pending = true;
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
absl::Status ComputationAssigner::ProcessDeferrable(Instruction* instruction,
                                                    Info& info) {
  const Shape& shape = instruction->shape();
  if (!shape.IsArray()) {
    FillFromPreference(instruction, info);
    return absl::OkStatus();
  }
  std::optional<Layout> chosen;
  if (const Layout* wanted = Wanted(*instruction, info)) chosen = *wanted;
  if (!chosen && info.rule == Rule::kCopy)
    chosen = OriginalLayout(*instruction, info);
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

absl::Status ComputationAssigner::ProcessTranspose(Instruction* instruction,
                                                   const Info& info) {
  Instruction* operand = instruction->operand(0);
  const std::vector<int64_t>& permutation = TransposePermutation(*instruction);
  const Layout* wanted = Wanted(*instruction, info);
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

absl::Status ComputationAssigner::ProcessReshape(Instruction* instruction,
                                                 const Info& info) {
  Instruction* operand = instruction->operand(0);
  const Shape& shape = instruction->shape();
  const Layout* wanted = Wanted(*instruction, info);
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
absl::Status ComputationAssigner::ProcessReduce(Instruction* instruction,
                                                const Info& info) {
  Instruction* operand = instruction->operand(0);
  absl::StatusOr<const Shape*> decided = Decided(operand);
  if (!decided.ok()) return decided.status();
  const std::vector<int64_t>* reduced =
      instruction->attrs().Get<std::vector<int64_t>>(attr::kDimensions);
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
  FillFromPreference(instruction, info);
  // A leaf is free when no preference names a layout for it.
  auto apply = [&](Shape* leaf, const Shape* preferred) {
    if (leaf->IsArray() && leaf->rank() == next &&
        (preferred == nullptr || !preferred->has_layout())) {
      leaf->set_layout(derived);
    }
  };
  const Shape* preferred = info.preferred.get();
  Shape* shape = instruction->mutable_shape();
  if (shape->IsTuple()) {
    for (int64_t i = 0; i < shape->tuple_size(); ++i) {
      apply(&(*shape->mutable_tuple_shapes())[i],
            preferred == nullptr ? nullptr : &preferred->tuple_shape(i));
    }
  } else if (!RequirementOf(info).result.has_value()) {
    apply(shape, preferred);
  }
  return absl::OkStatus();
}

}  // namespace layout_internal
}  // namespace kiln
