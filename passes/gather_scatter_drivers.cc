#include "passes/gather_scatter_drivers.h"

#include <deque>

#include "compiler/ir/computation.h"

namespace kiln {
namespace gather_scatter {

absl::StatusOr<bool> RewriteEach(
    Module& module, Opcode opcode,
    const std::function<absl::StatusOr<bool>(Instruction*)>& rewrite) {
  bool changed = false;
  for (Computation* computation : module.computations()) {
    if (computation->is_fusion_computation()) continue;
    for (Instruction* instruction : computation->instructions()) {
      if (instruction->opcode() != opcode) continue;
      absl::StatusOr<bool> rewritten = rewrite(instruction);
      if (!rewritten.ok()) return rewritten.status();
      changed |= *rewritten;
    }
  }
  return changed;
}

absl::StatusOr<bool> SimplifyEach(
    Module& module, Opcode opcode,
    const std::function<absl::StatusOr<bool>(
        Instruction*, Instruction** canonical)>& simplify) {
  bool changed = false;
  for (Computation* computation : module.computations()) {
    if (computation->is_fusion_computation()) continue;
    std::deque<Instruction*> work;
    for (Instruction* instruction : computation->instructions()) {
      if (instruction->opcode() == opcode) work.push_back(instruction);
    }
    while (!work.empty()) {
      Instruction* instruction = work.front();
      work.pop_front();
      Instruction* canonical = nullptr;
      absl::StatusOr<bool> simplified = simplify(instruction, &canonical);
      if (!simplified.ok()) return simplified.status();
      changed |= *simplified;
      if (canonical != nullptr) work.push_back(canonical);
    }
  }
  return changed;
}

}  // namespace gather_scatter
}  // namespace kiln
