// Checks shared by the ops that call computations (reduce, sort, scatter,
// ...) or slide windows (reduce-window, select-and-scatter, convolution).
// Internal to compiler/ops/; complements shape_rule_util.h.
#ifndef KILN_COMPILER_OPS_COMPUTATION_RULES_H_
#define KILN_COMPILER_OPS_COMPUTATION_RULES_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace ops_internal {

// The computation attribute `name` (to_apply=, select=, ...); an error when
// absent or when the computation has no ROOT.
absl::StatusOr<const Computation*> RequiredComputationAttr(
    const Instruction& instruction, absl::string_view name,
    absl::string_view spec_section);

// Checks that `computation` (the attribute `attr_name`) takes exactly
// `params` (layouts ignored) and returns `result`.
absl::Status CheckSignature(const Instruction& instruction,
                            absl::string_view attr_name,
                            const Computation& computation,
                            absl::Span<const Shape> params, const Shape& result,
                            absl::string_view spec_section);

// The scalars of `type` for each array in `shapes`.
std::vector<Shape> ScalarsOf(absl::Span<const Shape* const> shapes);

// A single shape, or a tuple when there are several (XLA's variadic ops).
Shape SingleOrTuple(std::vector<Shape> shapes);

// An array result with default layout; dynamic[i] marks dynamic dims.
Shape ArrayResult(ElementType type, std::vector<int64_t> dims,
                  std::vector<bool> dynamic);

// The window= attribute; when absent, a window of size 1 and stride 1 in
// each of `rank` dimensions. An error when its rank differs from `rank`.
absl::StatusOr<Window> WindowAttr(const Instruction& instruction, int64_t rank,
                                  absl::string_view spec_section);

// The size of one dimension of size `input` after the window `dim` slid over
// it (base dilation, padding, window dilation, stride), or an error naming
// the field that is out of range or the overflow.
absl::StatusOr<int64_t> WindowedSize(const Instruction& instruction,
                                     int64_t input, const WindowDimension& dim,
                                     int64_t dim_index,
                                     absl::string_view spec_section);

// a * b or a + b, or an error on int64 overflow.
absl::StatusOr<int64_t> CheckedMul(const Instruction& instruction, int64_t a,
                                   int64_t b, absl::string_view spec_section);
absl::StatusOr<int64_t> CheckedAdd(const Instruction& instruction, int64_t a,
                                   int64_t b, absl::string_view spec_section);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_COMPUTATION_RULES_H_
