// Test helpers for the family shape-rule tests: parse a small HLO module and
// run InferShape (strict form) on one or several of its instructions.
#ifndef KILN_COMPILER_OPS_TESTING_FAMILY_SHAPE_TEST_UTIL_H_
#define KILN_COMPILER_OPS_TESTING_FAMILY_SHAPE_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace shape_test {

// Parses `hlo` and infers the shape of the instruction named `name` (the
// entry ROOT when empty). Returns the shape as text without layout
// ("f32[2,3]", "(f32[2], s32[2])"), or the error (parse errors included).
absl::StatusOr<std::string> InferText(absl::string_view hlo,
                                      absl::string_view name = "");

// The error message of InferText, or "OK: <shape>" when it succeeded, so a
// failing expectation shows what was inferred.
std::string InferError(absl::string_view hlo, absl::string_view name = "");

// Parses `hlo` and infers every instruction of the entry computation whose
// opcode is in `opcodes`; returns one line per instruction whose inferred
// shape differs from its declared one (layouts ignored) or whose inference
// failed, plus a line if none was checked.
std::vector<std::string> DeclaredShapeMismatches(
    absl::string_view hlo, const std::vector<Opcode>& opcodes);

// The text of compiler/text/testdata/<name> (a test's data dependency
// //compiler/text:testdata_hlo), found through the test's runfiles.
std::string ReadCorpusFile(absl::string_view name);

}  // namespace shape_test
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_TESTING_FAMILY_SHAPE_TEST_UTIL_H_
