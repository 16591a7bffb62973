#include "compiler/evaluator/typed.h"

#include <array>
#include <memory>

#include "absl/base/call_once.h"
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

namespace {

uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float BitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// Every value of a float type of at most 16 bits, by bit pattern (the
// literal's storage masked to the type's width), built on first use.
const std::vector<float>& NarrowFloatTable(ElementType type) {
  constexpr size_t kSlots = static_cast<size_t>(ElementType::kToken) + 1;
  static std::array<absl::once_flag, kSlots> once;
  static std::array<std::unique_ptr<std::vector<float>>, kSlots> tables;
  const size_t slot = static_cast<size_t>(type);
  absl::call_once(once[slot], [&] {
    const int bits = GetElementTypeInfo(type).bit_width;
    auto table = std::make_unique<std::vector<float>>(size_t{1} << bits);
    for (size_t pattern = 0; pattern < table->size(); ++pattern) {
      (*table)[pattern] = static_cast<float>(BitsToFloat(type, pattern));
    }
    tables[slot] = std::move(table);
  });
  return *tables[slot];
}

// float -> bf16, as FloatToBits(kBF16, value): round to nearest even on
// the bits (subnormals and overflow to inf included); NaN -> the quiet NaN
// with the value's sign.
uint16_t FloatToBF16(float value) {
  const uint32_t bits = FloatBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>(((bits >> 16) & 0x8000u) | 0x7fc0u);
  }
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

// float -> f16, as FloatToBits(kF16, value) (F. Giesen's
// float_to_half_fast3_rtne): overflow to inf, NaN to the quiet NaN with the
// value's sign, subnormals rounded by the FPU's own addition.
uint16_t FloatToF16(float value) {
  uint32_t bits = FloatBits(value);
  const uint32_t sign = bits & 0x80000000u;
  bits ^= sign;
  uint32_t out;
  if (bits >= (127u + 16) << 23) {  // >= 65536, inf or NaN.
    out = bits > 0x7f800000u ? 0x7e00u : 0x7c00u;
  } else if (bits < 113u << 23) {  // Below f16's smallest normal.
    const uint32_t magic = ((127u - 15) + (23 - 10) + 1) << 23;
    out = FloatBits(BitsFloat(bits) + BitsFloat(magic)) - magic;
  } else {
    const uint32_t odd = (bits >> 13) & 1;
    bits += ((15u - 127) << 23) + 0xfffu + odd;
    out = bits >> 13;
  }
  return static_cast<uint16_t>(out | (sign >> 16));
}

}  // namespace

bool ReadNarrowFloats(const Literal& literal, float* out) {
  const ElementType type = literal.element_type();
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (info.kind != TypeKind::kFloat || info.bit_width > 16 ||
      (info.storage_bytes != 1 && info.storage_bytes != 2)) {
    return false;
  }
  const int64_t count = literal.element_count();
  const uint8_t* data = literal.data().data();
  if (type == ElementType::kBF16) {
    for (int64_t i = 0; i < count; ++i) {
      uint16_t half;
      std::memcpy(&half, data + 2 * i, 2);
      uint32_t bits = uint32_t{half} << 16;
      // NaN: quieted, as BitsToFloat does.
      if ((bits & 0x7fffffffu) > 0x7f800000u) bits |= 0x00400000u;
      out[i] = BitsFloat(bits);
    }
    return true;
  }
  const float* table = NarrowFloatTable(type).data();
  const uint32_t mask = (uint32_t{1} << info.bit_width) - 1;
  if (info.storage_bytes == 1) {
    for (int64_t i = 0; i < count; ++i) out[i] = table[data[i] & mask];
  } else {
    for (int64_t i = 0; i < count; ++i) {
      uint16_t pattern;
      std::memcpy(&pattern, data + 2 * i, 2);
      out[i] = table[pattern & mask];
    }
  }
  return true;
}

bool WriteNarrowFloats(const float* values, Literal& literal) {
  const ElementType type = literal.element_type();
  if (type != ElementType::kBF16 && type != ElementType::kF16) return false;
  const int64_t count = literal.element_count();
  uint8_t* data = literal.mutable_data().data();
  if (type == ElementType::kBF16) {
    for (int64_t i = 0; i < count; ++i) {
      const uint16_t half = FloatToBF16(values[i]);
      std::memcpy(data + 2 * i, &half, 2);
    }
  } else {
    for (int64_t i = 0; i < count; ++i) {
      const uint16_t half = FloatToF16(values[i]);
      std::memcpy(data + 2 * i, &half, 2);
    }
  }
  return true;
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
