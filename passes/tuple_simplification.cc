#include "passes/tuple_simplification.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace {

bool HasControlDependencies(const Instruction& instruction) {
  return !instruction.control_predecessors().empty() ||
         !instruction.control_successors().empty();
}

// The element index of a get-tuple-element, or -1 for anything else.
int64_t GteIndex(const Instruction& instruction) {
  if (instruction.opcode() != Opcode::kGetTupleElement ||
      instruction.operand_count() != 1) {
    return -1;
  }
  const int64_t* index = instruction.attrs().Get<int64_t>(attr::kIndex);
  return index == nullptr ? -1 : *index;
}

// A get-tuple-element we may replace, with its index and tuple operand's
// element count checked; -1 otherwise.
int64_t ReplaceableGteIndex(const Instruction& gte) {
  const int64_t index = GteIndex(gte);
  if (index < 0 || HasControlDependencies(gte)) return -1;
  const Shape& tuple_shape = gte.operand(0)->shape();
  if (!tuple_shape.IsTuple() || index >= tuple_shape.tuple_size()) return -1;
  return index;
}

// Replaces `old_instruction` by `replacement` when their shapes are equal
// (layouts included); false otherwise.
absl::StatusOr<bool> ReplaceIfSameShape(Instruction* old_instruction,
                                        Instruction* replacement,
                                        RewriteContext& context) {
  if (!(old_instruction->shape() == replacement->shape())) return false;
  return context.Replace(old_instruction, replacement);
}

absl::StatusOr<bool> GteOfTuple(Instruction* gte, RewriteContext& context) {
  const int64_t index = ReplaceableGteIndex(*gte);
  if (index < 0) return false;
  Instruction* tuple = gte->operand(0);
  if (tuple->opcode() != Opcode::kTuple || index >= tuple->operand_count()) {
    return false;
  }
  return ReplaceIfSameShape(gte, tuple->operand(index), context);
}

absl::StatusOr<bool> TupleOfGtes(Instruction* tuple, RewriteContext& context) {
  if (tuple->opcode() != Opcode::kTuple || tuple->operand_count() == 0 ||
      HasControlDependencies(*tuple)) {
    return false;
  }
  Instruction* source = tuple->operand(0)->operand_count() == 1
                            ? tuple->operand(0)->operand(0)
                            : nullptr;
  if (source == nullptr || !source->shape().IsTuple() ||
      source->shape().tuple_size() != tuple->operand_count()) {
    return false;
  }
  for (int64_t i = 0; i < tuple->operand_count(); ++i) {
    const Instruction* element = tuple->operand(i);
    if (GteIndex(*element) != i || element->operand(0) != source) return false;
  }
  return ReplaceIfSameShape(tuple, source, context);
}

absl::StatusOr<bool> GteOfCall(Instruction* gte, RewriteContext& context) {
  const int64_t index = ReplaceableGteIndex(*gte);
  if (index < 0) return false;
  const Instruction* call = gte->operand(0);
  const Computation* const* callee =
      call->attrs().Get<Computation*>(attr::kToApply);
  if (call->opcode() != Opcode::kCall || callee == nullptr ||
      *callee == nullptr) {
    return false;
  }
  const Instruction* root = (*callee)->root();
  if (root == nullptr || root->opcode() != Opcode::kTuple ||
      index >= root->operand_count()) {
    return false;
  }
  const Instruction* element = root->operand(index);
  if (element->opcode() != Opcode::kParameter) return false;
  const int64_t number = element->parameter_number();
  if (number < 0 || number >= call->operand_count()) return false;
  return ReplaceIfSameShape(gte, call->operand(number), context);
}

// Whether element `index` of `body`'s state passes through unchanged.
bool IsLoopInvariant(const Computation& body, int64_t index) {
  const Instruction* root = body.root();
  if (root == nullptr || root->opcode() != Opcode::kTuple ||
      index >= root->operand_count() || body.parameters().size() != 1) {
    return false;
  }
  const Instruction* element = root->operand(index);
  return GteIndex(*element) == index &&
         element->operand(0) == body.parameter(0);
}

absl::StatusOr<bool> GteOfWhile(Instruction* gte, RewriteContext& context) {
  const int64_t index = ReplaceableGteIndex(*gte);
  if (index < 0) return false;
  const Instruction* loop = gte->operand(0);
  const Computation* const* body = loop->attrs().Get<Computation*>(attr::kBody);
  if (loop->opcode() != Opcode::kWhile || loop->operand_count() != 1 ||
      body == nullptr || *body == nullptr || !IsLoopInvariant(**body, index)) {
    return false;
  }
  Instruction* init = loop->operand(0);
  if (!(init->shape() == loop->shape())) return false;
  // The loop's result element i is its initial element i.
  Computation* computation = gte->parent();
  Instruction* replacement = computation->AddInstructionBefore(
      gte->CloneWithNewOperands(gte->shape(), {init}, gte->name()), gte);
  return context.Replace(gte, replacement);
}

}  // namespace

std::vector<Rewrite> TupleSimplificationPass::rewrites() const {
  return {{"gte-of-tuple", GteOfTuple, {Opcode::kGetTupleElement}},
          {"tuple-of-gtes", TupleOfGtes, {Opcode::kTuple}},
          {"gte-of-call", GteOfCall, {Opcode::kGetTupleElement}},
          {"gte-of-while", GteOfWhile, {Opcode::kGetTupleElement}}};
}

KILN_REGISTER_PASS(TupleSimplificationPass);

}  // namespace kiln
