#include "passes/fusion_cost_model.h"

#include "absl/status/statusor.h"
#include "compiler/ir/op_traits.h"

namespace kiln {

bool IsLoopFusibleOpcode(Opcode opcode) {
  return GetOpTraits(opcode).cost != CostClass::kOpaque;
}

bool IsExpensiveOpcode(Opcode opcode) {
  return GetOpTraits(opcode).cost == CostClass::kExpensive;
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
