// The linalg family's kernels, defined across linalg_*.cc and registered by
// RegisterLinalgKernels (linalg_kernels.cc).
#ifndef KILN_COMPILER_EVALUATOR_LINALG_INTERNAL_H_
#define KILN_COMPILER_EVALUATOR_LINALG_INTERNAL_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

#define KILN_LINALG_KERNEL(name)                                          \
  absl::StatusOr<Literal> name(const Instruction& instruction,            \
                               absl::Span<const Literal* const> operands, \
                               EvalContext& context);
KILN_LINALG_KERNEL(DotKernel)                 // linalg_dot.cc
KILN_LINALG_KERNEL(ScaledDotKernel)           // linalg_dot.cc
KILN_LINALG_KERNEL(RaggedDotKernel)           // linalg_ragged_dot.cc
KILN_LINALG_KERNEL(FftKernel)                 // linalg_fft.cc
KILN_LINALG_KERNEL(CholeskyKernel)            // linalg_factor.cc
KILN_LINALG_KERNEL(TriangularSolveKernel)     // linalg_factor.cc
KILN_LINALG_KERNEL(BatchNormTrainingKernel)   // linalg_batch_norm.cc
KILN_LINALG_KERNEL(BatchNormInferenceKernel)  // linalg_batch_norm.cc
KILN_LINALG_KERNEL(BatchNormGradKernel)       // linalg_batch_norm.cc
#undef KILN_LINALG_KERNEL

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_LINALG_INTERNAL_H_
