// Helpers for evaluator tests: run HLO text on literal texts and compare
// results as text, so that a test reads like the spec's examples.
#ifndef KILN_COMPILER_EVALUATOR_TESTING_EVAL_TEST_UTIL_H_
#define KILN_COMPILER_EVALUATOR_TESTING_EVAL_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval_test {

// Parses `hlo` (with the parser's shape checks) and each argument with
// ParseLiteral ("f32[2] {1, 2}"), then evaluates the entry.
absl::StatusOr<Literal> Run(absl::string_view hlo,
                            const std::vector<std::string>& arguments = {},
                            const EvalOptions& options = {});

// Run's result as "shape value" text ("f32[2] {3, 4}", shapes without
// layouts), or "error: <message>".
std::string RunToText(absl::string_view hlo,
                      const std::vector<std::string>& arguments = {},
                      const EvalOptions& options = {});

// RunToText with the printer's padding inside braces removed ("{ {1}, {2}
// }" -> "{{1}, {2}}") and its /*index*/ comments dropped, so that expected
// values read like the spec's.
std::string RunToCompactText(absl::string_view hlo,
                             const std::vector<std::string>& arguments = {});

// "shape value" text of a literal, as RunToText writes it.
std::string LiteralText(const Literal& literal);

// A module whose entry has parameters p0..pN of the given shapes and whose
// ROOT is `body`'s last line, e.g.
//   EntryModule({"f32[2]", "f32[2]"}, "ROOT r = f32[2] add(p0, p1)").
// `body` may hold several lines; extra computations go in `prelude`.
std::string EntryModule(const std::vector<std::string>& parameter_shapes,
                        absl::string_view body, absl::string_view prelude = "");

// Body text "n = s32[] constant(<size>)\n  d = <shape> set-dimension-size(
// p0, n), dimensions={<dim>}\n  <rest>": p0 made dynamic on `dim` with
// `size` valid elements, for EntryModule bodies.
std::string WithSize(const std::string& shape, int dim, int size,
                     const std::string& rest);

}  // namespace eval_test
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_TESTING_EVAL_TEST_UTIL_H_
