// Runs shape inference on the ROOT of a small HLO text, for the shape-rule
// tests: the operands' shapes come from their declarations in the text.
#ifndef KILN_COMPILER_OPS_TESTING_SHAPE_TEST_UTIL_H_
#define KILN_COMPILER_OPS_TESTING_SHAPE_TEST_UTIL_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace testing {

// `module_text` is a whole module; infers the entry computation's ROOT.
absl::StatusOr<Shape> InferEntryRoot(absl::string_view module_text,
                                     ShapeForm form = ShapeForm::kClient);

// `body` is the instruction lines of an ENTRY computation.
absl::StatusOr<Shape> InferRoot(absl::string_view body,
                                ShapeForm form = ShapeForm::kClient);

// The inferred shape without layout ("f32[2,3]"), or "error: <message>".
// A text that does not parse yields "parse error: <message>".
std::string InferRootText(absl::string_view body,
                          ShapeForm form = ShapeForm::kClient);

}  // namespace testing
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_TESTING_SHAPE_TEST_UTIL_H_
