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

}  // namespace eval
}  // namespace kiln
