// Helpers of the collective kernels: exchanging values through the hub (or
// within the one device of a plain Evaluate), checking that the devices
// agree on shapes, and the byte-level block moves and element-wise folds
// that build the results.
#ifndef KILN_COMPILER_EVALUATOR_COLLECTIVE_UTIL_H_
#define KILN_COMPILER_EVALUATOR_COLLECTIVE_UTIL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

using Contributions = std::shared_ptr<const std::vector<Literal>>;

// A tuple of copies of `operands`: what a device contributes.
Literal Pack(absl::Span<const Literal* const> operands);

// Hands `mine` to the group `devices` (device numbers, in group order) and
// returns every member's contribution in that order. Without a hub the
// group must be this device alone.
absl::StatusOr<Contributions> ExchangeWithGroup(
    const Instruction& instruction, EvalContext& context,
    const std::vector<int64_t>& devices, Literal mine);

// Every contribution is a tuple with the shapes of `values[self]`.
absl::Status CheckSameShapes(const Instruction& instruction,
                             const std::vector<Literal>& values,
                             const std::vector<int64_t>& devices, size_t self);

// The position of this device's number in `devices`.
size_t PositionOf(const EvalContext& context,
                  const std::vector<int64_t>& devices);

// `out` = the concatenation of `parts` (arrays of one type whose
// dimensions agree but for `dim`) along `dim`; `out` has the total shape.
void ConcatAlongDim(absl::Span<const Literal* const> parts, int64_t dim,
                    Literal& out);

// `out` = `size` indices of `in` along `dim` from `start` (the rest whole).
void SliceAlongDim(const Literal& in, int64_t dim, int64_t start, Literal& out);

// out[i] = to_apply(out[i], in[i]) for every element (arrays of one shape).
absl::Status CombineInto(const Instruction& instruction, EvalContext& context,
                         const Computation& to_apply, const Literal& in,
                         Literal& out);

// `results` as the op's value: the single array, or a tuple of them.
Literal SingleOrTuple(std::vector<Literal> results);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_COLLECTIVE_UTIL_H_
