// Kernels of the indexing ops: dynamic-slice, dynamic-update-slice and
// gather here, scatter in indexing_scatter.cc (operation_semantics.md).
// Start indices of any integer type are clamped so that the slice lies in
// the operand, as the spec says. The element copies are StridedCopy runs
// over raw storage (data_movement_copy.h): every element type alike, and
// a gathered slice of whole rows is one memcpy.
#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {

void RegisterScatterKernel(KernelTable* table);  // indexing_scatter.cc

namespace {

// The start indices of dynamic-slice / dynamic-update-slice (operands
// first.. : one integer scalar per dimension, or one integer vector), each
// clamped into [0, dims[d] - sizes[d]].
absl::StatusOr<DimVector> ClampedStarts(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    size_t first, absl::Span<const int64_t> dims,
    absl::Span<const int64_t> sizes) {
  const size_t rank = dims.size();
  DimVector starts;
  if (operands.size() == first + 1 && operands[first]->shape().rank() == 1 &&
      rank != 1) {
    const Literal& vector = *operands[first];
    if (!IsIntegralType(vector.element_type()) ||
        vector.element_count() != static_cast<int64_t>(rank)) {
      return KernelError(instruction,
                         "the start index vector needs one integer per "
                         "operand dimension");
    }
    for (size_t d = 0; d < rank; ++d) starts.push_back(ReadIndex(vector, d));
  } else {
    if (operands.size() != first + rank) {
      return KernelError(instruction,
                         absl::StrCat("takes ", rank, " start indices, got ",
                                      operands.size() - first));
    }
    for (size_t d = 0; d < rank; ++d) {
      const Literal& index = *operands[first + d];
      if (!IsIntegralType(index.element_type()) || index.element_count() != 1 ||
          index.shape().rank() > 1) {
        return KernelError(
            instruction,
            absl::StrCat("start index ", d, " must be an integer scalar"));
      }
      starts.push_back(ReadIndex(index, 0));
    }
  }
  for (size_t d = 0; d < rank; ++d) {
    starts[d] = std::clamp<int64_t>(starts[d], 0, dims[d] - sizes[d]);
  }
  return starts;
}

int64_t Offset(absl::Span<const int64_t> index, const DimVector& strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return offset;
}

absl::StatusOr<Literal> DynamicSliceKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const std::vector<int64_t>*> sizes =
      Int64ListAttribute(instruction, attr::kDynamicSliceSizes);
  if (!sizes.ok()) return sizes.status();
  const Shape& shape = (*in)->shape();
  if (static_cast<int64_t>((*sizes)->size()) != shape.rank()) {
    return KernelError(instruction,
                       "dynamic_slice_sizes needs one entry "
                       "per operand dimension");
  }
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if ((**sizes)[d] < 0 || (**sizes)[d] > shape.dimension(d)) {
      return KernelError(
          instruction,
          absl::StrCat("dynamic_slice_sizes[", d, "]=", (**sizes)[d],
                       " does not fit in ", shape.ToString(false)));
    }
  }
  absl::StatusOr<DimVector> starts =
      ClampedStarts(instruction, operands, 1, shape.dimensions(), **sizes);
  if (!starts.ok()) return starts.status();
  absl::StatusOr<Literal> out = context.NewLiteral(
      instruction, Shape::Array(shape.element_type(), **sizes));
  if (!out.ok()) return out.status();
  const DimVector in_strides = Strides(shape.dimensions());
  StridedCopy(**sizes, Strides(**sizes), in_strides,
              ElementBytes(shape.element_type()))
      .Run(out->mutable_data().data(), 0, (*in)->data().data(),
           Offset(*starts, in_strides));
  return out;
}

absl::StatusOr<Literal> DynamicUpdateSliceKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext&) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const Literal*> update = ArrayValue(instruction, operands, 1);
  if (!update.ok()) return update.status();
  const Shape& shape = (*in)->shape();
  const Shape& update_shape = (*update)->shape();
  bool fits = update_shape.rank() == shape.rank() &&
              update_shape.element_type() == shape.element_type();
  for (int64_t d = 0; fits && d < shape.rank(); ++d) {
    fits = update_shape.dimension(d) <= shape.dimension(d);
  }
  if (!fits) {
    return KernelError(
        instruction,
        absl::StrCat("update ", update_shape.ToString(false),
                     " does not fit in operand ", shape.ToString(false)));
  }
  absl::StatusOr<DimVector> starts = ClampedStarts(
      instruction, operands, 2, shape.dimensions(), update_shape.dimensions());
  if (!starts.ok()) return starts.status();
  Literal out = **in;
  const DimVector out_strides = Strides(shape.dimensions());
  StridedCopy(update_shape.dimensions(), out_strides,
              Strides(update_shape.dimensions()),
              ElementBytes(shape.element_type()))
      .Run(out.mutable_data().data(), Offset(*starts, out_strides),
           (*update)->data().data(), 0);
  return out;
}

// The gather's result dimensions: slice sizes at offset_dims, the indices'
// batch dimensions elsewhere.
std::vector<int64_t> GatherDims(const IndexedDims& d, const Shape& indices,
                                absl::Span<const int64_t> slice_sizes,
                                int64_t out_rank) {
  std::vector<int64_t> dims;
  size_t next_window = 0, next_batch = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (next_window < d.window.size() && d.window[next_window] == i) {
      dims.push_back(slice_sizes[d.window_operand[next_window++]]);
    } else {
      dims.push_back(indices.dimension(d.batch[next_batch++]));
    }
  }
  return dims;
}

// Window sizes must fit the operand; collapsed and batching dims are
// sliced with size 1 (checked only when there is something to gather).
absl::Status CheckSliceSizes(const Instruction& instruction,
                             const IndexedDims& d, const Shape& operand,
                             absl::Span<const int64_t> sizes,
                             bool output_empty) {
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const bool windowed =
        std::find(d.window_operand.begin(), d.window_operand.end(), i) !=
        d.window_operand.end();
    const bool ok =
        windowed ? sizes[i] >= 0 && sizes[i] <= operand.dimension(i)
                 : output_empty || (sizes[i] == 1 && operand.dimension(i) >= 1);
    if (!ok) {
      return KernelError(
          instruction,
          absl::StrCat("slice_sizes[", i, "]=", sizes[i],
                       windowed ? " does not fit the operand dimension"
                                : " must be 1 on a collapsed or batching "
                                  "dimension",
                       " of ", operand.ToString(false)));
    }
  }
  return absl::OkStatus();
}

// gather: for each index vector, the slice of slice_sizes at the clamped
// start, copied to the result at the vector's batch position.
absl::StatusOr<Literal> GatherKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const> operands,
                                     EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const Literal*> indices = ArrayValue(instruction, operands, 1);
  if (!indices.ok()) return indices.status();
  absl::StatusOr<const std::vector<int64_t>*> sizes =
      Int64ListAttribute(instruction, attr::kSliceSizes);
  if (!sizes.ok()) return sizes.status();
  const std::vector<int64_t>* offset_dims =
      instruction.attrs().Get<std::vector<int64_t>>(attr::kOffsetDims);
  const Shape& shape = (*in)->shape();
  const Shape& index_shape = (*indices)->shape();
  const int64_t* ivd = instruction.attrs().Get<int64_t>(attr::kIndexVectorDim);
  const int64_t batch_rank =
      index_shape.rank() - (ivd != nullptr && *ivd < index_shape.rank());
  const int64_t out_rank =
      (offset_dims == nullptr ? 0 : offset_dims->size()) + batch_rank;
  absl::StatusOr<IndexedDims> d = ReadIndexedDims(instruction, kGatherDimNames,
                                                  shape, index_shape, out_rank);
  if (!d.ok()) return d.status();
  if (static_cast<int64_t>((*sizes)->size()) != shape.rank()) {
    return KernelError(instruction,
                       "slice_sizes needs one entry per operand dimension");
  }
  const std::vector<int64_t> out_dims =
      GatherDims(*d, index_shape, **sizes, out_rank);
  const bool empty =
      std::find(out_dims.begin(), out_dims.end(), 0) != out_dims.end();
  absl::Status ok = CheckSliceSizes(instruction, *d, shape, **sizes, empty);
  if (!ok.ok()) return ok;
  absl::StatusOr<Literal> out = context.NewLiteral(
      instruction, Shape::Array(shape.element_type(), out_dims));
  if (!out.ok()) return out.status();
  if (empty) return out;
  const DimVector in_strides = Strides(shape.dimensions());
  const DimVector out_strides = Strides(out_dims);
  // One plan for every slice: the window dims walk the operand's rows.
  DimVector window_sizes, dst_strides, src_strides;
  for (size_t k = 0; k < d->window.size(); ++k) {
    window_sizes.push_back((**sizes)[d->window_operand[k]]);
    dst_strides.push_back(out_strides[d->window[k]]);
    src_strides.push_back(in_strides[d->window_operand[k]]);
  }
  const StridedCopy copy(window_sizes, dst_strides, src_strides,
                         ElementBytes(shape.element_type()));
  DimVector batch_strides;  // Result strides of the batch positions.
  for (int64_t dim : NonWindowDims(*d, out_rank)) {
    batch_strides.push_back(out_strides[dim]);
  }
  DimVector limits(shape.rank());
  for (int64_t i = 0; i < shape.rank(); ++i) {
    limits[i] = shape.dimension(i) - (**sizes)[i];
  }
  uint8_t* dst = out->mutable_data().data();
  const uint8_t* src = (*in)->data().data();
  ForEachIndexVector(
      *d, **indices, shape.rank(),
      [&](absl::Span<const int64_t> start, absl::Span<const int64_t> position) {
        int64_t src_base = 0;
        for (size_t i = 0; i < start.size(); ++i) {
          src_base +=
              std::clamp<int64_t>(start[i], 0, limits[i]) * in_strides[i];
        }
        copy.Run(dst, Offset(position, batch_strides), src, src_base);
      });
  return out;
}

// Dynamic sizes (docs/evaluator_dynamic.md): these ops read and write the
// operand's bounded array, so padding stays in place. A dimension the
// result takes whole keeps the operand's dynamic size (dynamic-slice of
// the full bound; dynamic-update-slice's result is its operand); a partial
// dynamic-slice is dynamic at its own size, as XLA's inference drops the
// size there.
template <Kernel K>
absl::StatusOr<Literal> KeepWholeDimensionSizes(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Literal> out = K(instruction, operands, context);
  if (!out.ok() || operands.empty() || !operands[0]->has_dynamic_sizes() ||
      !out->shape().IsArray()) {
    return out;
  }
  std::vector<int64_t> source(out->shape().rank());
  for (size_t d = 0; d < source.size(); ++d) {
    source[d] = static_cast<int64_t>(d);
  }
  if (absl::Status s =
          PassDynamicSizes(instruction, *operands[0], source, &*out);
      !s.ok()) {
    return s;
  }
  return out;
}

}  // namespace

void RegisterIndexingKernels(KernelTable* table) {
  table->Set(Opcode::kDynamicSlice,
             &KeepWholeDimensionSizes<DynamicSliceKernel>);
  table->Set(Opcode::kDynamicUpdateSlice,
             &KeepWholeDimensionSizes<DynamicUpdateSliceKernel>);
  table->Set(Opcode::kGather,
             &WithDynamicSizes<GatherKernel, RunGatherDynamic>);
  RegisterScatterKernel(table);
}

}  // namespace eval
}  // namespace kiln
