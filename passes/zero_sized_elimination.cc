#include "passes/zero_sized_elimination.h"

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/op_traits.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/dce.h"

namespace kiln {
namespace {

// True for a static array shape with a dimension of size 0.
bool HasNoElements(const Shape& shape) {
  if (!shape.IsArray() || !shape.is_static()) return false;
  for (int64_t size : shape.dimensions()) {
    if (size == 0) return true;
  }
  return false;
}

bool MayReplace(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kParameter:
    case Opcode::kConstant:
      return false;
    default:
      break;
  }
  // A zero-sized copy-done or async-done ends a chain whose start must
  // keep exactly one user (the verifier's async.users): the chain stays,
  // and DCE removes it whole when nothing reads it (kiln fuzz finding
  // pipeline-zero-sized-elimination-verify-*).
  if (GetOpTraits(instruction.opcode()).async_role != AsyncRole::kNone) {
    return false;
  }
  return !HasOwnSideEffect(instruction) &&
         instruction.control_predecessors().empty() &&
         instruction.control_successors().empty();
}

// The one rewrite: `x = f32[0,3] op(...)` -> `x = f32[0,3] constant({...})`.
absl::StatusOr<bool> ReplaceByEmptyConstant(Instruction* instruction,
                                            RewriteContext& context) {
  bool no_elements = HasNoElements(instruction->shape());
#ifdef KILN_SEEDED_BUGS
  // Seeded: an op with an empty operand is taken as empty (wrong for pad,
  // concatenate, reduce, ...): it becomes a constant of zeros.
  if (SeededBug("zero-sized-operand") && instruction->shape().IsArray() &&
      instruction->shape().is_static()) {
    for (const Instruction* operand : instruction->operands()) {
      no_elements = no_elements || HasNoElements(operand->shape());
    }
  }
#endif
  if (!no_elements || !MayReplace(*instruction)) return false;
  absl::StatusOr<Literal> empty = Literal::Create(instruction->shape());
  if (!empty.ok()) return empty.status();
  auto constant = std::make_unique<Instruction>(
      Opcode::kConstant, instruction->shape(), instruction->name());
  constant->set_literal(*std::move(empty));
  constant->metadata = instruction->metadata;
  constant->location = instruction->location;
  return context.ReplaceWithNew(instruction, std::move(constant));
}

}  // namespace

std::vector<Rewrite> ZeroSizedEliminationPass::rewrites() const {
  // Any opcode: every op with a zero-sized array result qualifies.
  return {{"replace-by-empty-constant", ReplaceByEmptyConstant}};
}

KILN_REGISTER_PASS(ZeroSizedEliminationPass);

}  // namespace kiln
