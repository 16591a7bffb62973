// Kernels of the data movement ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterDataMovementKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
