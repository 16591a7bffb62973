#include "passes/layout_assignment_rules.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "passes/layout_assignment_internal.h"
#include "passes/layout_assignment_util.h"
#include "passes/opcode_classes.h"

namespace kiln {
namespace layout_internal {
namespace {

// Ops whose layouts are part of their meaning or of an outside contract
// (bitcast, host transfers, custom code, and the aliasing halves of every
// async pair): kept as is.
bool IsFixedOpcode(Opcode opcode) {
  switch (opcode) {
    case Opcode::kBitcast:
    case Opcode::kCustomCall:
    case Opcode::kInfeed:
    case Opcode::kOutfeed:
      return true;
    default:
      return IsAsyncOpcode(opcode);
  }
}

bool IsFixed(const Instruction& instruction, const PlainLayouts& plain) {
  if (IsFixedOpcode(instruction.opcode())) return true;
  if (GetOpTraits(instruction.opcode()).collective) {
    const bool* constrain =
        instruction.attrs().Get<bool>(attr::kConstrainLayout);
    if (constrain != nullptr && *constrain) return true;
  }
  // Tiles, element sizes, memory spaces, ...: Kiln does not reassign them.
  if (!plain(&instruction)) return true;
  for (const Instruction* operand : instruction.operands()) {
    if (!plain(operand)) return true;
  }
  return false;
}

absl::Status Invalid(const Instruction& instruction, const std::string& what) {
  return PassError(absl::StrCat(OpcodeName(instruction.opcode()), " ",
                                instruction.name(), ": ", what,
                                " (shape.inferred)"));
}

absl::StatusOr<Rule> ArrayRule(const Instruction& instruction) {
  const Shape& shape = instruction.shape();
  const Opcode opcode = instruction.opcode();
  if (IsElementwiseOpcode(opcode)) return Rule::kElementwise;
  switch (opcode) {
    case Opcode::kCopy:
      if (instruction.operand_count() != 1 ||
          !instruction.operand(0)->shape().Compatible(shape)) {
        return Invalid(instruction, "copy must keep its operand's shape");
      }
      return Rule::kCopy;
    case Opcode::kSlice:
    case Opcode::kDynamicSlice:
    case Opcode::kPad:
    case Opcode::kReverse:
    case Opcode::kConcatenate:
    case Opcode::kDynamicUpdateSlice:
      return Rule::kFollow;
    case Opcode::kConstant:
    case Opcode::kIota:
    case Opcode::kBroadcast:
    case Opcode::kRng:
      return Rule::kSource;
    case Opcode::kTranspose: {
      const auto* permutation =
          instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
      const Shape* operand = instruction.operand_count() == 1
                                 ? &instruction.operand(0)->shape()
                                 : nullptr;
      if (permutation == nullptr || operand == nullptr || !operand->IsArray() ||
          operand->rank() != shape.rank() ||
          !layout_util::IsPlainPermutation(
              layout_util::FromMajorToMinor(*permutation), shape.rank())) {
        return Invalid(instruction,
                       "dimensions must permute the operand's dimensions");
      }
      return Rule::kTranspose;
    }
    case Opcode::kReshape:
      if (instruction.operand_count() != 1 ||
          !instruction.operand(0)->shape().IsArray()) {
        return Invalid(instruction, "reshape takes one array");
      }
      return Rule::kReshape;
    default:
      return Rule::kGeneric;
  }
}

}  // namespace

absl::StatusOr<Rule> RuleOf(const Instruction& instruction,
                            const PlainLayouts& plain) {
  const Opcode opcode = instruction.opcode();
  if (opcode == Opcode::kParameter) return Rule::kParameter;
  if (IsFixed(instruction, plain)) return Rule::kFixed;
  switch (opcode) {
    case Opcode::kTuple:
      if (!instruction.shape().IsTuple() ||
          instruction.shape().tuple_size() != instruction.operand_count()) {
        return Invalid(instruction, "needs one tuple element per operand");
      }
      return Rule::kTuple;
    case Opcode::kGetTupleElement: {
      const int64_t* index = instruction.attrs().Get<int64_t>(attr::kIndex);
      if (instruction.operand_count() != 1 || index == nullptr ||
          !instruction.operand(0)->shape().IsTuple() || *index < 0 ||
          *index >= instruction.operand(0)->shape().tuple_size()) {
        return Invalid(instruction, "index must name an element of the tuple");
      }
      return Rule::kGetTupleElement;
    }
    case Opcode::kOptimizationBarrier:
    case Opcode::kDomain:
    case Opcode::kAddDependency:
      if (instruction.operand_count() == 0 ||
          !instruction.operand(0)->shape().Compatible(instruction.shape())) {
        return Invalid(instruction, "must keep operand 0's shape");
      }
      return Rule::kPassThrough;
    case Opcode::kCall:
      return Rule::kCall;
    case Opcode::kFusion:
      return Rule::kFusion;
    case Opcode::kWhile:
      return Rule::kWhile;
    case Opcode::kConditional:
      return Rule::kConditional;
    case Opcode::kReduce: {
      const auto* dims =
          instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
      if (instruction.operand_count() < 2 || dims == nullptr ||
          !instruction.operand(0)->shape().IsArray()) {
        return Rule::kGeneric;
      }
      for (int64_t d : *dims) {
        if (d < 0 || d >= instruction.operand(0)->shape().rank()) {
          return Rule::kGeneric;
        }
      }
      return Rule::kReduce;
    }
    default:
      break;
  }
  if (!instruction.shape().IsArray()) return Rule::kGeneric;
  return ArrayRule(instruction);
}

const std::vector<int64_t>& TransposePermutation(
    const Instruction& instruction) {
  return *instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
}

int64_t TupleIndex(const Instruction& instruction) {
  return *instruction.attrs().Get<int64_t>(attr::kIndex);
}

}  // namespace layout_internal
}  // namespace kiln
