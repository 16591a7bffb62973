#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

const KernelTable& Kernels() {
  static const KernelTable* table = [] {
    auto* t = new KernelTable();
    RegisterStructuralKernels(t);
    RegisterElementwiseKernels(t);
    RegisterConversionKernels(t);
    RegisterDataMovementKernels(t);
    RegisterIndexingKernels(t);
    RegisterReductionKernels(t);
    RegisterControlFlowKernels(t);
    RegisterLinalgKernels(t);
    RegisterConvolutionKernels(t);
    RegisterRandomKernels(t);
    RegisterCollectiveKernels(t);
    RegisterIoKernels(t);
    return t;
  }();
  return *table;
}

bool RunsOpOnType(Opcode opcode, ElementType type) {
  if (type == ElementType::kInvalid) return false;
  if (opcode == Opcode::kParameter) return true;
  if (Kernels().Find(opcode) == nullptr) return false;
  switch (opcode) {
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kRemainder:
    case Opcode::kTopK:
      return !IsComplexType(type);
    default:
      return true;
  }
}

}  // namespace eval
}  // namespace kiln
