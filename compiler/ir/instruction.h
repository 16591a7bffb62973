// An HLO instruction: opcode, operands, shape and typed attributes, plus the
// metadata-like fields XLA keeps verbatim. Use-def lists (users, control
// successors) are maintained by the mutation API here and in Computation.
#ifndef KILN_COMPILER_IR_INSTRUCTION_H_
#define KILN_COMPILER_IR_INSTRUCTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace kiln {

class Computation;
class Instruction;

// Where an instruction came from in a text file (for error messages).
struct SourceLocation {
  std::string file;
  int line = 0;                  // 1-based; 0 when unknown.
  int column = 0;                // 1-based.
  std::string ToString() const;  // "file:line:col" or "" when unknown.
};

namespace internal {
// The users of one instruction, each once, with how many of its operand
// slots use the instruction. Adding, finding and removing a user are O(1):
// a short list is scanned, a long one (more than kIndexThreshold users)
// keeps a user -> position index. Removing a user from a long list moves
// the last user into its place (so that removal does not shift the list);
// a short list keeps its order.
class UserList {
 public:
  static constexpr size_t kIndexThreshold = 16;

  const std::vector<Instruction*>& list() const { return users_; }
  // How many operand slots of list()[i] use the instruction.
  int32_t uses_at(size_t i) const { return uses_[i]; }
  bool Contains(const Instruction* user) const { return Find(user) >= 0; }
  // Records `uses` more uses by `user` (appended when it is new).
  void AddUses(Instruction* user, int32_t uses);
  // Forgets one use by `user`; the user goes when none is left.
  void RemoveUse(const Instruction* user);
  // Forgets `user` whatever its number of uses.
  void RemoveUser(const Instruction* user);
  void Clear();

 private:
  int64_t Find(const Instruction* user) const;
  void EraseAt(size_t position);

  std::vector<Instruction*> users_;
  std::vector<int32_t> uses_;  // Parallel to users_.
  // Only for long lists; null otherwise (out of line: few lists are long,
  // and every instruction carries a UserList).
  std::unique_ptr<absl::flat_hash_map<const Instruction*, size_t>> index_;
};

// The control edges of one instruction. Few instructions have any, so an
// instruction holds them out of line and allocates them on the first edge.
struct ControlEdges {
  std::vector<Instruction*> predecessors;
  std::vector<Instruction*> successors;
};

// The empty list the accessors return for an instruction without edges.
inline const std::vector<Instruction*>& NoInstructions() {
  static const auto* const kEmpty = new std::vector<Instruction*>();
  return *kEmpty;
}
}  // namespace internal

class Instruction {
 public:
  Instruction(Opcode opcode, Shape shape, std::string name);
  Instruction(const Instruction&) = delete;
  Instruction& operator=(const Instruction&) = delete;

  Opcode opcode() const { return opcode_; }
  const std::string& name() const { return name_; }
  // Renaming inside a computation goes through Computation/Module
  // uniquifying; this setter is for builders before insertion.
  void set_name(std::string name) { name_ = std::move(name); }

  const Shape& shape() const { return shape_; }
  Shape* mutable_shape() { return &shape_; }
  void set_shape(Shape shape) { shape_ = std::move(shape); }

  Computation* parent() const { return parent_; }

  // --- Operands and users ---
  const std::vector<Instruction*>& operands() const { return operands_; }
  Instruction* operand(int64_t i) const { return operands_[i]; }
  int64_t operand_count() const { return operands_.size(); }
  // Users, each once, in first-use order while no user was removed; after
  // removals from a list of more than internal::UserList::kIndexThreshold
  // users the order is still deterministic but no longer first-use order
  // (removal moves the last user into the freed place, so it is O(1)).
  const std::vector<Instruction*>& users() const { return users_.list(); }
  int64_t user_count() const { return users_.list().size(); }

  // O(1): does not scan the operand list (wide tuples stay linear).
  void AppendOperand(Instruction* operand);
  // Replaces operand i, fixing both users lists. O(1).
  void ReplaceOperandWith(int64_t i, Instruction* new_operand);
  // Replaces every occurrence of `old_operand` among the operands.
  void ReplaceOperandAll(Instruction* old_operand, Instruction* new_operand);
  // Makes every user of this instruction use `new_producer` instead, and
  // moves the ROOT if this was it. Shapes must be compatible.
  absl::Status ReplaceAllUsesWith(Instruction* new_producer);
  // Drops all operands (and this instruction from their users lists).
  void DetachOperands();

  // --- Control dependencies ---
  const std::vector<Instruction*>& control_predecessors() const {
    return control_ == nullptr ? internal::NoInstructions()
                               : control_->predecessors;
  }
  const std::vector<Instruction*>& control_successors() const {
    return control_ == nullptr ? internal::NoInstructions()
                               : control_->successors;
  }
  absl::Status AddControlDependencyTo(Instruction* successor);
  absl::Status RemoveControlDependencyTo(Instruction* successor);
  void DropAllControlDeps();

  // --- Attributes ---
  const AttributeMap& attrs() const { return attrs_; }
  // On a fusion, also marks the module's fusion-callee cache stale (see
  // Computation::is_fusion_computation): change a fusion's called
  // computations right after this call, not through a pointer kept for later.
  AttributeMap* mutable_attrs();
  // Computations this instruction calls, in schema/attribute order.
  std::vector<Computation*> called_computations() const;
  // Points every called-computation reference at the mapped computation.
  void RemapCalledComputations(
      const std::function<Computation*(Computation*)>& map);

  // constant: the value. parameter: the number.
  bool has_literal() const { return literal_ != nullptr; }
  const Literal& literal() const { return *literal_; }
  void set_literal(Literal literal);
  int64_t parameter_number() const { return parameter_number_; }
  void set_parameter_number(int64_t n) { parameter_number_ = n; }

  // Deep copy of the non-graph state (opcode, shape, attrs, literal,
  // verbatim fields) with new operands. Users and control deps are not
  // copied. The clone has no parent until added to a computation.
  std::unique_ptr<Instruction> CloneWithNewOperands(
      const Shape& shape, absl::Span<Instruction* const> new_operands,
      std::string name) const;

  // Structural equality of everything but name, operands and users.
  bool IdenticalIgnoringOperands(const Instruction& other) const;

 private:
  friend class Computation;
  // Tells the module (if any) that this fusion's callees may change.
  void InvalidateFusionCallees() const;
  internal::ControlEdges& MutableControlEdges();

  // Declared hot fields first: a pass walking the order reads the opcode,
  // the operand list, the attributes and the user list of every
  // instruction, and at 100k instructions each extra cache line touched is
  // a memory stall. The rarely read verbatim fields come last.
  Opcode opcode_;
  // Whether the parent computation has still to place this instruction in
  // its order; see slot_.
  bool pending_ = false;
  Computation* parent_ = nullptr;
  // Where the parent computation keeps this instruction: its index in the
  // computation's order array, or, while `pending_`, the slot it will be
  // placed before (see Computation::order_).
  int64_t slot_ = -1;
  std::vector<Instruction*> operands_;
  // Null while the instruction has no control edge; in the first cache
  // line because the rewrite driver's plain_only check reads it for every
  // instruction.
  std::unique_ptr<internal::ControlEdges> control_;
  AttributeMap attrs_;
  internal::UserList users_;
  Shape shape_;
  std::string name_;
  std::unique_ptr<Literal> literal_;
  int64_t parameter_number_ = -1;

 public:
  // --- Fields kept verbatim and printed back ---
  // Each holds the complete text after "name=", e.g. "{op_name=\"x\"}".
  std::optional<RawText> metadata;
  std::optional<RawText> sharding;
  std::optional<RawText> backend_config;
  std::optional<RawText> result_accuracy;
  std::optional<RawText> statistics_viz;
  std::optional<RawText> origin;
  // frontend_attributes={key="value",...}, kept in the written order. The
  // parser keeps each value as written ("\"v\"" with its quotes and escapes,
  // or a "{...}" group); the printer writes such values back verbatim and
  // quotes and escapes any other value.
  std::vector<std::pair<std::string, std::string>> frontend_attributes;
  // execution_thread="..." on async instructions lives in attrs().

  SourceLocation location;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_INSTRUCTION_H_
