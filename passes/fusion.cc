#include "passes/fusion.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/attr_enums.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/fusion_plan.h"

namespace kiln {
namespace {

// Computations the pass fuses in: the entry and those called by while,
// conditional and call. Fused computations, reducers, comparators, async
// bodies and other applied computations are left alone.
std::vector<Computation*> ComputationsToFuse(const Module& module) {
  absl::flat_hash_set<const Computation*> excluded;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const Opcode opcode = instruction->opcode();
      if (opcode == Opcode::kWhile || opcode == Opcode::kConditional ||
          opcode == Opcode::kCall) {
        continue;
      }
      for (const Computation* callee : instruction->called_computations()) {
        excluded.insert(callee);
      }
    }
  }
  std::vector<Computation*> result;
  for (Computation* computation : module.computations()) {
    if (computation == module.entry() || !excluded.contains(computation)) {
      result.push_back(computation);
    }
  }
  return result;
}

// Moved members that the fused computation renamed on insertion -> the
// name they had in the computation.
using RenamedMembers = absl::flat_hash_map<const Instruction*, std::string>;

// Builds one fusion's computation (detached: it joins the module once the
// instructions it replaces are gone, so its members can keep their names)
// and the fusion instruction in `computation`. Members that leave the
// computation move into it (PlannedFusion::moved); the others, roots
// included, are cloned. The fusion reads the
// original instructions; ReplaceRoots, run once every fusion of the
// computation is built, then points the roots' users at the fusion, which
// also rewires fusions reading another fusion's roots.
class FusionBuilder {
 public:
  FusionBuilder(Computation* computation, const PlannedFusion& planned,
                RenamedMembers* renamed)
      : computation_(computation), planned_(planned), renamed_(renamed) {}

  std::unique_ptr<Computation> Build() {
    fused_ = std::make_unique<Computation>("fused_computation");
    for (Instruction* input : planned_.inputs) AddParameter(input);
    for (size_t i = 0; i < planned_.members.size(); ++i) {
      if (planned_.moved[i]) {
        MoveMember(planned_.members[i]);
      } else {
        CloneMember(*planned_.members[i]);
      }
    }
    Instruction* root = FusedRoot();
    fused_->set_root(root);
    fusion_ = AddFusionInstruction(root->shape());
    return std::move(fused_);
  }

  // Single output: the fusion replaces the root. Multi-output: each root's
  // users read get-tuple-element(fusion, i). Control dependencies of the
  // roots move to the fusion. The roots are left without users.
  absl::Status ReplaceRoots() {
    const bool single = planned_.roots.size() == 1;
    for (size_t i = 0; i < planned_.roots.size(); ++i) {
      Instruction* root = planned_.roots[i];
      absl::Status status = MoveControlDeps(root, fusion_);
      if (!status.ok()) return status;
      // A root that a moved member read counts as used, as it was before
      // the move: a clone would have left the original reading it until
      // its removal, so the root got a get-tuple-element (then dead).
      if (root->user_count() == 0 && root != computation_->root() &&
          !roots_read_by_moved_.contains(root)) {
        continue;
      }
      Instruction* value = fusion_;
      if (!single) {
        auto element = std::make_unique<Instruction>(
            Opcode::kGetTupleElement, root->shape(), "get-tuple-element");
        element->AppendOperand(fusion_);
        element->mutable_attrs()->Set(attr::kIndex, static_cast<int64_t>(i));
        value = computation_->AddInstructionBefore(std::move(element), root);
      }
      status = root->ReplaceAllUsesWith(value);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

 private:
  void AddParameter(Instruction* outside) {
    const int64_t number = static_cast<int64_t>(parameter_of_.size());
    auto parameter = std::make_unique<Instruction>(
        Opcode::kParameter, outside->shape(), absl::StrCat("param_", number));
    parameter->set_parameter_number(number);
    parameter_of_.emplace(outside, fused_->AddParameter(std::move(parameter)));
  }

  // What `outside` (a member or an input) is inside the fused computation.
  Instruction* FusedValueOf(const Instruction* outside) const {
    auto fused = clone_of_.find(outside);
    return fused != clone_of_.end() ? fused->second : parameter_of_.at(outside);
  }

  void CloneMember(const Instruction& member) {
    std::vector<Instruction*> operands;
    operands.reserve(member.operand_count());
    for (const Instruction* operand : member.operands()) {
      operands.push_back(FusedValueOf(operand));
    }
    clone_of_.emplace(&member,
                      fused_->AddInstruction(member.CloneWithNewOperands(
                          member.shape(), operands, member.name())));
  }

  // Moves `member` (which leaves the computation) into the fused
  // computation, reading the fused values of its operands: the same result
  // as a clone without allocating one and deleting the original. Its users
  // left in the computation are roots about to be removed.
  void MoveMember(Instruction* member) {
    for (int64_t i = 0; i < member->operand_count(); ++i) {
      Instruction* operand = member->operand(i);
      Instruction* fused = FusedValueOf(operand);
      if (fused == operand) continue;  // Moved before it.
      if (std::find(planned_.roots.begin(), planned_.roots.end(), operand) !=
          planned_.roots.end()) {
        roots_read_by_moved_.insert(operand);
      }
      member->ReplaceOperandWith(i, fused);
    }
    // A name the fused computation already has (a parameter's) is
    // uniquified on insertion; the original name is the one to release.
    if (fused_->FindInstruction(member->name()) != nullptr) {
      renamed_->emplace(member, member->name());
    }
    std::unique_ptr<Instruction> detached =
        computation_->DetachInstruction(member);
    clone_of_.emplace(member, fused_->AddInstruction(std::move(detached)));
  }

  // The root's clone, or a tuple of the roots' clones.
  Instruction* FusedRoot() {
    if (planned_.roots.size() == 1) return clone_of_.at(planned_.roots[0]);
    std::vector<Shape> shapes;
    for (const Instruction* root : planned_.roots) {
      shapes.push_back(root->shape());
    }
    auto tuple = std::make_unique<Instruction>(
        Opcode::kTuple, Shape::Tuple(std::move(shapes)), "tuple");
    for (const Instruction* root : planned_.roots) {
      tuple->AppendOperand(clone_of_.at(root));
    }
    return fused_->AddInstruction(std::move(tuple));
  }

  Instruction* AddFusionInstruction(const Shape& shape) {
    const Instruction* last_root = planned_.roots.back();
    auto fusion =
        std::make_unique<Instruction>(Opcode::kFusion, shape, "fusion");
    std::vector<Instruction*> inputs = planned_.inputs;
#ifdef KILN_SEEDED_BUGS
    // Seeded: the last two inputs of one shape are passed swapped.
    if (SeededBug("fusion-operand-order") && inputs.size() >= 2 &&
        inputs[inputs.size() - 1]->shape() ==
            inputs[inputs.size() - 2]->shape()) {
      std::swap(inputs[inputs.size() - 1], inputs[inputs.size() - 2]);
    }
#endif
    for (Instruction* input : inputs) fusion->AppendOperand(input);
    fusion->mutable_attrs()->Set(attr::kKind, ToEnumValue(planned_.kind));
    fusion->mutable_attrs()->Set(attr::kCalls, fused_.get());
    fusion->metadata = last_root->metadata;
    fusion->location = last_root->location;
    return computation_->AddInstructionBefore(std::move(fusion), last_root);
  }

  // An edge between two roots of one fusion reaches `to` itself once the
  // first of them has moved; it orders nothing any more and is dropped.
  static absl::Status MoveControlDeps(Instruction* from, Instruction* to) {
    for (Instruction* predecessor : from->control_predecessors()) {
      if (predecessor == to) continue;
      absl::Status status = predecessor->AddControlDependencyTo(to);
      if (!status.ok()) return status;
    }
    for (Instruction* successor : from->control_successors()) {
      if (successor == to) continue;
      absl::Status status = to->AddControlDependencyTo(successor);
      if (!status.ok()) return status;
    }
    from->DropAllControlDeps();
    return absl::OkStatus();
  }

  Computation* computation_;
  const PlannedFusion& planned_;
  RenamedMembers* renamed_;
  // Roots of this fusion that a moved member read (see ReplaceRoots).
  absl::flat_hash_set<const Instruction*> roots_read_by_moved_;
  std::unique_ptr<Computation> fused_;
  Instruction* fusion_ = nullptr;
  absl::flat_hash_map<const Instruction*, Instruction*> clone_of_;
  absl::flat_hash_map<const Instruction*, Instruction*> parameter_of_;
};

// Applies `plan` to `computation`: builds every fusion, moves the roots'
// users to them, removes the replaced instructions, then adds the fused
// computations to `module` (their members take the names the removed
// instructions free). Moved members release their names here too, exactly
// as if they had been cloned and removed, so every name comes out as the
// uniquifier would give it to a clone.
absl::Status ApplyPlan(const FusionPlan& plan, Computation* computation,
                       Module& module) {
  std::vector<FusionBuilder> builders;
  std::vector<std::unique_ptr<Computation>> fused;
  RenamedMembers renamed;
  builders.reserve(plan.fusions.size());
  for (const PlannedFusion& planned : plan.fusions) {
    builders.emplace_back(computation, planned, &renamed);
    fused.push_back(builders.back().Build());
  }
  for (FusionBuilder& builder : builders) {
    absl::Status status = builder.ReplaceRoots();
    if (!status.ok()) return status;
  }
  for (Instruction* instruction : plan.removed) {
    if (instruction->parent() != computation) {  // Moved into a fusion.
      auto original = renamed.find(instruction);
      module.ReleaseName(original != renamed.end() ? original->second
                                                   : instruction->name());
      continue;
    }
    const std::string name = instruction->name();
    absl::Status status = computation->RemoveInstruction(instruction);
    if (!status.ok()) {
      return absl::InternalError(absl::StrCat(
          "fusion: ", name,
          " was fused into every user but is still used: ", status.message()));
    }
    module.ReleaseName(name);
  }
  for (std::unique_ptr<Computation>& body : fused) {
    module.AddComputation(std::move(body));
  }
  return computation->RestoreDefinitionOrder();
}

}  // namespace

FusionPass::FusionPass()
    : policy_(FusionPolicyRegistry::Global().Create("default")) {
  if (policy_ == nullptr) policy_ = std::make_unique<DefaultFusionPolicy>();
}

FusionPass::FusionPass(std::unique_ptr<FusionPolicy> policy)
    : policy_(std::move(policy)) {
  if (policy_ == nullptr) policy_ = std::make_unique<DefaultFusionPolicy>();
}

absl::StatusOr<bool> FusionPass::Run(Module& module) {
  bool changed = false;
  for (Computation* computation : ComputationsToFuse(module)) {
    absl::StatusOr<FusionPlan> plan = PlanFusion(*computation, *policy_);
    if (!plan.ok()) return plan.status();
    if (plan->fusions.empty()) continue;
    absl::Status status = ApplyPlan(*plan, computation, module);
    if (!status.ok()) return status;
    changed = true;
  }
  return changed;
}

std::unique_ptr<Pass> MakeFusionPass(std::unique_ptr<FusionPolicy> policy) {
  return std::make_unique<FusionPass>(std::move(policy));
}

absl::StatusOr<std::unique_ptr<Pass>> MakeFusionPassForBackend(
    absl::string_view backend) {
  std::unique_ptr<FusionPolicy> policy =
      FusionPolicyRegistry::Global().Create(backend);
  if (policy == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "fusion: no fusion policy registered for backend '", backend,
        "' (registered: ",
        absl::StrJoin(FusionPolicyRegistry::Global().Names(), ", "), ")"));
  }
  return MakeFusionPass(std::move(policy));
}

KILN_REGISTER_PASS(FusionPass);

}  // namespace kiln
