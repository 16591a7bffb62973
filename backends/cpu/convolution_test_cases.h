// Convolutions that the generated convolution kernel (convolution_emitter.h)
// must compute bit for bit as the evaluator, shared by the cpu and the
// gpu-emulated tests: every geometry feature (padding, negative padding,
// stride, base and window dilation, reversal, feature and batch groups,
// dim_labels, spatial rank 0) and the element type families.
#ifndef KILN_BACKENDS_CPU_CONVOLUTION_TEST_CASES_H_
#define KILN_BACKENDS_CPU_CONVOLUTION_TEST_CASES_H_

#include <string>
#include <vector>

namespace kiln::cpu {

struct ConvolutionCase {
  std::string name;
  std::string hlo;
  // The host backend runs it as the im2col GEMM library thunk (f32, f64,
  // bf16, f16 of one type, batch_group_count 1): only the CUDA target
  // runs it as the kernel, and only there must it match bit for bit.
  bool library_on_host = false;
};

std::vector<ConvolutionCase> ConvolutionKernelCases();

// The line of the cases' convolution (named c) in `--emit=thunks` text:
// "N: kernel kiln_kernel_K (c) in=..." when the generated kernel runs it
// (the pipeline may add layout copies around it), "" when missing.
std::string ConvolutionStep(const std::string& thunks);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CONVOLUTION_TEST_CASES_H_
