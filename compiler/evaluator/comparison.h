// What compare's kernel and the sort/topk comparator fast path share: the
// direction applied to two values, the total order of float bit patterns,
// and XLA's default comparison type.
#ifndef KILN_COMPILER_EVALUATOR_COMPARISON_H_
#define KILN_COMPILER_EVALUATOR_COMPARISON_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {
namespace eval {

template <typename T>
bool ApplyDirection(ComparisonDirection direction, const T& a, const T& b) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return a == b;
    case ComparisonDirection::kNe:
      return a != b;
    case ComparisonDirection::kGe:
      return a >= b;
    case ComparisonDirection::kGt:
      return a > b;
    case ComparisonDirection::kLe:
      return a <= b;
    case ComparisonDirection::kLt:
      return a < b;
  }
  return false;
}

// A key whose unsigned order is the total order -NaN < -inf < ... < -0 <
// +0 < ... < +inf < +NaN of compare's TOTALORDER and XLA's TopK: the bit
// pattern (of float type `info`) read as sign and magnitude, so NaNs order
// by payload and the one NaN of the fnuz types, the pattern of -0, sits
// just below +0. e8m0 has no sign: its bits are the key.
inline uint64_t FloatTotalOrderKey(uint64_t bits, const ElementTypeInfo& info) {
  if (!info.is_signed) return bits;
  const uint64_t sign = uint64_t{1} << (info.bit_width - 1);
  const uint64_t magnitude = bits & (sign - 1);
  const uint64_t middle = uint64_t{1} << 63;
  return (bits & sign) != 0 ? middle - 1 - magnitude : middle + magnitude;
}

// The comparison type= a compare on `type` uses when none is given, as in
// XLA: FLOAT for floats and complex, SIGNED for signed integers, UNSIGNED
// for unsigned integers and pred.
inline absl::string_view DefaultComparisonType(ElementType type) {
  if (IsFloatType(type) || IsComplexType(type)) return "FLOAT";
  return GetElementTypeInfo(type).kind == TypeKind::kSigned ? "SIGNED"
                                                            : "UNSIGNED";
}

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_COMPARISON_H_
