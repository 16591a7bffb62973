#include "passes/broadcast_legalization.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "compiler/util/int_lists.h"
#include "compiler/util/seeded_bugs.h"

namespace kiln {
namespace {

using Dims = std::vector<int64_t>;

// Which operands of an elementwise op broadcast together, and which of them
// strict HLO lets stay scalars (clamp's min and max): the op's
// BroadcastingOperands trait (compiler/ir/op_traits.h), which the shape
// rules in compiler/ops/elementwise*_shapes.cc follow too.
struct BroadcastGroup {
  Dims operands;
  Dims scalar_ok;
};

std::optional<BroadcastGroup> OperandsThatBroadcast(
    const Instruction& instruction) {
  switch (GetOpTraits(instruction.opcode()).broadcasting) {
    case BroadcastingOperands::kNone:
      return std::nullopt;
    case BroadcastingOperands::kClamp:
      return BroadcastGroup{{0, 1, 2}, {0, 2}};
    case BroadcastingOperands::kAll:
      break;
  }
  // Select of tuples is whole-value selection, not broadcasting.
  if (instruction.opcode() == Opcode::kSelect &&
      instruction.operand_count() == 3 &&
      instruction.operand(1)->shape().IsTuple()) {
    return std::nullopt;
  }
  Dims all(instruction.operand_count());
  for (int64_t i = 0; i < instruction.operand_count(); ++i) all[i] = i;
  return BroadcastGroup{all, {}};
}

bool IsStaticArray(const Shape& shape) {
  return shape.IsArray() && shape.is_static();
}

// True when the result dims not named in `dims` all have size 1, i.e. the
// broadcast replicates nothing.
bool AddsOnlySizeOneDims(const Dims& dims, const Dims& result) {
  for (int64_t d = 0; d < static_cast<int64_t>(result.size()); ++d) {
    if (!util::Contains(dims, d) && result[d] != 1) return false;
  }
  return true;
}

// True when the operand dims of size other than 1 keep their relative
// order, so that the row-major element order is unchanged (a reshape).
bool KeepsElementOrder(const Dims& dims, const Dims& operand_sizes) {
  int64_t last = -1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (operand_sizes[i] == 1) continue;
    if (dims[i] < last) return false;
    last = dims[i];
  }
  return true;
}

// A broadcast whose operand dims match their result dims exactly (XLA's).
bool IsStrictBroadcast(const Instruction& instruction) {
  if (instruction.opcode() != Opcode::kBroadcast ||
      instruction.operand_count() != 1) {
    return false;
  }
  const Dims* dims = instruction.attrs().Get<Dims>(attr::kDimensions);
  const Shape& in = instruction.operand(0)->shape();
  const Shape& out = instruction.shape();
  if (dims == nullptr || !IsStaticArray(in) || !IsStaticArray(out) ||
      static_cast<int64_t>(dims->size()) != in.rank()) {
    return false;
  }
  for (int64_t i = 0; i < in.rank(); ++i) {
    const int64_t target = (*dims)[i];
    if (target < 0 || target >= out.rank() ||
        in.dimension(i) != out.dimension(target)) {
      return false;
    }
  }
  return true;
}

// Builds the instructions of one rewrite into a computation: fresh names
// (the module's uniquing) and the metadata of the instruction they replace.
class Rewriter {
 public:
  Rewriter(Computation* computation, const Instruction& origin)
      : computation_(computation), origin_(origin) {}

  // `operand` broadcast to `result` (the final shape, layout included):
  // operand dim i goes to result dim dims[i]. Operand dims of size 1 that
  // stretch are removed with a reshape first. Canonical: folds a broadcast
  // operand, and emits a reshape, transpose or nothing where those suffice.
  Instruction* Expand(Instruction* operand, const Dims& dims,
                      const Shape& result) {
    Dims kept_dims;
    Dims kept_sizes;
    const Shape& in = operand->shape();
    for (int64_t i = 0; i < in.rank(); ++i) {
      if (in.dimension(i) == result.dimension(dims[i])) {
        kept_dims.push_back(dims[i]);
        kept_sizes.push_back(in.dimension(i));
      }
    }
    Instruction* source = operand;
    if (kept_sizes.size() != static_cast<size_t>(in.rank())) {
      source = Reshape(operand, LikeResult(in.element_type(), kept_sizes));
    }
    return Broadcast(source, kept_dims, result);
  }

  // A strict broadcast of `source` to `result`, in canonical form.
  Instruction* Broadcast(Instruction* source, Dims dims, const Shape& result) {
    if (IsStrictBroadcast(*source)) {
      const Dims& inner = *source->attrs().Get<Dims>(attr::kDimensions);
      Dims composed;
      for (int64_t d : inner) composed.push_back(dims[d]);
      dims = std::move(composed);
      source = source->operand(0);
    }
    const Dims& out = result.dimensions();
    const Dims& in = source->shape().dimensions();
    if (AddsOnlySizeOneDims(dims, out)) {
      if (dims.size() == out.size() && util::IsPermutation(dims) &&
          !KeepsElementOrder(dims, in)) {
        return Transpose(source, dims, result);
      }
      if (KeepsElementOrder(dims, in)) {
        if (in == out && source->shape().Compatible(result)) return source;
        return Reshape(source, result);
      }
    }
    auto broadcast =
        std::make_unique<Instruction>(Opcode::kBroadcast, result, "broadcast");
    broadcast->AppendOperand(source);
    broadcast->mutable_attrs()->Set(attr::kDimensions, std::move(dims));
    return Add(std::move(broadcast));
  }

  // An array shape of the given sizes, with a default layout when the
  // instruction being rewritten has layouts.
  Shape LikeResult(ElementType type, const Dims& sizes) const {
    Shape shape = Shape::Array(type, sizes);
    if (origin_.shape().has_layout()) shape.SetDefaultLayoutIfMissing();
    return shape;
  }

 private:
  Instruction* Reshape(Instruction* source, const Shape& result) {
    auto reshape =
        std::make_unique<Instruction>(Opcode::kReshape, result, "reshape");
    reshape->AppendOperand(source);
    return Add(std::move(reshape));
  }

  // Broadcast dims that permute: result dim dims[i] is operand dim i.
  Instruction* Transpose(Instruction* source, const Dims& dims,
                         const Shape& result) {
    Dims permutation(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) permutation[dims[i]] = i;
    auto transpose =
        std::make_unique<Instruction>(Opcode::kTranspose, result, "transpose");
    transpose->AppendOperand(source);
    transpose->mutable_attrs()->Set(attr::kDimensions, std::move(permutation));
    return Add(std::move(transpose));
  }

  Instruction* Add(std::unique_ptr<Instruction> instruction) {
    instruction->metadata = origin_.metadata;
    instruction->location = origin_.location;
    return computation_->AddInstruction(std::move(instruction));
  }

  Computation* computation_;
  const Instruction& origin_;
};

// A broadcast folded into a new one and now unused goes too (other dead
// code is dce's).
absl::Status RemoveIfFoldedAway(Computation* computation,
                                Instruction* instruction) {
  if (instruction->opcode() != Opcode::kBroadcast ||
      instruction->user_count() > 0 || instruction == computation->root() ||
      !instruction->control_successors().empty()) {
    return absl::OkStatus();
  }
  return computation->RemoveInstruction(instruction);
}

// Makes every broadcasting operand of `instruction` the result's shape.
absl::StatusOr<bool> LegalizeElementwise(Computation* computation,
                                         Instruction* instruction,
                                         const BroadcastGroup& spec) {
  const Shape& result = instruction->shape();
  if (!IsStaticArray(result)) return false;
  for (int64_t index : spec.operands) {
    if (index >= instruction->operand_count() ||
        !IsStaticArray(instruction->operand(index)->shape())) {
      return false;
    }
  }
  const Dims* in_dims =
      instruction->attrs().Get<Dims>(attr::kBroadcastDimensions);
  Rewriter rewriter(computation, *instruction);
  bool changed = false;
  absl::flat_hash_map<Instruction*, Instruction*> expanded;
  for (int64_t index : spec.operands) {
    Instruction* operand = instruction->operand(index);
    const Shape& shape = operand->shape();
    if (shape.dimensions() == result.dimensions()) continue;
    if (shape.IsScalar() && util::Contains(spec.scalar_ok, index)) continue;
    Dims dims;
    if (shape.rank() == result.rank()) {
      for (int64_t d = 0; d < shape.rank(); ++d) dims.push_back(d);
    } else if (!shape.IsScalar()) {
      if (in_dims == nullptr ||
          static_cast<int64_t>(in_dims->size()) != shape.rank()) {
        return absl::InvalidArgumentError(absl::StrCat(
            instruction->name(), ": operand ", index,
            " has a lower rank than the result and broadcast_dimensions "
            "does not map it (broadcasting.md, InDim); run the verifier"));
      }
      dims = *in_dims;
#ifdef KILN_SEEDED_BUGS
      // Seeded: the operand aligned with the trailing dimensions (NumPy)
      // instead of broadcast_dimensions, whenever the sizes allow it.
      if (SeededBug("legalize-broadcast-dims")) {
        bool fits = true;
        for (int64_t i = 0; i < shape.rank(); ++i) {
          const int64_t d = result.rank() - shape.rank() + i;
          fits = fits && (shape.dimension(i) == result.dimension(d) ||
                          shape.dimension(i) == 1);
          dims[i] = d;
        }
        if (!fits) dims = *in_dims;
      }
#endif
    }
    for (int64_t i = 0; i < shape.rank(); ++i) {
      const int64_t target = dims[i];
      if (target < 0 || target >= result.rank() ||
          (shape.dimension(i) != result.dimension(target) &&
           shape.dimension(i) != 1)) {
        return absl::InvalidArgumentError(absl::StrCat(
            instruction->name(), ": operand ", index, " dim ", i,
            " cannot broadcast to the result (broadcasting.md); run the "
            "verifier"));
      }
    }
    Instruction*& replacement = expanded[operand];
    if (replacement == nullptr) {
      replacement = rewriter.Expand(
          operand, dims,
          rewriter.LikeResult(shape.element_type(), result.dimensions()));
    }
    instruction->ReplaceOperandWith(index, replacement);
    changed = true;
  }
  for (auto& [old_operand, replacement] : expanded) {
    if (old_operand == replacement) continue;
    absl::Status removed = RemoveIfFoldedAway(computation, old_operand);
    if (!removed.ok()) return removed;
  }
  if (instruction->mutable_attrs()->Erase(attr::kBroadcastDimensions)) {
    changed = true;
  }
  return changed;
}

// Client-form degenerate broadcasts, nested broadcasts and broadcasts that
// are reshapes, transposes or no-ops.
absl::StatusOr<bool> CanonicalizeBroadcast(Computation* computation,
                                           Instruction* broadcast) {
  const Dims* dims = broadcast->attrs().Get<Dims>(attr::kDimensions);
  Instruction* operand =
      broadcast->operand_count() == 1 ? broadcast->operand(0) : nullptr;
  if (dims == nullptr || operand == nullptr ||
      !IsStaticArray(operand->shape()) || !IsStaticArray(broadcast->shape()) ||
      static_cast<int64_t>(dims->size()) != operand->shape().rank()) {
    return false;
  }
  for (int64_t d : *dims) {
    if (d < 0 || d >= broadcast->shape().rank()) return false;
  }
  if (IsStrictBroadcast(*broadcast) && !IsStrictBroadcast(*operand) &&
      !AddsOnlySizeOneDims(*dims, broadcast->shape().dimensions())) {
    return false;  // Canonical already.
  }
  Rewriter rewriter(computation, *broadcast);
  Instruction* replacement =
      rewriter.Expand(operand, *dims, broadcast->shape());
  if (replacement == broadcast) return false;
  if (replacement == operand && !(operand->shape() == broadcast->shape())) {
    return false;  // An identity that changes the layout: a real copy.
  }
  if (replacement->opcode() == Opcode::kBroadcast &&
      replacement->operand(0) == operand &&
      *replacement->attrs().Get<Dims>(attr::kDimensions) == *dims) {
    // Already canonical: drop the duplicate just built.
    absl::Status removed = computation->RemoveInstruction(replacement);
    if (!removed.ok()) return removed;
    return false;
  }
  absl::Status replaced =
      computation->ReplaceInstruction(broadcast, replacement);
  if (!replaced.ok()) return replaced;
  absl::Status removed = RemoveIfFoldedAway(computation, operand);
  if (!removed.ok()) return removed;
  return true;
}

absl::StatusOr<bool> LegalizeComputation(Computation* computation) {
  absl::StatusOr<std::vector<Instruction*>> order = computation->PostOrder();
  if (!order.ok()) return order.status();
  bool changed = false;
  for (Instruction* instruction : *order) {
    absl::StatusOr<bool> rewritten = false;
    if (instruction->opcode() == Opcode::kBroadcast) {
      rewritten = CanonicalizeBroadcast(computation, instruction);
    } else if (std::optional<BroadcastGroup> spec =
                   OperandsThatBroadcast(*instruction)) {
      rewritten = LegalizeElementwise(computation, instruction, *spec);
    }
    if (!rewritten.ok()) return rewritten.status();
    changed |= *rewritten;
  }
  return changed;
}

}  // namespace

absl::StatusOr<bool> BroadcastLegalizationPass::Run(Module& module) {
  bool changed = false;
  for (Computation* computation : module.computations()) {
    absl::StatusOr<bool> legalized = LegalizeComputation(computation);
    if (!legalized.ok()) return legalized.status();
    if (!*legalized) continue;
    changed = true;
    // New instructions were appended after their users; the text form
    // needs every operand defined before its use.
    absl::Status ordered = computation->RestoreDefinitionOrder();
    if (!ordered.ok()) return ordered;
  }
  return changed;
}

KILN_REGISTER_PASS(BroadcastLegalizationPass);

}  // namespace kiln
