// Parser for XLA's HLO text format. Accepts what XLA and JAX dump: optional
// '%', short and long operand forms, /*index=N*/ and other comments, every
// op's attributes, layouts with tiles, dynamic shapes, metadata and the rest.
// Errors are "file:line:col: error: message" statuses pointing at the token.
#ifndef KILN_COMPILER_TEXT_PARSER_H_
#define KILN_COMPILER_TEXT_PARSER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/ir/shape.h"

namespace kiln {

struct ParseOptions {
  // Name used in error messages ("<stdin>", a path, ...).
  std::string filename = "<input>";
  // Constants larger than this are refused rather than allocated.
  int64_t max_literal_bytes = kDefaultMaxLiteralBytes;
  // Accept constants whose values were elided when printed ("{...}") and
  // read them as zeros. Off by default: the values are unknown, and a module
  // that silently computes with zeros is worse than an error.
  bool allow_elided_constants = false;
  // Deepest nesting of braces/parentheses accepted (stack safety).
  int max_nesting_depth = 256;
  // Check every declared shape against the op's shape rule (client form:
  // implicit broadcasting allowed), failing at the first mismatch. Off for
  // tools that want every error of a module at once (`kiln verify` parses
  // without it and runs the verifier). Shapes the text omits are inferred
  // either way.
  bool check_shapes = true;
};

absl::StatusOr<std::unique_ptr<Module>> ParseModule(
    absl::string_view text, const ParseOptions& options = {});

// A whole literal: its shape, then its value, as XLA prints literals:
// "f32[2] {1, 2}", "f32[2]{1,2}", "f32[2]{0} {1, 2}" (a brace group after
// the dimensions is a layout only when a value follows), "pred[] true",
// "(f32[], s32[2]) (1.5, {1, 2})". Literals over `max_bytes` are refused.
absl::StatusOr<Literal> ParseLiteral(
    absl::string_view text, int64_t max_bytes = kDefaultMaxLiteralBytes);

// A single shape, e.g. "f32[2,<=3]{1,0:T(8,128)}" or "(s32[], token[])".
absl::StatusOr<Shape> ParseShape(absl::string_view text);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_PARSER_H_
