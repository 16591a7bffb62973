#include "passes/constant_folding.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/dce.h"

namespace kiln {
namespace {

// Ops never folded, wherever they are (see the header for why): every
// collective, every half of an async pair, every op that may have a side
// effect (by its SideEffect trait, whatever its attributes), and the ops
// below.
bool IsNeverFolded(const Instruction& instruction) {
  const OpTraits& traits = GetOpTraits(instruction.opcode());
  if (traits.collective || traits.async_role != AsyncRole::kNone ||
      traits.side_effect != SideEffect::kNone) {
    return true;
  }
  switch (instruction.opcode()) {
    case Opcode::kParameter:
    case Opcode::kConstant:
    case Opcode::kTuple:
    case Opcode::kBroadcast:
    case Opcode::kIota:
    case Opcode::kRngBitGenerator:
    case Opcode::kAfterAll:
    case Opcode::kReplicaId:
    case Opcode::kPartitionId:
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kWhile:
    case Opcode::kFft:
      return true;
    default:
      return false;
  }
}

// Called computations containing a never-folded op (parameters, constants,
// tuples, broadcasts and iotas aside: inside a callee they are fine),
// directly or through their own calls.
absl::StatusOr<absl::flat_hash_set<const Computation*>> UnfoldableComputations(
    const Module& module) {
  return CalledComputationsContaining(module, [](const Instruction& x) {
    const Opcode opcode = x.opcode();
    return IsNeverFolded(x) && opcode != Opcode::kParameter &&
           opcode != Opcode::kConstant && opcode != Opcode::kTuple &&
           opcode != Opcode::kBroadcast && opcode != Opcode::kIota;
  });
}

// Element count of a static array shape, or nullopt.
std::optional<int64_t> StaticElementCount(const Shape& shape) {
  if (!shape.IsArray() || !shape.is_static()) return std::nullopt;
  absl::StatusOr<int64_t> count = shape.ElementCount();
  if (!count.ok()) return std::nullopt;
  return *count;
}

bool IsConstantOrBroadcastOfConstant(const Instruction& operand) {
  if (operand.opcode() == Opcode::kConstant) return operand.has_literal();
  return operand.opcode() == Opcode::kBroadcast &&
         operand.operand_count() == 1 &&
         operand.operand(0)->opcode() == Opcode::kConstant &&
         operand.operand(0)->has_literal();
}

class Folder {
 public:
  Folder(const Module& module, const ConstantFoldingOptions& options,
         const absl::flat_hash_set<const Computation*>& unfoldable)
      : module_(module), options_(options), unfoldable_(unfoldable) {}

  // Folds what it can in `computation`; returns how many it folded.
  absl::StatusOr<int64_t> Run(Computation* computation);

 private:
  bool WithinCap(const Shape& shape) const {
    std::optional<int64_t> count = StaticElementCount(shape);
    return count.has_value() && *count <= options_.max_elements;
  }
  bool IsCandidate(const Instruction& instruction) const;
  // The instruction's value, or nullopt when the evaluator cannot give it.
  std::optional<Literal> Evaluate(const Instruction& instruction) const;
  absl::Status ReplaceByConstant(Instruction* instruction, Literal value);

  const Module& module_;
  const ConstantFoldingOptions& options_;
  const absl::flat_hash_set<const Computation*>& unfoldable_;
  const EvalOptions eval_options_;
};

bool Folder::IsCandidate(const Instruction& instruction) const {
  if (IsNeverFolded(instruction) || !WithinCap(instruction.shape())) {
    return false;
  }
  bool has_constant = false;
  for (const Instruction* operand : instruction.operands()) {
    if (!IsConstantOrBroadcastOfConstant(*operand)) return false;
    // A tuple-shaped constant (get-tuple-element's operand) has no element
    // count of its own; its arrays are already in the module.
    if (!operand->shape().IsTuple() && !WithinCap(operand->shape())) {
      return false;
    }
    if (operand->shape().IsTuple() && !operand->shape().is_static()) {
      return false;
    }
    has_constant = has_constant || operand->opcode() == Opcode::kConstant;
  }
  if (!has_constant) return false;
  for (const Computation* callee : instruction.called_computations()) {
    if (unfoldable_.contains(callee)) return false;
  }
  return true;
}

std::optional<Literal> Folder::Evaluate(const Instruction& instruction) const {
  const eval::KernelTable& kernels = eval::Kernels();
  eval::Kernel kernel = kernels.Find(instruction.opcode());
#ifdef KILN_SEEDED_BUGS
  // Seeded: a convert between types of one width folds as a bitcast.
  if (SeededBug("constant-folding-convert") &&
      instruction.opcode() == Opcode::kConvert &&
      instruction.shape().IsArray() &&
      GetElementTypeInfo(instruction.shape().element_type()).bit_width ==
          GetElementTypeInfo(instruction.operand(0)->shape().element_type())
              .bit_width) {
    kernel = kernels.Find(Opcode::kBitcastConvert);
  }
#endif
  const eval::Kernel broadcast = kernels.Find(Opcode::kBroadcast);
  if (kernel == nullptr || broadcast == nullptr) return std::nullopt;
  // A fresh context per instruction: contexts cache plans and shapes by
  // pointer, and this pass changes the module between evaluations.
  eval::EvalContext context(module_, eval_options_);
  std::vector<Literal> broadcasts;
  broadcasts.reserve(instruction.operand_count());
  std::vector<const Literal*> operands;
  for (const Instruction* operand : instruction.operands()) {
    if (operand->opcode() == Opcode::kConstant) {
      operands.push_back(&operand->literal());
      continue;
    }
    const Literal* source = &operand->operand(0)->literal();
    absl::StatusOr<Literal> value =
        broadcast(*operand, absl::MakeConstSpan(&source, 1), context);
    if (!value.ok()) return std::nullopt;
    broadcasts.push_back(*std::move(value));
    operands.push_back(&broadcasts.back());
  }
  absl::StatusOr<Literal> result = kernel(instruction, operands, context);
  if (!result.ok() || result->has_dynamic_sizes() ||
      !result->shape().Compatible(instruction.shape())) {
    return std::nullopt;
  }
  return *std::move(result);
}

// Removes `instruction` (a constant or a broadcast of one) if nothing uses
// it any more, then its own operand likewise. `removed` holds what earlier
// calls removed: a folded instruction's operands may be a broadcast and the
// constant it broadcasts (reduce(broadcast(c), c)), and removing the
// broadcast removes the constant before the loop over operands reaches it
// (kiln fuzz found the use after free).
absl::Status RemoveIfUnused(Instruction* instruction,
                            absl::flat_hash_set<const Instruction*>* removed) {
  if (removed->contains(instruction)) return absl::OkStatus();
  Computation* computation = instruction->parent();
  if (instruction->user_count() > 0 || instruction == computation->root() ||
      !instruction->control_successors().empty()) {
    return absl::OkStatus();
  }
  Instruction* source = instruction->opcode() == Opcode::kBroadcast
                            ? instruction->operand(0)
                            : nullptr;
  absl::Status status = computation->RemoveInstruction(instruction);
  if (!status.ok()) return status;
  removed->insert(instruction);
  if (source == nullptr) return absl::OkStatus();
  return RemoveIfUnused(source, removed);
}

absl::Status Folder::ReplaceByConstant(Instruction* instruction,
                                       Literal value) {
  Computation* computation = instruction->parent();
  auto constant = std::make_unique<Instruction>(
      Opcode::kConstant, instruction->shape(), "constant");
  constant->set_literal(std::move(value));
  constant->metadata = instruction->metadata;
  constant->sharding = instruction->sharding;
  constant->frontend_attributes = instruction->frontend_attributes;
  constant->location = instruction->location;
  Instruction* added =
      computation->AddInstructionBefore(std::move(constant), instruction);
  // Operands once each (an operand may appear several times).
  std::vector<Instruction*> operands;
  absl::flat_hash_set<Instruction*> seen;
  for (Instruction* operand : instruction->operands()) {
    if (seen.insert(operand).second) operands.push_back(operand);
  }
  absl::Status replaced = computation->ReplaceInstruction(instruction, added);
  if (!replaced.ok()) return replaced;
  absl::flat_hash_set<const Instruction*> removed;
  for (Instruction* operand : operands) {
    absl::Status status = RemoveIfUnused(operand, &removed);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Folder::Run(Computation* computation) {
  absl::StatusOr<std::vector<Instruction*>> order = computation->PostOrder();
  if (!order.ok()) return order.status();
  int64_t folded = 0;
  // Folding removes only the visited instruction and operands already
  // visited, so the rest of `order` stays valid.
  for (Instruction* instruction : *order) {
    if (!IsCandidate(*instruction)) continue;
    std::optional<Literal> value = Evaluate(*instruction);
    if (!value.has_value()) continue;
    absl::Status status = ReplaceByConstant(instruction, *std::move(value));
    if (!status.ok()) return status;
    ++folded;
  }
  return folded;
}

}  // namespace

absl::StatusOr<bool> ConstantFoldingPass::Run(Module& module) {
  absl::StatusOr<absl::flat_hash_set<const Computation*>> unfoldable =
      UnfoldableComputations(module);
  if (!unfoldable.ok()) return unfoldable.status();
  Folder folder(module, options_, *unfoldable);
  bool changed = false;
  for (Computation* computation : module.computations()) {
    if (computation->is_fusion_computation()) continue;
    absl::StatusOr<int64_t> folded = folder.Run(computation);
    if (!folded.ok()) return folded.status();
    changed |= *folded > 0;
  }
  return changed;
}

KILN_REGISTER_PASS(ConstantFoldingPass);

}  // namespace kiln
