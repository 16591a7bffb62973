// Helpers shared by the reduction and control-flow kernels: shape-rule
// checks before a kernel trusts its operands, called-computation lookup, and
// calling a computation on single elements of literals without boxing each
// argument anew.
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_UTIL_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// The computation attribute `name`, or an error naming the instruction.
absl::StatusOr<const Computation*> CalledComputation(
    const Instruction& instruction, absl::string_view name);

// Bytes one element of `literal` takes (its type's storage bytes).
int64_t ElementBytes(const Literal& literal);

// Copies element `from_index` of `from` into element `to_index` of `to`
// (both arrays of the same element type).
inline void CopyElement(const Literal& from, int64_t from_index, Literal& to,
                        int64_t to_index, int64_t bytes) {
  const uint8_t* source = from.data().data() + from_index * bytes;
  uint8_t* target = to.mutable_data().data() + to_index * bytes;
  for (int64_t b = 0; b < bytes; ++b) target[b] = source[b];
}

// Fills every element of `array` with the single element of `scalar`.
void FillWithScalar(const Literal& scalar, Literal& array);

// Checks that `value` is a scalar of `type` (what a called computation was
// declared to return) before a kernel copies it.
absl::Status CheckScalarResult(const Instruction& instruction,
                               const Literal& value, ElementType type);

// Stores a variadic combiner's result (a scalar when `outputs` has one
// element, else a tuple of scalars) at element `index` of each output,
// checking each is a scalar of its output's type.
absl::Status StoreCombinerResult(const Instruction& instruction,
                                 const Literal& result,
                                 std::vector<Literal>& outputs, int64_t index);

// Calls a computation on scalars taken from elements of arrays. The
// argument literals are allocated once and overwritten for each call.
class ScalarCaller {
 public:
  // One scalar parameter per entry of `types`.
  ScalarCaller(EvalContext& context, const Computation& computation,
               absl::Span<const ElementType> types);

  // Argument `k` becomes element `index` of `from`.
  void Load(int k, const Literal& from, int64_t index) {
    CopyElement(from, index, arguments_[k], 0, bytes_[k]);
  }
  absl::StatusOr<Literal> Call() {
    return context_.Call(computation_, pointers_);
  }

 private:
  EvalContext& context_;
  const Computation& computation_;
  std::vector<Literal> arguments_;
  std::vector<const Literal*> pointers_;
  std::vector<int64_t> bytes_;
};

// Calls `f(index)` for every multi-index of `dims` in row-major order, as
// ForEachIndex does, stopping at the first error `f` returns.
template <typename F>
absl::Status ForEachIndexUntilError(absl::Span<const int64_t> dims, F&& f) {
  for (int64_t d : dims) {
    if (d == 0) return absl::OkStatus();
  }
  std::vector<int64_t> index(dims.size(), 0);
  while (true) {
    absl::Status status = f(absl::Span<const int64_t>(index));
    if (!status.ok()) return status;
    int64_t d = static_cast<int64_t>(dims.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
    if (d < 0) return absl::OkStatus();
  }
}

// The pred value of a comparator's or selector's result, or an error when
// the computation returned something else.
absl::StatusOr<bool> PredResult(const Instruction& instruction,
                                const Literal& value);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_UTIL_H_
