// Element types of XLA's PrimitiveType, spelled as in HLO text, and the one
// table that holds every property of every type.
#ifndef KILN_COMPILER_IR_ELEMENT_TYPE_H_
#define KILN_COMPILER_IR_ELEMENT_TYPE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {

// The order follows no numbering of XLA's proto; code must never depend on
// the numeric values.
enum class ElementType : uint8_t {
  kInvalid,
  kPred,
  kS1,
  kS2,
  kS4,
  kS8,
  kS16,
  kS32,
  kS64,
  kU1,
  kU2,
  kU4,
  kU8,
  kU16,
  kU32,
  kU64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kF8E5M2,
  kF8E4M3,
  kF8E4M3FN,
  kF8E4M3B11FNUZ,
  kF8E3M4,
  kF8E5M2FNUZ,
  kF8E4M3FNUZ,
  kF4E2M1FN,
  kF8E8M0FNU,
  kF6E3M2FN,
  kF6E2M3FN,
  kC64,
  kC128,
  kTuple,
  kOpaque,
  kToken,
};

// How a float type spends its special encodings.
enum class FloatEncoding : uint8_t {
  kNotFloat,
  // IEEE 754: all-ones exponent is inf (mantissa 0) or NaN.
  kIeee,
  // "fn": finite only. The all-ones exponent holds ordinary values except the
  // all-ones bit pattern (ignoring sign), which is NaN (f8e4m3fn). Types with
  // no NaN at all (f4e2m1fn, f6*) also use this encoding with has_nan=false.
  kFiniteOnly,
  // "fnuz": finite, unsigned zero. No inf; the pattern of negative zero
  // (sign bit only) is the single NaN.
  kFiniteUnsignedZero,
  // f8e8m0fnu: exponent only, no sign, no zero; all-ones is NaN.
  kExponentOnly,
};

enum class TypeKind : uint8_t {
  kInvalid,
  kPred,
  kSigned,
  kUnsigned,
  kFloat,
  kComplex,
  kTuple,
  kOpaque,
  kToken,
};

// Every property of one element type. One row per type in element_type.cc.
struct ElementTypeInfo {
  ElementType type;
  const char* name;  // HLO text spelling: "f32", "f8e4m3fn", ...
  TypeKind kind;
  int bit_width;      // Bits of one element (complex: both parts).
  int storage_bytes;  // Bytes one element takes in a Literal.
  bool is_signed;     // Has a sign (integers and floats).
  int exponent_bits;  // Floats only; 0 otherwise.
  int mantissa_bits;  // Floats: explicit fraction bits (no hidden bit).
  int exponent_bias;  // Floats only.
  bool has_inf;
  bool has_nan;
  bool has_negative_zero;
  FloatEncoding encoding;
  ElementType component;  // Complex: type of each part. Else kInvalid.
};

// The row for `type`. Always valid for every enumerator.
const ElementTypeInfo& GetElementTypeInfo(ElementType type);

// All rows, in enum order, kInvalid excluded.
absl::Span<const ElementTypeInfo> AllElementTypeInfos();

// "f32" -> kF32. Non-array names ("token", "opaque") are accepted;
// "tuple" is not a spelling in HLO text and is rejected.
std::optional<ElementType> ElementTypeFromName(absl::string_view name);
absl::string_view ElementTypeName(ElementType type);

inline bool IsArrayType(ElementType t) {
  TypeKind k = GetElementTypeInfo(t).kind;
  return k == TypeKind::kPred || k == TypeKind::kSigned ||
         k == TypeKind::kUnsigned || k == TypeKind::kFloat ||
         k == TypeKind::kComplex;
}
inline bool IsFloatType(ElementType t) {
  return GetElementTypeInfo(t).kind == TypeKind::kFloat;
}
inline bool IsComplexType(ElementType t) {
  return GetElementTypeInfo(t).kind == TypeKind::kComplex;
}
inline bool IsSignedIntType(ElementType t) {
  return GetElementTypeInfo(t).kind == TypeKind::kSigned;
}
inline bool IsUnsignedIntType(ElementType t) {
  return GetElementTypeInfo(t).kind == TypeKind::kUnsigned;
}
inline bool IsIntegralType(ElementType t) {
  return IsSignedIntType(t) || IsUnsignedIntType(t);
}
inline int BitWidth(ElementType t) { return GetElementTypeInfo(t).bit_width; }

}  // namespace kiln

#endif  // KILN_COMPILER_IR_ELEMENT_TYPE_H_
