// The conversion family's kernels are split over two files;
// RegisterConversionKernels (conversion_kernels.cc) registers convert and
// calls this for the others.
#ifndef KILN_COMPILER_EVALUATOR_CONVERSION_KERNELS_H_
#define KILN_COMPILER_EVALUATOR_CONVERSION_KERNELS_H_

#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// bitcast-convert, reduce-precision, stochastic-convert (conversion_bits.cc).
void RegisterBitConversionKernels(KernelTable* table);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_CONVERSION_KERNELS_H_
