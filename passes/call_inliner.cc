#include "passes/call_inliner.h"

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "compiler/util/seeded_bugs.h"

namespace kiln {
namespace {

bool IsInlinable(const Instruction& instruction) {
  return instruction.opcode() == Opcode::kCall &&
         instruction.called_computations().size() == 1 &&
         instruction.control_predecessors().empty() &&
         instruction.control_successors().empty();
}

// Copies `callee` into `call`'s computation just before it and replaces
// the call by the copy of the callee's root. Adds the copies that are
// calls themselves to `calls`.
absl::Status InlineCall(Instruction* call, std::vector<Instruction*>* calls) {
  Computation* caller = call->parent();
  const Computation& callee = *call->called_computations()[0];
  absl::StatusOr<std::vector<Instruction*>> order = callee.PostOrder();
  if (!order.ok()) return order.status();
  absl::flat_hash_map<const Instruction*, Instruction*> copy_of;
  for (const Instruction* instruction : *order) {
    if (instruction->opcode() == Opcode::kParameter) {
      int64_t number = instruction->parameter_number();
#ifdef KILN_SEEDED_BUGS
      // Seeded: operands taken from a stack (last first) when the shapes
      // allow it.
      const int64_t last = call->operand_count() - 1 - number;
      if (SeededBug("inliner-parameter-order") &&
          call->operand(last)->shape() == instruction->shape()) {
        number = last;
      }
#endif
      Instruction* operand = call->operand(number);
      // An operand in another layout than the parameter's is copied into
      // it: the body's users (and the caller's root, when the body returns
      // the parameter) expect the parameter's layout (kiln fuzz finding:
      // the entry's root took the operand's layout).
      if (operand->shape().IsArray() && instruction->shape().IsArray() &&
          operand->shape().has_layout() && instruction->shape().has_layout() &&
          !(operand->shape().layout() == instruction->shape().layout())) {
        auto copy = std::make_unique<Instruction>(Opcode::kCopy,
                                                  instruction->shape(), "copy");
        copy->AppendOperand(operand);
        operand = caller->AddInstructionBefore(std::move(copy), call);
      }
      copy_of[instruction] = operand;
      continue;
    }
    std::vector<Instruction*> operands;
    for (const Instruction* operand : instruction->operands()) {
      operands.push_back(copy_of.at(operand));
    }
    Instruction* copy = caller->AddInstructionBefore(
        instruction->CloneWithNewOperands(instruction->shape(), operands,
                                          instruction->name()),
        call);
    copy_of[instruction] = copy;
    if (IsInlinable(*instruction)) calls->push_back(copy);
  }
  for (const Instruction* instruction : *order) {
    for (Instruction* predecessor : instruction->control_predecessors()) {
      if (absl::Status status =
              copy_of.at(predecessor)
                  ->AddControlDependencyTo(copy_of.at(instruction));
          !status.ok()) {
        return status;
      }
    }
  }
  return caller->ReplaceInstruction(call, copy_of.at(callee.root()));
}

}  // namespace

// Callers first, from the entry: a computation's calls are inlined (copied
// calls in turn), then the computations its instructions still call
// (while bodies, branches, reducers, calls left alone) are visited. A
// computation reached only through calls that were inlined is never
// visited: a chain of calls N deep is copied once, into the entry, not
// again into every level of it (quadratic).
absl::StatusOr<bool> CallInlinerPass::Run(Module& module) {
  if (module.entry() == nullptr) return false;
  // A call cycle would inline forever: refuse it as every walk does.
  if (absl::Status acyclic = module.PostOrderComputations().status();
      !acyclic.ok()) {
    return acyclic;
  }
  bool changed = false;
  std::vector<Computation*> pending = {module.entry()};
  absl::flat_hash_set<const Computation*> seen = {module.entry()};
  while (!pending.empty()) {
    Computation* computation = pending.back();
    pending.pop_back();
    std::vector<Instruction*> calls;
    for (Instruction* instruction : computation->instructions()) {
      if (IsInlinable(*instruction)) calls.push_back(instruction);
    }
    while (!calls.empty()) {
      Instruction* call = calls.back();
      calls.pop_back();
      if (absl::Status status = InlineCall(call, &calls); !status.ok()) {
        return status;
      }
      changed = true;
    }
    for (Computation* callee : computation->callees()) {
      if (seen.insert(callee).second) pending.push_back(callee);
    }
  }
  return changed;
}

KILN_REGISTER_PASS(CallInlinerPass);

}  // namespace kiln
