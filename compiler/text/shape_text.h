// Parser for shape text as XLA prints it: "f32[2,<=3,?]{2,1,0:T(8,128)S(1)}",
// "(s32[], token[])", "opaque[]". Used by the attribute codec (kShape,
// kShapeList) and by the module parser.
#ifndef KILN_COMPILER_TEXT_SHAPE_TEXT_H_
#define KILN_COMPILER_TEXT_SHAPE_TEXT_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/shape.h"

namespace kiln {

// Parses one shape from the start of `text` (leading whitespace and
// comments skipped). On success `*consumed` is the number of bytes read; on
// error `*error_offset` is where in `text` the problem is. A layout is read
// only when '{' immediately follows the dimensions' ']' (as XLA prints it),
// so "f32[] {" leaves the brace to the caller. Nesting deeper than 256
// (tuples, P(...) physical shapes) is an error, not a stack overflow.
// Either pointer may be null.
absl::StatusOr<Shape> ParseShapeText(absl::string_view text, size_t* consumed,
                                     size_t* error_offset);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_SHAPE_TEXT_H_
