// Kernels of the linear-algebra family: dot, ragged-dot and scaled-dot
// (linalg_dot.cc, linalg_ragged_dot.cc), fft (linalg_fft.cc), cholesky and
// triangular-solve (linalg_factor.cc), and the batch norms
// (linalg_batch_norm.cc). Convolution is in convolution_kernels.cc.
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/linalg_internal.h"

namespace kiln {
namespace eval {

void RegisterLinalgKernels(KernelTable* table) {
  table->Set(Opcode::kDot, &WithDynamicSizes<DotKernel, RunDotDynamic>);
  table->Set(Opcode::kRaggedDot, &RaggedDotKernel);
  table->Set(Opcode::kScaledDot, &ScaledDotKernel);
  table->Set(Opcode::kFft, &FftKernel);
  table->Set(Opcode::kCholesky, &CholeskyKernel);
  table->Set(Opcode::kTriangularSolve, &TriangularSolveKernel);
  table->Set(Opcode::kBatchNormTraining, &BatchNormTrainingKernel);
  table->Set(Opcode::kBatchNormInference, &BatchNormInferenceKernel);
  table->Set(Opcode::kBatchNormGrad, &BatchNormGradKernel);
}

}  // namespace eval
}  // namespace kiln
