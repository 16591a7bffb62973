// Client-form implicit broadcasting for the n-ary elementwise kernels
// (broadcasting.md): which element of each operand every result element
// reads. Scalars broadcast anywhere; an operand of the result's rank
// broadcasts its size-1 ("degenerate") dimensions; a lower-rank operand is
// matched into the result through broadcast_dimensions ("InDim").
#ifndef KILN_COMPILER_EVALUATOR_ELEMENTWISE_BROADCAST_H_
#define KILN_COMPILER_EVALUATOR_ELEMENTWISE_BROADCAST_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {

struct BroadcastPlan {
  std::vector<int64_t> result_dims;
  int64_t result_count = 1;
  // strides[k][d]: how far operand k's linear index moves when result
  // dimension d moves by one (0 where operand k is broadcast along d).
  std::vector<std::vector<int64_t>> strides;
  // same_shape[k]: operand k already has the result's dimensions, so result
  // element i is its element i.
  std::vector<bool> same_shape;
};

// The plan for `operands` (all arrays) of `instruction`, reading its
// broadcast_dimensions attribute. An error names the instruction and the
// broadcasting rule when the operand shapes do not broadcast.
absl::StatusOr<BroadcastPlan> PlanBroadcast(
    const Instruction& instruction, absl::Span<const Literal* const> operands);

// Walks the result's elements in row-major order, keeping the linear index
// of the element each operand supplies there (no per-element index vector).
class BroadcastWalker {
 public:
  explicit BroadcastWalker(const BroadcastPlan& plan);
  int64_t offset(size_t operand) const { return offsets_[operand]; }
  // Moves to the next result element.
  void Next();

 private:
  const BroadcastPlan& plan_;
  std::vector<int64_t> index_;
  std::vector<int64_t> offsets_;
};

// How kernels hold values of ComputeType T in vectors: pred as one byte
// 0/1 (std::vector<bool> has no contiguous storage), others as T.
template <typename T>
using Stored = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// Every element of `literal` (ComputeType T) as Stored<T>.
template <typename T>
std::vector<Stored<T>> ReadValues(const Literal& literal) {
  if constexpr (std::is_same_v<T, bool>) {
    absl::Span<const uint8_t> bytes = Elements<uint8_t>(literal);
    std::vector<uint8_t> values(bytes.begin(), bytes.end());
    for (uint8_t& value : values) value = value != 0;
    return values;
  } else {
    return Read<T>(literal);
  }
}

// Stores `values` (one per element) into `literal`, rounding or wrapping
// as its element type requires.
template <typename T>
void WriteValues(absl::Span<const Stored<T>> values, Literal& literal) {
  if constexpr (std::is_same_v<T, bool>) {
    absl::Span<uint8_t> bytes = MutableElements<uint8_t>(literal);
    for (size_t i = 0; i < values.size(); ++i) bytes[i] = values[i] != 0;
  } else {
    Write<T>(values, literal);
  }
}

// Operand `operand`'s elements as Stored<T>, one per result element.
template <typename T>
std::vector<Stored<T>> ReadBroadcast(const Literal& literal,
                                     const BroadcastPlan& plan,
                                     size_t operand) {
  std::vector<Stored<T>> values = ReadValues<T>(literal);
  if (plan.same_shape[operand]) return values;
  std::vector<Stored<T>> expanded(static_cast<size_t>(plan.result_count));
  BroadcastWalker walker(plan);
  for (Stored<T>& value : expanded) {
    value = values[walker.offset(operand)];
    walker.Next();
  }
  return expanded;
}

// A result literal of `type` with the plan's dimensions, allocated through
// the context (memory cap).
absl::StatusOr<Literal> NewBroadcastResult(const Instruction& instruction,
                                           const BroadcastPlan& plan,
                                           ElementType type,
                                           EvalContext& context);

// The result of a binary op under `plan`: f(a, b) (an R) for every pair of
// lhs/rhs elements (T) the result's elements read. Operands of the result's
// shape in native storage take a tight loop over spans (the fast path).
template <typename T, typename R, typename F>
absl::StatusOr<Literal> CombineElements(const Instruction& instruction,
                                        const BroadcastPlan& plan,
                                        const Literal& lhs, const Literal& rhs,
                                        ElementType result_type,
                                        EvalContext& context, F f) {
  absl::StatusOr<Literal> result =
      NewBroadcastResult(instruction, plan, result_type, context);
  if (!result.ok()) return result;
  if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<R, bool>) {
    if (plan.same_shape[0] && plan.same_shape[1] &&
        StorageIsNative(lhs.element_type()) && StorageIsNative(result_type)) {
      const T* a = Elements<T>(lhs).data();
      const T* b = Elements<T>(rhs).data();
      R* out = MutableElements<R>(*result).data();
      const int64_t count = plan.result_count;
      for (int64_t i = 0; i < count; ++i) out[i] = f(a[i], b[i]);
      return result;
    }
  }
  const std::vector<Stored<T>> a = ReadBroadcast<T>(lhs, plan, 0);
  const std::vector<Stored<T>> b = ReadBroadcast<T>(rhs, plan, 1);
  std::vector<Stored<R>> out(a.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] =
        static_cast<Stored<R>>(f(static_cast<T>(a[i]), static_cast<T>(b[i])));
  }
  WriteValues<R>(out, *result);
  return result;
}

// Checks that every one of `operands` is an array literal.
absl::Status CheckArrayOperands(const Instruction& instruction,
                                absl::Span<const Literal* const> operands);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_ELEMENTWISE_BROADCAST_H_
