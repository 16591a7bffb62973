#include "passes/zero_sized_elimination.h"

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
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
  return !HasOwnSideEffect(instruction) &&
         instruction.control_predecessors().empty() &&
         instruction.control_successors().empty();
}

// The one rewrite: `x = f32[0,3] op(...)` -> `x = f32[0,3] constant({...})`.
absl::StatusOr<bool> ReplaceByEmptyConstant(Instruction* instruction,
                                            RewriteContext& context) {
  if (!HasNoElements(instruction->shape()) || !MayReplace(*instruction)) {
    return false;
  }
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
