// Kernels of the control flow ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterControlFlowKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
