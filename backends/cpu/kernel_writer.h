// Internal to the loop emitter: the class that writes one kernel's C++
// text. loop_emitter.cc holds the loop nests and the elementwise and index
// ops; loop_emitter_reductions.cc holds reduce, reduce-window (scans
// included), gather and the inlined reducers.
#ifndef KILN_BACKENDS_CPU_KERNEL_WRITER_H_
#define KILN_BACKENDS_CPU_KERNEL_WRITER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "backends/cpu/kernel_target.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"

namespace kiln::cpu::emitter_internal {

// One C++ index expression per dimension of a value.
using Index = std::vector<std::string>;

class KernelWriter {
 public:
  KernelWriter(const Computation& computation, std::string name,
               KernelTarget target = KernelTarget::kHostCpp)
      : computation_(computation), name_(std::move(name)), target_(target) {}

  absl::StatusOr<std::string> Write();

  // The statements computing the scalar computation's root with parameter
  // k bound to the C++ expression `names[k]`, indented `depth` levels;
  // stores the variable holding the result in `result`.
  std::string ScalarBody(const std::vector<std::string>& names, int depth,
                         std::string* result) {
    for (size_t k = 0; k < names.size(); ++k) {
      bindings_[computation_.parameter(k)] = names[k];
    }
    depth_ = depth;
    *result = Value(computation_.root(), {});
    return body_;
  }
  const std::string& globals() const { return globals_; }

 private:
  // The variable holding `instruction`'s element at `index`; appends the
  // statements computing it to the body.
  std::string Value(const Instruction* instruction, const Index& index);
  std::string Compute(const Instruction* instruction, const Index& index);
  std::string ComputePad(const Instruction* pad, const Index& index);
  std::string ComputeDynamicUpdateSlice(const Instruction* dus,
                                        const Index& index);
  std::string ComputeConcatenate(const Instruction* concat, const Index& index);
  std::string ComputeReduce(const Instruction* reduce, const Index& index);
  std::string ComputeGather(const Instruction* gather, const Index& index);
  std::string ComputeReduceWindow(const Instruction* reduce_window,
                                  const Index& index);
  // The value of `computation` inlined with parameter k bound to args[k]
  // (values it computes leave the memo with it).
  std::string Inline(const Computation& computation,
                     const std::vector<std::string>& args);
  // acc = reducer(acc, value), the reducer inlined.
  void Combine(const Computation& reducer, const std::string& acc,
               const std::string& value);
  std::string ComputeConstant(const Instruction* constant, const Index& index);
  std::string ComputeComplexConstant(const Instruction* constant,
                                     const Index& index);
  // Below this many elements a loop nest stays on one thread (starting the
  // threads costs more than the work).
  static constexpr int64_t kParallelWork = int64_t{1} << 16;
  int64_t Work(const Shape& shape) const;
  // Computes every scalar of the computation once, before the loops: a
  // scalar is the same for every element (a dynamic-slice's start index,
  // a full reduction), and computed inside the loop it keeps the loop
  // from vectorizing.
  void HoistScalars();
  // Flat loops whose outputs take at least this many bytes store them with
  // non-temporal stores: computed a block at a time into a buffer that
  // stays in L1, then streamed to memory without reading the destination
  // lines first (a plain store reads each line before writing it, a third
  // more memory traffic for a binary op, and evicts the cache for data
  // nobody reads soon). Smaller outputs stay in cache for their consumers.
  static constexpr int64_t kStreamingStoreBytes = int64_t{8} << 20;
  static constexpr int64_t kStreamBlock = 1024;  // Elements per block.
  bool StreamsOutputs(const std::vector<const Instruction*>& outputs,
                      const std::vector<size_t>& which) const;
  void EmitStreamingLoop(const std::vector<const Instruction*>& outputs,
                         const std::vector<size_t>& which);
  // One loop nest over the outputs' common dimensions storing outputs
  // `which` (every output when empty).
  void EmitLoopNest(const std::vector<const Instruction*>& outputs,
                    std::vector<size_t> which);
  // A scan reduce-window stored as output k: the other dimensions loop
  // (the outermost one over threads), the scanned one innermost, carrying
  // the running value.
  void EmitScanLoopNest(const Instruction* reduce_window, size_t k,
                        const Scan& scan);
  // CUDA: the grid-stride loop over `shape`'s elements (flat, or with the
  // index variables i0.. computed from the position), into `index`.
  void OpenGridStrideLoop(const Shape& shape, Index* index);
  // CUDA: the grid-stride loop of a scan over every dimension but the
  // scanned one, binding their index variables.
  void OpenScanGridStrideLoop(const Shape& shape, int64_t scanned,
                              Index* index);
  // CUDA: whether `output` (a kernel's only output) is a reduce computed
  // by the two-level block scheme, and that kernel's body: one block per
  // output element, each thread folding a strided part of the reduced
  // elements, then the warps' values combined by shuffles, the warps'
  // through shared memory.
  bool IsBlockReduction(const Instruction& output) const;
  void EmitBlockReduction(const Instruction* reduce);
  // acc = reducer(acc, value) for a block reduction (wide: in double).
  void CombineReduced(const Instruction* reduce, const std::string& acc,
                      const std::string& value);
  // The warp-level shuffle combine of (acc, has).
  void EmitWarpCombine(const Instruction* reduce, const std::string& type);
  bool cuda() const { return target_ == KernelTarget::kCuda; }
  // How constant arrays are declared at file scope.
  const char* ConstantQualifier() const {
    return cuda() ? "static __device__ const " : "static const ";
  }
  // Row-major position of `index` in `shape`.
  std::string Linear(const Index& index, const Shape& shape) const;
  // The index of `shape` whose row-major position is `linear`.
  Index Delinearize(const std::string& linear, const Shape& shape);

  std::string Fresh(absl::string_view prefix) {
    return absl::StrCat(prefix, next_id_++);
  }
  void Line(absl::string_view text) {
    absl::StrAppend(&body_, std::string(2 * depth_, ' '), text, "\n");
  }
  // The C++ type a value of `instruction` is computed in.
  std::string Type(const Instruction* instruction) const {
    return ComputeType(instruction->shape().element_type());
  }
  // Runs `emit` in a nested C++ block: values computed inside are not
  // visible after it, so they leave the memo with it.
  template <typename F>
  void Nested(F&& emit) {
    auto saved = memo_;
    ++depth_;
    emit();
    --depth_;
    memo_ = std::move(saved);
  }

  const Computation& computation_;
  std::string name_;
  KernelTarget target_;
  // CUDA: the launch of the kernel's loop nests.
  LaunchDims launch_;
  // The root reduce a block reduction computes (not hoisted as a scalar).
  const Instruction* block_reduced_ = nullptr;
  bool flat_ = false;
  int64_t flat_count_ = 0;
  std::string body_;
  std::string globals_;
  int depth_ = 0;
  int64_t next_id_ = 0;
  absl::flat_hash_map<std::string, std::string> memo_;
  // Parameters of an inlined reducer, bound to variables.
  absl::flat_hash_map<const Instruction*, std::string> bindings_;
  absl::flat_hash_map<const Instruction*, std::string> parameter_names_;
  // Outputs already stored by an earlier loop nest, read from their buffer.
  absl::flat_hash_map<const Instruction*, std::string> materialized_;
};

}  // namespace kiln::cpu::emitter_internal

#endif  // KILN_BACKENDS_CPU_KERNEL_WRITER_H_
