// Logical and selection rewrites of the algebraic simplifier: not, and, or,
// xor, select and compare. All exact (docs/passes_catalog.md).
#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/attr_names.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/attr_enums.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/algebraic_simplifier.h"
#include "passes/algebraic_simplifier_util.h"

namespace kiln {
namespace algsimp {
namespace {

using Result = absl::StatusOr<bool>;

// not(not(x)) -> x: bitwise complement twice (pred and integers).
Result NotNot(Instruction* outer, RewriteContext& context) {
  if (outer->opcode() != Opcode::kNot ||
      outer->operand(0)->opcode() != Opcode::kNot) {
    return false;
  }
  Instruction* x = outer->operand(0)->operand(0);
  if (!CanReplace(outer, x)) return false;
  return ReplaceAndClean(context, outer, x);
}

// Replaces `op` by operand `index` when shapes allow.
Result ReplaceByOperand(Instruction* op, int64_t index,
                        RewriteContext& context) {
  Instruction* operand = op->operand(index);
  if (!CanReplace(op, operand)) return false;
  return ReplaceAndClean(context, op, operand);
}

// and(x, ones) -> x, and(x, 0) -> 0, or(x, 0) -> x, or(x, ones) -> ones,
// xor(x, 0) -> x, and(x, x) -> x, or(x, x) -> x, xor(x, x) -> 0. The
// constant may be either operand; "ones" is all bits set (pred: true).
Result BitwiseWithConstant(Instruction* op, RewriteContext& context) {
  const Opcode opcode = op->opcode();
  if (opcode != Opcode::kAnd && opcode != Opcode::kOr &&
      opcode != Opcode::kXor) {
    return false;
  }
  if (!IsIntegralOrPred(op->shape().element_type())) return false;
  if (op->operand(0) == op->operand(1)) {
    if (opcode != Opcode::kXor) return ReplaceByOperand(op, 0, context);
    return ReplaceAndClean(
        context, op,
        AddFilledConstant(op, op->shape(),
                          ScalarLiteral(op->shape().element_type(), 0)));
  }
  const ElementTest identity = opcode == Opcode::kAnd ? IsAllOnes : IsAnyZero;
  for (int64_t k = 1; k >= 0; --k) {
    if (AllElementsAre(op->operand(k), identity)) {
      Result replaced = ReplaceByOperand(op, 1 - k, context);
      if (!replaced.ok() || *replaced) return replaced;
    }
    if (opcode == Opcode::kXor) continue;
    const ElementTest absorbing =
        opcode == Opcode::kAnd ? IsAnyZero : IsAllOnes;
    if (AllElementsAre(op->operand(k), absorbing)) {
      Result replaced = ReplaceByOperand(op, k, context);
      if (!replaced.ok() || *replaced) return replaced;
    }
  }
  return false;
}

// select(true, a, b) -> a, select(false, a, b) -> b (a constant predicate,
// scalar or array, all one value), and select(p, x, x) -> x.
Result SelectTrivial(Instruction* select, RewriteContext& context) {
  if (select->opcode() != Opcode::kSelect || select->operand_count() != 3) {
    return false;
  }
  if (select->operand(1) == select->operand(2)) {
    return ReplaceByOperand(select, 1, context);
  }
  const Instruction* predicate = select->operand(0);
  if (AllElementsAre(predicate, IsAllOnes)) {
    return ReplaceByOperand(select, 1, context);
  }
  if (AllElementsAre(predicate, IsAnyZero)) {
    return ReplaceByOperand(select, 2, context);
  }
  return false;
}

// select(not(p), a, b) -> select(p, b, a) when a and b have one shape.
Result SelectOfNot(Instruction* select, RewriteContext& context) {
  if (select->opcode() != Opcode::kSelect || select->operand_count() != 3 ||
      select->operand(0)->opcode() != Opcode::kNot ||
      select->operand(1)->shape() != select->operand(2)->shape()) {
    return false;
  }
  Instruction* negated = select->operand(0);
  Instruction* on_true = select->operand(1);
  Instruction* on_false = select->operand(2);
  select->ReplaceOperandWith(0, negated->operand(0));
  select->ReplaceOperandWith(1, on_false);
  select->ReplaceOperandWith(2, on_true);
  absl::Status removed = RemoveIfDead(context, negated);
  if (!removed.ok()) return removed;
  return true;
}

// Whether compare(x, x) has a fixed answer: integers and pred always; floats
// only under the total order (NaN == NaN there; under FLOAT it is not).
bool SelfComparisonIsFixed(const Instruction& compare) {
  const ElementType type = compare.operand(0)->shape().element_type();
  if (IsIntegralOrPred(type)) return true;
  const EnumValue* order = compare.attrs().Get<EnumValue>(attr::kType);
  if (order == nullptr || !IsFloatType(type)) return false;
  std::optional<ComparisonType> parsed = ParseComparisonType(order->spelling);
  return parsed.has_value() && *parsed == ComparisonType::kTotalOrder;
}

// compare(x, x): EQ, GE, LE are true; NE, GT, LT are false.
Result CompareSelf(Instruction* compare, RewriteContext& context) {
  if (compare->opcode() != Opcode::kCompare ||
      compare->operand(0) != compare->operand(1) ||
      !compare->shape().IsArray()) {
    return false;
  }
  bool fixed = SelfComparisonIsFixed(*compare);
#ifdef KILN_SEEDED_BUGS
  // Seeded: x == x is true for floats too (wrong for NaN).
  if (SeededBug("simplifier-compare-self")) fixed = true;
#endif
  if (!fixed) return false;
  const EnumValue* direction =
      compare->attrs().Get<EnumValue>(attr::kDirection);
  if (direction == nullptr) return false;
  std::optional<ComparisonDirection> parsed =
      ParseComparisonDirection(direction->spelling);
  if (!parsed.has_value()) return false;
  const bool holds = *parsed == ComparisonDirection::kEq ||
                     *parsed == ComparisonDirection::kGe ||
                     *parsed == ComparisonDirection::kLe;
  return ReplaceAndClean(
      context, compare,
      AddFilledConstant(compare, compare->shape(),
                        ScalarLiteral(ElementType::kPred, holds ? 1 : 0)));
}

}  // namespace

void AddLogicRewrites(const AlgebraicSimplifierOptions&,
                      std::vector<Rewrite>* rewrites) {
  AddRewrite(rewrites, "not-not", {Opcode::kNot}, NotNot);
  AddRewrite(rewrites, "bitwise-with-constant",
             {Opcode::kAnd, Opcode::kOr, Opcode::kXor}, BitwiseWithConstant);
  AddRewrite(rewrites, "select-trivial", {Opcode::kSelect}, SelectTrivial);
  AddRewrite(rewrites, "select-of-not", {Opcode::kSelect}, SelectOfNot);
  AddRewrite(rewrites, "compare-self", {Opcode::kCompare}, CompareSelf);
}

}  // namespace algsimp
}  // namespace kiln
