// Kernels of the indexing ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterIndexingKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
