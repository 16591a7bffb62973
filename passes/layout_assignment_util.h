// Layout arithmetic for layout-assignment: the layouts that make a transpose
// or a reshape a bitcast (the same bytes in the same memory order), and the
// tests of whether one already is. Layouts here are plain minor_to_major
// orders (shapes.md); tiles and the other extras are the caller's business.
//
// "Physical order" is the order of elements in memory: the dimensions from
// most major to most minor (minor_to_major reversed). Size-1 dimensions
// never change a physical position, so every comparison ignores them.
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_UTIL_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_UTIL_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "compiler/ir/layout.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace layout_util {

// minor_to_major reversed: the dimensions from most major to most minor.
std::vector<int64_t> MajorToMinor(const Layout& layout);
// The layout whose major-to-minor order is `major_to_minor`.
Layout FromMajorToMinor(std::vector<int64_t> major_to_minor);

// True when `layout` is a permutation of 0..rank-1 and nothing else.
bool IsPlainPermutation(const Layout& layout, int64_t rank);

// transpose(operand), dimensions=`permutation` (result dim j is operand dim
// permutation[j]): the result layout that keeps the operand's physical
// order, making the transpose a bitcast.
Layout TransposeResultLayoutFor(const Layout& operand_layout,
                                absl::Span<const int64_t> permutation);
// The inverse question: the operand layout for which the transpose with
// result layout `result_layout` is a bitcast.
Layout TransposeOperandLayoutFor(const Layout& result_layout,
                                 absl::Span<const int64_t> permutation);
// Whether transpose(operand) -> result (both with plain layouts) moves no
// byte.
bool IsTransposeBitcast(const Shape& operand, const Shape& result,
                        absl::Span<const int64_t> permutation);

// A layout for an array of dimensions `to_dims` that holds the row-major
// reshape of `from` (static, with a plain layout) in `from`'s physical
// order, or nullopt when none exists (or the element counts differ or are
// zero). Reshape is symmetric, so this also answers "which operand layout
// makes a reshape to a given result layout a bitcast". Size-1 dimensions
// of the result are placed next to their logical neighbour, so that a
// default layout maps to a default layout.
std::optional<Layout> ReshapeBitcastLayout(const Shape& from,
                                           absl::Span<const int64_t> to_dims);
// Whether reshape(operand) -> result (both static, plain layouts) moves no
// byte.
bool IsReshapeBitcast(const Shape& operand, const Shape& result);

// True when every array subshape of `shape` that has a layout has nothing
// but minor_to_major (no tiles, element size, memory space, ...).
bool HasOnlyPlainLayouts(const Shape& shape);

}  // namespace layout_util
}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_UTIL_H_
