#include "compiler/evaluator/reduction_util.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace eval {

absl::StatusOr<const Computation*> CalledComputation(
    const Instruction& instruction, absl::string_view name) {
  Computation* const* computation = instruction.attrs().Get<Computation*>(name);
  if (computation == nullptr || *computation == nullptr ||
      (*computation)->root() == nullptr) {
    return KernelError(instruction,
                       absl::StrCat("missing the computation ", name, "="));
  }
  return *computation;
}

int64_t ElementBytes(const Literal& literal) {
  return GetElementTypeInfo(literal.element_type()).storage_bytes;
}

absl::Status StoreCombinerResult(const Instruction& instruction,
                                 const Literal& result,
                                 std::vector<Literal>& outputs, int64_t index) {
  const size_t count = outputs.size();
  for (size_t k = 0; k < count; ++k) {
    const Literal& value = count == 1 ? result : result.tuple_elements()[k];
    absl::Status ok =
        CheckScalarResult(instruction, value, outputs[k].element_type());
    if (!ok.ok()) return ok;
    CopyElement(value, 0, outputs[k], index, ElementBytes(value));
  }
  return absl::OkStatus();
}

void FillWithScalar(const Literal& scalar, Literal& array) {
  const int64_t bytes = ElementBytes(array);
  for (int64_t i = 0; i < array.element_count(); ++i) {
    CopyElement(scalar, 0, array, i, bytes);
  }
}

absl::Status CheckScalarResult(const Instruction& instruction,
                               const Literal& value, ElementType type) {
  if (value.shape().IsScalar() && value.element_type() == type) {
    return absl::OkStatus();
  }
  return KernelError(instruction,
                     absl::StrCat("the called computation returned ",
                                  value.shape().ToString(false), ", expected ",
                                  ElementTypeName(type), "[]"));
}

ScalarCaller::ScalarCaller(EvalContext& context, const Computation& computation,
                           absl::Span<const ElementType> types)
    : context_(context), computation_(computation) {
  arguments_.reserve(types.size());
  for (ElementType type : types) {
    // A scalar always fits under any sensible cap; Create only fails for
    // non-array types, which the shape rules exclude.
    absl::StatusOr<Literal> scalar = Literal::Create(Shape::Scalar(type));
    arguments_.push_back(scalar.ok() ? *std::move(scalar) : Literal());
    bytes_.push_back(GetElementTypeInfo(type).storage_bytes);
  }
  for (const Literal& argument : arguments_) pointers_.push_back(&argument);
}

absl::StatusOr<bool> PredResult(const Instruction& instruction,
                                const Literal& value) {
  if (!value.shape().IsScalar() || value.element_type() != ElementType::kPred) {
    return KernelError(
        instruction,
        absl::StrCat("the called computation returned ",
                     value.shape().ToString(false), ", expected pred[]"));
  }
  return value.data()[0] != 0;
}

}  // namespace eval
}  // namespace kiln
