#include "passes/dce.h"

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"

namespace kiln {

absl::StatusOr<absl::flat_hash_set<const Computation*>>
CalledComputationsContaining(
    const Module& module, const std::function<bool(const Instruction&)>& own) {
  absl::StatusOr<std::vector<Computation*>> order =
      module.PostOrderComputations();
  if (!order.ok()) return order.status();
  absl::flat_hash_set<const Computation*> called;
  for (const Computation* computation : *order) {
    called.insert(computation->callees().begin(), computation->callees().end());
  }
  absl::flat_hash_set<const Computation*> containing;
  for (const Computation* computation : *order) {
    if (!called.contains(computation)) continue;
    for (const Instruction* instruction : computation->instructions()) {
      bool found = own(*instruction);
      for (const Computation* callee : instruction->called_computations()) {
        found = found || containing.contains(callee);
      }
      if (found) {
        containing.insert(computation);
        break;
      }
    }
  }
  return containing;
}

absl::StatusOr<absl::flat_hash_set<const Computation*>>
CalledComputationsWithSideEffects(const Module& module) {
  return CalledComputationsContaining(module, HasOwnSideEffect);
}

namespace {

bool HasSideEffect(const Instruction& instruction,
                   const absl::flat_hash_set<const Computation*>& effectful) {
  if (HasOwnSideEffect(instruction)) return true;
  for (const Computation* callee : instruction.called_computations()) {
    if (effectful.contains(callee)) return true;
  }
  return false;
}

bool IsRemovable(const Instruction& instruction,
                 const absl::flat_hash_set<const Computation*>& effectful) {
  const Computation* computation = instruction.parent();
  return instruction.user_count() == 0 && &instruction != computation->root() &&
         instruction.opcode() != Opcode::kParameter &&
         instruction.control_successors().empty() &&
         !HasSideEffect(instruction, effectful);
}

// Removes dead instructions, then the operands they leave unused.
absl::StatusOr<int64_t> RemoveDeadInstructions(
    Computation* computation,
    const absl::flat_hash_set<const Computation*>& effectful) {
  std::vector<Instruction*> work;
  for (Instruction* instruction : computation->instructions()) {
    if (IsRemovable(*instruction, effectful)) work.push_back(instruction);
  }
  absl::flat_hash_set<Instruction*> removed_or_queued(work.begin(), work.end());
  int64_t removed = 0;
  while (!work.empty()) {
    Instruction* instruction = work.back();
    work.pop_back();
    // Operands once each (an operand may appear several times).
    std::vector<Instruction*> operands;
    absl::flat_hash_set<Instruction*> seen;
    for (Instruction* operand : instruction->operands()) {
      if (seen.insert(operand).second) operands.push_back(operand);
    }
    absl::Status status = computation->RemoveInstruction(instruction);
    if (!status.ok()) return status;
    ++removed;
    for (Instruction* operand : operands) {
      if (!removed_or_queued.contains(operand) &&
          IsRemovable(*operand, effectful)) {
        removed_or_queued.insert(operand);
        work.push_back(operand);
      }
    }
  }
  return removed;
}

}  // namespace

absl::StatusOr<bool> DcePass::Run(Module& module) {
  absl::StatusOr<absl::flat_hash_set<const Computation*>> effectful =
      CalledComputationsWithSideEffects(module);
  if (!effectful.ok()) return effectful.status();
  bool changed = false;
  for (Computation* computation : module.computations()) {
    absl::StatusOr<int64_t> removed =
        RemoveDeadInstructions(computation, *effectful);
    if (!removed.ok()) return removed.status();
    changed |= *removed > 0;
  }
  changed |= module.RemoveDeadComputations() > 0;
  return changed;
}

KILN_REGISTER_PASS(DcePass);

}  // namespace kiln
