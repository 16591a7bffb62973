// Kernels of the reduction ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterReductionKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
