#include "passes/fusion_cost_model.h"

#include "absl/status/statusor.h"
#include "passes/opcode_classes.h"

namespace kiln {

bool IsLoopFusibleOpcode(Opcode opcode) {
  switch (opcode) {
    case Opcode::kBroadcast:
    case Opcode::kConcatenate:
    case Opcode::kConstant:
    case Opcode::kDynamicSlice:
    case Opcode::kIota:
    case Opcode::kPad:
    case Opcode::kReshape:
    case Opcode::kReverse:
    case Opcode::kSlice:
    case Opcode::kTranspose:
    case Opcode::kCopy:
      return true;
    // Elementwise, but not fused: map calls a computation, and
    // stochastic-convert is not costed yet.
    case Opcode::kMap:
    case Opcode::kStochasticConvert:
      return false;
    default:
      return IsElementwiseOpcode(opcode);
  }
}

bool IsExpensiveOpcode(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAcos:
    case Opcode::kAcosh:
    case Opcode::kAsin:
    case Opcode::kAsinh:
    case Opcode::kAtan:
    case Opcode::kAtan2:
    case Opcode::kAtanh:
    case Opcode::kCbrt:
    case Opcode::kCos:
    case Opcode::kCosh:
    case Opcode::kDivide:
    case Opcode::kErf:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kPower:
    case Opcode::kRemainder:
    case Opcode::kRsqrt:
    case Opcode::kSin:
    case Opcode::kSinh:
    case Opcode::kSqrt:
    case Opcode::kTan:
    case Opcode::kTanh:
      return true;
    default:
      return false;
  }
}

int64_t ArrayElementCount(const Shape& shape) {
  if (!shape.IsArray()) return 0;
  absl::StatusOr<int64_t> count = shape.ElementCount();
  return count.ok() ? *count : 0;
}

bool ReusesOperandElements(const Instruction& consumer, int64_t operand_index) {
  if (consumer.opcode() != Opcode::kBroadcast) return false;
  return ArrayElementCount(consumer.shape()) >
         ArrayElementCount(consumer.operand(operand_index)->shape());
}

bool IsFusibleConstant(const Instruction& constant,
                       const FusionLimits& limits) {
  const int64_t elements = ArrayElementCount(constant.shape());
  return constant.shape().IsArray() && constant.has_literal() &&
         elements <= limits.max_fused_constant_elements;
}

bool IsExpensiveByDefault(const Instruction& producer,
                          const FusionLimits& limits) {
  if (IsExpensiveOpcode(producer.opcode())) return true;
  if (producer.opcode() == Opcode::kConstant) {
    return !IsFusibleConstant(producer, limits);
  }
  return ArrayElementCount(producer.shape()) > limits.max_cheap_elements;
}

}  // namespace kiln
