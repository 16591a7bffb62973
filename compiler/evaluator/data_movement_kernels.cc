// Kernels of the data movement ops that rearrange an array's elements:
// broadcast, transpose, reverse, slice, concatenate and pad
// (operation_semantics.md). Each is one or two StridedCopy runs over raw
// storage (data_movement_copy.h), so every element type takes the same path.
// Reshape, bitcast, copy, iota and the dynamic-shape ops are in
// data_movement_reshape.cc.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// A result array of `type` and `dims` (computed from the operands, so that
// it is static whatever the declared shape's dynamism).
absl::StatusOr<Literal> NewArray(const Instruction& instruction,
                                 EvalContext& context, ElementType type,
                                 std::vector<int64_t> dims) {
  return context.NewLiteral(instruction, Shape::Array(type, std::move(dims)));
}

// broadcast: operand dimension i becomes result dimension dimensions[i];
// every other result dimension repeats the operand. A size-1 operand
// dimension may also expand (client form, like BroadcastInDim).
absl::StatusOr<Literal> BroadcastKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const std::vector<int64_t>*> dims =
      Int64ListAttribute(instruction, attr::kDimensions);
  if (!dims.ok()) return dims.status();
  absl::StatusOr<Literal> out = NewBoundedResult(instruction, context);
  if (!out.ok()) return out.status();
  const Shape& in_shape = (*in)->shape();
  const Shape& out_shape = out->shape();
  if (!out_shape.IsArray() ||
      out_shape.element_type() != in_shape.element_type() ||
      static_cast<int64_t>((*dims)->size()) != in_shape.rank()) {
    return KernelError(instruction,
                       "broadcast needs one entry in dimensions per operand "
                       "dimension and the operand's element type");
  }
  const DimVector in_strides = Strides(in_shape.dimensions());
  DimVector src_strides(out_shape.rank(), 0);
  for (int64_t i = 0; i < in_shape.rank(); ++i) {
    const int64_t target = (**dims)[i];
    if (target < 0 || target >= out_shape.rank() ||
        (in_shape.dimension(i) != out_shape.dimension(target) &&
         in_shape.dimension(i) != 1)) {
      return KernelError(
          instruction, absl::StrCat("operand dimension ", i,
                                    " cannot map to result "
                                    "dimension ",
                                    target, " of ", out_shape.ToString(false)));
    }
    if (in_shape.dimension(i) == out_shape.dimension(target)) {
      src_strides[target] = in_strides[i];
    }
  }
  StridedCopy copy(out_shape.dimensions(), Strides(out_shape.dimensions()),
                   src_strides, ElementBytes(in_shape.element_type()));
  copy.Run(out->mutable_data().data(), 0, (*in)->data().data(), 0);
  return out;
}

// transpose: result dimension i is operand dimension dimensions[i].
absl::StatusOr<Literal> TransposeKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const std::vector<int64_t>*> perm =
      Int64ListAttribute(instruction, attr::kDimensions);
  if (!perm.ok()) return perm.status();
  const Shape& in_shape = (*in)->shape();
  const int64_t rank = in_shape.rank();
  std::vector<bool> seen(rank, false);
  if (static_cast<int64_t>((*perm)->size()) != rank) {
    return KernelError(instruction, "dimensions is not a permutation");
  }
  for (int64_t source : **perm) {
    if (source < 0 || source >= rank || seen[source]) {
      return KernelError(instruction, "dimensions is not a permutation");
    }
    seen[source] = true;
  }
  const DimVector in_strides = Strides(in_shape.dimensions());
  std::vector<int64_t> out_dims;
  DimVector src_strides;
  for (int64_t source : **perm) {
    out_dims.push_back(in_shape.dimension(source));
    src_strides.push_back(in_strides[source]);
  }
  absl::StatusOr<Literal> out =
      NewArray(instruction, context, in_shape.element_type(), out_dims);
  if (!out.ok()) return out.status();
  StridedCopy copy(out_dims, Strides(out_dims), src_strides,
                   ElementBytes(in_shape.element_type()));
  copy.Run(out->mutable_data().data(), 0, (*in)->data().data(), 0);
  return out;
}

// reverse: index i of each listed dimension reads index size-1-i.
absl::StatusOr<Literal> ReverseKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const std::vector<int64_t>*> dims =
      Int64ListAttribute(instruction, attr::kDimensions);
  if (!dims.ok()) return dims.status();
  const Shape& shape = (*in)->shape();
  DimVector src_strides = Strides(shape.dimensions());
  std::vector<bool> reversed(shape.rank(), false);
  int64_t src_base = 0;
  for (int64_t d : **dims) {
    if (d < 0 || d >= shape.rank() || reversed[d]) {
      return KernelError(instruction,
                         absl::StrCat("cannot reverse dimension ", d, " of ",
                                      shape.ToString(false)));
    }
    reversed[d] = true;
    if (shape.dimension(d) > 0) {
      src_base += (shape.dimension(d) - 1) * src_strides[d];
    }
    src_strides[d] = -src_strides[d];
  }
  absl::StatusOr<Literal> out =
      NewArray(instruction, context, shape.element_type(), shape.dimensions());
  if (!out.ok()) return out.status();
  StridedCopy copy(shape.dimensions(), Strides(shape.dimensions()), src_strides,
                   ElementBytes(shape.element_type()));
  copy.Run(out->mutable_data().data(), 0, (*in)->data().data(), src_base);
  return out;
}

// slice: result index i of dimension d reads start + i * stride.
absl::StatusOr<Literal> SliceKernel(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  const SliceRanges* slice = instruction.attrs().Get<SliceRanges>(attr::kSlice);
  const Shape& shape = (*in)->shape();
  if (slice == nullptr ||
      static_cast<int64_t>(slice->ranges.size()) != shape.rank()) {
    return KernelError(instruction, "slice needs one range per dimension");
  }
  const DimVector in_strides = Strides(shape.dimensions());
  std::vector<int64_t> out_dims;
  DimVector src_strides;
  int64_t src_base = 0;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const SliceRange& range = slice->ranges[d];
    if (range.stride < 1 || range.start < 0 || range.start > range.limit ||
        range.limit > shape.dimension(d)) {
      return KernelError(
          instruction,
          absl::StrCat("slice range [", range.start, ":", range.limit, ":",
                       range.stride, "] does not fit dimension ", d,
                       " of size ", shape.dimension(d)));
    }
    const int64_t span = range.limit - range.start;
    out_dims.push_back((span + range.stride - 1) / range.stride);
    src_strides.push_back(in_strides[d] * range.stride);
    src_base += range.start * in_strides[d];
  }
  absl::StatusOr<Literal> out =
      NewArray(instruction, context, shape.element_type(), out_dims);
  if (!out.ok()) return out.status();
  StridedCopy copy(out_dims, Strides(out_dims), src_strides,
                   ElementBytes(shape.element_type()));
  copy.Run(out->mutable_data().data(), 0, (*in)->data().data(), src_base);
  return out;
}

absl::Status CheckConcatenable(const Instruction& instruction,
                               absl::Span<const Literal* const> operands,
                               int64_t axis) {
  const Shape& first = operands[0]->shape();
  for (size_t i = 0; i < operands.size(); ++i) {
    const Shape& shape = operands[i]->shape();
    bool ok = shape.IsArray() && shape.element_type() == first.element_type() &&
              shape.rank() == first.rank() && axis >= 0 && axis < first.rank();
    for (int64_t d = 0; ok && d < shape.rank(); ++d) {
      ok = d == axis || shape.dimension(d) == first.dimension(d);
    }
    if (!ok) {
      return KernelError(
          instruction,
          absl::StrCat("operand ", i, " ", shape.ToString(false),
                       " cannot be concatenated to ", first.ToString(false),
                       " along dimension ", axis));
    }
  }
  return absl::OkStatus();
}

// concatenate: the operands one after another along `dimensions[0]`.
absl::StatusOr<Literal> ConcatenateKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const std::vector<int64_t>*> dims =
      Int64ListAttribute(instruction, attr::kDimensions);
  if (!dims.ok()) return dims.status();
  if ((*dims)->size() != 1 || operands.empty()) {
    return KernelError(instruction, "concatenate needs one dimension");
  }
  const int64_t axis = (**dims)[0];
  absl::Status ok = CheckConcatenable(instruction, operands, axis);
  if (!ok.ok()) return ok;
  const Shape& first = operands[0]->shape();
  std::vector<int64_t> out_dims = first.dimensions();
  out_dims[axis] = 0;
  for (const Literal* operand : operands) {
    out_dims[axis] += operand->shape().dimension(axis);
  }
  absl::StatusOr<Literal> out =
      NewArray(instruction, context, first.element_type(), out_dims);
  if (!out.ok()) return out.status();
  const DimVector out_strides = Strides(out_dims);
  int64_t offset = 0;
  for (const Literal* operand : operands) {
    const std::vector<int64_t>& in_dims = operand->shape().dimensions();
    StridedCopy copy(in_dims, out_strides, Strides(in_dims),
                     ElementBytes(first.element_type()));
    copy.Run(out->mutable_data().data(), offset * out_strides[axis],
             operand->data().data(), 0);
    offset += in_dims[axis];
  }
  return out;
}

// The operand indices of one dimension that land inside the padded result:
// operand index j goes to low + j * (interior + 1).
struct PadRun {
  int64_t first = 0;  // First operand index kept.
  int64_t count = 0;  // Operand indices kept.
};

// `interior` is 0 for dimensions of size <= 1 (no gaps). Computed in 128
// bits: low and interior may be near the int64 limits.
PadRun KeptIndices(int64_t size, int64_t out_size, int64_t low,
                   int64_t interior) {
  const __int128 step = static_cast<__int128>(interior) + 1;
  PadRun run;
  // Smallest j with low + j * step >= 0.
  const __int128 first =
      low >= 0 ? 0 : (-static_cast<__int128>(low) + step - 1) / step;
  // Largest j with low + j * step < out_size, and j < size.
  __int128 last = size - 1;
  if (out_size <= low) {
    last = -1;
  } else {
    last = std::min<__int128>(
        last, (static_cast<__int128>(out_size) - 1 - low) / step);
  }
  if (last < first) return run;
  run.first = static_cast<int64_t>(first);
  run.count = static_cast<int64_t>(last - first + 1);
  return run;
}

// pad: the padding value everywhere, then the operand's elements at
// low + j * (interior + 1) (negative low/high cut elements off).
absl::StatusOr<Literal> PadKernel(const Instruction& instruction,
                                  absl::Span<const Literal* const> operands,
                                  EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<const Literal*> value = ArrayValue(instruction, operands, 1);
  if (!value.ok()) return value.status();
  const Shape& shape = (*in)->shape();
  const PaddingConfig* config =
      instruction.attrs().Get<PaddingConfig>(attr::kPadding);
  if (config == nullptr ||
      static_cast<int64_t>(config->dimensions.size()) != shape.rank() ||
      !(*value)->shape().IsScalar() ||
      (*value)->element_type() != shape.element_type()) {
    return KernelError(instruction,
                       "pad needs a scalar padding value of the operand's "
                       "type and one padding entry per dimension");
  }
  std::vector<int64_t> out_dims;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const PaddingDimension& pad = config->dimensions[d];
    const int64_t size = shape.dimension(d);
    const int64_t gaps = size > 0 ? size - 1 : 0;
    int64_t out_size = 0;
    if (pad.interior < 0 ||
        __builtin_mul_overflow(gaps, pad.interior, &out_size) ||
        __builtin_add_overflow(out_size, size, &out_size) ||
        __builtin_add_overflow(out_size, pad.low, &out_size) ||
        __builtin_add_overflow(out_size, pad.high, &out_size) || out_size < 0) {
      return KernelError(instruction,
                         absl::StrCat("padding of dimension ", d,
                                      " gives no valid result size"));
    }
    out_dims.push_back(out_size);
  }
  absl::StatusOr<Literal> out =
      NewArray(instruction, context, shape.element_type(), out_dims);
  if (!out.ok()) return out.status();
  const int64_t bytes = ElementBytes(shape.element_type());
  uint8_t* dst = out->mutable_data().data();
  for (int64_t i = 0; i < out->element_count(); ++i) {
    std::memcpy(dst + i * bytes, (*value)->data().data(), bytes);
  }
  const DimVector in_strides = Strides(shape.dimensions());
  const DimVector out_strides = Strides(out_dims);
  std::vector<int64_t> kept;
  DimVector dst_strides;
  int64_t src_base = 0, dst_base = 0;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const PaddingDimension& pad = config->dimensions[d];
    const int64_t interior = shape.dimension(d) > 1 ? pad.interior : 0;
    const PadRun run =
        KeptIndices(shape.dimension(d), out_dims[d], pad.low, interior);
    kept.push_back(run.count);
    if (run.count == 0) return out;  // Only padding.
    dst_strides.push_back(out_strides[d] * (interior + 1));
    src_base += run.first * in_strides[d];
    dst_base += (pad.low + run.first * (interior + 1)) * out_strides[d];
  }
  StridedCopy copy(kept, dst_strides, in_strides, bytes);
  copy.Run(dst, dst_base, (*in)->data().data(), src_base);
  return out;
}

// Dynamic sizes (docs/evaluator_dynamic.md). Broadcast keeps the padding
// in place, so the operand's sizes carry to the result dimensions they map
// to. A slice keeps a dynamic size only where it takes the whole dimension;
// a partial slice reads the bounded array and its dimension is dynamic at
// its own size (XLA's dynamic dimension inference drops the size there too).
absl::StatusOr<Literal> BroadcastWithDynamicSizes(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Literal> out = BroadcastKernel(instruction, operands, context);
  if (!out.ok() || !operands[0]->has_dynamic_sizes()) return out;
  const std::vector<int64_t>* dims =
      instruction.attrs().Get<std::vector<int64_t>>(attr::kDimensions);
  std::vector<int64_t> source(out->shape().rank(), -1);
  for (size_t i = 0; dims != nullptr && i < dims->size(); ++i) {
    source[(*dims)[i]] = static_cast<int64_t>(i);  // Checked by the kernel.
  }
  if (absl::Status s =
          PassDynamicSizes(instruction, *operands[0], source, &*out);
      !s.ok()) {
    return s;
  }
  return out;
}

absl::StatusOr<Literal> SliceWithDynamicSizes(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Literal> out = SliceKernel(instruction, operands, context);
  if (!out.ok() || !operands[0]->has_dynamic_sizes()) return out;
  std::vector<int64_t> source(out->shape().rank());
  for (size_t d = 0; d < source.size(); ++d) source[d] = d;
  if (absl::Status s =
          PassDynamicSizes(instruction, *operands[0], source, &*out);
      !s.ok()) {
    return s;
  }
  return out;
}

}  // namespace

void RegisterDataMovementKernels(KernelTable* table) {
  table->Set(Opcode::kBroadcast, &BroadcastWithDynamicSizes);
  table->Set(Opcode::kTranspose, &OnValidElements<TransposeKernel>);
  table->Set(Opcode::kReverse, &OnValidElements<ReverseKernel>);
  table->Set(Opcode::kSlice, &SliceWithDynamicSizes);
  table->Set(Opcode::kConcatenate,
             &OnValidElements<ConcatenateKernel, DynamicOperands::kEach>);
  table->Set(Opcode::kPad, &OnValidElements<PadKernel, DynamicOperands::kEach>);
  RegisterReshapeLikeKernels(table);
}

}  // namespace eval
}  // namespace kiln
