// The interface between the evaluator's driver (evaluator.cc) and the
// kernels of each op family. A kernel computes one instruction's value from
// its operands' values; the family files register their kernels in the
// table below, so that an op's kernel sits next to its siblings and no
// file holds a switch over every opcode.
#ifndef KILN_COMPILER_EVALUATOR_KERNEL_H_
#define KILN_COMPILER_EVALUATOR_KERNEL_H_

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace eval {

class CollectiveHub;  // collective_hub.h: the simulated devices' rendezvous.

// Which simulated device an evaluation runs on.
struct DeviceId {
  int64_t replica = 0;
  int64_t partition = 0;
};

// Mutable state of one device's evaluation that outlives single ops.
struct EvalState {
  // Behind `rng` (uniform/normal); seeded from EvalOptions::rng_seed.
  std::mt19937_64 generator;
  // rng-get-and-update-state's counter.
  uint64_t rng_state = 0;
  // Values sent on each channel and not yet received (send/recv on one
  // device, e.g. host transfers).
  absl::flat_hash_map<int64_t, std::deque<Literal>> channels;
};

class EvalContext;

// Computes `instruction`'s value. `operands[i]` is operand i's value.
using Kernel = absl::StatusOr<Literal> (*)(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context);

class EvalContext {
 public:
  EvalContext(const Module& module, const EvalOptions& options,
              DeviceId device = {}, CollectiveHub* hub = nullptr);

  const Module& module() const { return module_; }
  const EvalOptions& options() const { return options_; }
  DeviceId device() const { return device_; }
  // Null when only one device is simulated.
  CollectiveHub* collectives() const { return hub_; }
  EvalState& state() { return state_; }

  // Runs `computation` on `arguments` (a combiner, a comparator, a loop
  // body, a branch, a fused computation, ...). Errors inside carry the
  // failing instruction's name.
  absl::StatusOr<Literal> Call(const Computation& computation,
                               absl::Span<const Literal* const> arguments);

  // A zero-filled literal of `shape` for `instruction`'s value; refuses
  // sizes over EvalOptions::max_literal_bytes with an error naming it.
  absl::StatusOr<Literal> NewLiteral(const Instruction& instruction,
                                     const Shape& shape);
  // The shape the op's rule gives `instruction` (InferShape, client form),
  // or the rule's error as a KernelError. Inferred once per instruction and
  // evaluation: kernels call it to trust their operands and attributes
  // without re-running the rule on every execution (loop bodies,
  // per-element combiners).
  absl::StatusOr<Shape> RuleShape(const Instruction& instruction);

  // The same for the instruction's own shape.
  absl::StatusOr<Literal> NewResult(const Instruction& instruction) {
    return NewLiteral(instruction, instruction.shape());
  }

 private:
  // The working storage of one run of a plan. Runs of the same plan
  // (per-element calls of a combiner or comparator) reuse frames instead of
  // allocating them anew; nested runs take another frame.
  struct Frame {
    std::vector<const Literal*> values;
    std::vector<Literal> owned;
    // The bytes of each owned value, as counted in live_bytes_.
    std::vector<int64_t> owned_bytes;
    std::vector<int32_t> uses_left;
    std::vector<const Literal*> operands;
  };
  // A computation prepared once per context: its instructions in
  // dependence order, each operand as an index into that order, and how
  // many times each value is used (so it can be freed after its last use).
  // Calls from per-element kernels (combiners, comparators) reuse it.
  struct Plan {
    std::vector<const Instruction*> order;
    std::vector<std::vector<int32_t>> operand_slots;
    std::vector<int32_t> uses;
    // Each instruction's kernel, looked up once (null: none registered).
    std::vector<Kernel> kernels;
    int32_t root_slot = 0;
    // The most bytes this computation's own values take at once, from
    // their declared shapes (nested calls aside), and where: checked
    // against the live budget before each run.
    int64_t peak_bytes = 0;
    int32_t peak_slot = 0;
    std::vector<std::unique_ptr<Frame>> spare_frames;
  };
  // Fills plan.peak_bytes and plan.peak_slot.
  static void EstimatePeak(Plan& plan);
  // An error when `bytes` more would take the live values over budget.
  absl::Status CheckLive(const Instruction& instruction, int64_t bytes,
                         absl::string_view what) const;
  // Frees slot `i` of `frame` and its bytes in live_bytes_.
  void Free(Frame& frame, size_t i);
  absl::StatusOr<Plan*> PlanFor(const Computation& computation);
  absl::StatusOr<Literal> RunPlan(Plan& plan,
                                  absl::Span<const Literal* const> arguments);
  absl::StatusOr<Literal> RunFrame(const Plan& plan, Frame& frame,
                                   absl::Span<const Literal* const> arguments);
  absl::Status BindParameter(const Instruction& parameter,
                             absl::Span<const Literal* const> arguments,
                             const Literal** value);

  const Module& module_;
  const EvalOptions& options_;
  DeviceId device_;
  CollectiveHub* hub_;
  EvalState state_;
  int call_depth_ = 0;
  // Steps taken (EvalOptions::max_steps), bytes of the values held in all
  // frames, and this device's share of EvalOptions::max_live_bytes.
  int64_t steps_ = 0;
  int64_t live_bytes_ = 0;
  int64_t live_budget_ = 0;
  absl::flat_hash_map<const Computation*, std::unique_ptr<Plan>> plans_;
  absl::flat_hash_map<const Instruction*, Shape> rule_shapes_;
};

// "file:line:col: error: <name>: <message>" (location left out when
// unknown). Every kernel error goes through this.
absl::Status KernelError(const Instruction& instruction,
                         absl::string_view message);

class KernelTable {
 public:
  void Set(Opcode opcode, Kernel kernel) {
    kernels_[static_cast<int>(opcode)] = kernel;
  }
  // Null when no family registered one.
  Kernel Find(Opcode opcode) const {
    return kernels_[static_cast<int>(opcode)];
  }

 private:
  std::array<Kernel, kOpcodeCount> kernels_{};
};

// The table every family has filled in (kernel_registry.cc).
const KernelTable& Kernels();

// Whether the evaluator runs `opcode` on values of `type` (as a result or
// an operand): it has a kernel, and `type` is not one the op is undefined
// on (complex maximum, minimum, remainder and topk: XLA defines no order
// or remainder of complex numbers, and the verifier refuses them too).
// What ReferenceBackend::Supports answers.
bool RunsOpOnType(Opcode opcode, ElementType type);

// One registration function per family file; each sets its ops' kernels.
void RegisterStructuralKernels(KernelTable* table);   // structural_kernels.cc
void RegisterElementwiseKernels(KernelTable* table);  // elementwise_kernels.cc
void RegisterConversionKernels(KernelTable* table);   // conversion_kernels.cc
void RegisterDataMovementKernels(
    KernelTable* table);                            // data_movement_kernels.cc
void RegisterIndexingKernels(KernelTable* table);   // indexing_kernels.cc
void RegisterReductionKernels(KernelTable* table);  // reduction_kernels.cc
void RegisterControlFlowKernels(KernelTable* table);  // control_flow_kernels.cc
void RegisterLinalgKernels(KernelTable* table);       // linalg_kernels.cc
void RegisterConvolutionKernels(KernelTable* table);  // convolution_kernels.cc
void RegisterRandomKernels(KernelTable* table);       // random_kernels.cc
void RegisterCollectiveKernels(KernelTable* table);   // collective_kernels.cc
void RegisterIoKernels(KernelTable* table);  // io_kernels.cc (custom-call too)

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_KERNEL_H_
