// Kernels of the io ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterIoKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
