// A computation: a DAG of instructions with one ROOT and numbered
// parameters. Instruction order is the insertion order (the text order),
// kept stable through every mutation so printing is deterministic.
#ifndef KILN_COMPILER_IR_COMPUTATION_H_
#define KILN_COMPILER_IR_COMPUTATION_H_

#include <cstdint>
#include <functional>
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
  // The computations this one's instructions call, in instruction and
  // attribute order, repeats kept. Cached: the IR drops the cache when an
  // instruction that may call computations is added or removed, or when an
  // instruction's attributes are handed out for writing, so the module's
  // call graph costs a walk only of the computations that changed.
  const std::vector<Computation*>& callees() const;

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

  // Instructions in stable order (insertion order, as printed). O(n) copy
  // of a contiguous array. The non-const overload first settles the order
  // (places instructions added by AddInstructionBefore, drops the slots of
  // removed ones) so later calls are a plain copy; the const overload
  // never writes, so threads may share a const computation.
  std::vector<Instruction*> instructions();
  std::vector<Instruction*> instructions() const;
  int64_t instruction_count() const { return live_count_; }
  const std::vector<Instruction*>& parameters() const { return parameters_; }
  Instruction* parameter(int64_t i) const { return parameters_[i]; }
  Instruction* FindInstruction(absl::string_view name) const;

  // Operands before users, control predecessors before successors; ties
  // broken by the stable order. Error if there is a cycle.
  absl::StatusOr<std::vector<Instruction*>> PostOrder();
  absl::StatusOr<std::vector<Instruction*>> PostOrder() const;
  // True when every operand and control predecessor comes before its user
  // in the stable order (what the text format needs).
  bool IsInDefinitionOrder();
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
  // Takes `instruction` out of this computation without destroying it, so
  // a pass can move it into another computation (AddInstruction) instead
  // of cloning it and removing the original. Not ROOT, not a parameter;
  // null when it is not an instruction of this computation or is either.
  // Its name is dropped from this computation's index but stays taken in
  // the module (Module::ReleaseName frees it). Operands, users and control
  // edges are left as they are: the caller rewires them. The result has no
  // parent.
  std::unique_ptr<Instruction> DetachInstruction(Instruction* instruction);
  // Removes every instruction not reachable from ROOT through operands or
  // control edges, except parameters and side-effecting ops (HasOwnSideEffect
  // in op_traits.h, or a callee containing one).
  // Returns the number removed.
  int64_t RemoveDeadInstructions();

  // Deep copy into a new computation named `name` (called computations are
  // shared, not cloned; use Module::CloneComputation to remap them).
  std::unique_ptr<Computation> Clone(const std::string& name) const;

 private:
  friend class Module;
  friend class Instruction;  // InvalidateCallees.
  std::string UniqueInstructionName(const std::string& base);
  // Whether order_ is exactly the stable order: nothing pending, no empty
  // slot, so every instruction's slot_ is its index in order_.
  bool IsSettled() const { return pending_count_ == 0 && empty_slots_ == 0; }
  // Makes order_ exactly the stable order (see IsSettled). O(n) when
  // something was inserted or removed since the last call, else O(1).
  void Settle();
  // Sets order_ to `order` (every instruction of this computation, once)
  // and renumbers the slots.
  void ResetOrder(std::vector<Instruction*> order);
  // Places `instruction` in its slot; ownership passes to order_.
  void AppendToOrder(Instruction* instruction);
  // Deletes every instruction (the destructor).
  void DeleteAllInstructions();
  // Drops the callees() cache.
  void InvalidateCallees() { callees_valid_ = false; }
  // NoteEdge for every edge `instruction` already has (it was just added).
  void NoteEdgesOf(const Instruction* instruction);
  // Whether `a` comes before `b` in the stable order, as far as slots tell
  // without settling: false when unsure.
  static bool SurelyBefore(const Instruction* a, const Instruction* b);
  // Called by the IR for every new edge input -> user (operand or control)
  // inside this computation: a user before its input clears
  // known_in_definition_order_.
  void NoteEdge(const Instruction* input, const Instruction* user) {
    if (known_in_definition_order_ && input->parent() == this &&
        !SurelyBefore(input, user)) {
      known_in_definition_order_ = false;
    }
  }

  std::string name_;
  std::string execution_thread_ = "main";
  Module* parent_ = nullptr;
  // The stable order, stored so that walking it is a walk over contiguous
  // memory (a linked list made every pass pay a cache miss per
  // instruction). Owning. Removing an instruction empties its slot, and
  // AddInstructionBefore files the new instruction under the slot of the
  // instruction it goes before (pending_), both in O(1); Settle() rebuilds
  // the array in O(n) when the order is next read by a non-const caller.
  std::vector<Instruction*> order_;
  // Slot -> the instructions to place just before that slot, in order.
  // Owning.
  absl::flat_hash_map<int64_t, std::vector<Instruction*>> pending_;
  int64_t pending_count_ = 0;
  int64_t empty_slots_ = 0;
  int64_t live_count_ = 0;
  mutable std::vector<Computation*> callees_;
  mutable bool callees_valid_ = false;
  // True only when the stable order is known to be a definition order
  // (every input before its user). Then PostOrder() is the stable order
  // itself and IsInDefinitionOrder() costs nothing; passes call both once
  // or more per sweep. Kept by NoteEdge and AddInstructionBefore; set
  // again when a full check or RestoreDefinitionOrder proves it.
  bool known_in_definition_order_ = true;
  absl::flat_hash_map<std::string, Instruction*> by_name_;
  // Per-root ".N" counters for uniquing while the computation has no module.
  absl::flat_hash_map<std::string, int64_t> next_suffix_;
  std::vector<Instruction*> parameters_;
  Instruction* root_ = nullptr;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_COMPUTATION_H_
