// Small helpers every family's shape rules share: the error format of
// shape_inference.h and the checks on dimension-number lists that many ops
// take (dimensions=, broadcast_dimensions=, batch dims, ...). Internal to
// compiler/ops/.
#ifndef KILN_COMPILER_OPS_SHAPE_RULE_UTIL_H_
#define KILN_COMPILER_OPS_SHAPE_RULE_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"

// Returns the absl::Status `expr` from the enclosing function if not ok.
#define KILN_RULE_RETURN_IF_ERROR(expr)                    \
  do {                                                     \
    const absl::Status kiln_rule_status_ = (expr);         \
    if (!kiln_rule_status_.ok()) return kiln_rule_status_; \
  } while (false)

namespace kiln {
namespace ops_internal {

// InvalidArgument "<name>: <message> (<spec_section>)", e.g.
// RuleError(add, "operand 1 is f32[3], expected f32[2]",
//           "operation_semantics.md, Element-wise binary arithmetic").
absl::Status RuleError(const Instruction& instruction,
                       absl::string_view message,
                       absl::string_view spec_section);

// "{0,2,1}": how dimension lists appear in messages.
std::string DimsToString(absl::Span<const int64_t> dims);

// The shape of operand `index`, which must be an array (not a tuple, token
// or opaque); the error reads "operand <index> is <shape>, expected an
// array".
absl::StatusOr<const Shape*> ArrayOperand(const Instruction& instruction,
                                          int64_t index,
                                          absl::string_view spec_section);

// Each entry of `dims` (the attribute named `attr_name`) is in [0, rank).
absl::Status CheckDimsInRange(const Instruction& instruction,
                              absl::string_view attr_name,
                              absl::Span<const int64_t> dims, int64_t rank,
                              absl::string_view spec_section);
// In range and no entry repeated.
absl::Status CheckDimsUnique(const Instruction& instruction,
                             absl::string_view attr_name,
                             absl::Span<const int64_t> dims, int64_t rank,
                             absl::string_view spec_section);
// A permutation of [0, rank): size rank, in range, unique.
absl::Status CheckDimsPermutation(const Instruction& instruction,
                                  absl::string_view attr_name,
                                  absl::Span<const int64_t> dims, int64_t rank,
                                  absl::string_view spec_section);
// In range and strictly increasing (hence unique).
absl::Status CheckDimsStrictlyIncreasing(const Instruction& instruction,
                                         absl::string_view attr_name,
                                         absl::Span<const int64_t> dims,
                                         int64_t rank,
                                         absl::string_view spec_section);

// The Int64List attribute `name`, or nullptr when absent.
const std::vector<int64_t>* Int64ListAttr(const Instruction& instruction,
                                          absl::string_view name);
// The Int64List attribute `name`; an error naming the rule when absent.
absl::StatusOr<const std::vector<int64_t>*> RequiredInt64ListAttr(
    const Instruction& instruction, absl::string_view name,
    absl::string_view spec_section);
// The one entry of dimensions={d} (sort, scan, all-gather, reduce-scatter,
// get/set-dimension-size), in range of every rank in `ranks`.
absl::StatusOr<int64_t> SingleDimensionAttr(const Instruction& instruction,
                                            absl::Span<const int64_t> ranks,
                                            absl::string_view spec_section);
// The Int64 attribute `name`; an error naming the rule when absent.
absl::StatusOr<int64_t> RequiredInt64Attr(const Instruction& instruction,
                                          absl::string_view name,
                                          absl::string_view spec_section);

// `shape`'s dimensions (and dynamism) with element type `type`, no layout.
Shape WithElementType(const Shape& shape, ElementType type);

// All the listed operands have the element type of the first; the error
// names both operands.
absl::Status CheckSameElementType(const Instruction& instruction,
                                  absl::Span<const int64_t> operands,
                                  absl::string_view spec_section);

// "f32[2,3]" without layout: how shapes appear in messages.
std::string ShapeText(const Shape& shape);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_SHAPE_RULE_UTIL_H_
