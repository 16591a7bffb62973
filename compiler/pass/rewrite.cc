#include "compiler/pass/rewrite.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"

namespace kiln {

Instruction* RewriteContext::Add(Computation* computation,
                                 std::unique_ptr<Instruction> instruction) {
  return computation->AddInstruction(std::move(instruction));
}

absl::StatusOr<bool> RewriteContext::Replace(Instruction* old_instruction,
                                             Instruction* replacement) {
  Computation* computation = old_instruction->parent();
  // Recorded before the call: the pointer is freed by it.
  removed_.insert(old_instruction);
  absl::Status replaced =
      computation->ReplaceInstruction(old_instruction, replacement);
  if (!replaced.ok()) {
    removed_.erase(old_instruction);
    return replaced;
  }
  return true;
}

absl::StatusOr<bool> RewriteContext::ReplaceWithNew(
    Instruction* old_instruction, std::unique_ptr<Instruction> replacement) {
  // Placed where the old instruction was, so the text stays in definition
  // order without a reordering.
  Instruction* added = old_instruction->parent()->AddInstructionBefore(
      std::move(replacement), old_instruction);
  return Replace(old_instruction, added);
}

absl::Status RewriteContext::Remove(Instruction* instruction) {
  Computation* computation = instruction->parent();
  removed_.insert(instruction);
  absl::Status removed = computation->RemoveInstruction(instruction);
  if (!removed.ok()) removed_.erase(instruction);
  return removed;
}

bool IsPlainInstruction(const Instruction& instruction) {
  if (!instruction.control_predecessors().empty() ||
      !instruction.control_successors().empty() ||
      !instruction.shape().is_static()) {
    return false;
  }
  for (const Instruction* operand : instruction.operands()) {
    if (!operand->shape().is_static()) return false;
  }
  return true;
}

namespace {

// Tries the rewrites on `instruction`; sets `*fired` to the name of the one
// that fired, if any.
absl::Status RewriteOne(Instruction* instruction,
                        absl::Span<const Rewrite* const> rewrites,
                        RewriteContext& context, const std::string** fired) {
  std::optional<bool> plain;  // Decided on first need.
  for (const Rewrite* rewrite : rewrites) {
    if (rewrite->plain_only) {
      if (!plain.has_value()) plain = IsPlainInstruction(*instruction);
      if (!*plain) continue;
    }
    absl::StatusOr<bool> changed = rewrite->apply(instruction, context);
    if (!changed.ok()) {
      return absl::Status(
          changed.status().code(),
          absl::StrCat("rewrite '", rewrite->name, "' on ", instruction->name(),
                       ": ", changed.status().message()));
    }
    if (*changed) {
      *fired = &rewrite->name;
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

// For each opcode, the rewrites that may fire on it, in list order.
using RewritesByOpcode = std::vector<std::vector<const Rewrite*>>;

RewritesByOpcode IndexByOpcode(absl::Span<const Rewrite> rewrites) {
  RewritesByOpcode by_opcode(kOpcodeCount);
  for (const Rewrite& rewrite : rewrites) {
    if (rewrite.opcodes.empty()) {
      for (std::vector<const Rewrite*>& list : by_opcode) {
        list.push_back(&rewrite);
      }
      continue;
    }
    for (Opcode opcode : rewrite.opcodes) {
      std::vector<const Rewrite*>& list =
          by_opcode[static_cast<size_t>(opcode)];
      // Listed twice is still tried once.
      if (list.empty() || list.back() != &rewrite) list.push_back(&rewrite);
    }
  }
  return by_opcode;
}

// One sweep over one computation. Returns the last rewrite that fired.
absl::Status SweepComputation(Computation* computation,
                              const RewritesByOpcode& rewrites,
                              RewriteContext& context,
                              const std::string** last_fired) {
  absl::StatusOr<std::vector<Instruction*>> order = computation->PostOrder();
  if (!order.ok()) return order.status();
  const std::string* fired_here = nullptr;
  for (Instruction* instruction : *order) {
    // A freed pointer may come back for a new instruction; skipping it
    // then is harmless, the next sweep visits it.
    if (context.IsRemoved(instruction)) continue;
    absl::Status status = RewriteOne(
        instruction, rewrites[static_cast<size_t>(instruction->opcode())],
        context, &fired_here);
    if (!status.ok()) return status;
  }
  if (fired_here == nullptr) return absl::OkStatus();
  *last_fired = fired_here;
  // Rewrites may have appended operands after their users (Add).
  return computation->RestoreDefinitionOrder();
}

}  // namespace

absl::StatusOr<bool> ApplyRewrites(Module& module,
                                   absl::Span<const Rewrite> rewrites,
                                   const RewriteOptions& options) {
  const RewritesByOpcode by_opcode = IndexByOpcode(rewrites);
  RewriteContext context;
  bool changed = false;
  const std::string* last_fired = nullptr;
  for (int64_t sweep = 0; sweep < options.max_sweeps; ++sweep) {
    const std::string* fired = nullptr;
    for (Computation* computation : module.computations()) {
      absl::Status status =
          SweepComputation(computation, by_opcode, context, &fired);
      if (!status.ok()) return status;
      context.ClearRemoved();
    }
    if (fired == nullptr) return changed;
    changed = true;
    last_fired = fired;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("rewrites still firing after ", options.max_sweeps,
                   " sweeps (last: '", *last_fired, "')"));
}

}  // namespace kiln
