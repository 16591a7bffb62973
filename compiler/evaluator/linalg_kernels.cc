// Kernels of the linalg ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterLinalgKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
