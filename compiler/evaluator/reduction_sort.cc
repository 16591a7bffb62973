// sort and topk.
//
// sort orders each slice along `dimensions={d}` with a bottom-up stable
// merge sort whose indices stay in bounds whatever the comparator answers:
// a comparator that is not a strict weak order gives some permutation of
// the slice, never a crash. A stable sort also satisfies is_stable=false.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/reduction_comparator.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/evaluator/reduction_scalar_program.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Sorts `items` stably by `less` (a callable returning StatusOr<bool>:
// whether its first argument goes before its second). An element of the
// right half moves ahead of one of the left half only when less(right,
// left) holds, which keeps equal elements in order.
// `less` may also return a plain bool.
template <typename Less>
absl::Status StableMergeSort(std::vector<int64_t>& items, Less&& less) {
  const int64_t n = static_cast<int64_t>(items.size());
  std::vector<int64_t> buffer(items.size());
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = std::min(lo + width, n);
      const int64_t hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, out = lo;
      while (i < mid && j < hi) {
        bool right_first;
        if constexpr (std::is_same_v<decltype(less(0, 0)), bool>) {
          right_first = less(items[j], items[i]);
        } else {
          absl::StatusOr<bool> result = less(items[j], items[i]);
          if (!result.ok()) return result.status();
          right_first = *result;
        }
        buffer[out++] = right_first ? items[j++] : items[i++];
      }
      while (i < mid) buffer[out++] = items[i++];
      while (j < hi) buffer[out++] = items[j++];
    }
    items.swap(buffer);
  }
  return absl::OkStatus();
}

// The slices of an array of `dims` along `dim`: `outer` blocks of `size`
// positions, `inner` apart.
struct Slices {
  int64_t outer = 1;
  int64_t size = 1;
  int64_t inner = 1;
  Slices(absl::Span<const int64_t> dims, int64_t dim) {
    for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d) {
      if (d < dim) outer *= dims[d];
      if (d > dim) inner *= dims[d];
    }
    size = dims[dim];
  }
};

// The order keys of every element, or an error for complex types (which
// have no order).
absl::StatusOr<std::vector<uint64_t>> OrderKeys(const Instruction& instruction,
                                                const Literal& literal) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  if (info.kind == TypeKind::kComplex) {
    return KernelError(instruction,
                       "topk of a complex type: complex numbers have no order");
  }
  return OrderedKeys(literal);
}

}  // namespace

absl::StatusOr<Literal> SortKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> comparator =
      CalledComputation(instruction, attr::kToApply);
  if (!comparator.ok()) return comparator.status();
  const std::vector<int64_t>& dims = operands[0]->shape().dimensions();
  const int64_t dim =
      instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions)->at(0);
  std::vector<ElementType> types;
  std::vector<Literal> outputs;
  for (const Literal* operand : operands) {
    if (!operand->shape().IsArray() || operand->shape().dimensions() != dims) {
      return KernelError(instruction, "operands of different dimensions");
    }
    types.push_back(operand->element_type());
    types.push_back(operand->element_type());
    absl::StatusOr<Literal> output = context.NewLiteral(
        instruction, Shape::Array(operand->element_type(), dims));
    if (!output.ok()) return output.status();
    outputs.push_back(*std::move(output));
  }
  ScalarCaller caller(context, **comparator, types);
  const std::optional<FastComparator> fast =
      FastComparator::Recognize(**comparator, operands);
  // Else a comparator of exact scalar ops runs as a ScalarProgram on the
  // operands' bit patterns.
  std::optional<ScalarProgram> program;
  std::vector<std::vector<uint64_t>> bits;
  if (!fast.has_value()) {
    program = ScalarProgram::Compile(**comparator, types, ElementType::kPred);
  }
  if (program.has_value()) {
    for (const Literal* operand : operands) {
      bits.emplace_back(static_cast<size_t>(operand->element_count()));
      for (int64_t i = 0; i < operand->element_count(); ++i) {
        bits.back()[i] = operand->GetBits(i);
      }
    }
  }
  const auto run_program = [&](int64_t a, int64_t b) {
    for (size_t k = 0; k < bits.size(); ++k) {
      program->Set(static_cast<int>(2 * k), bits[k][a]);
      program->Set(static_cast<int>(2 * k + 1), bits[k][b]);
    }
    return program->Run() != 0;
  };
  // comparator(element a, element b), a and b linear indices.
  const auto compare = [&](int64_t a, int64_t b) -> absl::StatusOr<bool> {
    for (size_t k = 0; k < operands.size(); ++k) {
      caller.Load(2 * k, *operands[k], a);
      caller.Load(2 * k + 1, *operands[k], b);
    }
    absl::StatusOr<Literal> result = caller.Call();
    if (!result.ok()) return result.status();
    return PredResult(instruction, *result);
  };
  const Slices slices(dims, dim);
  std::vector<int64_t> order;
  for (int64_t o = 0; o < slices.outer; ++o) {
    for (int64_t i = 0; i < slices.inner; ++i) {
      const int64_t base = o * slices.size * slices.inner + i;
      const auto at = [&](int64_t position) {
        return base + position * slices.inner;
      };
      order.resize(slices.size);
      for (int64_t p = 0; p < slices.size; ++p) order[p] = p;
      if (fast.has_value()) {
        fast->Sort(order, base, slices.inner);
      } else if (program.has_value()) {
        absl::Status sorted = StableMergeSort(order, [&](int64_t a, int64_t b) {
          return run_program(at(a), at(b));
        });
        if (!sorted.ok()) return sorted;
      } else {
        absl::Status sorted = StableMergeSort(
            order, [&](int64_t a, int64_t b) { return compare(at(a), at(b)); });
        if (!sorted.ok()) return sorted;
      }
      for (size_t k = 0; k < operands.size(); ++k) {
        const int64_t bytes = ElementBytes(*operands[k]);
        for (int64_t p = 0; p < slices.size; ++p) {
          CopyElement(*operands[k], at(order[p]), outputs[k], at(p), bytes);
        }
      }
    }
  }
  if (outputs.size() == 1) return std::move(outputs[0]);
  return Literal::Tuple(std::move(outputs));
}

// topk: per row of the last dimension, the k largest (or smallest) values
// and their s32 indices, equal values by lower index first. With a
// to_apply comparator, the comparator orders the row instead (stable).
absl::StatusOr<Literal> TopKKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  const bool* largest = instruction.attrs().Get<bool>(attr::kLargest);
  const Computation* const* comparator =
      instruction.attrs().Get<Computation*>(attr::kToApply);
  return TopKOf(instruction, *operands[0],
                *instruction.attrs().Get<int64_t>(attr::kK),
                largest == nullptr || *largest,
                comparator == nullptr ? nullptr : *comparator, context);
}

absl::StatusOr<Literal> TopKOf(const Instruction& instruction,
                               const Literal& operand, int64_t k, bool largest,
                               const Computation* comparator,
                               EvalContext& context) {
  std::vector<int64_t> dims = operand.shape().dimensions();
  if (dims.empty() || k < 0 || k > dims.back()) {
    return KernelError(instruction, "k is out of range for the operand");
  }
  const int64_t row = dims.back();
  dims.back() = k;
  absl::StatusOr<Literal> values = context.NewLiteral(
      instruction, Shape::Array(operand.element_type(), dims));
  if (!values.ok()) return values.status();
  absl::StatusOr<Literal> indices =
      context.NewLiteral(instruction, Shape::Array(ElementType::kS32, dims));
  if (!indices.ok()) return indices.status();
  std::vector<uint64_t> keys;
  if (comparator == nullptr) {
    absl::StatusOr<std::vector<uint64_t>> order_keys =
        OrderKeys(instruction, operand);
    if (!order_keys.ok()) return order_keys.status();
    keys = *std::move(order_keys);
  }
  // The comparator takes (a, b) values, or (a, b) values and their s32
  // positions in the row, as a sort of the row and an iota (XLA's TopK
  // custom call).
  const bool with_positions =
      comparator != nullptr && comparator->parameters().size() == 4;
  std::vector<ElementType> types = {operand.element_type(),
                                    operand.element_type()};
  if (with_positions) types.insert(types.end(), 2, ElementType::kS32);
  Literal positions;
  if (with_positions) {
    absl::StatusOr<Literal> iota =
        context.NewLiteral(instruction, Shape::Array(ElementType::kS32, {row}));
    if (!iota.ok()) return iota.status();
    positions = *std::move(iota);
    int32_t* position = MutableElements<int32_t>(positions).data();
    for (int64_t p = 0; p < row; ++p) position[p] = static_cast<int32_t>(p);
  }
  // A comparator of exact scalar ops runs as a ScalarProgram (as in sort).
  std::optional<ScalarProgram> program;
  if (comparator != nullptr) {
    program = ScalarProgram::Compile(*comparator, types, ElementType::kPred);
  }
  const int64_t rows = row == 0 ? 0 : operand.element_count() / row;
  const int64_t bytes = ElementBytes(operand);
  std::vector<int64_t> order;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t base = r * row;
    order.resize(row);
    for (int64_t p = 0; p < row; ++p) order[p] = p;
    if (comparator == nullptr) {
      // A strict weak order on (key, index): std::stable_sort is safe.
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const uint64_t ka = keys[base + a], kb = keys[base + b];
        return largest ? ka > kb : ka < kb;
      });
    } else if (program.has_value()) {
      absl::Status sorted = StableMergeSort(order, [&](int64_t a, int64_t b) {
        program->Set(0, operand.GetBits(base + a));
        program->Set(1, operand.GetBits(base + b));
        if (with_positions) {
          program->Set(2, static_cast<uint64_t>(a));
          program->Set(3, static_cast<uint64_t>(b));
        }
        return program->Run() != 0;
      });
      if (!sorted.ok()) return sorted;
    } else {
      ScalarCaller caller(context, *comparator, types);
      absl::Status sorted = StableMergeSort(
          order, [&](int64_t a, int64_t b) -> absl::StatusOr<bool> {
            caller.Load(0, operand, base + a);
            caller.Load(1, operand, base + b);
            if (with_positions) {
              caller.Load(2, positions, a);
              caller.Load(3, positions, b);
            }
            absl::StatusOr<Literal> result = caller.Call();
            if (!result.ok()) return result.status();
            return PredResult(instruction, *result);
          });
      if (!sorted.ok()) return sorted;
    }
    int32_t* index_out = MutableElements<int32_t>(*indices).data();
    for (int64_t j = 0; j < k; ++j) {
      CopyElement(operand, base + order[j], *values, r * k + j, bytes);
      index_out[r * k + j] = static_cast<int32_t>(order[j]);
    }
  }
  std::vector<Literal> results;
  results.push_back(*std::move(values));
  results.push_back(*std::move(indices));
  return Literal::Tuple(std::move(results));
}

}  // namespace eval
}  // namespace kiln
