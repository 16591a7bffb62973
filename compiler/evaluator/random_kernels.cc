// Kernels of the random ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterRandomKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
