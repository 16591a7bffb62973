// convolution as a library call: the input is brought to [batch,
// spatial..., feature] and the kernel to [spatial..., input feature,
// output feature] (transposing copies), the windows of every output
// position are gathered into rows of a matrix (im2col: padding, strides,
// window and base dilation, window reversal), and one GEMM per feature
// group (host_library.h) computes [positions, output features], which is
// then put in the output's dimension order. The evaluator leaves padding
// and the holes of a dilated input out of each sum, where the GEMM
// multiplies them as zeros: the same unless the kernel holds an inf or a
// NaN (0 x inf = NaN), so such a run (checked per run, the kernel is
// small) goes to the evaluator's kernel instead.
#ifndef KILN_BACKENDS_CPU_CONVOLUTION_THUNK_H_
#define KILN_BACKENDS_CPU_CONVOLUTION_THUNK_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/host_library.h"
#include "backends/cpu/thunks.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

class ConvolutionThunk : public LibraryThunk {
 public:
  // What Run needs, computed once from the instruction.
  struct Plan {
    std::vector<int64_t> input_permutation;   // To [N, S..., C].
    std::vector<int64_t> kernel_permutation;  // To [K..., Cg, F].
    std::vector<int64_t> output_permutation;  // From [N, O..., F].
    int64_t batch = 0, in_features = 0, out_features = 0, groups = 1;
    std::vector<int64_t> in_spatial, out_spatial, window;
    std::vector<int64_t> stride, pad_low, window_dilation, base_dilation;
    std::vector<bool> reversal;
    // Padding or base dilation: im2col writes zeros that the window then
    // multiplies with the kernel.
    bool fills_zeros = false;
  };

  // The plan, or nullopt (with `why`) when the convolution is not one the
  // thunk runs: batch groups, types other than f32/f64/bf16/f16, or an
  // im2col matrix over `max_scratch_bytes`.
  static std::optional<Plan> MakePlan(const Instruction& convolution,
                                      int64_t max_scratch_bytes,
                                      std::string* why);

  ConvolutionThunk(const Instruction& convolution, Plan plan, int64_t input,
                   int64_t kernel, int64_t output)
      : convolution_(convolution),
        plan_(std::move(plan)),
        input_(input),
        kernel_(kernel),
        output_(output) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  void SlotUse(std::vector<int64_t>* reads,
               std::vector<int64_t>* writes) const override {
    reads->push_back(input_);
    reads->push_back(kernel_);
    writes->push_back(output_);
  }

 private:
  template <typename T>
  void Compute(const T* input, const T* kernel, T* output) const;

  const Instruction& convolution_;
  Plan plan_;
  int64_t input_, kernel_, output_;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CONVOLUTION_THUNK_H_
