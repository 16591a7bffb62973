// Kernels of the elementwise ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterElementwiseKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
