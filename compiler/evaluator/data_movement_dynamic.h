// Dynamic sizes in the evaluator (docs/evaluator_dynamic.md).
//
// A dynamic array value is a Literal held at its bounds whose dynamic
// dimensions carry their actual size (Literal::SetDynamicSize); elements past
// a size are padding. Most kernels were written for static arrays, so the
// ops that compute on the valid elements only (elementwise ops, reduce,
// sort, reduce-window, transpose, reverse, concatenate, pad, ...) run
// through RunOnValidElements: the dynamic operands are cut to their valid
// elements (static literals of the actual sizes), the static kernel runs on
// those, and its result is placed back at the declared bounds with the
// sizes it came out with set on the declared dynamic dimensions. Arrays
// without dynamic sizes take the kernel directly, at no cost.
#ifndef KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_DYNAMIC_H_
#define KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_DYNAMIC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

// How the operands of an op on valid elements are cut.
enum class DynamicOperands {
  // The operands share one shape (elementwise ops, variadic reduce, sort):
  // every operand with the same bounds as a dynamic operand is cut to its
  // sizes, so a static operand mixed with a dynamic one of the same bound
  // follows the dynamic one (as XLA's dynamic dimension inference does).
  kShared,
  // Each operand has its own shape (concatenate, pad): each is cut to its
  // own sizes.
  kEach,
};

// True when some array operand (tuples included) has dynamic sizes.
bool AnyDynamicOperand(absl::Span<const Literal* const> operands);

// The valid elements of `literal` as a static literal of its actual sizes.
absl::StatusOr<Literal> ValidElements(const Instruction& instruction,
                                      const Literal& literal,
                                      EvalContext& context);

// `computed` (static arrays, tuples recursively) placed at the bounds of
// `declared`, with its sizes set on `declared`'s dynamic dimensions. A
// static declared dimension must equal the computed size.
absl::StatusOr<Literal> PlaceAtBounds(const Instruction& instruction,
                                      const Literal& computed,
                                      const Shape& declared,
                                      EvalContext& context);

// Runs `kernel` on the valid elements of the operands (see above).
absl::StatusOr<Literal> RunOnValidElements(
    Kernel kernel, DynamicOperands mode, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context);

// `kernel` made aware of dynamic sizes; register `&OnValidElements<K>`.
template <Kernel K, DynamicOperands M = DynamicOperands::kShared>
absl::StatusOr<Literal> OnValidElements(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (!AnyDynamicOperand(operands)) return K(instruction, operands, context);
  return RunOnValidElements(K, M, instruction, operands, context);
}

// Sets on `result` (an array at the declared bounds) the dynamic sizes
// that pass through unchanged from `operand`: result dimension d takes the
// size of operand dimension source[d] (-1: none) when the declared shape
// marks d dynamic and both have the same bound; other declared dynamic
// dimensions are dynamic at their bound. For ops that keep the
// padding where it is (broadcast, copy, slice and dynamic-slice of a whole
// dimension).
absl::Status PassDynamicSizes(const Instruction& instruction,
                              const Literal& operand,
                              absl::Span<const int64_t> source,
                              Literal* result);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_DYNAMIC_H_
