// Helpers shared by the rewrites of the algebraic simplifier: recognizing
// constants (looking through a broadcast of a constant), testing elements
// for the values an identity needs (signed zeros, one, all ones, the type's
// extremes), and adding or replacing instructions in definition order.
#ifndef KILN_PASSES_ALGEBRAIC_SIMPLIFIER_UTIL_H_
#define KILN_PASSES_ALGEBRAIC_SIMPLIFIER_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/opcode.h"
#include "compiler/pass/rewrite.h"

namespace kiln {
namespace algsimp {

// Constants with more elements are not inspected, so that a rewrite stays
// O(1) per instruction however often a large constant is used.
inline constexpr int64_t kMaxInspectedElements = 4096;

// Tests one element of a literal.
using ElementTest = bool (*)(const Literal& literal, int64_t index);

// The literal behind `value` when it is a constant, or a broadcast of a
// constant (every element of the broadcast is an element of that literal);
// null otherwise or when the literal is too large to inspect.
const Literal* ConstantBehind(const Instruction* value);

// True when `value` is a constant (or a broadcast of one) whose every
// element passes `test`.
bool AllElementsAre(const Instruction* value, ElementTest test);

// The scalar literal behind `value` when it is a rank-0 constant or a
// broadcast of one; null otherwise.
const Literal* ScalarConstantBehind(const Instruction* value);

// Element tests. Zeros: integers and pred 0/false; floats by sign;
// complex: both parts.
bool IsAnyZero(const Literal& literal, int64_t i);
bool IsPositiveZero(const Literal& literal, int64_t i);
bool IsNegativeZero(const Literal& literal, int64_t i);
bool IsOne(const Literal& literal, int64_t i);      // Not complex.
bool IsAllOnes(const Literal& literal, int64_t i);  // Integers, pred.
// The type's least value (-inf for floats, INT_MIN, 0 unsigned, false) and
// greatest (+inf, INT_MAX, all ones, true). Floats without inf never pass.
bool IsTypeMinimum(const Literal& literal, int64_t i);
bool IsTypeMaximum(const Literal& literal, int64_t i);

// Integers and pred.
bool IsIntegralOrPred(ElementType type);

// Whether `value` is x's identity for addition that is exact for every x
// (NaN, inf, -0): integer 0; float -0 (or +0 when the type has no -0);
// complex -0-0i. With `fast_math`, any zero.
bool IsExactAddIdentity(const Instruction* value, bool fast_math);
// The same for x - value: integer 0, float +0 (x - +0 == x + -0).
bool IsExactSubtractIdentity(const Instruction* value, bool fast_math);

// Whether `replacement` can take the place of `old_instruction`: the same
// shape, layouts included (so that no layout or broadcast is lost), and
// the same sharding when `old_instruction` has one.
bool CanReplace(const Instruction* old_instruction,
                const Instruction* replacement);

// Whether every array shape in the operand and result is static.
bool AllStatic(const Instruction* instruction);

// Adds `instruction` just before `before` in its computation, with the
// metadata and source location of `before` (and its sharding when the
// shapes are equal).
Instruction* AddBefore(Instruction* before,
                       std::unique_ptr<Instruction> instruction);

// A constant holding `scalar` (converted to the type of `shape`),
// broadcast to `shape` when that is not a scalar; added before `before`.
Instruction* AddFilledConstant(Instruction* before, const Shape& shape,
                               const Literal& scalar);

// A scalar literal of `type` holding zero (false) or `value`.
Literal ScalarLiteral(ElementType type, int64_t value);

// Replaces `old_instruction` by `replacement` and removes the operands of
// `old_instruction` that the replacement left dead (pure ops only).
absl::StatusOr<bool> ReplaceAndClean(RewriteContext& context,
                                     Instruction* old_instruction,
                                     Instruction* replacement);

// Removes `instruction` when it is dead: no users, not a ROOT, no control
// successor, not a parameter, and a pure op of the kinds the simplifier
// looks through.
absl::Status RemoveIfDead(RewriteContext& context, Instruction* instruction);

// Appends rewrite `name`, tried only on instructions whose opcode is in
// `opcodes` (non-empty; the driver dispatches on them, so that a sweep pays
// nothing for rewrites of other ops) and that have no control dependencies
// and no dynamic shapes.
void AddRewrite(std::vector<Rewrite>* rewrites, std::string name,
                std::vector<Opcode> opcodes, RewriteFn fn);

}  // namespace algsimp
}  // namespace kiln

#endif  // KILN_PASSES_ALGEBRAIC_SIMPLIFIER_UTIL_H_
