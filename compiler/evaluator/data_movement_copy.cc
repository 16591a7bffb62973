#include "compiler/evaluator/data_movement_copy.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace kiln {
namespace eval {
namespace {

// Copies `count` elements of N bytes with the given strides (in elements).
template <int N>
void CopyElements(uint8_t* dst, int64_t dst_stride, const uint8_t* src,
                  int64_t src_stride, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dst_stride * N, src + i * src_stride * N, N);
  }
}

void CopyRow(uint8_t* dst, int64_t dst_stride, const uint8_t* src,
             int64_t src_stride, int64_t count, int64_t element_bytes) {
  if (dst_stride == 1 && src_stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(count * element_bytes));
    return;
  }
  switch (element_bytes) {
    case 1:
      return CopyElements<1>(dst, dst_stride, src, src_stride, count);
    case 2:
      return CopyElements<2>(dst, dst_stride, src, src_stride, count);
    case 4:
      return CopyElements<4>(dst, dst_stride, src, src_stride, count);
    case 8:
      return CopyElements<8>(dst, dst_stride, src, src_stride, count);
    case 16:
      return CopyElements<16>(dst, dst_stride, src, src_stride, count);
    default:
      for (int64_t i = 0; i < count; ++i) {
        std::memcpy(dst + i * dst_stride * element_bytes,
                    src + i * src_stride * element_bytes,
                    static_cast<size_t>(element_bytes));
      }
  }
}

}  // namespace

StridedCopy::StridedCopy(absl::Span<const int64_t> dims,
                         absl::Span<const int64_t> dst_strides,
                         absl::Span<const int64_t> src_strides,
                         int64_t element_bytes)
    : element_bytes_(element_bytes) {
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 0) empty_ = true;
    if (dims[d] == 1) continue;  // Contributes nothing to any address.
    // Merge into the previous (more major) kept dimension when that one
    // steps exactly over this one in both buffers.
    if (!dims_.empty() && dst_strides_.back() == dst_strides[d] * dims[d] &&
        src_strides_.back() == src_strides[d] * dims[d]) {
      dims_.back() *= dims[d];
      dst_strides_.back() = dst_strides[d];
      src_strides_.back() = src_strides[d];
      continue;
    }
    dims_.push_back(dims[d]);
    dst_strides_.push_back(dst_strides[d]);
    src_strides_.push_back(src_strides[d]);
  }
  if (dims_.empty()) {  // A single element.
    dims_.push_back(1);
    dst_strides_.push_back(1);
    src_strides_.push_back(1);
  }
}

void StridedCopy::Run(uint8_t* dst, int64_t dst_base, const uint8_t* src,
                      int64_t src_base) const {
  if (empty_) return;
  RunRows(dst + dst_base * element_bytes_, src + src_base * element_bytes_);
}

void StridedCopy::RunRows(uint8_t* dst, const uint8_t* src) const {
  const int64_t inner = static_cast<int64_t>(dims_.size()) - 1;
  const int64_t row = dims_[inner];
  if (inner == 0) {
    CopyRow(dst, dst_strides_[0], src, src_strides_[0], row, element_bytes_);
    return;
  }
  // Odometer over the outer dimensions, moving both pointers as it goes.
  DimVector index(inner, 0);
  while (true) {
    CopyRow(dst, dst_strides_[inner], src, src_strides_[inner], row,
            element_bytes_);
    int64_t d = inner - 1;
    for (; d >= 0; --d) {
      dst += dst_strides_[d] * element_bytes_;
      src += src_strides_[d] * element_bytes_;
      if (++index[d] < dims_[d]) break;
      dst -= dst_strides_[d] * dims_[d] * element_bytes_;
      src -= src_strides_[d] * dims_[d] * element_bytes_;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

int64_t ElementBytes(ElementType type) {
  return GetElementTypeInfo(type).storage_bytes;
}

absl::StatusOr<Shape> BoundedShape(const Instruction& instruction,
                                   const Shape& shape) {
  if (shape.IsTuple()) {
    std::vector<Shape> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      absl::StatusOr<Shape> bounded = BoundedShape(instruction, element);
      if (!bounded.ok()) return bounded.status();
      elements.push_back(*std::move(bounded));
    }
    return Shape::Tuple(std::move(elements));
  }
  if (!shape.IsArray()) return shape;
  std::vector<int64_t> dims = shape.dimensions();
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.is_unbounded_dimension(d)) {
      return KernelError(
          instruction,
          absl::StrCat("dimension ", d, " of ", shape.ToString(false),
                       " is unbounded; the evaluator needs a bound"));
    }
  }
  return Shape::Array(shape.element_type(), std::move(dims));
}

absl::StatusOr<Literal> NewBoundedResult(const Instruction& instruction,
                                         EvalContext& context) {
  if (instruction.shape().is_static()) return context.NewResult(instruction);
  absl::StatusOr<Shape> shape = BoundedShape(instruction, instruction.shape());
  if (!shape.ok()) return shape.status();
  return context.NewLiteral(instruction, *shape);
}

absl::StatusOr<const std::vector<int64_t>*> Int64ListAttribute(
    const Instruction& instruction, absl::string_view name) {
  const std::vector<int64_t>* list =
      instruction.attrs().Get<std::vector<int64_t>>(name);
  if (list == nullptr) {
    return KernelError(instruction,
                       absl::StrCat("missing attribute ", name, "={...}"));
  }
  return list;
}

absl::StatusOr<const Literal*> ArrayValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    int64_t index) {
  if (index >= static_cast<int64_t>(operands.size()) ||
      !operands[index]->shape().IsArray()) {
    return KernelError(instruction,
                       absl::StrCat("operand ", index, " must be an array"));
  }
  return operands[index];
}

int64_t ReadIndex(const Literal& literal, int64_t i) {
  if (IsUnsignedIntType(literal.element_type())) {
    const uint64_t value = literal.GetUint64(i);
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    return value > kMax ? static_cast<int64_t>(kMax)
                        : static_cast<int64_t>(value);
  }
  return literal.GetInt64(i);
}

DimVector Strides(absl::Span<const int64_t> dims) {
  DimVector strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

}  // namespace eval
}  // namespace kiln
