// The pattern-rewrite driver: a peephole pass is a list of small rewrites,
// each looking at one instruction and, when it matches, replacing it. The
// driver applies them over every computation until none fires.
//
//   // x + 0 -> x (integers).
//   absl::StatusOr<bool> AddZero(Instruction* add, RewriteContext& context) {
//     if (add->opcode() != Opcode::kAdd || !IsIntegerZero(add->operand(1)))
//       return false;
//     return context.Replace(add, add->operand(0));
//   }
//   class Peephole : public RewritePass {
//     ... rewrites() returns {{"add-zero", AddZero}, ...}
//   };
#ifndef KILN_COMPILER_PASS_REWRITE_H_
#define KILN_COMPILER_PASS_REWRITE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

// What a rewrite may do to the graph. Every removal goes through here so
// that the driver never visits a removed instruction; adding instructions
// and changing operands may use the IR directly.
class RewriteContext {
 public:
  // Adds `instruction` to `computation` (Computation::AddInstruction: at
  // the end; the driver restores definition order after each sweep).
  Instruction* Add(Computation* computation,
                   std::unique_ptr<Instruction> instruction);
  // Moves every use (and ROOT, control dependencies) of `old_instruction`
  // to `replacement`, an instruction already in the same computation, then
  // removes `old_instruction` (Computation::ReplaceInstruction). Returns
  // true, so a rewrite can `return context.Replace(a, b);`.
  absl::StatusOr<bool> Replace(Instruction* old_instruction,
                               Instruction* replacement);
  // Adds `replacement` to the computation of `old_instruction`, just
  // before it in the text order, then Replace()s.
  absl::StatusOr<bool> ReplaceWithNew(Instruction* old_instruction,
                                      std::unique_ptr<Instruction> replacement);
  // Removes an instruction without users (Computation::RemoveInstruction).
  absl::Status Remove(Instruction* instruction);

  bool IsRemoved(const Instruction* instruction) const {
    return removed_.contains(instruction);
  }
  // Called by the driver between sweeps, when no stale pointer is held.
  void ClearRemoved() { removed_.clear(); }

 private:
  absl::flat_hash_set<const Instruction*> removed_;
};

// One rewrite: returns true when it matched and changed the graph, false
// when it did not match (and changed nothing), or an error.
using RewriteFn =
    std::function<absl::StatusOr<bool>(Instruction*, RewriteContext&)>;

struct Rewrite {
  Rewrite(std::string name, RewriteFn apply, std::vector<Opcode> opcodes = {},
          bool plain_only = false)
      : name(std::move(name)),
        apply(std::move(apply)),
        opcodes(std::move(opcodes)),
        plain_only(plain_only) {}

  std::string name;
  RewriteFn apply;
  // The opcodes `apply` can fire on; empty means any. The driver tries a
  // rewrite only on instructions of these opcodes, so a pass with many
  // rewrites costs each instruction only the few that concern it.
  std::vector<Opcode> opcodes;
  // Tried only on plain instructions: no control dependencies, and static
  // shapes for the result and every operand. The driver checks this once
  // per instruction however many rewrites ask for it.
  bool plain_only;
};

// The condition of Rewrite::plain_only.
bool IsPlainInstruction(const Instruction& instruction);

struct RewriteOptions {
  // Full sweeps over the module before giving up; reaching it is an error
  // naming the last rewrite that fired (rewrites that undo each other).
  int64_t max_sweeps = 64;
};

// Sweeps every computation in post order, trying the rewrites (those whose
// `opcodes` admit the instruction) in list order on each live instruction (the
// first that fires wins for that instruction), until a sweep fires none. After
// a sweep that changed a computation, its text order is made a definition order
// again (Computation::RestoreDefinitionOrder). Returns whether any fired.
absl::StatusOr<bool> ApplyRewrites(Module& module,
                                   absl::Span<const Rewrite> rewrites,
                                   const RewriteOptions& options = {});

// A pass that is a list of rewrites.
class RewritePass : public Pass {
 public:
  absl::StatusOr<bool> Run(Module& module) override {
    return ApplyRewrites(module, rewrites());
  }
  virtual std::vector<Rewrite> rewrites() const = 0;
};

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_REWRITE_H_
