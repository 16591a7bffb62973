// scan: to_apply applied along `dimensions={d}` step by step, threading
// carries, each step's outputs stacked along d (operation_semantics.md,
// Scan).
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Moves whole blocks between an array with dimension `dim` of size `count`
// and its slices at one position of that dimension.
struct Stacking {
  int64_t outer = 1;        // Product of the dimensions before `dim`.
  int64_t inner_bytes = 0;  // Bytes of the dimensions after `dim`.
  int64_t count = 0;

  Stacking(const Shape& stacked, int64_t dim, int64_t bytes) {
    int64_t inner = 1;
    for (int64_t d = 0; d < stacked.rank(); ++d) {
      if (d < dim) outer *= stacked.dimension(d);
      if (d > dim) inner *= stacked.dimension(d);
    }
    inner_bytes = inner * bytes;
    count = stacked.dimension(dim);
  }
  // slice = stacked[..., position, ...]
  void Extract(const Literal& stacked, int64_t position, Literal& slice) const {
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(slice.mutable_data().data() + o * inner_bytes,
                  stacked.data().data() + (o * count + position) * inner_bytes,
                  inner_bytes);
    }
  }
  // stacked[..., position, ...] = slice
  void Insert(const Literal& slice, int64_t position, Literal& stacked) const {
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(
          stacked.mutable_data().data() + (o * count + position) * inner_bytes,
          slice.data().data() + o * inner_bytes, inner_bytes);
    }
  }
};

Shape WithoutDimension(const Shape& shape, int64_t dim) {
  std::vector<int64_t> dims = shape.dimensions();
  dims.erase(dims.begin() + dim);
  return Shape::Array(shape.element_type(), dims);
}

}  // namespace

absl::StatusOr<Literal> ScanKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> body =
      CalledComputation(instruction, attr::kToApply);
  if (!body.ok()) return body.status();
  const int64_t* carries_attr =
      instruction.attrs().Get<int64_t>(attr::kNumCarries);
  const int64_t carries = carries_attr == nullptr ? 0 : *carries_attr;
  const bool* reverse_attr = instruction.attrs().Get<bool>(attr::kIsReverse);
  const bool reverse = reverse_attr != nullptr && *reverse_attr;
  const int64_t inputs = static_cast<int64_t>(operands.size()) - carries;
  const int64_t dim =
      instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions)->at(0);
  const Shape& first = operands[0]->shape();
  const Shape& result_shape = *rule;
  const int64_t outputs = result_shape.tuple_size() - carries;
  // Input slices, filled anew at each step.
  std::vector<Literal> slices;
  std::vector<Stacking> input_stacking;
  for (int64_t k = 0; k < inputs; ++k) {
    const Shape& shape = operands[k]->shape();
    if (!shape.IsArray() || shape.dimensions() != first.dimensions()) {
      return KernelError(instruction, "scan inputs of different dimensions");
    }
    absl::StatusOr<Literal> slice =
        context.NewLiteral(instruction, WithoutDimension(shape, dim));
    if (!slice.ok()) return slice.status();
    slices.push_back(*std::move(slice));
    input_stacking.emplace_back(shape, dim, ElementBytes(*operands[k]));
  }
  std::vector<Literal> stacked;
  std::vector<Stacking> output_stacking;
  for (int64_t j = 0; j < outputs; ++j) {
    const Shape& shape = result_shape.tuple_shape(j);
    absl::StatusOr<Literal> output = context.NewLiteral(instruction, shape);
    if (!output.ok()) return output.status();
    if (shape.rank() <= dim || shape.dimension(dim) != first.dimension(dim)) {
      return KernelError(instruction, "scan output lacks the scan dimension");
    }
    output_stacking.emplace_back(shape, dim, ElementBytes(*output));
    stacked.push_back(*std::move(output));
  }
  std::vector<Literal> carry;
  for (int64_t c = 0; c < carries; ++c) carry.push_back(*operands[inputs + c]);
  const int64_t steps = first.dimension(dim);
  for (int64_t step = 0; step < steps; ++step) {
    const int64_t position = reverse ? steps - 1 - step : step;
    std::vector<const Literal*> arguments;
    for (int64_t k = 0; k < inputs; ++k) {
      input_stacking[k].Extract(*operands[k], position, slices[k]);
      arguments.push_back(&slices[k]);
    }
    for (const Literal& value : carry) arguments.push_back(&value);
    absl::StatusOr<Literal> result = context.Call(**body, arguments);
    if (!result.ok()) return result.status();
    std::vector<Literal>& parts = *result->mutable_tuple_elements();
    if (static_cast<int64_t>(parts.size()) != outputs + carries) {
      return KernelError(instruction, "to_apply returned the wrong arity");
    }
    for (int64_t j = 0; j < outputs; ++j) {
      if (!parts[j].shape().Compatible(
              WithoutDimension(stacked[j].shape(), dim))) {
        return KernelError(instruction,
                           absl::StrCat("to_apply output ", j, " is ",
                                        parts[j].shape().ToString(false),
                                        ", which does not stack into ",
                                        stacked[j].shape().ToString(false)));
      }
      output_stacking[j].Insert(parts[j], position, stacked[j]);
    }
    for (int64_t c = 0; c < carries; ++c) {
      carry[c] = std::move(parts[outputs + c]);
    }
  }
  for (Literal& value : carry) stacked.push_back(std::move(value));
  return Literal::Tuple(std::move(stacked));
}

}  // namespace eval
}  // namespace kiln
