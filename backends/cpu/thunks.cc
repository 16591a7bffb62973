#include "backends/cpu/thunks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/cpu/array_ops.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/float_convert.h"

namespace kiln::cpu {
namespace {

std::string Slots(const std::vector<int64_t>& slots) {
  return absl::StrCat("[", absl::StrJoin(slots, ","), "]");
}

void AppendSlots(const ValueTree& tree, std::vector<int64_t>* out) {
  if (tree.slot >= 0) out->push_back(tree.slot);
  for (const ValueTree& element : tree.elements) AppendSlots(element, out);
}

}  // namespace

absl::Status KernelThunk::Run(RunState& state) const {
  const void* in[64];
  void* out[64];
  std::vector<const void*> in_heap;
  std::vector<void*> out_heap;
  const void** in_ptr = in;
  void** out_ptr = out;
  if (inputs_.size() > 64 || outputs_.size() > 64) {
    in_heap.resize(inputs_.size());
    out_heap.resize(outputs_.size());
    in_ptr = in_heap.data();
    out_ptr = out_heap.data();
  }
  for (size_t k = 0; k < inputs_.size(); ++k) {
    in_ptr[k] = state.addresses[inputs_[k]];
  }
  for (size_t k = 0; k < outputs_.size(); ++k) {
    out_ptr[k] = state.addresses[outputs_[k]];
  }
  function_(in_ptr, out_ptr);
  return absl::OkStatus();
}

void KernelThunk::SlotUse(std::vector<int64_t>* reads,
                          std::vector<int64_t>* writes) const {
  reads->insert(reads->end(), inputs_.begin(), inputs_.end());
  writes->insert(writes->end(), outputs_.begin(), outputs_.end());
}

std::string KernelThunk::ToString() const {
  return absl::StrCat("kernel ", symbol_, " (", name_, ") in=", Slots(inputs_),
                      " out=", Slots(outputs_));
}

template <typename T>
void DotThunk::Multiply(const T* lhs, const T* rhs, T* out) const {
  const DotThunk::Dimensions& d = dims_;
  for (int64_t b = 0; b < d.batch; ++b) {
    MatMul(host(), lhs + b * d.m * d.k, rhs + b * d.k * d.n,
           out + b * d.m * d.n, d.m, d.k, d.n, threads(), d.transpose_lhs,
           d.transpose_rhs);
  }
}

absl::Status DotThunk::Run(RunState& state) const {
  const ElementType type = dot_.shape().element_type();
  const int64_t element = ByteWidth(type);
  const uint8_t* lhs = state.addresses[lhs_];
  const uint8_t* rhs = state.addresses[rhs_];
  std::vector<uint8_t> lhs_copy, rhs_copy;
  if (!IsIdentity(dims_.lhs_permutation)) {
    lhs_copy.resize(dims_.batch * dims_.m * dims_.k * element);
    TransposeCopy(lhs, dot_.operand(0)->shape().dimensions(),
                  dims_.lhs_permutation, element, lhs_copy.data());
    lhs = lhs_copy.data();
  }
  if (!IsIdentity(dims_.rhs_permutation)) {
    rhs_copy.resize(dims_.batch * dims_.k * dims_.n * element);
    TransposeCopy(rhs, dot_.operand(1)->shape().dimensions(),
                  dims_.rhs_permutation, element, rhs_copy.data());
    rhs = rhs_copy.data();
  }
  uint8_t* out = state.addresses[out_];
  if (type == ElementType::kF64) {
    Multiply(reinterpret_cast<const double*>(lhs),
             reinterpret_cast<const double*>(rhs),
             reinterpret_cast<double*>(out));
  } else if (type == ElementType::kF32) {
    Multiply(reinterpret_cast<const float*>(lhs),
             reinterpret_cast<const float*>(rhs),
             reinterpret_cast<float*>(out));
  } else {  // bf16, f16: widened to f32, rounded once.
    std::vector<float> a = Widen(type, lhs, dims_.batch * dims_.m * dims_.k);
    std::vector<float> c = Widen(type, rhs, dims_.batch * dims_.k * dims_.n);
    std::vector<float> result(dims_.batch * dims_.m * dims_.n);
    Multiply(a.data(), c.data(), result.data());
    Narrow(type, result, out);
  }
  return absl::OkStatus();
}

void DotThunk::SlotUse(std::vector<int64_t>* reads,
                       std::vector<int64_t>* writes) const {
  reads->push_back(lhs_);
  reads->push_back(rhs_);
  writes->push_back(out_);
}

std::string DotThunk::ToString() const {
  return absl::StrCat("library eigen-gemm (", dot_.name(),
                      ") batch=", dims_.batch, " m=", dims_.m, " k=", dims_.k,
                      " n=", dims_.n, dims_.transpose_lhs ? " lhs^T" : "",
                      dims_.transpose_rhs ? " rhs^T" : "", " in=[", lhs_, ",",
                      rhs_, "] out=[", out_, "]");
}

absl::StatusOr<Literal> ReadValue(const ValueTree& tree, const Shape& shape,
                                  const RunState& state) {
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      absl::StatusOr<Literal> element =
          ReadValue(tree.elements[i], shape.tuple_shape(i), state);
      if (!element.ok()) return element.status();
      elements.push_back(*std::move(element));
    }
    return Literal::Tuple(std::move(elements));
  }
  absl::StatusOr<Literal> literal = Literal::Create(shape);
  if (!literal.ok()) return literal.status();
  absl::Span<uint8_t> data = literal->mutable_data();
  if (!data.empty()) {
    std::memcpy(data.data(), state.addresses[tree.slot], data.size());
  }
  return literal;
}

void WriteValue(const Literal& literal, const ValueTree& tree,
                RunState& state) {
  if (literal.shape().IsTuple()) {
    for (size_t i = 0; i < tree.elements.size(); ++i) {
      WriteValue(literal.tuple_elements()[i], tree.elements[i], state);
    }
    return;
  }
  absl::Span<const uint8_t> data = literal.data();
  if (!data.empty()) {
    std::memcpy(state.addresses[tree.slot], data.data(), data.size());
  }
}

absl::Status FallbackThunk::Run(RunState& state) const {
  std::vector<Literal> values;
  values.reserve(operands_.size());
  for (size_t k = 0; k < operands_.size(); ++k) {
    absl::StatusOr<Literal> value =
        ReadValue(operands_[k], instruction_.operand(k)->shape(), state);
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
  }
  std::vector<const Literal*> pointers;
  for (const Literal& value : values) pointers.push_back(&value);
  eval::Kernel kernel = eval::Kernels().Find(instruction_.opcode());
  if (kernel == nullptr) {
    return eval::KernelError(instruction_, "no evaluator kernel");
  }
  absl::StatusOr<Literal> result = kernel(instruction_, pointers, *state.eval);
  if (!result.ok()) return result.status();
  WriteValue(*result, result_, state);
  return absl::OkStatus();
}

void FallbackThunk::SlotUse(std::vector<int64_t>* reads,
                            std::vector<int64_t>* writes) const {
  for (const ValueTree& operand : operands_) AppendSlots(operand, reads);
  AppendSlots(result_, writes);
}

std::string FallbackThunk::ToString() const {
  std::vector<int64_t> in, out;
  for (const ValueTree& operand : operands_) AppendSlots(operand, &in);
  AppendSlots(result_, &out);
  return absl::StrCat(label_, " ", OpcodeName(instruction_.opcode()), " (",
                      instruction_.name(), ") in=", Slots(in),
                      " out=", Slots(out));
}

}  // namespace kiln::cpu
