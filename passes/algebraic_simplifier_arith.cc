// Arithmetic rewrites of the algebraic simplifier: add, subtract,
// multiply, divide, negate, abs, power, maximum, minimum, and the integer
// (or fast-math) reassociation of constants. Why each is exact is written
// in docs/passes_catalog.md (## algebraic-simplifier).
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"
#include "compiler/util/seeded_bugs.h"
#include "passes/algebraic_simplifier.h"
#include "passes/algebraic_simplifier_util.h"

namespace kiln {
namespace algsimp {
namespace {

using Result = absl::StatusOr<bool>;

bool IsFloatOrComplex(ElementType type) {
  return IsFloatType(type) || IsComplexType(type);
}

// op(x, c) or op(c, x) with `is_identity(c)`: replaced by x.
template <typename Predicate>
Result DropIdentityOperand(Instruction* op, RewriteContext& context,
                           bool commutative, Predicate is_identity) {
  for (int64_t k = 1; k >= (commutative ? 0 : 1); --k) {
    Instruction* other = op->operand(1 - k);
    if (is_identity(op->operand(k)) && CanReplace(op, other)) {
      return ReplaceAndClean(context, op, other);
    }
  }
  return false;
}

// op(x, z) or op(z, x) with `is_absorbing(z)`: replaced by z (or by a
// filled constant of z's value when z has another shape, client form).
template <typename Predicate>
Result KeepAbsorbingOperand(Instruction* op, RewriteContext& context,
                            Predicate is_absorbing) {
  for (int64_t k = 1; k >= 0; --k) {
    Instruction* absorbing = op->operand(k);
    if (!is_absorbing(absorbing)) continue;
    if (CanReplace(op, absorbing)) {
      return ReplaceAndClean(context, op, absorbing);
    }
    const Literal* literal = ConstantBehind(absorbing);
    if (literal == nullptr || literal->element_count() == 0 ||
        !op->shape().IsArray()) {
      return false;
    }
    Literal scalar = *Literal::Create(Shape::Scalar(literal->element_type()));
    if (IsComplexType(scalar.element_type())) {
      scalar.SetComplex(0, literal->GetComplex(0));
    } else {
      scalar.SetBits(0, literal->GetBits(0));
    }
    return ReplaceAndClean(context, op,
                           AddFilledConstant(op, op->shape(), scalar));
  }
  return false;
}

// A zero of `op`'s shape in place of `op`.
Result ReplaceByZero(Instruction* op, RewriteContext& context) {
  if (!op->shape().IsArray()) return false;
  const ElementType type = op->shape().element_type();
  return ReplaceAndClean(
      context, op, AddFilledConstant(op, op->shape(), ScalarLiteral(type, 0)));
}

Result AddZero(bool fast_math, Instruction* add, RewriteContext& context) {
  if (add->opcode() != Opcode::kAdd) return false;
#ifdef KILN_SEEDED_BUGS
  // Seeded: x + 0 -> x for floats (wrong for x = -0).
  if (SeededBug("simplifier-add-zero")) fast_math = true;
#endif
  return DropIdentityOperand(add, context, true, [&](const Instruction* c) {
    return IsExactAddIdentity(c, fast_math);
  });
}

Result SubtractZero(bool fast_math, Instruction* sub, RewriteContext& context) {
  if (sub->opcode() != Opcode::kSubtract) return false;
  return DropIdentityOperand(sub, context, false, [&](const Instruction* c) {
    return IsExactSubtractIdentity(c, fast_math);
  });
}

// x - x: 0 for integers; for floats only in fast math (inf - inf is NaN).
Result SubtractSelf(bool fast_math, Instruction* sub, RewriteContext& context) {
  if (sub->opcode() != Opcode::kSubtract || sub->operand(0) != sub->operand(1))
    return false;
  const ElementType type = sub->shape().element_type();
#ifdef KILN_SEEDED_BUGS
  // Seeded: x - x -> 0 for floats (wrong for inf and NaN).
  if (SeededBug("simplifier-subtract-self")) fast_math = true;
#endif
  if (!IsIntegralType(type) && !(fast_math && IsFloatOrComplex(type))) {
    return false;
  }
  return ReplaceByZero(sub, context);
}

// x * 1: exact for integers, pred and real floats; complex multiply mixes
// the parts (inf * 0 in the cross terms), so complex is left alone.
Result MultiplyOne(Instruction* mul, RewriteContext& context) {
  if (mul->opcode() != Opcode::kMultiply ||
      IsComplexType(mul->shape().element_type())) {
    return false;
  }
  return DropIdentityOperand(mul, context, true, [](const Instruction* c) {
    return AllElementsAre(c, IsOne);
  });
}

// x * 0: 0 for integers and pred; floats only in fast math (NaN * 0 and
// inf * 0 are NaN, -1 * 0 is -0).
Result MultiplyZero(bool fast_math, Instruction* mul, RewriteContext& context) {
  if (mul->opcode() != Opcode::kMultiply) return false;
  const ElementType type = mul->shape().element_type();
#ifdef KILN_SEEDED_BUGS
  // Seeded: x * 0 -> 0 for floats (wrong for NaN, inf and negative x).
  if (SeededBug("simplifier-multiply-zero")) fast_math = true;
#endif
  if (!IsIntegralOrPred(type) && !(fast_math && IsFloatType(type))) {
    return false;
  }
  return KeepAbsorbingOperand(mul, context, [](const Instruction* c) {
    return AllElementsAre(c, IsAnyZero);
  });
}

// x / 1: exact for integers and real floats (complex division is left
// alone for the same reason as complex multiply).
Result DivideOne(Instruction* div, RewriteContext& context) {
  if (div->opcode() != Opcode::kDivide ||
      IsComplexType(div->shape().element_type())) {
    return false;
  }
  return DropIdentityOperand(div, context, false, [](const Instruction* c) {
    return AllElementsAre(c, IsOne);
  });
}

// 1 / c as a literal of c's type: every element must be a power of two
// whose reciprocal the type holds exactly, unless `fast_math`.
bool ReciprocalOf(const Literal& divisor, bool fast_math, Literal* result) {
  *result = divisor;
  for (int64_t i = 0; i < divisor.element_count(); ++i) {
    const double value = divisor.GetDouble(i);
    const double reciprocal = 1 / value;
    result->SetDouble(i, reciprocal);
    if (fast_math) continue;
    int exponent = 0;
    const double mantissa = std::frexp(value, &exponent);
    if (!std::isfinite(value) || std::fabs(mantissa) != 0.5 ||
        result->GetDouble(i) != reciprocal) {
      return false;
    }
  }
  return true;
}

// x / c -> x * (1 / c) for float constants c. When every element of c is a
// power of two with an exact reciprocal, both sides are the same real
// number rounded once, so the rewrite is exact; otherwise fast math only.
Result DivideByConstant(bool fast_math, Instruction* div,
                        RewriteContext& context) {
  if (div->opcode() != Opcode::kDivide ||
      !IsFloatType(div->shape().element_type())) {
    return false;
  }
  Instruction* divisor = div->operand(1);
  const Literal* literal = ConstantBehind(divisor);
  Literal reciprocal;
  if (literal == nullptr || !ReciprocalOf(*literal, fast_math, &reciprocal)) {
    return false;
  }
  Instruction* constant =
      divisor->opcode() == Opcode::kConstant ? divisor : divisor->operand(0);
  auto new_constant = std::make_unique<Instruction>(
      Opcode::kConstant, constant->shape(), "constant");
  new_constant->set_literal(std::move(reciprocal));
  Instruction* factor = AddBefore(div, std::move(new_constant));
  if (divisor != constant) {
    factor = AddBefore(div, divisor->CloneWithNewOperands(
                                divisor->shape(), {factor}, "broadcast"));
  }
  auto product = std::make_unique<Instruction>(Opcode::kMultiply, div->shape(),
                                               "multiply");
  product->AppendOperand(div->operand(0));
  product->AppendOperand(factor);
  *product->mutable_attrs() = div->attrs();  // broadcast_dimensions, if any.
  return ReplaceAndClean(context, div, AddBefore(div, std::move(product)));
}

// f(f(x)) -> x for involutions (negate on every type, wrap included).
Result Involution(Opcode opcode, Instruction* outer, RewriteContext& context) {
  if (outer->opcode() != opcode || outer->operand(0)->opcode() != opcode) {
    return false;
  }
  Instruction* x = outer->operand(0)->operand(0);
  if (!CanReplace(outer, x)) return false;
  return ReplaceAndClean(context, outer, x);
}

Result NegateNegate(Instruction* negate, RewriteContext& context) {
  return Involution(Opcode::kNegate, negate, context);
}

// abs(abs(x)) -> abs(x); abs(-x) -> abs(x) (signed integers, floats,
// complex; for unsigned, -x is 2^n - x, not x).
Result AbsOfAbsOrNegate(Instruction* abs, RewriteContext& context) {
  if (abs->opcode() != Opcode::kAbs) return false;
  Instruction* inner = abs->operand(0);
  if (inner->opcode() == Opcode::kAbs && CanReplace(abs, inner)) {
    return ReplaceAndClean(context, abs, inner);
  }
  const ElementType type = inner->shape().element_type();
  if (inner->opcode() != Opcode::kNegate || IsUnsignedIntType(type)) {
    return false;
  }
  abs->ReplaceOperandWith(0, inner->operand(0));
  absl::Status removed = RemoveIfDead(context, inner);
  if (!removed.ok()) return removed;
  return true;
}

// x ^ 1 -> x (integers and real floats: pow(x, 1) is x, NaN, inf and -0
// included; complex pow goes through exp(log) and is left alone).
Result PowerOne(Instruction* power, RewriteContext& context) {
  if (power->opcode() != Opcode::kPower ||
      IsComplexType(power->shape().element_type())) {
    return false;
  }
  return DropIdentityOperand(power, context, false, [](const Instruction* c) {
    return AllElementsAre(c, IsOne);
  });
}

// max(x, x) -> x, min(x, x) -> x, max(x, lowest) -> x, min(x, highest) -> x.
// Exact: the evaluator's max/min return lhs when it is NaN or wins, so the
// same operand on both sides (NaN, -0) comes back unchanged; -inf never
// wins a max except against -inf itself.
Result MaxMinTrivial(Instruction* op, RewriteContext& context) {
  const bool is_max = op->opcode() == Opcode::kMaximum;
  if (!is_max && op->opcode() != Opcode::kMinimum) return false;
  if (op->operand(0) == op->operand(1) && CanReplace(op, op->operand(0))) {
    return ReplaceAndClean(context, op, op->operand(0));
  }
  return DropIdentityOperand(op, context, true, [&](const Instruction* c) {
    return AllElementsAre(c, is_max ? IsTypeMinimum : IsTypeMaximum);
  });
}

// The scalar folding of c1 op c2 for reassociation; false when the type
// is not handled.
bool FoldScalars(Opcode opcode, const Literal& a, const Literal& b,
                 Literal* result) {
  *result = a;
  const ElementType type = a.element_type();
  const bool add = opcode == Opcode::kAdd;
  if (IsIntegralType(type)) {
    const uint64_t x = static_cast<uint64_t>(a.GetInt64(0));
    const uint64_t y = static_cast<uint64_t>(b.GetInt64(0));
    result->SetInt64(0, static_cast<int64_t>(add ? x + y : x * y));
    return true;
  }
  if (IsFloatType(type)) {
    const double x = a.GetDouble(0);
    const double y = b.GetDouble(0);
    result->SetDouble(0, add ? x + y : x * y);
    return true;
  }
  return false;
}

// (x op c1) op c2 -> x op (c1 op c2) for add and multiply with scalar
// constants (or broadcasts of them). Integer arithmetic wraps, so it is
// associative and the rewrite exact; floats round differently (fast math).
Result ReassociateConstants(bool fast_math, Instruction* outer,
                            RewriteContext& context) {
  const Opcode opcode = outer->opcode();
  if (opcode != Opcode::kAdd && opcode != Opcode::kMultiply) return false;
  const ElementType type = outer->shape().element_type();
  if (!IsIntegralType(type) && !(fast_math && IsFloatType(type))) return false;
  for (int64_t k = 0; k < 2; ++k) {
    Instruction* inner = outer->operand(k);
    Instruction* c2 = outer->operand(1 - k);
    const Literal* v2 = ScalarConstantBehind(c2);
    if (v2 == nullptr || inner->opcode() != opcode ||
        inner->user_count() != 1 || !CanReplace(outer, inner) ||
        !inner->control_predecessors().empty()) {
      continue;
    }
    for (int64_t j = 0; j < 2; ++j) {
      Instruction* x = inner->operand(j);
      const Literal* v1 = ScalarConstantBehind(inner->operand(1 - j));
      Literal folded;
      if (v1 == nullptr || !CanReplace(inner, x) ||
          !FoldScalars(opcode, *v1, *v2, &folded)) {
        continue;
      }
      Instruction* c3 = AddFilledConstant(outer, c2->shape(), folded);
      outer->ReplaceOperandWith(k, x);
      outer->ReplaceOperandWith(1 - k, c3);
      absl::Status removed = RemoveIfDead(context, inner);
      if (removed.ok()) removed = RemoveIfDead(context, c2);
      if (!removed.ok()) return removed;
      return true;
    }
  }
  return false;
}

// Whether both operands of `op` have its dimensions (no implicit
// broadcasting, so operands may move between positions).
bool OperandsHaveResultDimensions(const Instruction& op) {
  for (const Instruction* operand : op.operands()) {
    if (operand->shape().dimensions() != op.shape().dimensions()) return false;
  }
  return true;
}

// x + (-y) -> x - y, (-y) + x -> x - y, x - (-y) -> x + y. IEEE defines
// subtraction as addition of the negation, negation is exact, and
// integers wrap alike; complex works per part.
Result FoldNegatedOperand(Instruction* op, RewriteContext& context) {
  const bool is_add = op->opcode() == Opcode::kAdd;
  if ((!is_add && op->opcode() != Opcode::kSubtract) ||
      op->shape().element_type() == ElementType::kPred ||
      !OperandsHaveResultDimensions(*op)) {
    return false;
  }
  for (int64_t k = 1; k >= (is_add ? 0 : 1); --k) {
    Instruction* negate = op->operand(k);
    if (negate->opcode() != Opcode::kNegate) continue;
    auto folded =
        std::make_unique<Instruction>(is_add ? Opcode::kSubtract : Opcode::kAdd,
                                      op->shape(), is_add ? "subtract" : "add");
    folded->AppendOperand(op->operand(1 - k));
    folded->AppendOperand(negate->operand(0));
    return ReplaceAndClean(context, op, AddBefore(op, std::move(folded)));
  }
  return false;
}

// (-x) * (-y) -> x * y for integers (wrapping) and real floats (rounding
// is symmetric in the sign).
Result MultiplyNegations(Instruction* mul, RewriteContext& context) {
  const ElementType type = mul->shape().element_type();
  if (mul->opcode() != Opcode::kMultiply ||
      (!IsIntegralType(type) && !IsFloatType(type)) ||
      mul->operand(0)->opcode() != Opcode::kNegate ||
      mul->operand(1)->opcode() != Opcode::kNegate) {
    return false;
  }
  Instruction* a = mul->operand(0);
  Instruction* b = mul->operand(1);
  mul->ReplaceOperandWith(0, a->operand(0));
  mul->ReplaceOperandWith(1, b->operand(0));
  absl::Status removed = RemoveIfDead(context, a);
  if (removed.ok()) removed = RemoveIfDead(context, b);
  if (!removed.ok()) return removed;
  return true;
}

}  // namespace

void AddArithmeticRewrites(const AlgebraicSimplifierOptions& options,
                           std::vector<Rewrite>* rewrites) {
  const bool fast = options.allow_unsafe_float;
  auto with_fast = [fast](Result (*fn)(bool, Instruction*, RewriteContext&)) {
    return [fast, fn](Instruction* i, RewriteContext& c) {
      return fn(fast, i, c);
    };
  };
  AddRewrite(rewrites, "add-zero", {Opcode::kAdd}, with_fast(AddZero));
  AddRewrite(rewrites, "subtract-zero", {Opcode::kSubtract},
             with_fast(SubtractZero));
  AddRewrite(rewrites, "subtract-self", {Opcode::kSubtract},
             with_fast(SubtractSelf));
  AddRewrite(rewrites, "multiply-one", {Opcode::kMultiply}, MultiplyOne);
  AddRewrite(rewrites, "multiply-zero", {Opcode::kMultiply},
             with_fast(MultiplyZero));
  AddRewrite(rewrites, "divide-one", {Opcode::kDivide}, DivideOne);
  AddRewrite(rewrites, "divide-by-constant", {Opcode::kDivide},
             with_fast(DivideByConstant));
  AddRewrite(rewrites, "negate-negate", {Opcode::kNegate}, NegateNegate);
  AddRewrite(rewrites, "fold-negated-operand",
             {Opcode::kAdd, Opcode::kSubtract}, FoldNegatedOperand);
  AddRewrite(rewrites, "multiply-negations", {Opcode::kMultiply},
             MultiplyNegations);
  AddRewrite(rewrites, "abs-of-abs-or-negate", {Opcode::kAbs},
             AbsOfAbsOrNegate);
  AddRewrite(rewrites, "power-one", {Opcode::kPower}, PowerOne);
  AddRewrite(rewrites, "max-min-trivial", {Opcode::kMaximum, Opcode::kMinimum},
             MaxMinTrivial);
  AddRewrite(rewrites, "reassociate-constants",
             {Opcode::kAdd, Opcode::kMultiply},
             with_fast(ReassociateConstants));
}

}  // namespace algsimp
}  // namespace kiln
