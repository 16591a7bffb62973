// Registration of the elementwise family's kernels, split over several
// files; RegisterElementwiseKernels (elementwise_kernels.cc) calls these.
#ifndef KILN_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_
#define KILN_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

void RegisterBinaryKernels(KernelTable* table);  // elementwise_binary.cc
void RegisterCompareSelectKernels(
    KernelTable* table);  // elementwise_compare.cc

// "<op> does not accept element type <type>", for types a kernel does
// not implement (the shape rules refuse them first on verified modules).
absl::Status UnsupportedType(const Instruction& instruction, ElementType type);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_ELEMENTWISE_INTERNAL_H_
