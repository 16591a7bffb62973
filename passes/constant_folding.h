// constant-folding: replaces an instruction whose operands are constants
// by a constant holding its value, computed by the reference evaluator's
// kernel for the op (compiler/evaluator/kernel.h, the kernels behind
// Evaluate), after XLA's HloConstantFolding.
//
// An instruction is folded when
//   - it is in a computation other than a fused one (the fusion pass owns
//     those);
//   - every operand is a constant or a broadcast of a constant, and at
//     least one is a constant (XLA's rule: an op of broadcasts only is
//     better hoisted above the broadcast by the simplifier, then folded
//     small);
//   - its result is a static array (no tuple: backends do not take tuple
//     constants; no token; no dynamic dimension, whose runtime size a
//     static constant would lose) of at most `max_elements` elements, and
//     every operand has at most `max_elements` elements too (bounds the
//     evaluation time and the module's growth);
//   - it is not one of the ops listed below, and neither it nor any
//     computation it calls, transitively, contains one;
//   - the evaluator computes it. An evaluator error (an op it cannot run,
//     a size limit) leaves the instruction alone and is not an error of the
//     pass. Values the spec defines are folded as defined (integer x / 0 is
//     -1, as XLA computes it).
//
// Never folded:
//   - parameter, constant, tuple;
//   - broadcast and iota: a cheap description of a large value (XLA keeps
//     them for the same reason), whatever their size;
//   - side effects and state: rng, rng-bit-generator,
//     rng-get-and-update-state (a backend's generator need not match the
//     evaluator's), infeed, outfeed, send, recv and their -done, after-all,
//     custom-call (a backend-specific target), every collective,
//     replica-id, partition-id (per-device values), the asynchronous ops,
//     optimization-barrier and domain (they exist to stay), and every op
//     whose SideEffect trait (compiler/ir/op_traits.h) is not kNone;
//   - while (a loop may run long; XLA folds no loops either) and fft
//     (expensive, as in XLA).
//
// The new constant takes the replaced instruction's shape (layout
// included), metadata, sharding, frontend attributes and source location,
// and the name "constant" (uniqued). Operands left unused (constants and
// broadcasts of constants) are removed. Folding runs in post order, so
// chains of foldable instructions fold in one run.
//
// Exact: the constant is the value the evaluator computes for the
// instruction, bit for bit. Linear: each instruction is examined once; the
// evaluation cost of one instruction is bounded by the element caps (and,
// for calls, the size of the callee).
#ifndef KILN_PASSES_CONSTANT_FOLDING_H_
#define KILN_PASSES_CONSTANT_FOLDING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"

namespace kiln {

struct ConstantFoldingOptions {
  // XLA caps folded results at 45 million elements; Kiln prints constants
  // as text and evaluates with plain loops, so the default is a thousand
  // times smaller: a folded f32 constant is at most ~176 KiB.
  int64_t max_elements = 45 * 1000;
};

class ConstantFoldingPass : public Pass {
 public:
  ConstantFoldingPass() = default;
  explicit ConstantFoldingPass(ConstantFoldingOptions options)
      : options_(options) {}
  absl::string_view name() const override { return "constant-folding"; }
  absl::StatusOr<bool> Run(Module& module) override;

 private:
  ConstantFoldingOptions options_;
};

}  // namespace kiln

#endif  // KILN_PASSES_CONSTANT_FOLDING_H_
