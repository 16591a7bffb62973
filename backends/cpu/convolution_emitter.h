// convolution as a generated kernel, one text for the host and for CUDA:
// a direct implicit GEMM without an im2col buffer. One parallel loop runs
// over the output's elements (an OpenMP loop on the host, a grid-stride
// loop on CUDA: one thread per element, no barriers), and each element is
// the sum over its K = (input features of its group) x (window positions)
// products, formed exactly as the evaluator does
// (compiler/evaluator/convolution_kernels.cc): operands converted to the
// result's compute type, summed in the evaluator's arithmetic type
// (linalg_common.h's Arith: double for every float type up to f32,
// complex<double> for c64, a wrapping unsigned type for integers), input
// feature outer and window positions row-major inner, padding and holes
// skipped (never multiplied), rounded once when stored. Not tuned: no
// shared-memory tiling, no tensor cores.
#ifndef KILN_BACKENDS_CPU_CONVOLUTION_EMITTER_H_
#define KILN_BACKENDS_CPU_CONVOLUTION_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "backends/cpu/kernel_target.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// Kernel `name` for `target` (KernelHeader/KernelTrailer's function and
// launch) reading the input in[0] and the kernel in[1] and writing the
// result out[0], every buffer row-major in its dimension order.
// Unimplemented, with the reason, for what it does not take: dynamic or
// non-array shapes, operand types that are not the result's or an exact
// widening to it, geometry the shape rule would refuse, sizes whose
// offsets could overflow int64.
absl::StatusOr<std::string> EmitConvolutionKernel(
    const Instruction& convolution, absl::string_view name,
    KernelTarget target);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CONVOLUTION_EMITTER_H_
