// Kernels of the convolution ops (not written yet).
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterConvolutionKernels(KernelTable*) {}

}  // namespace eval
}  // namespace kiln
