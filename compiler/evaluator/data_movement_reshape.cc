// Kernels of the data movement ops that keep the row-major element order or
// make values from nothing: reshape, bitcast, copy, copy-start/copy-done,
// iota, and the dynamic-shape ops get-dimension-size, set-dimension-size and
// dynamic-reshape. How the evaluator holds dynamic arrays (at their bounds,
// with a size per dynamic dimension) is described in
// docs/evaluator_dynamic.md.
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/data_movement_tiled.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/reshape_dynamic.h"

namespace kiln {
namespace eval {
namespace {

absl::StatusOr<Literal> ReshapeDynamicOperand(const Instruction& instruction,
                                              const Literal& in,
                                              EvalContext& context);

// reshape: the same row-major elements under the declared dimensions.
absl::StatusOr<Literal> ReshapeKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  if ((*in)->has_dynamic_sizes()) {
    return ReshapeDynamicOperand(instruction, **in, context);
  }
  absl::StatusOr<Literal> out = NewBoundedResult(instruction, context);
  if (!out.ok()) return out.status();
  if (!out->shape().IsArray() || out->element_type() != (*in)->element_type() ||
      out->element_count() != (*in)->element_count()) {
    return KernelError(
        instruction,
        absl::StrCat("cannot reshape ", (*in)->shape().ToString(false), " to ",
                     out->shape().ToString(false)));
  }
  // memcpy must not be handed the null data of an empty array (UBSan).
  if (!(*in)->data().empty()) {
    std::memcpy(out->mutable_data().data(), (*in)->data().data(),
                (*in)->data().size());
  }
  return out;
}

// The dimensions of `shape` from most major to most minor in memory (its
// layout's minor_to_major reversed; the default layout when it has none).
absl::StatusOr<std::vector<int64_t>> MajorToMinor(
    const Instruction& instruction, const Shape& shape) {
  std::vector<int64_t> order;
  if (!shape.has_layout()) {
    for (int64_t d = 0; d < shape.rank(); ++d) order.push_back(d);
    return order;
  }
  const Layout& layout = shape.layout();
  const std::vector<int64_t>& m2m = layout.minor_to_major();
  std::vector<bool> seen(shape.rank(), false);
  for (auto it = m2m.rbegin(); it != m2m.rend(); ++it) {
    if (*it < 0 || *it >= shape.rank() || seen[*it]) break;
    seen[*it] = true;
    order.push_back(*it);
  }
  if (static_cast<int64_t>(order.size()) != shape.rank()) {
    return KernelError(instruction,
                       absl::StrCat("the layout of ", shape.ToString(true),
                                    " is not a permutation of its "
                                    "dimensions"));
  }
  return order;
}

// One array's logical elements <-> their physical (memory) order: the
// dimensions in memory order and their logical row-major strides.
struct PhysicalOrder {
  std::vector<int64_t> dims;
  DimVector logical_strides;
};

absl::StatusOr<PhysicalOrder> PhysicalOrderOf(const Instruction& instruction,
                                              const Shape& shape) {
  absl::StatusOr<std::vector<int64_t>> order = MajorToMinor(instruction, shape);
  if (!order.ok()) return order.status();
  const DimVector strides = Strides(shape.dimensions());
  PhysicalOrder physical;
  for (int64_t d : *order) {
    physical.dims.push_back(shape.dimension(d));
    physical.logical_strides.push_back(strides[d]);
  }
  return physical;
}

// Element types whose bytes may be reinterpreted as each other's.
bool BitcastableTypes(ElementType from, ElementType to) {
  const ElementTypeInfo& a = GetElementTypeInfo(from);
  const ElementTypeInfo& b = GetElementTypeInfo(to);
  const bool a_packed = a.bit_width != 8 * a.storage_bytes;
  const bool b_packed = b.bit_width != 8 * b.storage_bytes;
  if (a_packed || b_packed) return a.bit_width == b.bit_width;
  return true;
}

// Keeps a reinterpreted value valid for its type: pred is 0/1 and a
// sub-byte type keeps only its low bits.
void NormalizeBits(Literal& literal) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  uint8_t* data = literal.mutable_data().data();
  if (literal.element_type() == ElementType::kPred) {
    for (int64_t i = 0; i < literal.element_count(); ++i) {
      data[i] = data[i] != 0;
    }
  } else if (info.storage_bytes == 1 && info.bit_width < 8) {
    const uint8_t mask = static_cast<uint8_t>((1u << info.bit_width) - 1);
    for (int64_t i = 0; i < literal.element_count(); ++i) data[i] &= mask;
  }
}

bool HasTiles(const Shape& shape) {
  return shape.IsArray() && shape.has_layout() && !shape.layout().tiles.empty();
}

// bitcast through tiled layouts: the operand's elements are placed at
// their memory slots (tiled_layout.md; the padding of partial tiles is
// zero, which the spec leaves unspecified), and the result's elements are
// read from theirs. Both must take the same number of bytes in memory.
absl::Status TiledBitcast(const Instruction& instruction, const Literal& in,
                          const Shape& in_shape, const Shape& out_shape,
                          EvalContext& context, Literal& out) {
  absl::StatusOr<PhysicalMap> from = TiledPhysicalMap(instruction, in_shape);
  if (!from.ok()) return from.status();
  absl::StatusOr<PhysicalMap> to = TiledPhysicalMap(instruction, out_shape);
  if (!to.ok()) return to.status();
  const int64_t in_bytes = ElementBytes(in.element_type());
  const int64_t out_bytes = ElementBytes(out.element_type());
  // The slot counts include the padding of partial tiles, so they can be
  // far above the element counts; their byte sizes can overflow int64.
  int64_t from_bytes = 0, to_bytes = 0;
  if (__builtin_mul_overflow(from->size, in_bytes, &from_bytes) ||
      __builtin_mul_overflow(to->size, out_bytes, &to_bytes)) {
    return KernelError(
        instruction,
        absl::StrCat("the tiled buffers of bitcast ", in_shape.ToString(true),
                     " to ", out_shape.ToString(true),
                     " take more than 2^63 bytes"));
  }
  if (from_bytes != to_bytes) {
    return KernelError(
        instruction,
        absl::StrCat("cannot bitcast ", in_shape.ToString(true), " (",
                     from_bytes, " bytes in memory) to ",
                     out_shape.ToString(true), " (", to_bytes, " bytes)"));
  }
  if (from_bytes > context.options().max_literal_bytes) {
    return KernelError(instruction, absl::StrCat("the tiled buffer of ",
                                                 in_shape.ToString(true),
                                                 " takes ", from_bytes,
                                                 " bytes, over the "
                                                 "evaluator's memory cap"));
  }
  std::vector<uint8_t> memory(static_cast<size_t>(from_bytes), 0);
  const uint8_t* source = in.data().data();
  for (size_t i = 0; i < from->position.size(); ++i) {
    std::memcpy(memory.data() + from->position[i] * in_bytes,
                source + i * in_bytes, in_bytes);
  }
  uint8_t* target = out.mutable_data().data();
  for (size_t i = 0; i < to->position.size(); ++i) {
    std::memcpy(target + i * out_bytes,
                memory.data() + to->position[i] * out_bytes, out_bytes);
  }
  return absl::OkStatus();
}

// bitcast: the operand's bytes in its physical order (its layout), read
// back in the result's physical order. With default layouts on both sides
// this is a reshape.
absl::StatusOr<Literal> BitcastKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<Literal> out = NewBoundedResult(instruction, context);
  if (!out.ok()) return out.status();
  const bool tiled = HasTiles(instruction.shape()) ||
                     HasTiles(instruction.operand(0)->shape());
  if (!out->shape().IsArray() ||
      (!tiled && out->data().size() != (*in)->data().size()) ||
      !BitcastableTypes((*in)->element_type(), out->element_type())) {
    return KernelError(instruction,
                       absl::StrCat("cannot bitcast ",
                                    instruction.operand(0)->shape().ToString(),
                                    " to ", instruction.shape().ToString()));
  }
  // The operand's layout is its instruction's (argument literals carry none).
  Shape in_shape = instruction.operand(0)->shape();
  if (!in_shape.IsArray() || in_shape.rank() != (*in)->shape().rank()) {
    in_shape = (*in)->shape();
  }
  Shape in_layout_shape = (*in)->shape();
  if (in_shape.has_layout()) in_layout_shape.set_layout(in_shape.layout());
  Shape out_layout_shape = out->shape();
  if (instruction.shape().has_layout()) {
    out_layout_shape.set_layout(instruction.shape().layout());
  }
  if (tiled) {
    absl::Status moved = TiledBitcast(instruction, **in, in_layout_shape,
                                      out_layout_shape, context, *out);
    if (!moved.ok()) return moved;
    if (out->element_type() != (*in)->element_type()) NormalizeBits(*out);
    return out;
  }
  absl::StatusOr<PhysicalOrder> from =
      PhysicalOrderOf(instruction, in_layout_shape);
  if (!from.ok()) return from.status();
  absl::StatusOr<PhysicalOrder> to =
      PhysicalOrderOf(instruction, out_layout_shape);
  if (!to.ok()) return to.status();
  std::vector<uint8_t> bytes((*in)->data().size());
  const int64_t in_bytes = ElementBytes((*in)->element_type());
  StridedCopy(from->dims, Strides(from->dims), from->logical_strides, in_bytes)
      .Run(bytes.data(), 0, (*in)->data().data(), 0);
  const int64_t out_bytes = ElementBytes(out->element_type());
  StridedCopy(to->dims, to->logical_strides, Strides(to->dims), out_bytes)
      .Run(out->mutable_data().data(), 0, bytes.data(), 0);
  if (out->element_type() != (*in)->element_type()) NormalizeBits(*out);
  return out;
}

absl::StatusOr<Literal> CopyKernel(const Instruction&,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext&) {
  return *operands[0];
}

// copy-start's value is its (destination, source, u32[] context) tuple; the
// context is 0.
absl::StatusOr<Literal> CopyStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Literal> context_value =
      context.NewLiteral(instruction, Shape::Scalar(ElementType::kU32));
  if (!context_value.ok()) return context_value.status();
  std::vector<Literal> elements;
  elements.push_back(*operands[0]);
  elements.push_back(*operands[0]);
  elements.push_back(*std::move(context_value));
  return Literal::Tuple(std::move(elements));
}

absl::StatusOr<Literal> CopyDoneKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext&) {
  const std::vector<Literal>& elements = operands[0]->tuple_elements();
  if (!operands[0]->shape().IsTuple() || elements.empty()) {
    return KernelError(instruction, "copy-done takes copy-start's tuple");
  }
  return elements[0];
}

// The real type behind T (complex: its component type).
template <typename T>
struct ScalarOf {
  using type = T;
};
template <typename T>
struct ScalarOf<std::complex<T>> {
  using type = T;
};

// iota: each element is its index along iota_dimension, converted to the
// element type (narrow floats round to nearest even, integers wrap).
absl::StatusOr<Literal> IotaKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const>,
                                   EvalContext& context) {
  const int64_t* dim = instruction.attrs().Get<int64_t>(attr::kIotaDimension);
  absl::StatusOr<Literal> out = NewBoundedResult(instruction, context);
  if (!out.ok()) return out.status();
  const Shape& shape = out->shape();
  if (dim == nullptr || !shape.IsArray() || *dim < 0 || *dim >= shape.rank() ||
      shape.element_type() == ElementType::kPred) {
    return KernelError(instruction,
                       "iota needs a non-pred array and iota_dimension in "
                       "range");
  }
  const DimVector strides = Strides(shape.dimensions());
  const int64_t stride = strides[*dim];
  const int64_t size = shape.dimension(*dim);
  DispatchByComputeType(shape.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      std::vector<T> values(out->element_count());
      for (size_t i = 0; i < values.size(); ++i) {
        const int64_t index = (static_cast<int64_t>(i) / stride) % size;
        if constexpr (std::is_integral_v<T>) {
          // Wraps to the type's width, as XLA's iota does.
          values[i] = static_cast<T>(static_cast<uint64_t>(index));
        } else {
          values[i] = T(static_cast<typename ScalarOf<T>::type>(index));
        }
      }
      Write<T>(values, *out);
    }
  });
  return out;
}

absl::StatusOr<int64_t> DimensionAttribute(const Instruction& instruction,
                                           const Shape& shape) {
  absl::StatusOr<const std::vector<int64_t>*> dims =
      Int64ListAttribute(instruction, attr::kDimensions);
  if (!dims.ok()) return dims.status();
  if ((*dims)->size() != 1 || (**dims)[0] < 0 || (**dims)[0] >= shape.rank()) {
    return KernelError(instruction,
                       absl::StrCat("dimensions must name one dimension of ",
                                    shape.ToString(false)));
  }
  return (**dims)[0];
}

// reshape of an operand with dynamic sizes: its valid elements in row-major
// order fill the result. A static result must hold exactly that many; a
// result with one dynamic dimension takes the size that makes the count
// come out (XLA infers the dynamic size of a reshape the same way). With
// several, each one that passes a dynamic operand dimension through
// (compiler/ops/reshape_dynamic.h) takes its size, and at most one other
// is inferred from the count; the rest is ambiguous, refused by the shape
// rule and here in the same words.
absl::StatusOr<Literal> ReshapeDynamicOperand(const Instruction& instruction,
                                              const Literal& in,
                                              EvalContext& context) {
  absl::StatusOr<Literal> valid = ValidElements(instruction, in, context);
  if (!valid.ok()) return valid.status();
  const Shape& declared = instruction.shape();
  if (!declared.IsArray() || declared.element_type() != in.element_type()) {
    return KernelError(instruction, "reshape needs the operand's element type");
  }
  std::vector<int64_t> sizes = declared.dimensions();
  const std::vector<int64_t> through =
      ReshapePassThroughDimensions(instruction.operand(0)->shape(), declared);
  int64_t dynamic_dim = -1;
  int64_t others = 1;
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (declared.is_dynamic_dimension(d) && through[d] >= 0) {
      sizes[d] = in.dynamic_size(through[d]);
    }
    if (!declared.is_dynamic_dimension(d) || through[d] >= 0) {
      others *= sizes[d];  // Cannot overflow: the shape has a byte size.
    } else if (dynamic_dim >= 0) {
      return KernelError(instruction, kReshapeDynamicRefusal);
    } else {
      dynamic_dim = d;
    }
  }
  const int64_t count = valid->element_count();
  if (dynamic_dim >= 0 && others > 0 && count % others == 0) {
    sizes[dynamic_dim] = count / others;
  }
  int64_t product = 1;
  for (int64_t size : sizes) product *= size;
  if (product != count ||
      (dynamic_dim >= 0 &&
       sizes[dynamic_dim] > declared.dimension(dynamic_dim))) {
    return KernelError(
        instruction,
        absl::StrCat("cannot reshape the ", count, " valid elements of ",
                     in.shape().ToString(false), " to ",
                     declared.ToString(false)));
  }
  absl::StatusOr<Literal> reshaped =
      context.NewLiteral(instruction, Shape::Array(in.element_type(), sizes));
  if (!reshaped.ok()) return reshaped.status();
  std::memcpy(reshaped->mutable_data().data(), valid->data().data(),
              valid->data().size());
  return PlaceAtBounds(instruction, *reshaped, declared, context);
}

// get-dimension-size: the size of the operand's value in that dimension:
// its dynamic size where it has one, else the literal's dimension (a
// dynamic parameter may be given an argument of its actual size).
absl::StatusOr<Literal> GetDimensionSizeKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<int64_t> dim = DimensionAttribute(instruction, (*in)->shape());
  if (!dim.ok()) return dim.status();
  const int64_t size = (*in)->dynamic_size(*dim);
  if (size > std::numeric_limits<int32_t>::max()) {
    return KernelError(
        instruction,
        absl::StrCat("dimension size ", size, " does not fit the s32 result"));
  }
  absl::StatusOr<Literal> out =
      context.NewLiteral(instruction, Shape::Scalar(ElementType::kS32));
  if (!out.ok()) return out.status();
  out->SetInt64(0, size);
  return out;
}

// set-dimension-size: the data at the declared bounds, unchanged, with the
// dimension's dynamic size set; the size must lie in [0, bound]. Raising a
// size uncovers what the padding held, as in XLA. When the declared shape
// leaves the dimension static, the size must be the bound.
absl::StatusOr<Literal> SetDimensionSizeKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> in = ArrayValue(instruction, operands, 0);
  if (!in.ok()) return in.status();
  absl::StatusOr<int64_t> dim = DimensionAttribute(instruction, (*in)->shape());
  if (!dim.ok()) return dim.status();
  const Literal& size = *operands[1];
  if (!size.shape().IsScalar() || !IsIntegralType(size.element_type())) {
    return KernelError(instruction, "the size operand must be an s32 scalar");
  }
  const int64_t value = size.GetInt64(0);
  const Shape& declared = instruction.shape();
  const bool declared_dynamic = declared.IsArray() &&
                                declared.rank() == (*in)->shape().rank() &&
                                declared.is_dynamic_dimension(*dim);
  const int64_t bound = declared_dynamic ? declared.dimension(*dim)
                                         : (*in)->shape().dimension(*dim);
  if (value < 0 || value > bound) {
    return KernelError(instruction,
                       absl::StrCat("size ", value, " of dimension ", *dim,
                                    " is outside [0, ", bound, "]"));
  }
  if (!declared_dynamic) {
    if (value != bound) {
      return KernelError(instruction,
                         absl::StrCat("size ", value, " of dimension ", *dim,
                                      " needs the result dimension to be "
                                      "dynamic (<=",
                                      bound, ")"));
    }
    return **in;
  }
  absl::StatusOr<Literal> out = Literal(**in);
  if ((*in)->shape().dimensions() != declared.dimensions()) {
    // An argument given at its actual size: place it at the bounds.
    absl::StatusOr<Literal> valid = ValidElements(instruction, **in, context);
    if (!valid.ok()) return valid.status();
    out = PlaceAtBounds(instruction, *valid, declared, context);
    if (!out.ok()) return out.status();
  }
  if (absl::Status s = out->SetDynamicSize(*dim, value); !s.ok()) {
    return KernelError(instruction, s.message());
  }
  return out;
}

// dynamic-reshape: a reshape to the sizes given by the operands, placed in
// the bounded result at the same multi-indices (the rest is zero padding).
absl::StatusOr<Literal> DynamicReshapeKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> bounded = ArrayValue(instruction, operands, 0);
  if (!bounded.ok()) return bounded.status();
  // Only the operand's valid elements are reshaped.
  absl::StatusOr<Literal> valid =
      ValidElements(instruction, **bounded, context);
  if (!valid.ok()) return valid.status();
  const Literal* const in_value = &*valid;
  const Literal* const* in = &in_value;
  absl::StatusOr<Literal> out = NewBoundedResult(instruction, context);
  if (!out.ok()) return out.status();
  const Shape& bounds = out->shape();
  if (!bounds.IsArray() || bounds.element_type() != (*in)->element_type() ||
      static_cast<int64_t>(operands.size()) != bounds.rank() + 1) {
    return KernelError(instruction,
                       "dynamic-reshape needs one size operand per result "
                       "dimension and the operand's element type");
  }
  std::vector<int64_t> sizes;
  int64_t count = 1;
  for (int64_t d = 0; d < bounds.rank(); ++d) {
    const Literal& size = *operands[d + 1];
    const int64_t value =
        size.shape().IsScalar() && IsIntegralType(size.element_type())
            ? size.GetInt64(0)
            : -1;
    const bool dynamic = instruction.shape().is_dynamic_dimension(d);
    if (value < 0 || value > bounds.dimension(d) ||
        (!dynamic && value != bounds.dimension(d))) {
      return KernelError(
          instruction,
          absl::StrCat("size operand ", d + 1, " is not ",
                       dynamic
                           ? absl::StrCat("in [0, ", bounds.dimension(d), "]")
                           : absl::StrCat(bounds.dimension(d),
                                          ", the static dimension's size")));
    }
    sizes.push_back(value);
    count *= value;  // Cannot overflow: each size is at most its bound.
  }
  if (count != (*in)->element_count()) {
    return KernelError(
        instruction,
        absl::StrCat("the sizes hold ", count, " elements but the operand ",
                     (*in)->shape().ToString(false), " holds ",
                     (*in)->element_count()));
  }
  StridedCopy(sizes, Strides(bounds.dimensions()), Strides(sizes),
              ElementBytes(bounds.element_type()))
      .Run(out->mutable_data().data(), 0, (*in)->data().data(), 0);
  for (int64_t d = 0; d < bounds.rank(); ++d) {
    if (!instruction.shape().is_dynamic_dimension(d)) continue;
    if (absl::Status s = out->SetDynamicSize(d, sizes[d]); !s.ok()) {
      return KernelError(instruction, s.message());
    }
  }
  return out;
}

}  // namespace

void RegisterReshapeLikeKernels(KernelTable* table) {
  table->Set(Opcode::kReshape, &ReshapeKernel);
  table->Set(Opcode::kBitcast, &BitcastKernel);
  table->Set(Opcode::kCopy, &CopyKernel);
  table->Set(Opcode::kCopyStart, &CopyStartKernel);
  table->Set(Opcode::kCopyDone, &CopyDoneKernel);
  table->Set(Opcode::kIota, &IotaKernel);
  table->Set(Opcode::kGetDimensionSize, &GetDimensionSizeKernel);
  table->Set(Opcode::kSetDimensionSize, &SetDimensionSizeKernel);
  table->Set(Opcode::kDynamicReshape, &DynamicReshapeKernel);
}

}  // namespace eval
}  // namespace kiln
