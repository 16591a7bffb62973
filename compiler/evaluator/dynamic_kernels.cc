#include "compiler/evaluator/dynamic_kernels.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/ir/attr_names.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
namespace {

// The leading `sizes` corner of `literal` (an array) as a static literal of
// shape `storage`, which must cover `sizes`; the rest of it is zero.
absl::StatusOr<Literal> Corner(const Instruction& instruction,
                               const Literal& literal,
                               absl::Span<const int64_t> sizes,
                               const std::vector<int64_t>& storage,
                               EvalContext& context) {
  absl::StatusOr<Literal> out = context.NewLiteral(
      instruction, Shape::Array(literal.element_type(), storage));
  if (!out.ok()) return out.status();
  StridedCopy(sizes, Strides(storage), Strides(literal.shape().dimensions()),
              ElementBytes(literal.element_type()))
      .Run(out->mutable_data().data(), 0, literal.data().data(), 0);
  return out;
}

// `literal` as a static array at its bounds; its padding is zero when
// `zero_padding`, else kept (reads of it then see what XLA's padded
// buffers hold).
absl::StatusOr<Literal> AtBounds(const Instruction& instruction,
                                 const Literal& literal, bool zero_padding,
                                 EvalContext& context) {
  if (literal.shape().IsTuple()) {
    std::vector<Literal> elements;
    for (const Literal& element : literal.tuple_elements()) {
      absl::StatusOr<Literal> bounded =
          AtBounds(instruction, element, zero_padding, context);
      if (!bounded.ok()) return bounded.status();
      elements.push_back(*std::move(bounded));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!literal.has_dynamic_sizes()) return literal;
  const std::vector<int64_t>& bounds = literal.shape().dimensions();
  return Corner(instruction, literal,
                zero_padding ? literal.dynamic_sizes() : bounds, bounds,
                context);
}

// The operands as static arrays at their bounds (see AtBounds), kept in
// `storage`; returns pointers to them.
absl::StatusOr<std::vector<const Literal*>> AllAtBounds(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    bool zero_padding, EvalContext& context, std::vector<Literal>* storage) {
  storage->clear();
  storage->reserve(operands.size());
  for (const Literal* operand : operands) {
    absl::StatusOr<Literal> bounded =
        AtBounds(instruction, *operand, zero_padding, context);
    if (!bounded.ok()) return bounded.status();
    storage->push_back(*std::move(bounded));
  }
  std::vector<const Literal*> pointers;
  for (const Literal& literal : *storage) pointers.push_back(&literal);
  return pointers;
}

// The size of `literal`'s dimension `d` when the value marks it dynamic,
// else -1.
int64_t SizeIfDynamic(const Literal& literal, int64_t d) {
  if (!literal.shape().IsArray() || d < 0 || d >= literal.shape().rank() ||
      !literal.shape().is_dynamic_dimension(d)) {
    return -1;
  }
  return literal.dynamic_size(d);
}

// Marks each dynamic dimension of `declared` (an array shape) on `result`
// (an array at its bounds): size `sizes[d]` where that is >= 0, else the
// bound. Static declared dimensions are left alone.
absl::Status SetDeclaredSizes(const Instruction& instruction,
                              const Shape& declared,
                              absl::Span<const int64_t> sizes,
                              Literal* result) {
  if (!declared.IsArray() || !result->shape().IsArray() ||
      declared.rank() != result->shape().rank()) {
    return absl::OkStatus();
  }
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (!declared.is_dynamic_dimension(d)) continue;
    const int64_t bound = result->shape().dimension(d);
    const int64_t size = d < static_cast<int64_t>(sizes.size()) && sizes[d] >= 0
                             ? sizes[d]
                             : bound;
    if (absl::Status s = result->SetDynamicSize(d, std::min(size, bound));
        !s.ok()) {
      return KernelError(instruction, s.message());
    }
  }
  return absl::OkStatus();
}

const std::vector<int64_t>& ListOrEmpty(const Instruction& instruction,
                                        absl::string_view name) {
  static const std::vector<int64_t>* empty = new std::vector<int64_t>();
  const auto* list = instruction.attrs().Get<std::vector<int64_t>>(name);
  return list == nullptr ? *empty : *list;
}

}  // namespace

absl::StatusOr<Literal> RunDotDynamic(Kernel kernel,
                                      const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  std::vector<Literal> storage;
  absl::StatusOr<std::vector<const Literal*>> zeroed = AllAtBounds(
      instruction, operands, /*zero_padding=*/true, context, &storage);
  if (!zeroed.ok()) return zeroed.status();
  absl::StatusOr<Literal> result = kernel(instruction, *zeroed, context);
  if (!result.ok() || operands.size() < 2) return result;
  // Result dimensions: batch, lhs free, rhs free (XLA's HandleDot).
  const Literal& lhs = *operands[0];
  const Literal& rhs = *operands[1];
  const std::vector<int64_t>& lhs_batch =
      ListOrEmpty(instruction, attr::kLhsBatchDims);
  const std::vector<int64_t>& rhs_batch =
      ListOrEmpty(instruction, attr::kRhsBatchDims);
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < lhs_batch.size() && i < rhs_batch.size(); ++i) {
    const int64_t from_lhs = SizeIfDynamic(lhs, lhs_batch[i]);
    sizes.push_back(from_lhs >= 0 ? from_lhs
                                  : SizeIfDynamic(rhs, rhs_batch[i]));
  }
  for (int64_t d :
       util::DimsNotIn(lhs.shape().rank(), lhs_batch,
                       ListOrEmpty(instruction, attr::kLhsContractingDims))) {
    sizes.push_back(SizeIfDynamic(lhs, d));
  }
  for (int64_t d :
       util::DimsNotIn(rhs.shape().rank(), rhs_batch,
                       ListOrEmpty(instruction, attr::kRhsContractingDims))) {
    sizes.push_back(SizeIfDynamic(rhs, d));
  }
  if (absl::Status s =
          SetDeclaredSizes(instruction, instruction.shape(), sizes, &*result);
      !s.ok()) {
    return s;
  }
  return result;
}

absl::StatusOr<Literal> RunConvolutionDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  std::vector<Literal> storage;
  absl::StatusOr<std::vector<const Literal*>> zeroed = AllAtBounds(
      instruction, operands, /*zero_padding=*/true, context, &storage);
  if (!zeroed.ok()) return zeroed.status();
  absl::StatusOr<Literal> result = kernel(instruction, *zeroed, context);
  const auto* dn =
      instruction.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  if (!result.ok() || dn == nullptr || !result->shape().IsArray()) {
    return result;
  }
  std::vector<int64_t> sizes(result->shape().rank(), -1);
  if (dn->output_batch_dimension >= 0 &&
      dn->output_batch_dimension < static_cast<int64_t>(sizes.size())) {
    sizes[dn->output_batch_dimension] =
        SizeIfDynamic(*operands[0], dn->input_batch_dimension);
  }
  if (absl::Status s =
          SetDeclaredSizes(instruction, instruction.shape(), sizes, &*result);
      !s.ok()) {
    return s;
  }
  return result;
}

absl::StatusOr<Literal> RunGatherDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  if (operands.size() != 2 || !operands[0]->shape().IsArray() ||
      !operands[1]->shape().IsArray()) {
    return kernel(instruction, operands, context);
  }
  const Literal& operand = *operands[0];
  const Literal& indices = *operands[1];
  // The operand stays at its bounds (a partial slice of a dynamic
  // dimension reads padding, as in XLA); only valid index vectors count.
  absl::StatusOr<Literal> bounded =
      AtBounds(instruction, operand, /*zero_padding=*/false, context);
  if (!bounded.ok()) return bounded.status();
  absl::StatusOr<Literal> valid_indices =
      indices.has_dynamic_sizes()
          ? Corner(instruction, indices, indices.dynamic_sizes(),
                   indices.dynamic_sizes(), context)
          : absl::StatusOr<Literal>(indices);
  if (!valid_indices.ok()) return valid_indices.status();
  absl::StatusOr<Literal> computed =
      kernel(instruction, {&*bounded, &*valid_indices}, context);
  if (!computed.ok()) return computed.status();
  absl::StatusOr<Literal> result =
      PlaceAtBounds(instruction, *computed, instruction.shape(), context);
  if (!result.ok() || !result->shape().IsArray()) return result;
  // Offset dimensions that take a dynamic operand dimension whole.
  const std::vector<int64_t>& offset_dims =
      ListOrEmpty(instruction, attr::kOffsetDims);
  const std::vector<int64_t>& slice_sizes =
      ListOrEmpty(instruction, attr::kSliceSizes);
  const std::vector<int64_t> window_operand_dims =
      util::DimsNotIn(operand.shape().rank(),
                      ListOrEmpty(instruction, attr::kCollapsedSliceDims),
                      ListOrEmpty(instruction, attr::kOperandBatchingDims));
  std::vector<int64_t> sizes = result->dynamic_sizes();
  for (size_t k = 0; k < offset_dims.size() && k < window_operand_dims.size();
       ++k) {
    const int64_t from = window_operand_dims[k];
    const int64_t size = SizeIfDynamic(operand, from);
    if (size >= 0 && from < static_cast<int64_t>(slice_sizes.size()) &&
        slice_sizes[from] == operand.shape().dimension(from) &&
        offset_dims[k] < static_cast<int64_t>(sizes.size())) {
      sizes[offset_dims[k]] = size;
    }
  }
  if (absl::Status s =
          SetDeclaredSizes(instruction, instruction.shape(), sizes, &*result);
      !s.ok()) {
    return s;
  }
  return result;
}

namespace {

// The scatter's indices and updates cut to their valid index vectors: the
// indices' batch dimensions and the updates' scatter dimensions (paired in
// order) take the smaller of their two sizes. The updates' window
// dimensions stay at their bounds; one with a size must be the operand's
// dynamic dimension of the same bound and size (XLA's HandleScatter
// refuses anything else), so its padding lands in the operand's padding.
absl::Status CutScatterInputs(const Instruction& instruction,
                              absl::Span<const Literal* const> values,
                              int64_t n, EvalContext& context,
                              std::vector<Literal>* storage) {
  const Literal& operand = *values[0];
  const Literal& indices = *values[n];
  const int64_t index_rank = indices.shape().rank();
  const int64_t* ivd_attr =
      instruction.attrs().Get<int64_t>(attr::kIndexVectorDim);
  const int64_t ivd = ivd_attr == nullptr ? index_rank : *ivd_attr;
  std::vector<int64_t> batch;
  for (int64_t d = 0; d < index_rank; ++d) {
    if (d != ivd) batch.push_back(d);
  }
  const std::vector<int64_t>& window =
      ListOrEmpty(instruction, attr::kUpdateWindowDims);
  const Literal& updates0 = *values[n + 1];
  const int64_t update_rank = updates0.shape().rank();
  for (int64_t d : window) {
    if (d < 0 || d >= update_rank) {
      return KernelError(instruction,
                         absl::StrCat("update_window_dims names dimension ", d,
                                      " of rank-", update_rank, " updates"));
    }
  }
  std::vector<int64_t> scatter;
  for (int64_t d = 0; d < update_rank; ++d) {
    if (!util::Contains(window, d)) scatter.push_back(d);
  }
  std::vector<int64_t> index_sizes = indices.dynamic_sizes();
  std::vector<int64_t> update_sizes = updates0.shape().dimensions();
  for (size_t k = 0; k < batch.size() && k < scatter.size(); ++k) {
    const int64_t size =
        std::min(index_sizes[batch[k]], updates0.dynamic_size(scatter[k]));
    index_sizes[batch[k]] = size;
    update_sizes[scatter[k]] = size;
  }
  const std::vector<int64_t> window_operand_dims =
      util::DimsNotIn(operand.shape().rank(),
                      ListOrEmpty(instruction, attr::kInsertedWindowDims),
                      ListOrEmpty(instruction, attr::kInputBatchingDims));
  for (size_t k = 0; k < window.size() && k < window_operand_dims.size(); ++k) {
    const int64_t size = updates0.dynamic_size(window[k]);
    const int64_t bound = updates0.shape().dimension(window[k]);
    const int64_t op_dim = window_operand_dims[k];
    if (size < bound && (operand.shape().dimension(op_dim) != bound ||
                         SizeIfDynamic(operand, op_dim) != size)) {
      return KernelError(
          instruction,
          absl::StrCat("update window dimension ", window[k],
                       " has dynamic "
                       "size ",
                       size, "; it must be operand dimension ", op_dim,
                       " with the same bound and size (as XLA requires)"));
    }
  }
  for (int64_t i = n + 2; i < static_cast<int64_t>(values.size()); ++i) {
    if (values[i]->shape().dimensions() != updates0.shape().dimensions()) {
      return KernelError(
          instruction,
          absl::StrCat("updates ", i - n - 1, " ",
                       values[i]->shape().ToString(false), " and updates 0 ",
                       updates0.shape().ToString(false),
                       " must have the same dimensions"));
    }
  }
  storage->clear();
  for (int64_t i = 0; i < static_cast<int64_t>(values.size()); ++i) {
    const Literal& value = *values[i];
    absl::StatusOr<Literal> cut =
        i < n ? AtBounds(instruction, value, false, context)
        : i == n
            ? Corner(instruction, value, index_sizes, index_sizes, context)
            : Corner(instruction, value, update_sizes, update_sizes, context);
    if (!cut.ok()) return cut.status();
    storage->push_back(*std::move(cut));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> RunScatterDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  const int64_t count = operands.size();
  if (count < 3 || count % 2 == 0)
    return kernel(instruction, operands, context);
  for (const Literal* operand : operands) {
    if (!operand->shape().IsArray()) {
      return kernel(instruction, operands, context);
    }
  }
  const int64_t n = (count - 1) / 2;
  std::vector<Literal> storage;
  if (absl::Status s =
          CutScatterInputs(instruction, operands, n, context, &storage);
      !s.ok()) {
    return s;
  }
  std::vector<const Literal*> pointers;
  for (const Literal& literal : storage) pointers.push_back(&literal);
  absl::StatusOr<Literal> result = kernel(instruction, pointers, context);
  if (!result.ok()) return result;
  // Every result keeps operand 0's sizes (XLA's HandleScatter).
  const std::vector<int64_t> sizes = operands[0]->dynamic_sizes();
  const Shape& declared = instruction.shape();
  if (result->shape().IsTuple() && declared.IsTuple()) {
    std::vector<Literal>& elements = *result->mutable_tuple_elements();
    for (size_t i = 0;
         i < elements.size() && i < static_cast<size_t>(declared.tuple_size());
         ++i) {
      if (absl::Status s = SetDeclaredSizes(
              instruction, declared.tuple_shape(i), sizes, &elements[i]);
          !s.ok()) {
        return s;
      }
    }
    return Literal::Tuple(std::move(elements));
  }
  if (absl::Status s = SetDeclaredSizes(instruction, declared, sizes, &*result);
      !s.ok()) {
    return s;
  }
  return result;
}

namespace {

// Number of windows of `window` over `size` elements (0 when none fits).
int64_t WindowCount(int64_t size, const WindowDimension& window) {
  const int64_t dilated = size == 0 ? 0 : (size - 1) * window.base_dilation + 1;
  const int64_t padded = dilated + window.padding_low + window.padding_high;
  const int64_t span = (window.size - 1) * window.window_dilation + 1;
  if (padded < span || window.stride <= 0) return 0;
  return (padded - span) / window.stride + 1;
}

}  // namespace

absl::StatusOr<Literal> RunSelectAndScatterDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  if (operands.size() != 3 || window == nullptr ||
      !operands[0]->shape().IsArray() || !operands[1]->shape().IsArray() ||
      static_cast<int64_t>(window->dimensions.size()) !=
          operands[0]->shape().rank() ||
      operands[1]->shape().rank() != operands[0]->shape().rank()) {
    return kernel(instruction, operands, context);
  }
  // The windows cover the operand's valid elements only; the source is
  // cut to the windows those give (its own sizes are ignored, as XLA's
  // inference ignores them).
  const Literal& operand = *operands[0];
  const Literal& source = *operands[1];
  const std::vector<int64_t> operand_sizes = operand.dynamic_sizes();
  std::vector<int64_t> source_sizes;
  for (int64_t d = 0; d < operand.shape().rank(); ++d) {
    const int64_t windows =
        WindowCount(operand_sizes[d], window->dimensions[d]);
    if (windows > source.shape().dimension(d)) {
      return KernelError(
          instruction,
          absl::StrCat("the operand's ", operand_sizes[d],
                       " valid elements "
                       "in dimension ",
                       d, " give ", windows, " windows but the source has ",
                       source.shape().dimension(d)));
    }
    source_sizes.push_back(windows);
  }
  absl::StatusOr<Literal> valid_operand =
      Corner(instruction, operand, operand_sizes, operand_sizes, context);
  if (!valid_operand.ok()) return valid_operand.status();
  absl::StatusOr<Literal> valid_source =
      Corner(instruction, source, source_sizes, source_sizes, context);
  if (!valid_source.ok()) return valid_source.status();
  absl::StatusOr<Literal> computed = kernel(
      instruction, {&*valid_operand, &*valid_source, operands[2]}, context);
  if (!computed.ok()) return computed.status();
  return PlaceAtBounds(instruction, *computed, instruction.shape(), context);
}

absl::StatusOr<Literal> RunCollectiveDynamic(
    Kernel kernel, const Instruction& instruction,
    absl::Span<const Literal* const> operands, EvalContext& context) {
  // A dimension the collective concatenates, splits or scatters must be
  // whole: its padding would otherwise land between valid elements.
  const std::vector<int64_t>& moved =
      ListOrEmpty(instruction, attr::kDimensions);
  for (const Literal* operand : operands) {
    if (!operand->shape().IsArray()) continue;
    for (int64_t d : moved) {
      const int64_t size = SizeIfDynamic(*operand, d);
      if (size >= 0 && size != operand->shape().dimension(d)) {
        return KernelError(
            instruction,
            absl::StrCat("dimension ", d, " has dynamic size ", size, " of ",
                         operand->shape().dimension(d),
                         "; a dimension the "
                         "collective moves data along must be whole"));
      }
    }
  }
  std::vector<Literal> storage;
  absl::StatusOr<std::vector<const Literal*>> bounded = AllAtBounds(
      instruction, operands, /*zero_padding=*/false, context, &storage);
  if (!bounded.ok()) return bounded.status();
  absl::StatusOr<Literal> result = kernel(instruction, *bounded, context);
  if (!result.ok()) return result;
  // Result i (or the one result) keeps operand i's sizes in the dimensions
  // of the same bound.
  auto keep_sizes = [&](const Literal& operand, const Shape& declared,
                        Literal* out) -> absl::Status {
    if (!operand.shape().IsArray() || !out->shape().IsArray() ||
        operand.shape().rank() != out->shape().rank()) {
      return absl::OkStatus();
    }
    std::vector<int64_t> sizes(out->shape().rank(), -1);
    for (int64_t d = 0; d < out->shape().rank(); ++d) {
      if (operand.shape().dimension(d) == out->shape().dimension(d)) {
        sizes[d] = SizeIfDynamic(operand, d);
      }
    }
    return SetDeclaredSizes(instruction, declared, sizes, out);
  };
  const Shape& declared = instruction.shape();
  if (result->shape().IsTuple() && declared.IsTuple()) {
    std::vector<Literal>& elements = *result->mutable_tuple_elements();
    for (size_t i = 0; i < elements.size() && i < operands.size() &&
                       i < static_cast<size_t>(declared.tuple_size());
         ++i) {
      if (absl::Status s =
              keep_sizes(*operands[i], declared.tuple_shape(i), &elements[i]);
          !s.ok()) {
        return s;
      }
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!operands.empty()) {
    if (absl::Status s = keep_sizes(*operands[0], declared, &*result);
        !s.ok()) {
      return s;
    }
  }
  return result;
}

}  // namespace eval
}  // namespace kiln
