#include "compiler/evaluator/testing/eval_test_util.h"

#include <cctype>
#include <memory>

#include "absl/strings/str_cat.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"

namespace kiln {
namespace eval_test {

absl::StatusOr<Literal> Run(absl::string_view hlo,
                            const std::vector<std::string>& arguments,
                            const EvalOptions& options) {
  ParseOptions parse_options;
  parse_options.filename = "test.hlo";
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(hlo, parse_options);
  if (!module.ok()) return module.status();
  std::vector<Literal> values;
  for (const std::string& text : arguments) {
    absl::StatusOr<Literal> value = ParseLiteral(text);
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
  }
  return Evaluate(**module, values, options);
}

std::string LiteralText(const Literal& literal) {
  return LiteralToString(literal);
}

std::string RunToText(absl::string_view hlo,
                      const std::vector<std::string>& arguments,
                      const EvalOptions& options) {
  absl::StatusOr<Literal> result = Run(hlo, arguments, options);
  if (!result.ok()) return absl::StrCat("error: ", result.status().message());
  return LiteralText(*result);
}

std::string RunToCompactText(absl::string_view hlo,
                             const std::vector<std::string>& arguments) {
  std::string text = RunToText(hlo, arguments);
  // Drop the printer's /*index*/ comments first.
  for (size_t at = text.find("/*"); at != std::string::npos;
       at = text.find("/*")) {
    const size_t end = text.find("*/", at);
    text.erase(at, end == std::string::npos ? std::string::npos : end + 2 - at);
  }
  // Then drop each run of whitespace that follows '{' (or "(" before
  // '{') or precedes '}' (or ")" after '}'); other runs become one space.
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isspace(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() &&
           std::isspace(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    const char before = out.empty() ? '\0' : out.back();
    const char after = end < text.size() ? text[end] : '\0';
    const bool drop = before == '{' || after == '}' ||
                      (before == '(' && after == '{') ||
                      (after == ')' && before == '}');
    if (!drop) out += ' ';
    i = end;
  }
  return out;
}

std::string EntryModule(const std::vector<std::string>& parameter_shapes,
                        absl::string_view body, absl::string_view prelude) {
  std::string text =
      absl::StrCat("HloModule test\n\n", prelude, "\n\nENTRY e {\n");
  for (size_t i = 0; i < parameter_shapes.size(); ++i) {
    absl::StrAppend(&text, "  p", i, " = ", parameter_shapes[i], " parameter(",
                    i, ")\n");
  }
  absl::StrAppend(&text, "  ", body, "\n}\n");
  return text;
}

std::string WithSize(const std::string& shape, int dim, int size,
                     const std::string& rest) {
  return absl::StrCat("n = s32[] constant(", size, ")\n  d = ", shape,
                      " set-dimension-size(p0, n), dimensions={", dim, "}\n  ",
                      rest);
}

}  // namespace eval_test
}  // namespace kiln
