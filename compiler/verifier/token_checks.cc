// Token checks: a token orders side effects and carries no data, so only ops
// that thread side effects (or pass values through unchanged) may consume
// one. Shape rules catch most misuse too, but not for ops that have no rule
// yet, and this names the misuse directly.
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

bool ConsumesTokens(Opcode opcode) {
  static const auto* const kTokenConsumers = new absl::flat_hash_set<Opcode>{
      Opcode::kAddDependency, Opcode::kAfterAll,
      Opcode::kAsyncStart,    Opcode::kCall,
      Opcode::kConditional,   Opcode::kCustomCall,
      Opcode::kDomain,        Opcode::kFusion,
      Opcode::kInfeed,        Opcode::kOptimizationBarrier,
      Opcode::kOutfeed,       Opcode::kRecv,
      Opcode::kSend,          Opcode::kTuple,
      Opcode::kWhile,
  };
  return kTokenConsumers->contains(opcode);
}

}  // namespace

void CheckTokens(const Module& module, VerifyReport* report) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      if (ConsumesTokens(instruction->opcode())) continue;
      for (int64_t i = 0; i < instruction->operand_count(); ++i) {
        const Instruction* operand = instruction->operand(i);
        if (operand == nullptr || !operand->shape().IsToken()) continue;
        report->errors.push_back(InstructionError(
            *instruction,
            absl::StrCat("operand ", i, " (", operand->name(),
                         ") is a token, which ",
                         OpcodeName(instruction->opcode()), " cannot consume"),
            "token.usage"));
      }
    }
  }
}

}  // namespace kiln::verifier_internal
