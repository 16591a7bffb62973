// The CPU backend's program: buffer slots, the value of each entry
// instruction as a tree of slots, and a sequence of thunks (XLA's CPU
// runtime works the same way). A thunk is one step of an execution:
//   - KernelThunk: a generated loop-nest kernel (a fusion or a single op);
//   - DotThunk: a library call (Eigen's GEMM);
//   - FallbackThunk: the reference evaluator's kernel for an op with no
//     native lowering yet (counted in the compile stats, never silent).
#ifndef KILN_BACKENDS_CPU_THUNKS_H_
#define KILN_BACKENDS_CPU_THUNKS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "backends/cpu/host_library.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace kiln::cpu {

// Where an array's bytes live during an execution. Storage is the
// literal's: logical row-major, ElementTypeInfo::storage_bytes an element.
struct BufferSlot {
  // kResult: written in place in the result literal (a value of the root
  // that no other step overwrites), at `path` inside it.
  enum class Kind { kArena, kParameter, kConstant, kResult };
  Kind kind = Kind::kArena;
  Shape shape;
  int64_t bytes = 0;
  int64_t offset = 0;                 // kArena: offset in the arena.
  int64_t parameter = 0;              // kParameter: entry parameter number...
  std::vector<int64_t> path;          // ...and the tuple path inside it.
  const Literal* constant = nullptr;  // kConstant.
};

// A value: a slot for an array, elements for a tuple.
struct ValueTree {
  int64_t slot = -1;
  std::vector<ValueTree> elements;
};

// One execution's state: each slot's address, and the evaluator context
// that fallback thunks share (its rng state lives across the run).
struct Program;
class DeviceMemory;
struct RunState {
  const Program* program = nullptr;  // Whose slots `addresses` are.
  std::vector<uint8_t*> addresses;
  eval::EvalContext* eval = nullptr;
  // Set when the values live on a device (device_runtime.h): every
  // address is then a device address, and the thunks run through it.
  DeviceMemory* device = nullptr;
  // What `device` keeps for this binding of the program's slots (the
  // kernels' pointer tables on the device).
  std::shared_ptr<void> binding;
};

class Thunk {
 public:
  virtual ~Thunk() = default;
  virtual absl::Status Run(RunState& state) const = 0;
  // One line for `kiln compile --emit=thunks`.
  virtual std::string ToString() const = 0;
  // The programs this thunk runs (a while's condition and body, ...).
  virtual std::vector<Program*> NestedPrograms() const { return {}; }
  // The slots of its program that this thunk reads and writes, for a
  // runtime whose values live elsewhere (the gpu backend copies them to
  // the host and back around a thunk it has no device path for). Control
  // thunks, which run nested programs, report none.
  virtual void SlotUse(std::vector<int64_t>* reads,
                       std::vector<int64_t>* writes) const {}
};

// A computation lowered to steps: its slots, its thunks in order, its
// result as a tree of slots, and the arena its executions need. The entry
// computation is one; each computation a while, conditional or call runs
// is another, owned by that thunk.
struct Program {
  std::vector<BufferSlot> slots;
  std::vector<std::unique_ptr<Thunk>> thunks;
  ValueTree result;
  int64_t arena_bytes = 0;
};

using KernelFunction = void (*)(const void* const* in, void* const* out);

class KernelThunk : public Thunk {
 public:
  KernelThunk(std::string name, std::string symbol, std::vector<int64_t> inputs,
              std::vector<int64_t> outputs)
      : name_(std::move(name)),
        symbol_(std::move(symbol)),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)) {}
  const std::string& name() const { return name_; }  // The instruction.
  const std::string& symbol() const { return symbol_; }
  const std::vector<int64_t>& inputs() const { return inputs_; }
  const std::vector<int64_t>& outputs() const { return outputs_; }
  void set_function(KernelFunction function) { function_ = function; }
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  void SlotUse(std::vector<int64_t>* reads,
               std::vector<int64_t>* writes) const override;

 private:
  std::string name_;
  std::string symbol_;
  std::vector<int64_t> inputs_;
  std::vector<int64_t> outputs_;
  KernelFunction function_ = nullptr;
};

// A thunk that calls the host library (host_library.h); without it (or
// before set_host_library) the routines linked into Kiln run.
class LibraryThunk : public Thunk {
 public:
  void set_host_library(std::shared_ptr<const HostLibrary> host,
                        int64_t threads) {
    host_ = std::move(host);
    threads_ = static_cast<int>(threads);
  }

 protected:
  const HostLibrary* host() const { return host_.get(); }
  int threads() const { return threads_; }  // 0: every core.

 private:
  std::shared_ptr<const HostLibrary> host_;
  int threads_ = 0;
};

// dot through Eigen: each operand is brought to [batch, rows, contracting]
// / [batch, contracting, columns] (a transposing copy when its dimensions
// are in another order), then one GEMM per batch element. f32 and f64
// multiply in their type; bf16 and f16 are widened to f32, multiplied and
// rounded once to nearest even (as the evaluator sums them in f32).
class DotThunk : public LibraryThunk {
 public:
  struct Dimensions {
    std::vector<int64_t> lhs_permutation;  // To batch, free, contracting.
    std::vector<int64_t> rhs_permutation;  // To batch, contracting, free.
    int64_t batch = 1, m = 1, k = 1, n = 1;
    // The operand is stored [batch, k, m] (lhs) or [batch, n, k] (rhs),
    // and the GEMM reads it transposed (its permutation is then the
    // identity: no copy).
    bool transpose_lhs = false, transpose_rhs = false;
  };
  DotThunk(const Instruction& dot, Dimensions dimensions, int64_t lhs,
           int64_t rhs, int64_t out)
      : dot_(dot),
        dims_(std::move(dimensions)),
        lhs_(lhs),
        rhs_(rhs),
        out_(out) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  void SlotUse(std::vector<int64_t>* reads,
               std::vector<int64_t>* writes) const override;
  const Instruction& instruction() const { return dot_; }
  const Dimensions& dimensions() const { return dims_; }
  int64_t lhs() const { return lhs_; }
  int64_t rhs() const { return rhs_; }
  int64_t out() const { return out_; }

 private:
  template <typename T>
  void Multiply(const T* lhs, const T* rhs, T* out) const;

  const Instruction& dot_;
  Dimensions dims_;
  int64_t lhs_, rhs_, out_;
};

class FallbackThunk : public Thunk {
 public:
  // `label` names the thunk in --emit=thunks: "fallback", or "collective"
  // for a collective exchanging through the execution's hub.
  FallbackThunk(const Instruction& instruction, std::vector<ValueTree> operands,
                ValueTree result, std::string label = "fallback")
      : instruction_(instruction),
        operands_(std::move(operands)),
        result_(std::move(result)),
        label_(std::move(label)) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  void SlotUse(std::vector<int64_t>* reads,
               std::vector<int64_t>* writes) const override;
  const Instruction& instruction() const { return instruction_; }

 private:
  const Instruction& instruction_;
  std::vector<ValueTree> operands_;
  ValueTree result_;
  std::string label_;
};

// The value `tree` as a literal of `shape` (copies the bytes).
absl::StatusOr<Literal> ReadValue(const ValueTree& tree, const Shape& shape,
                                  const RunState& state);
// Copies `literal` into the slots of `tree`.
void WriteValue(const Literal& literal, const ValueTree& tree, RunState& state);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_THUNKS_H_
