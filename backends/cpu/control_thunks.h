// Control-flow thunks: while, conditional and call run the programs of
// their computations (lowered like the entry, with kernels, library calls
// and fallbacks of their own), on buffers bound to the caller's slots.
#ifndef KILN_BACKENDS_CPU_CONTROL_THUNKS_H_
#define KILN_BACKENDS_CPU_CONTROL_THUNKS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/thunks.h"
#include "compiler/ir/instruction.h"

namespace kiln::cpu {

// Runs `program` with its parameter k bound to `arguments[k]` (a tree of
// the caller's slots in `caller`), in a fresh arena; then copies its
// result into `result` (a tree of the caller's slots).
absl::Status RunNestedProgram(const Program& program,
                              const std::vector<const ValueTree*>& arguments,
                              const ValueTree& result, RunState& caller);

class CallThunk : public Thunk {
 public:
  CallThunk(const Instruction& call, std::shared_ptr<Program> callee,
            std::vector<ValueTree> operands, ValueTree result)
      : call_(call),
        callee_(std::move(callee)),
        operands_(std::move(operands)),
        result_(std::move(result)) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  std::vector<Program*> NestedPrograms() const override {
    return {callee_.get()};
  }

 private:
  const Instruction& call_;
  std::shared_ptr<Program> callee_;
  std::vector<ValueTree> operands_;
  ValueTree result_;
};

// The loop state lives in the while's own result slots: the initial value
// is copied there, the condition and the body read it, and the body's
// result is copied back after each iteration.
class WhileThunk : public Thunk {
 public:
  WhileThunk(const Instruction& loop, std::shared_ptr<Program> condition,
             std::shared_ptr<Program> body, ValueTree init, ValueTree state,
             int64_t max_iterations)
      : loop_(loop),
        condition_(std::move(condition)),
        body_(std::move(body)),
        init_(std::move(init)),
        state_(std::move(state)),
        max_iterations_(max_iterations) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  std::vector<Program*> NestedPrograms() const override {
    return {condition_.get(), body_.get()};
  }

 private:
  const Instruction& loop_;
  std::shared_ptr<Program> condition_, body_;
  ValueTree init_, state_;
  int64_t max_iterations_;
};

// A pred selects branch 0 when true and 1 when false; an s32 index outside
// [0, N) runs the last branch (as the evaluator).
class ConditionalThunk : public Thunk {
 public:
  ConditionalThunk(const Instruction& conditional,
                   std::vector<std::shared_ptr<Program>> branches,
                   ValueTree selector, std::vector<ValueTree> operands,
                   ValueTree result)
      : conditional_(conditional),
        branches_(std::move(branches)),
        selector_(std::move(selector)),
        operands_(std::move(operands)),
        result_(std::move(result)) {}
  absl::Status Run(RunState& state) const override;
  std::string ToString() const override;
  std::vector<Program*> NestedPrograms() const override;

 private:
  const Instruction& conditional_;
  std::vector<std::shared_ptr<Program>> branches_;
  ValueTree selector_;
  std::vector<ValueTree> operands_;
  ValueTree result_;
};

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CONTROL_THUNKS_H_
