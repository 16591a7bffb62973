// Typed access to literal elements for kernels: tight loops over spans of
// native C++ values, with no per-element virtual calls.
//
// Each element type computes in one native type (ComputeType):
//   pred -> bool; s1..s8 -> int8_t; s16/s32/s64 -> int16_t/int32_t/int64_t;
//   u1..u8 -> uint8_t; u16/u32/u64 -> uint16_t/uint32_t/uint64_t;
//   f32 -> float; f64 -> double; every narrower float (f16, bf16, f8*, f6*,
//   f4*, e8m0) -> float, rounded back to nearest even on store (f32 holds
//   every such value exactly and the basic ops round once, correctly);
//   c64 -> std::complex<float>; c128 -> std::complex<double>.
// Sub-byte integers wrap to their width on store.
//
// Fast path: when the storage is the native type (StorageIsNative), kernels
// use Elements<T>/MutableElements<T> directly. Otherwise Read<T> converts
// into a vector and Write<T> converts back.
#ifndef KILN_COMPILER_EVALUATOR_TYPED_H_
#define KILN_COMPILER_EVALUATOR_TYPED_H_

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

template <typename T>
struct TypeTag {
  using type = T;
};

// True when a literal of `type` stores each element as its ComputeType
// (s8..s64, u8..u64, f32, f64, c64, c128; pred as one byte 0/1).
bool StorageIsNative(ElementType type);

// Calls `f(TypeTag<ComputeType>{})` for `type` and returns what it returns.
// `type` must be an array element type.
template <typename F>
decltype(auto) DispatchByComputeType(ElementType type, F&& f) {
  switch (GetElementTypeInfo(type).kind) {
    case TypeKind::kPred:
      return std::forward<F>(f)(TypeTag<bool>{});
    case TypeKind::kSigned:
      switch (BitWidth(type)) {
        case 16:
          return std::forward<F>(f)(TypeTag<int16_t>{});
        case 32:
          return std::forward<F>(f)(TypeTag<int32_t>{});
        case 64:
          return std::forward<F>(f)(TypeTag<int64_t>{});
        default:
          return std::forward<F>(f)(TypeTag<int8_t>{});
      }
    case TypeKind::kUnsigned:
      switch (BitWidth(type)) {
        case 16:
          return std::forward<F>(f)(TypeTag<uint16_t>{});
        case 32:
          return std::forward<F>(f)(TypeTag<uint32_t>{});
        case 64:
          return std::forward<F>(f)(TypeTag<uint64_t>{});
        default:
          return std::forward<F>(f)(TypeTag<uint8_t>{});
      }
    case TypeKind::kComplex:
      if (type == ElementType::kC128) {
        return std::forward<F>(f)(TypeTag<std::complex<double>>{});
      }
      return std::forward<F>(f)(TypeTag<std::complex<float>>{});
    default:  // Floats.
      if (type == ElementType::kF64)
        return std::forward<F>(f)(TypeTag<double>{});
      return std::forward<F>(f)(TypeTag<float>{});
  }
}

// Direct views; `literal`'s storage must be native and its ComputeType T.
template <typename T>
absl::Span<const T> Elements(const Literal& literal) {
  static_assert(!std::is_same_v<T, bool>, "pred: use Elements<uint8_t>");
  return absl::Span<const T>(reinterpret_cast<const T*>(literal.data().data()),
                             static_cast<size_t>(literal.element_count()));
}
template <typename T>
absl::Span<T> MutableElements(Literal& literal) {
  static_assert(!std::is_same_v<T, bool>, "pred: use MutableElements<uint8_t>");
  return absl::Span<T>(reinterpret_cast<T*>(literal.mutable_data().data()),
                       static_cast<size_t>(literal.element_count()));
}

// Element i as T (T = the literal's ComputeType): exact.
template <typename T>
T Get(const Literal& literal, int64_t i);
// Stores `value` into element i, rounding (narrow floats, RNE) or wrapping
// (sub-byte integers) as the literal's type requires.
template <typename T>
void Set(Literal& literal, int64_t i, T value);

// The specializations, defined in typed.cc (declared here so that every
// use refers to them).
#define KILN_DECLARE_GET_SET(T)                \
  template <>                                  \
  T Get<T>(const Literal& literal, int64_t i); \
  template <>                                  \
  void Set<T>(Literal & literal, int64_t i, T value);
KILN_DECLARE_GET_SET(bool)
KILN_DECLARE_GET_SET(int8_t)
KILN_DECLARE_GET_SET(int16_t)
KILN_DECLARE_GET_SET(int32_t)
KILN_DECLARE_GET_SET(int64_t)
KILN_DECLARE_GET_SET(uint8_t)
KILN_DECLARE_GET_SET(uint16_t)
KILN_DECLARE_GET_SET(uint32_t)
KILN_DECLARE_GET_SET(uint64_t)
KILN_DECLARE_GET_SET(float)
KILN_DECLARE_GET_SET(double)
KILN_DECLARE_GET_SET(std::complex<float>)
KILN_DECLARE_GET_SET(std::complex<double>)
#undef KILN_DECLARE_GET_SET

// Bulk conversions of narrow floats, exactly as Get<float>/Set<float>
// element by element: false (nothing done) for the types they do not
// cover. Reading covers every float type of at most 16 bits (bf16 by a
// shift, the others by a table of all their values); writing covers bf16
// and f16 (round to nearest even on the float's bits, NaN to the quiet NaN
// of its sign), the types elementwise kernels meet most.
bool ReadNarrowFloats(const Literal& literal, float* out);
bool WriteNarrowFloats(const float* values, Literal& literal);

// Every element as T (T = the literal's ComputeType).
template <typename T>
std::vector<T> Read(const Literal& literal) {
  std::vector<T> values(static_cast<size_t>(literal.element_count()));
  if (values.empty()) return values;  // No storage to copy from.
  if constexpr (!std::is_same_v<T, bool>) {
    if (StorageIsNative(literal.element_type())) {
      std::memcpy(values.data(), literal.data().data(),
                  values.size() * sizeof(T));
      return values;
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    if (ReadNarrowFloats(literal, values.data())) return values;
  }
  for (size_t i = 0; i < values.size(); ++i) values[i] = Get<T>(literal, i);
  return values;
}

// Stores every element of `values` (size == element count).
template <typename T>
void Write(absl::Span<const T> values, Literal& literal) {
  if (values.empty()) return;
  if constexpr (!std::is_same_v<T, bool>) {
    if (StorageIsNative(literal.element_type())) {
      std::memcpy(literal.mutable_data().data(), values.data(),
                  values.size() * sizeof(T));
      return;
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    if (WriteNarrowFloats(values.data(), literal)) return;
  }
  for (size_t i = 0; i < values.size(); ++i) Set<T>(literal, i, values[i]);
}

// Row-major strides of `dims` (the last dimension has stride 1).
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims);

// Calls `f(index)` for every multi-index of `dims` in row-major order
// (`index` is a span of dims.size() entries, valid during the call). Does
// nothing when some dimension is 0; calls once with an empty index for a
// scalar.
template <typename F>
void ForEachIndex(absl::Span<const int64_t> dims, F&& f) {
  for (int64_t d : dims) {
    if (d == 0) return;
  }
  std::vector<int64_t> index(dims.size(), 0);
  while (true) {
    f(absl::Span<const int64_t>(index));
    int64_t d = static_cast<int64_t>(dims.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_TYPED_H_
