#include "passes/cse.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/dce.h"

namespace kiln {
namespace {

// --- Hashing. Equal instructions (as compared below) must hash equally;
// unequal ones should rarely collide so that buckets stay small. ---

size_t Mix(size_t seed, size_t value) {
  return (seed ^ value) * 0x9E3779B97F4A7C15ull + (seed >> 29);
}

template <typename T>
size_t HashOf(const T& value) {
  return absl::Hash<T>{}(value);
}

size_t HashShape(const Shape& shape) {
  size_t h = HashOf(static_cast<int>(shape.element_type()));
  for (int64_t d : shape.dimensions()) h = Mix(h, HashOf(d));
  for (const Shape& element : shape.tuple_shapes()) {
    h = Mix(h, HashShape(element));
  }
  return h;
}

size_t HashLiteral(const Literal& literal) {
  size_t h = HashShape(literal.shape());
  // Padding past a dynamic size does not take part in equality.
  if (literal.has_dynamic_sizes()) return h;
  if (literal.shape().IsArray()) {
    absl::Span<const uint8_t> data = literal.data();
    return Mix(h,
               absl::Hash<absl::string_view>{}(absl::string_view(
                   reinterpret_cast<const char*>(data.data()), data.size())));
  }
  for (const Literal& element : literal.tuple_elements()) {
    h = Mix(h, HashLiteral(element));
  }
  return h;
}

// Hash of one attribute value. Kinds with an elaborate structure hash to
// their kind alone (rare, and equality still decides).
struct AttrHasher {
  size_t operator()(bool v) const { return HashOf(v); }
  size_t operator()(int64_t v) const { return HashOf(v); }
  // AttrValue equality is ==, under which 0.0 == -0.0.
  size_t operator()(double v) const { return v == 0 ? 0 : HashOf(v); }
  size_t operator()(const std::string& v) const { return HashOf(v); }
  size_t operator()(const Int64List& v) const { return HashOf(v); }
  size_t operator()(const Int64ListList& v) const { return HashOf(v); }
  size_t operator()(const SliceRanges& v) const {
    size_t h = 0;
    for (const SliceRange& r : v.ranges) {
      h = Mix(Mix(Mix(h, HashOf(r.start)), HashOf(r.limit)), HashOf(r.stride));
    }
    return h;
  }
  size_t operator()(const Window& v) const {
    size_t h = 0;
    for (const WindowDimension& d : v.dimensions) {
      h = Mix(h, HashOf(std::make_tuple(d.size, d.stride, d.padding_low,
                                        d.padding_high, d.window_dilation,
                                        d.base_dilation, d.window_reversal)));
    }
    return h;
  }
  size_t operator()(const PaddingConfig& v) const {
    size_t h = 0;
    for (const PaddingDimension& d : v.dimensions) {
      h = Mix(h, HashOf(std::make_tuple(d.low, d.high, d.interior)));
    }
    return h;
  }
  size_t operator()(const EnumValue& v) const { return HashOf(v.spelling); }
  size_t operator()(const Shape& v) const { return HashShape(v); }
  // Computations compare by name.
  size_t operator()(Computation* v) const {
    return v == nullptr ? 0 : HashOf(v->name());
  }
  size_t operator()(const ComputationList& v) const {
    size_t h = 0;
    for (Computation* c : v) h = Mix(h, (*this)(c));
    return h;
  }
  template <typename T>
  size_t operator()(const T&) const {
    return 0;
  }
};

size_t HashAttributes(const AttributeMap& attrs) {
  // Entry order is not meaning: combine the entries order-independently.
  size_t h = attrs.entries().size();
  for (const auto& [name, value] : attrs.entries()) {
    h += Mix(Mix(HashOf(name), value.index()), std::visit(AttrHasher{}, value));
  }
  return h;
}

// --- Which instructions take part. ---

class ComputationCse {
 public:
  ComputationCse(const CseOptions& options,
                 const absl::flat_hash_set<const Computation*>& effectful)
      : options_(options), effectful_(effectful) {}

  // Merges duplicates in `computation`; returns how many were removed.
  absl::StatusOr<int64_t> Run(Computation* computation);

 private:
  // A kept instruction and its hash (computed once: the table rehashes).
  struct Kept {
    size_t hash;
    Instruction* instruction;
  };
  struct KeptHash {
    size_t operator()(const Kept& kept) const { return kept.hash; }
  };
  struct KeptEq {
    const ComputationCse* cse;
    bool operator()(const Kept& a, const Kept& b) const {
      return a.hash == b.hash &&
             cse->Equivalent(*a.instruction, *b.instruction);
    }
  };

  bool Mergeable(const Instruction& instruction) const;
  // Whether the operands of a commutative op are taken as an unordered
  // pair.
  bool Unordered(const Instruction& instruction) const {
    return options_.canonicalize_commutative && IsCommutativeFor(instruction);
  }
  // Same operands (an unordered pair for commutative ops) and identical
  // otherwise.
  bool Equivalent(const Instruction& a, const Instruction& b) const;
  size_t Hash(const Instruction& instruction) const;

  const CseOptions& options_;
  const absl::flat_hash_set<const Computation*>& effectful_;
  bool constants_allowed_ = true;
};

bool ComputationCse::Mergeable(const Instruction& instruction) const {
  const Opcode opcode = instruction.opcode();
  if (instruction.operand_count() == 0) {
    if (opcode == Opcode::kConstant) return constants_allowed_;
    return opcode == Opcode::kIota || opcode == Opcode::kReplicaId ||
           opcode == Opcode::kPartitionId;
  }
  if (opcode == Opcode::kDomain || IsAsyncOpcode(opcode)) return false;
  if (!instruction.control_predecessors().empty() ||
      !instruction.control_successors().empty()) {
    return false;
  }
  if (HasOwnSideEffect(instruction)) return false;
  for (const Computation* callee : instruction.called_computations()) {
    if (effectful_.contains(callee)) return false;
  }
  return true;
}

bool ComputationCse::Equivalent(const Instruction& a,
                                const Instruction& b) const {
  if (a.opcode() != b.opcode()) return false;
#ifdef KILN_SEEDED_BUGS
  // Seeded: constants of one shape are equal when their first bytes are.
  if (SeededBug("cse-constants") && a.opcode() == Opcode::kConstant &&
      a.shape() == b.shape() && a.has_literal() && b.has_literal() &&
      a.literal().shape().IsArray()) {
    absl::Span<const uint8_t> p = a.literal().data(), q = b.literal().data();
    return p.size() == q.size() &&
           (p.empty() || std::equal(p.begin(), p.begin() + 1, q.begin()));
  }
#endif
  const std::vector<Instruction*>& x = a.operands();
  const std::vector<Instruction*>& y = b.operands();
  if (x.size() != y.size()) return false;
  const bool same_operands =
      x == y || (Unordered(a) && x[0] == y[1] && x[1] == y[0]);
  return same_operands && a.IdenticalIgnoringOperands(b);
}

size_t ComputationCse::Hash(const Instruction& instruction) const {
  size_t h = HashOf(static_cast<int>(instruction.opcode()));
  h = Mix(h, HashShape(instruction.shape()));
  const std::vector<Instruction*>& operands = instruction.operands();
  if (Unordered(instruction)) {
    // Either order hashes alike: the pair in address order.
    const Instruction* low =
        std::min(operands[0], operands[1], std::less<const Instruction*>());
    const Instruction* high = low == operands[0] ? operands[1] : operands[0];
    h = Mix(Mix(h, HashOf(low)), HashOf(high));
  } else {
    for (const Instruction* operand : operands) h = Mix(h, HashOf(operand));
  }
  h = Mix(h, HashAttributes(instruction.attrs()));
  if (instruction.has_literal()) h = Mix(h, HashLiteral(instruction.literal()));
#ifdef KILN_SEEDED_BUGS
  if (SeededBug("cse-constants") && instruction.opcode() == Opcode::kConstant) {
    return HashShape(instruction.shape());
  }
#endif
  return h;
}

absl::StatusOr<int64_t> ComputationCse::Run(Computation* computation) {
  absl::StatusOr<std::vector<Instruction*>> order = computation->PostOrder();
  if (!order.ok()) return order.status();
  constants_allowed_ = true;
  for (const Instruction* instruction : *order) {
    if (instruction->opcode() == Opcode::kDomain) constants_allowed_ = false;
  }
  // One kept instruction per class of equivalent ones: a duplicate is
  // replaced on sight, so it never joins the table.
  absl::flat_hash_set<Kept, KeptHash, KeptEq> kept(0, KeptHash(), KeptEq{this});
  int64_t removed = 0;
  for (Instruction* instruction : *order) {
    if (!Mergeable(*instruction)) continue;
    auto [it, inserted] = kept.insert({Hash(*instruction), instruction});
    if (inserted) continue;
    // `instruction` comes after its match in post order and has the same
    // operands, so every user of it may use the match instead.
    absl::Status status =
        computation->ReplaceInstruction(instruction, it->instruction);
    if (!status.ok()) return status;
    ++removed;
  }
  return removed;
}

}  // namespace

absl::StatusOr<bool> CsePass::Run(Module& module) {
  absl::StatusOr<absl::flat_hash_set<const Computation*>> effectful =
      CalledComputationsWithSideEffects(module);
  if (!effectful.ok()) return effectful.status();
  ComputationCse cse(options_, *effectful);
  bool changed = false;
  for (Computation* computation : module.computations()) {
    absl::StatusOr<int64_t> removed = cse.Run(computation);
    if (!removed.ok()) return removed.status();
    changed |= *removed > 0;
  }
  return changed;
}

KILN_REGISTER_PASS(CsePass);

}  // namespace kiln
