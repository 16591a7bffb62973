// Kernels of the collective ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterCollectiveKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
