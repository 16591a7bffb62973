#include "compiler/evaluator/reduction_scalar_program.h"

#include <cstring>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {
namespace eval {
namespace {

// The bits a value of `type` keeps: pred is 0 or 1.
uint64_t WidthMask(ElementType type) {
  if (type == ElementType::kPred) return 1;
  const int bits = GetElementTypeInfo(type).bit_width;
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

int64_t SignExtend(uint64_t bits, ElementType type) {
  const int width = GetElementTypeInfo(type).bit_width;
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

// The value of float bits, exactly (NaN stays NaN).
double FloatValue(uint64_t bits, ElementType type) {
  if (type == ElementType::kF32) {
    const uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof(value));
    return value;
  }
  if (type == ElementType::kF64) {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  if (type == ElementType::kBF16) {
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof(value));
    return value;
  }
  return BitsToFloat(type, bits);
}

bool IsScalarOf(const Instruction* instruction, ElementType type) {
  return instruction->shape().IsScalar() &&
         instruction->shape().element_type() == type;
}

}  // namespace

std::optional<ScalarProgram> ScalarProgram::Compile(
    const Computation& computation,
    absl::Span<const ElementType> parameter_types, ElementType result_type) {
  absl::StatusOr<std::vector<Instruction*>> order = computation.PostOrder();
  const Instruction* root = computation.root();
  if (!order.ok() || root == nullptr || !IsScalarOf(root, result_type) ||
      static_cast<int64_t>(order->size()) != computation.instruction_count() ||
      computation.parameters().size() != parameter_types.size()) {
    return std::nullopt;
  }
  ScalarProgram program;
  absl::flat_hash_map<const Instruction*, int32_t> slot;
  program.parameter_slots_.resize(parameter_types.size());
  for (const Instruction* instruction : *order) {
    const int32_t out = static_cast<int32_t>(program.slots_.size());
    program.slots_.push_back(0);
    slot[instruction] = out;
    if (!instruction->shape().IsScalar()) return std::nullopt;
    const ElementType type = instruction->shape().element_type();
    const TypeKind kind = GetElementTypeInfo(type).kind;
    if (kind == TypeKind::kComplex || kind == TypeKind::kInvalid) {
      return std::nullopt;
    }
    Step step;
    step.out = out;
    step.mask = WidthMask(type);
    std::vector<int32_t> in;
    for (const Instruction* operand : instruction->operands()) {
      auto found = slot.find(operand);
      if (found == slot.end() || !operand->shape().IsScalar()) {
        return std::nullopt;
      }
      in.push_back(found->second);
    }
    const auto operand_type = [&](int i) {
      return instruction->operand(i)->shape().element_type();
    };
    const size_t attrs = instruction->attrs().entries().size();
    const Opcode opcode = instruction->opcode();
    if (opcode != Opcode::kCompare && attrs != 0) return std::nullopt;
    const bool integer =
        kind == TypeKind::kSigned || kind == TypeKind::kUnsigned;
    const bool bitwise = integer || kind == TypeKind::kPred;
    const auto same_operands = [&](size_t count) {
      if (in.size() != count) return false;
      for (size_t i = 0; i < count; ++i) {
        if (operand_type(static_cast<int>(i)) != type) return false;
      }
      return true;
    };
    switch (opcode) {
      case Opcode::kParameter: {
        const int64_t number = instruction->parameter_number();
        if (number < 0 ||
            number >= static_cast<int64_t>(parameter_types.size()) ||
            type != parameter_types[number]) {
          return std::nullopt;
        }
        program.parameter_slots_[number] = out;
        continue;
      }
      case Opcode::kConstant:
        if (!instruction->has_literal() ||
            !instruction->literal().shape().IsScalar() ||
            instruction->literal().element_type() != type) {
          return std::nullopt;
        }
        program.slots_[out] = instruction->literal().GetBits(0) & step.mask;
        continue;
      case Opcode::kCompare: {
        if (type != ElementType::kPred || in.size() != 2 ||
            operand_type(0) != operand_type(1)) {
          return std::nullopt;
        }
        step.type = operand_type(0);
        const EnumValue* direction =
            instruction->attrs().Get<EnumValue>(attr::kDirection);
        const EnumValue* comparison =
            instruction->attrs().Get<EnumValue>(attr::kType);
        if (direction == nullptr ||
            attrs != (comparison == nullptr ? 1u : 2u)) {
          return std::nullopt;
        }
        const std::optional<ComparisonDirection> parsed =
            ParseComparisonDirection(direction->spelling);
        if (!parsed.has_value() || IsComplexType(step.type)) {
          return std::nullopt;
        }
        step.direction = *parsed;
        const std::string fitting(DefaultComparisonType(step.type));
        const std::string chosen =
            comparison == nullptr ? fitting : comparison->spelling;
        if (chosen == "TOTALORDER" && fitting == "FLOAT") {
          step.op = Op::kCompareTotal;
        } else if (chosen != fitting) {
          return std::nullopt;
        } else if (chosen == "FLOAT") {
          step.op = Op::kCompareFloat;
        } else if (chosen == "SIGNED") {
          step.op = Op::kCompareSigned;
        } else {
          step.op = Op::kCompareUnsigned;
        }
        break;
      }
      case Opcode::kSelect:
        if (in.size() != 3 || operand_type(0) != ElementType::kPred ||
            operand_type(1) != type || operand_type(2) != type) {
          return std::nullopt;
        }
        step.op = Op::kSelect;
        break;
      case Opcode::kAnd:
      case Opcode::kOr:
      case Opcode::kXor:
        if (!bitwise || !same_operands(2)) return std::nullopt;
        step.op = opcode == Opcode::kAnd  ? Op::kAnd
                  : opcode == Opcode::kOr ? Op::kOr
                                          : Op::kXor;
        break;
      case Opcode::kNot:
        if (!bitwise || !same_operands(1)) return std::nullopt;
        step.op = Op::kNot;
        break;
      case Opcode::kAdd:
      case Opcode::kSubtract:
      case Opcode::kMultiply:
        if (!integer || !same_operands(2)) return std::nullopt;
        step.op = opcode == Opcode::kAdd        ? Op::kAdd
                  : opcode == Opcode::kSubtract ? Op::kSubtract
                                                : Op::kMultiply;
        break;
      case Opcode::kNegate:
        if (!integer || !same_operands(1)) return std::nullopt;
        step.op = Op::kNegate;
        break;
      case Opcode::kBitcastConvert: {
        if (in.size() != 1) return std::nullopt;
        const TypeKind from = GetElementTypeInfo(operand_type(0)).kind;
        if (from == TypeKind::kComplex || from == TypeKind::kPred ||
            kind == TypeKind::kPred ||
            GetElementTypeInfo(operand_type(0)).bit_width !=
                GetElementTypeInfo(type).bit_width) {
          return std::nullopt;
        }
        step.op = Op::kCopy;
        break;
      }
      default:
        return std::nullopt;
    }
    step.a = in.size() > 0 ? in[0] : 0;
    step.b = in.size() > 1 ? in[1] : 0;
    step.c = in.size() > 2 ? in[2] : 0;
    program.steps_.push_back(step);
  }
  program.root_ = slot[root];
  return program;
}

bool ScalarProgram::Compare(const Step& step) const {
  const uint64_t a = slots_[step.a], b = slots_[step.b];
  switch (step.op) {
    case Op::kCompareFloat:
      return ApplyDirection(step.direction, FloatValue(a, step.type),
                            FloatValue(b, step.type));
    case Op::kCompareTotal: {
      const ElementTypeInfo& info = GetElementTypeInfo(step.type);
      return ApplyDirection(step.direction, FloatTotalOrderKey(a, info),
                            FloatTotalOrderKey(b, info));
    }
    case Op::kCompareSigned:
      return ApplyDirection(step.direction, SignExtend(a, step.type),
                            SignExtend(b, step.type));
    default:
      return ApplyDirection(step.direction, a, b);
  }
}

uint64_t ScalarProgram::Run() {
  for (const Step& step : steps_) {
    const uint64_t a = slots_[step.a], b = slots_[step.b];
    uint64_t value = 0;
    switch (step.op) {
      case Op::kCompareFloat:
      case Op::kCompareTotal:
      case Op::kCompareSigned:
      case Op::kCompareUnsigned:
        value = Compare(step) ? 1 : 0;
        break;
      case Op::kSelect:
        value = a != 0 ? b : slots_[step.c];
        break;
      case Op::kAnd:
        value = a & b;
        break;
      case Op::kOr:
        value = a | b;
        break;
      case Op::kXor:
        value = a ^ b;
        break;
      case Op::kNot:
        value = ~a;
        break;
      case Op::kAdd:
        value = a + b;
        break;
      case Op::kSubtract:
        value = a - b;
        break;
      case Op::kMultiply:
        value = a * b;
        break;
      case Op::kNegate:
        value = uint64_t{0} - a;
        break;
      case Op::kCopy:
        value = a;
        break;
    }
    slots_[step.out] = value & step.mask;
  }
  return slots_[root_];
}

}  // namespace eval
}  // namespace kiln
