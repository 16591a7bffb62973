// A computation: a DAG of instructions with one ROOT and numbered
// parameters. Instruction order is the insertion order (the text order),
// kept stable through every mutation so printing is deterministic.
#ifndef KILN_COMPILER_IR_COMPUTATION_H_
#define KILN_COMPILER_IR_COMPUTATION_H_

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"

namespace kiln {

class Module;

namespace internal {
// XLA-style name uniquing shared by Computation and Module: returns `base`
// when `is_used(base)` is false, else "root.N" where root is `base` without
// a numeric ".N" suffix and N is the smallest counter (kept per root in
// `next_suffix`, so repeated calls are O(1) amortized) giving an unused name.
// Does not mark the result used.
std::string UniqueNameFor(
    const std::string& base,
    const std::function<bool(const std::string&)>& is_used,
    absl::flat_hash_map<std::string, int64_t>* next_suffix);
}  // namespace internal

class Computation {
 public:
  explicit Computation(std::string name);
  Computation(const Computation&) = delete;
  Computation& operator=(const Computation&) = delete;
  ~Computation();

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  Module* parent() const { return parent_; }

  // execution_thread="..." on the computation header; "main" is the default
  // and is not printed.
  const std::string& execution_thread() const { return execution_thread_; }
  void set_execution_thread(std::string t) { execution_thread_ = std::move(t); }
  // Whether a fusion instruction of the module calls this computation.
  // O(1) amortized: the module keeps the set of fusion callees, rebuilt
  // after fusions are added or removed or their attributes change.
  bool is_fusion_computation() const;

  // Takes ownership; sets parent; makes the name unique within the module
  // (or the computation when it has no module yet) by appending ".N".
  Instruction* AddInstruction(std::unique_ptr<Instruction> instruction);
  // As AddInstruction, but placed just before `before` (an instruction of
  // this computation) in the stable order, so that a pass can add an
  // operand of `before` and keep the text in definition order.
  Instruction* AddInstructionBefore(std::unique_ptr<Instruction> instruction,
                                    const Instruction* before);
  // Parameters must be added in order 0..n-1 or via AddParameter.
  Instruction* AddParameter(std::unique_ptr<Instruction> parameter);

  Instruction* root() const { return root_; }
  void set_root(Instruction* root) { root_ = root; }

  // Instructions in stable order (insertion order, as printed).
  std::vector<Instruction*> instructions() const;
  int64_t instruction_count() const { return order_.size(); }
  const std::vector<Instruction*>& parameters() const { return parameters_; }
  Instruction* parameter(int64_t i) const { return parameters_[i]; }
  Instruction* FindInstruction(absl::string_view name) const;

  // Operands before users, control predecessors before successors; ties
  // broken by the stable order. Error if there is a cycle.
  absl::StatusOr<std::vector<Instruction*>> PostOrder() const;
  // True when every operand and control predecessor comes before its user
  // in the stable order (what the text format needs).
  bool IsInDefinitionOrder() const;
  // Reorders the stable order in place into PostOrder() (which keeps the
  // old order wherever it was valid). Pointers and names are unchanged.
  // A no-op when IsInDefinitionOrder(); an error if there is a cycle.
  absl::Status RestoreDefinitionOrder();

  // Replaces `old_instruction` by `new_instruction` (already added): all
  // uses, control deps and ROOT move over, then `old_instruction` is removed.
  absl::Status ReplaceInstruction(Instruction* old_instruction,
                                  Instruction* new_instruction);
  // Removes an instruction that has no users and is not ROOT (nor a
  // parameter).
  absl::Status RemoveInstruction(Instruction* instruction);
  // Removes every instruction not reachable from ROOT through operands or
  // control edges, except parameters and side-effecting ops.
  // Returns the number removed.
  int64_t RemoveDeadInstructions();

  // Deep copy into a new computation named `name` (called computations are
  // shared, not cloned; use Module::CloneComputation to remap them).
  std::unique_ptr<Computation> Clone(const std::string& name) const;

 private:
  friend class Module;
  std::string UniqueInstructionName(const std::string& base);

  std::string name_;
  std::string execution_thread_ = "main";
  Module* parent_ = nullptr;
  std::list<std::unique_ptr<Instruction>> order_;
  absl::flat_hash_map<const Instruction*,
                      std::list<std::unique_ptr<Instruction>>::iterator>
      position_;
  absl::flat_hash_map<std::string, Instruction*> by_name_;
  // Per-root ".N" counters for uniquing while the computation has no module.
  absl::flat_hash_map<std::string, int64_t> next_suffix_;
  std::vector<Instruction*> parameters_;
  Instruction* root_ = nullptr;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_COMPUTATION_H_
