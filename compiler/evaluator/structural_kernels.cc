// Kernels of the structural ops: constant, tuple, get-tuple-element.
// (parameter is bound by the driver, evaluator.cc.)
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

absl::StatusOr<Literal> ConstantKernel(const Instruction& instruction,
                                       absl::Span<const Literal* const>,
                                       EvalContext&) {
  if (!instruction.has_literal()) {
    return KernelError(instruction, "constant has no value");
  }
  return instruction.literal();
}

absl::StatusOr<Literal> TupleKernel(const Instruction&,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext&) {
  std::vector<Literal> elements;
  elements.reserve(operands.size());
  for (const Literal* operand : operands) elements.push_back(*operand);
  return Literal::Tuple(std::move(elements));
}

absl::StatusOr<Literal> GetTupleElementKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext&) {
  const int64_t* index = instruction.attrs().Get<int64_t>(attr::kIndex);
  const std::vector<Literal>& elements = operands[0]->tuple_elements();
  if (index == nullptr || *index < 0 ||
      *index >= static_cast<int64_t>(elements.size())) {
    return KernelError(instruction,
                       absl::StrCat("tuple index out of range for ",
                                    operands[0]->shape().ToString(false)));
  }
  return elements[*index];
}

}  // namespace

void RegisterStructuralKernels(KernelTable* table) {
  table->Set(Opcode::kConstant, &ConstantKernel);
  table->Set(Opcode::kTuple, &TupleKernel);
  table->Set(Opcode::kGetTupleElement, &GetTupleElementKernel);
}

}  // namespace eval
}  // namespace kiln
