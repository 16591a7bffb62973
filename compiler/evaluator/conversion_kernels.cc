// Kernels of the conversion ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterConversionKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
