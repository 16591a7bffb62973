// Builder functions that make constants and iotas, in the style of
// XlaBuilder's ConstantR0/ConstantR1/ConstantR2 and of XLA's client
// constants library (Zero, One, MinValue, MaxValue, ...).
// ConstantLiteral (builder.h) takes any Literal; these build the literal.
//
//   XlaOp two = ConstantR0<float>(&b, 2.0f);                 // f32[]
//   XlaOp v = ConstantR1<int32_t>(&b, {1, 2, 3});            // s32[3]
//   XlaOp m = ConstantR2<double>(&b, {{1, 2}, {3, 4}});      // f64[2,2]
//   XlaOp lowest = MinValue(&b, ElementType::kBF16);         // bf16[] -inf
//
// The native types map to element types as XLA's do: bool -> pred,
// int8_t..int64_t -> s8..s64, uint8_t..uint64_t -> u8..u64, float -> f32,
// double -> f64, std::complex<float> -> c64, std::complex<double> -> c128.
// A null builder gives an invalid XlaOp; other errors are recorded in the
// builder (see builder.h).
#ifndef KILN_COMPILER_BUILDER_CONSTANTS_H_
#define KILN_COMPILER_BUILDER_CONSTANTS_H_

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace constants_internal {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// The element type of a native C++ type; unsupported types do not compile.
template <typename T>
constexpr ElementType NativeElementType() {
  static_assert(std::is_same_v<T, bool> || std::is_integral_v<T> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, std::complex<float>> ||
                    std::is_same_v<T, std::complex<double>>,
                "no Kiln element type for this native type");
  if constexpr (std::is_same_v<T, bool>) return ElementType::kPred;
  if constexpr (std::is_same_v<T, float>) return ElementType::kF32;
  if constexpr (std::is_same_v<T, double>) return ElementType::kF64;
  if constexpr (std::is_same_v<T, std::complex<float>>)
    return ElementType::kC64;
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    return ElementType::kC128;
  }
  if constexpr (std::is_integral_v<T>) {
    constexpr bool kSigned = std::is_signed_v<T>;
    switch (sizeof(T)) {
      case 1:
        return kSigned ? ElementType::kS8 : ElementType::kU8;
      case 2:
        return kSigned ? ElementType::kS16 : ElementType::kU16;
      case 4:
        return kSigned ? ElementType::kS32 : ElementType::kU32;
      default:
        return kSigned ? ElementType::kS64 : ElementType::kU64;
    }
  }
  return ElementType::kInvalid;
}

// Stores `value` as element `i`, converted as the Literal setters convert.
template <typename T>
void SetElement(Literal* literal, int64_t i, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    literal->SetInt64(i, value ? 1 : 0);
  } else if constexpr (IsComplex<T>::value) {
    literal->SetComplex(i, {static_cast<double>(value.real()),
                            static_cast<double>(value.imag())});
  } else if constexpr (std::is_floating_point_v<T>) {
    literal->SetDouble(i, static_cast<double>(value));
  } else if constexpr (std::is_signed_v<T>) {
    literal->SetInt64(i, static_cast<int64_t>(value));
  } else {
    literal->SetUint64(i, static_cast<uint64_t>(value));
  }
}

// A constant of `type` and `dimensions` whose elements `fill` sets (the
// literal starts zero-filled). `what` names the function in errors.
XlaOp MakeConstant(XlaBuilder* builder, absl::string_view what,
                   ElementType type, absl::Span<const int64_t> dimensions,
                   absl::FunctionRef<void(Literal*)> fill);

// Records and returns an error "<what>: <message> (<section>)".
XlaOp Fail(XlaBuilder* builder, absl::string_view what,
           absl::string_view message, absl::string_view section);

// OK when a value of a native type with these properties may become an
// element of `type` in ConstantR0WithType (XLA refuses floating-point values
// for non-float types and complex values for non-complex types).
absl::Status CheckValueFitsType(absl::string_view what, ElementType type,
                                bool value_is_float, bool value_is_complex);

}  // namespace constants_internal

// A scalar constant: f32[] for float, s32[] for int32_t, pred[] for bool...
template <typename T>
XlaOp ConstantR0(XlaBuilder* builder, T value) {
  return constants_internal::MakeConstant(
      builder, "ConstantR0", constants_internal::NativeElementType<T>(), {},
      [&](Literal* literal) {
        constants_internal::SetElement(literal, 0, value);
      });
}

// A rank-1 constant holding `values`.
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, absl::Span<const T> values) {
  return constants_internal::MakeConstant(
      builder, "ConstantR1", constants_internal::NativeElementType<T>(),
      {static_cast<int64_t>(values.size())}, [&](Literal* literal) {
        for (size_t i = 0; i < values.size(); ++i) {
          constants_internal::SetElement(literal, i, values[i]);
        }
      });
}

// A rank-1 constant of `length` copies of `value`.
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, int64_t length, T value) {
  if (builder != nullptr && length < 0) {
    return constants_internal::Fail(builder, "ConstantR1",
                                    "the length must not be negative",
                                    "shapes.md, dimensions");
  }
  return constants_internal::MakeConstant(
      builder, "ConstantR1", constants_internal::NativeElementType<T>(),
      {length}, [&](Literal* literal) {
        for (int64_t i = 0; i < length; ++i) {
          constants_internal::SetElement(literal, i, value);
        }
      });
}

// A rank-2 constant from rows: ConstantR2<float>(&b, {{1, 2}, {3, 4}}).
// The rows must have one length; no rows gives a [0,0] array.
template <typename T>
XlaOp ConstantR2(XlaBuilder* builder,
                 std::initializer_list<std::initializer_list<T>> rows) {
  const int64_t columns = rows.size() == 0 ? 0 : rows.begin()->size();
  int64_t row_index = 0;
  for (const auto& row : rows) {
    if (builder != nullptr && static_cast<int64_t>(row.size()) != columns) {
      return constants_internal::Fail(
          builder, "ConstantR2",
          absl::StrCat("row ", row_index, " has ", row.size(),
                       " values but row 0 has ", columns,
                       "; a rank-2 array is rectangular"),
          "shapes.md, dimensions");
    }
    ++row_index;
  }
  return constants_internal::MakeConstant(
      builder, "ConstantR2", constants_internal::NativeElementType<T>(),
      {static_cast<int64_t>(rows.size()), columns}, [&](Literal* literal) {
        int64_t i = 0;
        for (const auto& row : rows) {
          for (const T& value : row) {
            constants_internal::SetElement(literal, i++, value);
          }
        }
      });
}

// A constant of any rank: `values` in row-major order (the last dimension
// varies fastest), as many as the dimensions hold. XlaBuilder's
// ConstantFromArray takes an Array<T>; this takes its parts.
template <typename T>
XlaOp ConstantFromArray(XlaBuilder* builder,
                        absl::Span<const int64_t> dimensions,
                        absl::Span<const T> values) {
  int64_t count = 1;
  for (int64_t size : dimensions) {
    if (size < 0 ||
        (size > 0 && count > std::numeric_limits<int64_t>::max() / size)) {
      count = -1;
      break;
    }
    count *= size;
  }
  if (builder != nullptr && count != static_cast<int64_t>(values.size())) {
    return constants_internal::Fail(
        builder, "ConstantFromArray",
        absl::StrCat(values.size(), " values do not fill dimensions [",
                     absl::StrJoin(dimensions, ","), "]"),
        "shapes.md, dimensions");
  }
  return constants_internal::MakeConstant(
      builder, "ConstantFromArray", constants_internal::NativeElementType<T>(),
      dimensions, [&](Literal* literal) {
        for (size_t i = 0; i < values.size(); ++i) {
          constants_internal::SetElement(literal, i, values[i]);
        }
      });
}

// A scalar of element type `type` holding `value`, converted as convert
// does (integers wrap, floats round to nearest even). As in XLA, a
// floating-point value needs a floating-point or complex `type` and a
// complex value a complex `type`.
template <typename T>
XlaOp ConstantR0WithType(XlaBuilder* builder, ElementType type, T value) {
  if (builder == nullptr) return XlaOp();
  absl::Status fits = constants_internal::CheckValueFitsType(
      "ConstantR0WithType", type, std::is_floating_point_v<T>,
      constants_internal::IsComplex<T>::value);
  if (!fits.ok()) return builder->ReportError(fits);
  return constants_internal::MakeConstant(
      builder, "ConstantR0WithType", type, {}, [&](Literal* literal) {
        constants_internal::SetElement(literal, 0, value);
      });
}

// A scalar of `prototype`'s element type holding `value` (ConstantR0WithType
// on prototype's builder and type).
template <typename T>
XlaOp ScalarLike(XlaOp prototype, T value) {
  if (!prototype.valid()) return XlaOp();
  return ConstantR0WithType(prototype.builder(),
                            prototype.instruction()->shape().element_type(),
                            value);
}

// Scalars of `type` that XLA's constants library names. Each is an error
// for types it does not define (the message names the function and type).

// 0 (false for pred). f8e8m0fnu has no zero: its all-zero bit pattern,
// 2^-127, stands in, as in XLA.
XlaOp Zero(XlaBuilder* builder, ElementType type);
// 1 (true for pred).
XlaOp One(XlaBuilder* builder, ElementType type);
// Floating-point types: the difference between 1 and the next larger value,
// 2^-(mantissa bits).
XlaOp Epsilon(XlaBuilder* builder, ElementType type);
// The least value: -inf for floats with an infinity, else the lowest finite
// value (for unsigned f8e8m0fnu its smallest, 2^-127); the minimum integer;
// false for pred. As in XLA, MinValue is the identity of a max-reduction.
// Complex types have no order: an error.
XlaOp MinValue(XlaBuilder* builder, ElementType type);
// The lowest finite value (floats: -max, f8e8m0fnu: 2^-127); integers and
// pred as MinValue.
XlaOp MinFiniteValue(XlaBuilder* builder, ElementType type);
// Floating-point types: the smallest positive normal value.
XlaOp MinPositiveNormalValue(XlaBuilder* builder, ElementType type);
// The greatest value: +inf for floats with an infinity, else the largest
// finite value; the maximum integer; true for pred.
XlaOp MaxValue(XlaBuilder* builder, ElementType type);
// The largest finite value; integers and pred as MaxValue.
XlaOp MaxFiniteValue(XlaBuilder* builder, ElementType type);
// Floating-point types with a NaN: the type's quiet NaN.
XlaOp NanValue(XlaBuilder* builder, ElementType type);

// iota: `shape` (an array) counting 0, 1, ... along `iota_dimension`.
XlaOp Iota(XlaBuilder* builder, const Shape& shape, int64_t iota_dimension);
// iota of `type`[size]: 0, 1, ..., size - 1.
XlaOp Iota(XlaBuilder* builder, ElementType type, int64_t size);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_CONSTANTS_H_
