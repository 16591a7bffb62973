// Shape checks: every declared shape is valid (layouts included) and equals,
// ignoring layouts, the shape the op's spec rule infers from its operands.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

// InferShape's errors already read "<name>: <what> (<section>, <rule>)";
// only the location prefix is missing.
absl::Status InferenceError(const Instruction& instruction,
                            const absl::Status& status) {
  std::string message(status.message());
  if (!absl::StartsWith(message, absl::StrCat(instruction.name(), ": "))) {
    return InstructionError(instruction, message, "shape.inferred");
  }
  std::string where = instruction.location.ToString();
  if (!where.empty()) where += ": ";
  return absl::InvalidArgumentError(absl::StrCat(where, "error: ", message));
}

void CheckInstructionShape(const Instruction& instruction,
                           const VerifyOptions& options, VerifyReport* report) {
  ++report->instructions_checked;
  if (absl::Status valid = instruction.shape().Validate(); !valid.ok()) {
    report->errors.push_back(InstructionError(
        instruction,
        absl::StrCat("declared shape ", instruction.shape().ToString(),
                     " is invalid: ", valid.message()),
        "shape.valid"));
    return;
  }
  absl::StatusOr<Shape> inferred = InferShape(instruction, options.form);
  if (absl::IsUnimplemented(inferred.status())) {
    ++report->without_shape_rule;  // No rule yet: nothing to compare with.
    return;
  }
  if (!inferred.ok()) {
    report->errors.push_back(InferenceError(instruction, inferred.status()));
    return;
  }
  if (!instruction.shape().Compatible(*inferred)) {
    report->errors.push_back(InstructionError(
        instruction,
        absl::StrCat("declared shape ", instruction.shape().ToString(false),
                     " does not match inferred shape ",
                     inferred->ToString(false)),
        "shape.inferred"));
  }
}

}  // namespace

void CheckShapes(const Module& module, const VerifyOptions& options,
                 VerifyReport* report) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      CheckInstructionShape(*instruction, options, report);
    }
  }
}

}  // namespace kiln::verifier_internal
