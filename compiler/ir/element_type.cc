// The one table of element types. Every property of every type lives in its
// row; code elsewhere reads the row instead of switching on the type.
#include "compiler/ir/element_type.h"

#include <iterator>

#include "absl/container/flat_hash_map.h"

namespace kiln {
namespace {

using E = ElementType;
using K = TypeKind;
using F = FloatEncoding;

// Shorthands that keep each row on one line.
constexpr ElementTypeInfo Int(E type, const char* name, K kind, int bits) {
  return {type,
          name,
          kind,
          bits,
          bits < 8 ? 1 : bits / 8,
          kind == K::kSigned,
          0,
          0,
          0,
          false,
          false,
          false,
          F::kNotFloat,
          E::kInvalid};
}

struct FloatRow {
  int bits;
  bool is_signed;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_inf;
  bool has_nan;
  bool has_negative_zero;
  FloatEncoding encoding;
};

constexpr ElementTypeInfo Float(E type, const char* name, FloatRow r) {
  return {type,
          name,
          K::kFloat,
          r.bits,
          r.bits <= 8 ? 1 : r.bits / 8,
          r.is_signed,
          r.exponent_bits,
          r.mantissa_bits,
          r.bias,
          r.has_inf,
          r.has_nan,
          r.has_negative_zero,
          r.encoding,
          E::kInvalid};
}

constexpr ElementTypeInfo Complex(E type, const char* name, int bits,
                                  E component) {
  return {type, name, K::kComplex, bits, bits / 8, true,         0,
          0,    0,    true,        true, true,     F::kNotFloat, component};
}

constexpr ElementTypeInfo Other(E type, const char* name, K kind) {
  return {type, name, kind,  0,     0,     false,        0,
          0,    0,    false, false, false, F::kNotFloat, E::kInvalid};
}

// Float rows: bits, signed, exponent bits, mantissa bits, bias, has inf,
// has NaN, has -0, encoding.
constexpr ElementTypeInfo kTable[] = {
    Other(E::kInvalid, "invalid", K::kInvalid),
    // XLA's pred is one byte wide (BitWidth(PRED) == 8).
    {E::kPred, "pred", K::kPred, 8, 1, false, 0, 0, 0, false, false, false,
     F::kNotFloat, E::kInvalid},
    Int(E::kS1, "s1", K::kSigned, 1),
    Int(E::kS2, "s2", K::kSigned, 2),
    Int(E::kS4, "s4", K::kSigned, 4),
    Int(E::kS8, "s8", K::kSigned, 8),
    Int(E::kS16, "s16", K::kSigned, 16),
    Int(E::kS32, "s32", K::kSigned, 32),
    Int(E::kS64, "s64", K::kSigned, 64),
    Int(E::kU1, "u1", K::kUnsigned, 1),
    Int(E::kU2, "u2", K::kUnsigned, 2),
    Int(E::kU4, "u4", K::kUnsigned, 4),
    Int(E::kU8, "u8", K::kUnsigned, 8),
    Int(E::kU16, "u16", K::kUnsigned, 16),
    Int(E::kU32, "u32", K::kUnsigned, 32),
    Int(E::kU64, "u64", K::kUnsigned, 64),
    Float(E::kF16, "f16", {16, true, 5, 10, 15, true, true, true, F::kIeee}),
    Float(E::kBF16, "bf16", {16, true, 8, 7, 127, true, true, true, F::kIeee}),
    Float(E::kF32, "f32", {32, true, 8, 23, 127, true, true, true, F::kIeee}),
    Float(E::kF64, "f64", {64, true, 11, 52, 1023, true, true, true, F::kIeee}),
    Float(E::kF8E5M2, "f8e5m2",
          {8, true, 5, 2, 15, true, true, true, F::kIeee}),
    Float(E::kF8E4M3, "f8e4m3", {8, true, 4, 3, 7, true, true, true, F::kIeee}),
    Float(E::kF8E4M3FN, "f8e4m3fn",
          {8, true, 4, 3, 7, false, true, true, F::kFiniteOnly}),
    Float(E::kF8E4M3B11FNUZ, "f8e4m3b11fnuz",
          {8, true, 4, 3, 11, false, true, false, F::kFiniteUnsignedZero}),
    Float(E::kF8E3M4, "f8e3m4", {8, true, 3, 4, 3, true, true, true, F::kIeee}),
    Float(E::kF8E5M2FNUZ, "f8e5m2fnuz",
          {8, true, 5, 2, 16, false, true, false, F::kFiniteUnsignedZero}),
    Float(E::kF8E4M3FNUZ, "f8e4m3fnuz",
          {8, true, 4, 3, 8, false, true, false, F::kFiniteUnsignedZero}),
    Float(E::kF4E2M1FN, "f4e2m1fn",
          {4, true, 2, 1, 1, false, false, true, F::kFiniteOnly}),
    Float(E::kF8E8M0FNU, "f8e8m0fnu",
          {8, false, 8, 0, 127, false, true, false, F::kExponentOnly}),
    Float(E::kF6E3M2FN, "f6e3m2fn",
          {6, true, 3, 2, 3, false, false, true, F::kFiniteOnly}),
    Float(E::kF6E2M3FN, "f6e2m3fn",
          {6, true, 2, 3, 1, false, false, true, F::kFiniteOnly}),
    Complex(E::kC64, "c64", 64, E::kF32),
    Complex(E::kC128, "c128", 128, E::kF64),
    Other(E::kTuple, "tuple", K::kTuple),
    Other(E::kOpaque, "opaque", K::kOpaque),
    Other(E::kToken, "token", K::kToken),
};

constexpr int kTableSize = static_cast<int>(std::size(kTable));

// The table is indexed by the enum, so each row must sit at its own value.
constexpr bool RowsAreInEnumOrder() {
  for (int i = 0; i < kTableSize; ++i) {
    if (static_cast<int>(kTable[i].type) != i) return false;
  }
  return true;
}
static_assert(RowsAreInEnumOrder(), "kTable rows must follow ElementType");
static_assert(static_cast<int>(E::kToken) == kTableSize - 1,
              "every ElementType needs a row");

const absl::flat_hash_map<absl::string_view, ElementType>& NameMap() {
  static const auto* map = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, ElementType>();
    for (const ElementTypeInfo& row : kTable) {
      // "tuple" is not an element type spelling in HLO text, and "invalid"
      // is not a type at all.
      if (row.type == E::kInvalid || row.type == E::kTuple) continue;
      m->emplace(row.name, row.type);
    }
    return m;
  }();
  return *map;
}

}  // namespace

const ElementTypeInfo& GetElementTypeInfo(ElementType type) {
  int index = static_cast<int>(type);
  if (index < 0 || index >= kTableSize) return kTable[0];
  return kTable[index];
}

absl::Span<const ElementTypeInfo> AllElementTypeInfos() {
  return absl::MakeConstSpan(kTable + 1, kTableSize - 1);
}

std::optional<ElementType> ElementTypeFromName(absl::string_view name) {
  const auto& map = NameMap();
  auto it = map.find(name);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

absl::string_view ElementTypeName(ElementType type) {
  return GetElementTypeInfo(type).name;
}

}  // namespace kiln
