#include "compiler/evaluator/data_movement_dynamic.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"

namespace kiln {
namespace eval {
namespace {

bool HasDynamicSizes(const Literal& literal) {
  if (literal.has_dynamic_sizes()) return true;
  for (const Literal& element : literal.tuple_elements()) {
    if (HasDynamicSizes(element)) return true;
  }
  return false;
}

// Copies the leading `sizes` corner between two arrays of the same element
// type whose storage spans `dst_dims` and `src_dims`.
void CopyCorner(absl::Span<const int64_t> sizes, const Literal& src,
                Literal* dst) {
  StridedCopy(sizes, Strides(dst->shape().dimensions()),
              Strides(src.shape().dimensions()),
              ElementBytes(src.element_type()))
      .Run(dst->mutable_data().data(), 0, src.data().data(), 0);
}

// The sizes operands are cut to in kShared mode: those of the first
// dynamic array operand, which every other dynamic operand of the same
// bounds must share.
absl::StatusOr<std::vector<int64_t>> SharedSizes(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    const Literal** first) {
  *first = nullptr;
  for (const Literal* operand : operands) {
    if (!operand->has_dynamic_sizes()) continue;
    if (*first == nullptr) {
      *first = operand;
    } else if (operand->shape().dimensions() ==
                   (*first)->shape().dimensions() &&
               operand->dynamic_sizes() != (*first)->dynamic_sizes()) {
      return KernelError(
          instruction,
          absl::StrCat("operands of the same bounds have different dynamic "
                       "sizes: ",
                       (*first)->shape().ToString(false), " and ",
                       operand->shape().ToString(false)));
    }
  }
  if (*first == nullptr) return std::vector<int64_t>{};
  return (*first)->dynamic_sizes();
}

// `literal` cut to `sizes` (a static literal).
absl::StatusOr<Literal> CutTo(const Instruction& instruction,
                              const Literal& literal,
                              const std::vector<int64_t>& sizes,
                              EvalContext& context) {
  absl::StatusOr<Literal> out = context.NewLiteral(
      instruction, Shape::Array(literal.element_type(), sizes));
  if (!out.ok()) return out.status();
  CopyCorner(sizes, literal, &*out);
  return out;
}

}  // namespace

bool AnyDynamicOperand(absl::Span<const Literal* const> operands) {
  for (const Literal* operand : operands) {
    if (HasDynamicSizes(*operand)) return true;
  }
  return false;
}

absl::StatusOr<Literal> ValidElements(const Instruction& instruction,
                                      const Literal& literal,
                                      EvalContext& context) {
  if (literal.shape().IsTuple()) {
    std::vector<Literal> elements;
    for (const Literal& element : literal.tuple_elements()) {
      absl::StatusOr<Literal> valid =
          ValidElements(instruction, element, context);
      if (!valid.ok()) return valid.status();
      elements.push_back(*std::move(valid));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!literal.has_dynamic_sizes()) return literal;
  return CutTo(instruction, literal, literal.dynamic_sizes(), context);
}

absl::StatusOr<Literal> PlaceAtBounds(const Instruction& instruction,
                                      const Literal& computed,
                                      const Shape& declared,
                                      EvalContext& context) {
  if (computed.shape().IsTuple() && declared.IsTuple() &&
      computed.tuple_elements().size() ==
          static_cast<size_t>(declared.tuple_size())) {
    std::vector<Literal> elements;
    for (int64_t i = 0; i < declared.tuple_size(); ++i) {
      absl::StatusOr<Literal> placed =
          PlaceAtBounds(instruction, computed.tuple_elements()[i],
                        declared.tuple_shape(i), context);
      if (!placed.ok()) return placed.status();
      elements.push_back(*std::move(placed));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!computed.shape().IsArray() || !declared.IsArray() ||
      declared.is_static()) {
    return computed;  // The driver checks it against the declared shape.
  }
  const std::vector<int64_t>& sizes = computed.shape().dimensions();
  bool fits = computed.element_type() == declared.element_type() &&
              computed.shape().rank() == declared.rank();
  for (int64_t d = 0; fits && d < declared.rank(); ++d) {
    fits = declared.is_dynamic_dimension(d) ? sizes[d] <= declared.dimension(d)
                                            : sizes[d] == declared.dimension(d);
  }
  if (!fits) {
    return KernelError(
        instruction, absl::StrCat("the result on the valid elements, ",
                                  computed.shape().ToString(false),
                                  ", does not fit ", declared.ToString(false)));
  }
  absl::StatusOr<Shape> bounds = BoundedShape(instruction, declared);
  if (!bounds.ok()) return bounds.status();
  absl::StatusOr<Literal> out = context.NewLiteral(instruction, *bounds);
  if (!out.ok()) return out.status();
  CopyCorner(sizes, computed, &*out);
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (!declared.is_dynamic_dimension(d)) continue;
    if (absl::Status s = out->SetDynamicSize(d, sizes[d]); !s.ok()) {
      return KernelError(instruction, s.message());
    }
  }
  return out;
}

absl::StatusOr<Literal> RunOnValidElements(
    Kernel kernel, DynamicOperands mode, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  const Literal* first = nullptr;
  std::vector<int64_t> shared;
  if (mode == DynamicOperands::kShared) {
    absl::StatusOr<std::vector<int64_t>> sizes =
        SharedSizes(instruction, operands, &first);
    if (!sizes.ok()) return sizes.status();
    shared = *std::move(sizes);
  }
  std::vector<Literal> cut;
  cut.reserve(operands.size());
  for (const Literal* operand : operands) {
    absl::StatusOr<Literal> valid =
        first != nullptr && operand->shape().IsArray() &&
                operand->shape().dimensions() == first->shape().dimensions()
            ? CutTo(instruction, *operand, shared, context)
            : ValidElements(instruction, *operand, context);
    if (!valid.ok()) return valid.status();
    cut.push_back(*std::move(valid));
  }
  std::vector<const Literal*> pointers;
  pointers.reserve(cut.size());
  for (const Literal& literal : cut) pointers.push_back(&literal);
  absl::StatusOr<Literal> result = kernel(instruction, pointers, context);
  if (!result.ok()) return result.status();
  const Shape& declared = instruction.shape();
  if (declared.IsArray() && declared.is_static() &&
      !result->shape().Compatible(declared)) {
    // A static declared result with no room for the sizes (Kiln's shape
    // rule dropped them, e.g. reduce-window): compute on the bounded
    // arrays, as for static operands.
    return kernel(instruction, operands, context);
  }
  return PlaceAtBounds(instruction, *result, declared, context);
}

absl::Status PassDynamicSizes(const Instruction& instruction,
                              const Literal& operand,
                              absl::Span<const int64_t> source,
                              Literal* result) {
  const Shape& declared = instruction.shape();
  if (!operand.has_dynamic_sizes() || !declared.IsArray() ||
      declared.rank() != result->shape().rank()) {
    return absl::OkStatus();
  }
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (!declared.is_dynamic_dimension(d)) continue;
    const int64_t from = source[d];
    // Where no size passes through, the dimension is dynamic at its bound.
    int64_t size = result->shape().dimension(d);
    if (from >= 0 && from < operand.shape().rank() &&
        operand.shape().dimension(from) == size) {
      size = operand.dynamic_size(from);
    }
    if (absl::Status s = result->SetDynamicSize(d, size); !s.ok()) {
      return KernelError(instruction, s.message());
    }
  }
  return absl::OkStatus();
}

}  // namespace eval
}  // namespace kiln
