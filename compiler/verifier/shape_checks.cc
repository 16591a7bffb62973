// Shape checks: every declared shape is valid (layouts included) and equals,
// ignoring layouts, the shape the op's spec rule infers from its operands.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
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

// The first array leaf of `shape` whose element count or byte size does
// not fit in int64, with why; "" when every leaf fits. Leaves with an
// unbounded dimension have no size to check. Sizes are computed in int64
// everywhere (literals, buffers, the evaluator's caps), so a shape beyond
// it would wrap rather than be refused later.
std::string OversizedLeaf(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      std::string why = OversizedLeaf(element);
      if (!why.empty()) return why;
    }
    return "";
  }
  if (!shape.IsArray()) return "";
  int64_t count = 1;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.is_unbounded_dimension(d)) return "";
  }
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (__builtin_mul_overflow(count, shape.dimension(d), &count)) {
      return absl::StrCat(shape.ToString(false),
                          " has more than 2^63 - 1 elements");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(
          count, GetElementTypeInfo(shape.element_type()).storage_bytes,
          &bytes)) {
    return absl::StrCat(shape.ToString(false), " has ", count,
                        " elements, more than 2^63 - 1 bytes");
  }
  return "";
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
  if (std::string why = OversizedLeaf(instruction.shape()); !why.empty()) {
    report->errors.push_back(InstructionError(
        instruction,
        absl::StrCat("declared shape ", instruction.shape().ToString(false),
                     " is too large: ", why),
        "shape.size"));
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
