#include "compiler/evaluator/linalg_common.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace eval {

absl::Status CheckLinalgShapeRule(const Instruction& instruction,
                                  EvalContext& context) {
  absl::StatusOr<Shape> inferred = context.RuleShape(instruction);
  if (!inferred.ok()) return inferred.status();
  if (inferred->Compatible(instruction.shape())) return absl::OkStatus();
  return KernelError(
      instruction,
      absl::StrCat("declared shape ", instruction.shape().ToString(false),
                   " differs from the inferred ", inferred->ToString(false)));
}

absl::Status CheckWorkBytes(const Instruction& instruction,
                            const EvalContext& context, int64_t elements,
                            int64_t element_bytes) {
  int64_t bytes = 0;
  if (elements >= 0 &&
      !__builtin_mul_overflow(elements, element_bytes, &bytes) &&
      bytes <= context.options().max_literal_bytes) {
    return absl::OkStatus();
  }
  return KernelError(
      instruction,
      absl::StrCat("needs a work buffer of ", elements, " elements of ",
                   element_bytes, " bytes, over the limit of ",
                   context.options().max_literal_bytes, " bytes"));
}

int64_t SafeProduct(std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors) {
    if (f < 0 || __builtin_mul_overflow(product, f, &product)) return -1;
  }
  return product;
}

const std::vector<int64_t>& Int64ListOrEmpty(const Instruction& instruction,
                                             absl::string_view name) {
  static const std::vector<int64_t>* const kEmpty = new std::vector<int64_t>;
  const std::vector<int64_t>* list =
      instruction.attrs().Get<std::vector<int64_t>>(name);
  return list == nullptr ? *kEmpty : *list;
}

int64_t ProductOf(absl::Span<const int64_t> dims,
                  absl::Span<const int64_t> which) {
  int64_t product = 1;
  for (int64_t d : which) product *= dims[d];
  return product;
}

std::vector<int64_t> Joined(
    std::initializer_list<absl::Span<const int64_t>> parts) {
  std::vector<int64_t> all;
  for (absl::Span<const int64_t> part : parts) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

}  // namespace eval
}  // namespace kiln
