// A whole literal in HLO text: a shape followed by its value, as XLA prints
// literals ("f32[2] {1, 2}", "(f32[], s32[]) (1.5, 2)", "pred[] true").
#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"

namespace kiln {
namespace {

// Index just past the group that opens at text[open] ('(' or '{'), or npos.
size_t MatchingClose(absl::string_view text, size_t open) {
  const char opener = text[open];
  const char closer = opener == '(' ? ')' : '}';
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == opener) ++depth;
    if (text[i] == closer && --depth == 0) return i + 1;
  }
  return absl::string_view::npos;
}

size_t SkipBlanks(absl::string_view text, size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
    ++i;
  }
  return i;
}

// Splits "shape value" into its two parts. A brace group right after an
// array shape's dimensions is its layout only when a value follows it
// ("f32[2]{0} {1, 2}"); alone it is the value ("f32[2]{1, 2}").
absl::Status SplitShapeAndValue(absl::string_view text,
                                absl::string_view* shape,
                                absl::string_view* value) {
  size_t i = SkipBlanks(text, 0);
  size_t shape_end;
  if (i < text.size() && text[i] == '(') {
    shape_end = MatchingClose(text, i);
  } else {
    shape_end = text.find(']', i);
    if (shape_end != absl::string_view::npos) ++shape_end;
  }
  if (shape_end == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected a shape at the start of literal '", text, "'"));
  }
  size_t after = SkipBlanks(text, shape_end);
  if (text[i] != '(' && after < text.size() && text[after] == '{') {
    const size_t group_end = MatchingClose(text, after);
    const size_t next = group_end == absl::string_view::npos
                            ? text.size()
                            : SkipBlanks(text, group_end);
    // An array's value is braced; a scalar's ("f32[]{} 1") is not.
    const bool scalar = text.substr(i, shape_end - i).find("[]") !=
                        absl::string_view::npos;
    if (next < text.size() && (text[next] == '{' || scalar)) {
      shape_end = group_end;  // A layout, then the value.
    }
  }
  *shape = text.substr(i, shape_end - i);
  *value = absl::StripAsciiWhitespace(text.substr(shape_end));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> ParseLiteral(absl::string_view text,
                                     int64_t max_bytes) {
  absl::string_view shape_text;
  absl::string_view value_text;
  if (absl::Status s = SplitShapeAndValue(text, &shape_text, &value_text);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<Shape> shape = ParseShape(shape_text);
  if (!shape.ok()) return shape.status();
  size_t consumed = 0;
  size_t error_offset = 0;
  absl::StatusOr<Literal> literal = ParseLiteralValue(
      *shape, value_text, &consumed, &error_offset, max_bytes);
  if (!literal.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "literal '", text, "', at '", value_text.substr(error_offset, 20),
        "': ", literal.status().message()));
  }
  if (!absl::StripAsciiWhitespace(value_text.substr(consumed)).empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unexpected text after literal: '", value_text.substr(consumed), "'"));
  }
  return literal;
}

}  // namespace kiln
