// The lowering's internals, shared by its files: lowering.cc (values,
// kernels, the fallback and the walk over a computation),
// lowering_library.cc (dot, convolution, sort, scatter and rng-bit-generator)
// and lowering_control.cc (while, conditional and call, and the loop state).
// Private to //backends/cpu.
#ifndef KILN_BACKENDS_CPU_LOWERING_INTERNAL_H_
#define KILN_BACKENDS_CPU_LOWERING_INTERNAL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "backends/cpu/buffer_assignment.h"
#include "backends/cpu/lowering.h"
#include "compiler/ir/computation.h"

namespace kiln::cpu::lowering_internal {

// What the programs of one module share: the generated source of every
// kernel, the statistics, and the programs of computations already lowered
// (a computation called from several places is lowered once).
struct LoweringContext {
  std::string kernels;
  LoweringStats stats;
  Donation donation;
  int64_t max_while_iterations = 0;
  KernelTarget target = KernelTarget::kHostCpp;
  absl::flat_hash_map<const Computation*, std::shared_ptr<Program>> programs;
  // While bodies, lowered apart: they write the loop state in place.
  absl::flat_hash_map<const Computation*, std::shared_ptr<Program>>
      while_bodies;
  int depth = 0;
};

// Computations nested deeper than this run on the evaluator (lowering
// recurses once per level).
constexpr int kMaxNesting = 64;

class Lowerer {
 public:
  Lowerer(LoweringContext& context, const Computation& computation,
          bool result_in_place, bool while_body = false)
      : context_(context),
        computation_(computation),
        result_in_place_(result_in_place),
        while_body_(while_body) {}
  absl::StatusOr<std::unique_ptr<Program>> Run();

 private:
  int64_t step() const { return program_->thunks.size(); }
  int64_t NewSlot(BufferSlot slot) {
    program_->slots.push_back(std::move(slot));
    intervals_.emplace_back();
    return program_->slots.size() - 1;
  }
  absl::StatusOr<ValueTree> ArenaValue(const Shape& shape);
  // A while's state: new slots, except for the elements the body passes
  // through unchanged (its root's element i is get-tuple-element i of its
  // parameter) whose initial value is a parameter's or a constant's slot,
  // which nothing writes during the run: the state element is that slot,
  // and neither the entry into the loop nor an iteration copies it (a
  // loop reading a large array it never updates, as JAX's fori_loop
  // carries its inputs, copied it into the state on every run).
  absl::StatusOr<ValueTree> LoopState(const Shape& shape, const ValueTree& init,
                                      const Instruction& body_root,
                                      const Instruction& body_state);
  ValueTree ParameterValue(const Shape& shape, int64_t parameter,
                           std::vector<int64_t> path);
  ValueTree ConstantValue(const Literal& literal);
  void NoteUse(const ValueTree& tree);
  absl::Status Lower(const Instruction* instruction);
  // Each returns false (and says why) when it does not apply.
  absl::StatusOr<bool> TryKernel(const Instruction* instruction,
                                 std::string* why);
  absl::StatusOr<bool> TryDot(const Instruction* instruction);
  absl::Status Fallback(const Instruction* instruction, const std::string& why);
  absl::Status AddKernel(const Instruction* instruction,
                         const Computation& computation, int64_t instructions);
  // A kernel whose source `emit` writes under the symbol it is given.
  // `in_place`: the result takes operand 0's slots instead of new ones
  // (or those of `operand0`, which the kernel then reads in operand 0's
  // place: a value an earlier kernel of the same instruction made).
  absl::Status AddKernelSource(
      const Instruction* instruction,
      const std::function<absl::StatusOr<std::string>(const std::string&)>&
          emit,
      int64_t instructions, bool in_place = false,
      const ValueTree* operand0 = nullptr);
  // A dynamic-update-slice whose operand nothing else reads: its kernel
  // writes the update's window into the operand's own slot.
  absl::StatusOr<bool> TryInPlaceUpdate(const Instruction* instruction);
  // Whether `instruction` may write its result over its operand 0: the
  // operand has a slot of its own that nothing reads afterwards.
  bool OwnsOperandSlot(const Instruction* instruction) const;
  // In a while body: whether `instruction` (an update of its operand 0) may
  // write into the loop state's own element, which its operand 0 reads.
  // It may when its result is that element of the next state and nothing
  // else reads the element (XLA's in-place while state: a scan appending
  // one row per iteration must not copy its whole output each time).
  bool UpdatesStateInPlace(const Instruction* instruction) const;
  // In a while body, after lowering: each result element computed after
  // the last read of the same state element is written into the state's
  // own buffer instead of an arena slot, so that no copy-back is needed.
  void WriteResultsIntoState();
  // On CUDA, a scatter whose updates commute: one thread per update
  // (scatter_emitter.h, ParallelScatter).
  absl::StatusOr<bool> TryParallelScatter(const Instruction* instruction);
  // sort and scatter, whose kernels have emitters of their own.
  absl::StatusOr<bool> TrySortOrScatter(const Instruction* instruction,
                                        std::string* why);
  // convolution: the host's im2col GEMM thunk where it applies, else a
  // generated kernel (convolution_emitter.h), always the kernel on CUDA.
  absl::StatusOr<bool> TryConvolution(const Instruction* instruction,
                                      std::string* why);
  absl::StatusOr<bool> TryLibraryConvolution(const Instruction* instruction,
                                             std::string* why);
  // rng-bit-generator: a kernel of the generator (rng_emitter.h).
  absl::StatusOr<bool> TryRngBitGenerator(const Instruction* instruction,
                                          std::string* why);
  // while, conditional and call: their computations' programs.
  absl::StatusOr<bool> TryControlFlow(const Instruction* instruction,
                                      std::string* why);
  absl::StatusOr<std::shared_ptr<Program>> ProgramOf(
      const Computation* computation, std::string* why,
      bool while_body = false);
  std::vector<ValueTree> UseOperands(const Instruction* instruction,
                                     int64_t first = 0);

  LoweringContext& context_;
  const Computation& computation_;
  const bool result_in_place_;
  const bool while_body_;
  std::unique_ptr<Program> program_ = std::make_unique<Program>();
  std::vector<BufferInterval> intervals_;
  absl::flat_hash_map<const Instruction*, ValueTree> values_;
  absl::flat_hash_set<int64_t> flat_kernels_;  // Steps of flat kernels.
};

// Why `computation` cannot be lowered step by step (dynamic shapes, tokens,
// ...), or empty when it can.
std::string StepwiseRefusal(const Computation& computation);

}  // namespace kiln::cpu::lowering_internal

#endif  // KILN_BACKENDS_CPU_LOWERING_INTERNAL_H_
