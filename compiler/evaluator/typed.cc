#include "compiler/evaluator/typed.h"

#include "compiler/ir/float_convert.h"

namespace kiln {
namespace eval {

bool StorageIsNative(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  switch (info.kind) {
    case TypeKind::kSigned:
    case TypeKind::kUnsigned:
      return info.bit_width >= 8;
    case TypeKind::kFloat:
      return type == ElementType::kF32 || type == ElementType::kF64;
    case TypeKind::kComplex:
      return true;
    case TypeKind::kPred:
      return true;  // One byte, 0 or 1: read as uint8_t.
    default:
      return false;
  }
}

template <>
bool Get<bool>(const Literal& literal, int64_t i) {
  return literal.GetBits(i) != 0;
}
template <>
void Set<bool>(Literal& literal, int64_t i, bool value) {
  literal.SetBits(i, value ? 1 : 0);
}

#define KILN_INT_GET_SET(T, GETTER, SETTER, WIDE)      \
  template <>                                          \
  T Get<T>(const Literal& literal, int64_t i) {        \
    return static_cast<T>(literal.GETTER(i));          \
  }                                                    \
  template <>                                          \
  void Set<T>(Literal & literal, int64_t i, T value) { \
    literal.SETTER(i, static_cast<WIDE>(value));       \
  }
KILN_INT_GET_SET(int8_t, GetInt64, SetInt64, int64_t)
KILN_INT_GET_SET(int16_t, GetInt64, SetInt64, int64_t)
KILN_INT_GET_SET(int32_t, GetInt64, SetInt64, int64_t)
KILN_INT_GET_SET(int64_t, GetInt64, SetInt64, int64_t)
KILN_INT_GET_SET(uint8_t, GetUint64, SetUint64, uint64_t)
KILN_INT_GET_SET(uint16_t, GetUint64, SetUint64, uint64_t)
KILN_INT_GET_SET(uint32_t, GetUint64, SetUint64, uint64_t)
KILN_INT_GET_SET(uint64_t, GetUint64, SetUint64, uint64_t)
#undef KILN_INT_GET_SET

template <>
float Get<float>(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  if (type == ElementType::kF32) {
    float value;
    std::memcpy(&value, literal.data().data() + i * sizeof(float),
                sizeof(float));
    return value;
  }
  // Exact: every narrower float is a float.
  return static_cast<float>(BitsToFloat(type, literal.GetBits(i)));
}
template <>
void Set<float>(Literal& literal, int64_t i, float value) {
  const ElementType type = literal.element_type();
  if (type == ElementType::kF32) {
    std::memcpy(literal.mutable_data().data() + i * sizeof(float), &value,
                sizeof(float));
    return;
  }
  // float -> double is exact, so this rounds once, to nearest even.
  literal.SetBits(i, FloatToBits(type, static_cast<double>(value)));
}

template <>
double Get<double>(const Literal& literal, int64_t i) {
  return literal.GetDouble(i);
}
template <>
void Set<double>(Literal& literal, int64_t i, double value) {
  literal.SetDouble(i, value);
}

template <>
std::complex<float> Get<std::complex<float>>(const Literal& literal,
                                             int64_t i) {
  const std::complex<double> value = literal.GetComplex(i);
  return {static_cast<float>(value.real()), static_cast<float>(value.imag())};
}
template <>
void Set<std::complex<float>>(Literal& literal, int64_t i,
                              std::complex<float> value) {
  literal.SetComplex(i, {value.real(), value.imag()});
}
template <>
std::complex<double> Get<std::complex<double>>(const Literal& literal,
                                               int64_t i) {
  return literal.GetComplex(i);
}
template <>
void Set<std::complex<double>>(Literal& literal, int64_t i,
                               std::complex<double> value) {
  literal.SetComplex(i, value);
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  return strides;
}

}  // namespace eval
}  // namespace kiln
