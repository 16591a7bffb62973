// Kernels of the binary elementwise ops (add ... xor, the shifts, power,
// atan2, complex), with client-form implicit broadcasting
// (elementwise_broadcast.h). The scalar functions are in
// elementwise_binary_ops.h.
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/elementwise_binary_ops.h"
#include "compiler/evaluator/elementwise_broadcast.h"
#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {
namespace {

// The operands' common element type, or an error.
absl::StatusOr<ElementType> SameElementType(
    const Instruction& instruction, absl::Span<const Literal* const> operands) {
  if (operands.size() != 2) {
    return KernelError(instruction, "expects two operands");
  }
  absl::Status arrays = CheckArrayOperands(instruction, operands);
  if (!arrays.ok()) return arrays;
  const ElementType type = operands[0]->element_type();
  if (operands[1]->element_type() != type) {
    return KernelError(
        instruction,
        absl::StrCat("operands must have one element type, got ",
                     ElementTypeName(type), " and ",
                     ElementTypeName(operands[1]->element_type())));
  }
  return type;
}

template <typename Op>
absl::StatusOr<Literal> BinaryKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const> operands,
                                     EvalContext& context) {
  absl::StatusOr<ElementType> type = SameElementType(instruction, operands);
  if (!type.ok()) return type.status();
  absl::StatusOr<BroadcastPlan> plan = PlanBroadcast(instruction, operands);
  if (!plan.ok()) return plan.status();
  const Op op{BitWidth(*type)};
  return DispatchByComputeType(*type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    if constexpr (Op::template Supports<T>()) {
      return CombineElements<T, T>(instruction, *plan, *operands[0],
                                   *operands[1], *type, context,
                                   [op](T a, T b) { return op(a, b); });
    } else {
      return UnsupportedType(instruction, *type);
    }
  });
}

// complex(re, im): f32 parts make c64, f64 parts c128.
absl::StatusOr<Literal> ComplexKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  absl::StatusOr<ElementType> type = SameElementType(instruction, operands);
  if (!type.ok()) return type.status();
  absl::StatusOr<BroadcastPlan> plan = PlanBroadcast(instruction, operands);
  if (!plan.ok()) return plan.status();
  if (*type == ElementType::kF32) {
    return CombineElements<float, std::complex<float>>(
        instruction, *plan, *operands[0], *operands[1], ElementType::kC64,
        context,
        [](float re, float im) { return std::complex<float>(re, im); });
  }
  if (*type == ElementType::kF64) {
    return CombineElements<double, std::complex<double>>(
        instruction, *plan, *operands[0], *operands[1], ElementType::kC128,
        context,
        [](double re, double im) { return std::complex<double>(re, im); });
  }
  return UnsupportedType(instruction, *type);
}

}  // namespace

void RegisterBinaryKernels(KernelTable* table) {
  // OnValidElements: operands with dynamic sizes are computed on their
  // valid elements only (docs/evaluator_dynamic.md).
  table->Set(Opcode::kAdd, &OnValidElements<BinaryKernel<AddOp>>);
  table->Set(Opcode::kSubtract, &OnValidElements<BinaryKernel<SubtractOp>>);
  table->Set(Opcode::kMultiply, &OnValidElements<BinaryKernel<MultiplyOp>>);
  table->Set(Opcode::kDivide, &OnValidElements<BinaryKernel<DivideOp>>);
  table->Set(Opcode::kRemainder, &OnValidElements<BinaryKernel<RemainderOp>>);
  table->Set(Opcode::kMaximum, &OnValidElements<BinaryKernel<MaximumOp>>);
  table->Set(Opcode::kMinimum, &OnValidElements<BinaryKernel<MinimumOp>>);
  table->Set(Opcode::kPower, &OnValidElements<BinaryKernel<PowerOp>>);
  table->Set(Opcode::kAtan2, &OnValidElements<BinaryKernel<Atan2Op>>);
  table->Set(Opcode::kAnd, &OnValidElements<BinaryKernel<AndOp>>);
  table->Set(Opcode::kOr, &OnValidElements<BinaryKernel<OrOp>>);
  table->Set(Opcode::kXor, &OnValidElements<BinaryKernel<XorOp>>);
  table->Set(Opcode::kShiftLeft, &OnValidElements<BinaryKernel<ShiftLeftOp>>);
  table->Set(Opcode::kShiftRightArithmetic,
             &OnValidElements<BinaryKernel<ShiftRightArithmeticOp>>);
  table->Set(Opcode::kShiftRightLogical,
             &OnValidElements<BinaryKernel<ShiftRightLogicalOp>>);
  table->Set(Opcode::kComplex, &OnValidElements<ComplexKernel>);
}

}  // namespace eval
}  // namespace kiln
