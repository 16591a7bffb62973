// Builder functions of the elementwise ops (operation_semantics.md): unary
// math, binary arithmetic and logic, comparison, selection, clamping and the
// element type conversions, named and shaped as XlaBuilder's.
//
// The n-ary ops take an optional `broadcast_dimensions`: the client-form
// implicit broadcasting of broadcasting.md that maps a lower-rank operand
// into the higher rank's dimensions. It is left out of the instruction when
// empty, as XLA does. Scalars and equal-rank degenerate (size 1) dimensions
// broadcast without it.
//
//   XlaOp m = Parameter(&b, 0, Shape::Array(ElementType::kF32, {2, 3}), "m");
//   XlaOp v = Parameter(&b, 1, Shape::Array(ElementType::kF32, {3}), "v");
//   XlaOp sum = Add(m, v, /*broadcast_dimensions=*/{1});  // f32[2,3]
//
// Every function records its error in the operands' builder (see builder.h)
// and returns an invalid XlaOp when the op breaks its rule.
#ifndef KILN_COMPILER_BUILDER_ELEMENTWISE_H_
#define KILN_COMPILER_BUILDER_ELEMENTWISE_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/ir/element_type.h"
#include "compiler/ops/attr_enums.h"

namespace kiln {

// --- Unary ops: one operand, the result has its shape. ---

XlaOp Abs(XlaOp operand);
XlaOp Acos(XlaOp operand);
XlaOp Acosh(XlaOp operand);
XlaOp Asin(XlaOp operand);
XlaOp Asinh(XlaOp operand);
XlaOp Atan(XlaOp operand);
XlaOp Atanh(XlaOp operand);
XlaOp Cbrt(XlaOp operand);
XlaOp Ceil(XlaOp operand);
XlaOp Clz(XlaOp operand);
XlaOp Copy(XlaOp operand);
XlaOp Cos(XlaOp operand);
XlaOp Cosh(XlaOp operand);
XlaOp Erf(XlaOp operand);
XlaOp Exp(XlaOp operand);
XlaOp Expm1(XlaOp operand);
XlaOp Floor(XlaOp operand);
XlaOp Imag(XlaOp operand);
XlaOp IsFinite(XlaOp operand);
XlaOp Log(XlaOp operand);
XlaOp Log1p(XlaOp operand);
XlaOp Logistic(XlaOp operand);
XlaOp Neg(XlaOp operand);
XlaOp Not(XlaOp operand);
XlaOp PopulationCount(XlaOp operand);
XlaOp Real(XlaOp operand);
XlaOp RoundNearestAfz(XlaOp operand);
XlaOp RoundNearestEven(XlaOp operand);
XlaOp Rsqrt(XlaOp operand);
XlaOp Sign(XlaOp operand);
XlaOp Sin(XlaOp operand);
XlaOp Sinh(XlaOp operand);
XlaOp Sqrt(XlaOp operand);
XlaOp Tan(XlaOp operand);
XlaOp Tanh(XlaOp operand);

// reduce-precision: rounds to a float format of `exponent_bits` (>= 1) and
// `mantissa_bits` (>= 0) and back.
XlaOp ReducePrecision(XlaOp operand, int64_t exponent_bits,
                      int64_t mantissa_bits);

// --- Binary ops. ---

XlaOp Add(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Sub(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Mul(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Div(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Rem(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Max(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Min(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Pow(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
// atan2(y, x), as XlaBuilder orders the arguments.
XlaOp Atan2(XlaOp y, XlaOp x,
            absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp And(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Or(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Xor(XlaOp lhs, XlaOp rhs,
          absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp ShiftLeft(XlaOp lhs, XlaOp rhs,
                absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp ShiftRightArithmetic(XlaOp lhs, XlaOp rhs,
                           absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp ShiftRightLogical(XlaOp lhs, XlaOp rhs,
                        absl::Span<const int64_t> broadcast_dimensions = {});
// complex(real, imag): c64 from f32 parts, c128 from f64 parts.
XlaOp Complex(XlaOp real, XlaOp imag,
              absl::Span<const int64_t> broadcast_dimensions = {});

// --- Comparison: pred results. ---

// compare(lhs, rhs), direction=`direction`. `compare_type` is what to
// compare as (FLOAT, TOTALORDER, SIGNED, UNSIGNED); when unset, or equal to
// the operands' default (FLOAT for floating-point and complex, SIGNED for
// signed integers, UNSIGNED for pred and unsigned integers), the
// instruction carries no type=, as XLA prints it.
XlaOp Compare(XlaOp lhs, XlaOp rhs,
              absl::Span<const int64_t> broadcast_dimensions,
              ComparisonDirection direction,
              std::optional<ComparisonType> compare_type = std::nullopt);
XlaOp Compare(XlaOp lhs, XlaOp rhs, ComparisonDirection direction);

XlaOp Eq(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Ne(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Ge(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Gt(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Le(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp Lt(XlaOp lhs, XlaOp rhs,
         absl::Span<const int64_t> broadcast_dimensions = {});

// The total order of floating-point numbers (-NaN < -inf < ... < -0 < +0 <
// ... < +inf < +NaN): type=TOTALORDER for floating-point operands; other
// element types compare as their default, as XlaBuilder's *TotalOrder do.
XlaOp EqTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp NeTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp GeTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp GtTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp LeTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});
XlaOp LtTotalOrder(XlaOp lhs, XlaOp rhs,
                   absl::Span<const int64_t> broadcast_dimensions = {});

// --- Selection and clamping. ---

// select(pred, on_true, on_false). A scalar pred selects whole arrays or
// tuples. `broadcast_dimensions` (client form, not in XlaBuilder's
// signature) maps lower-rank operands as for the binary ops.
XlaOp Select(XlaOp pred, XlaOp on_true, XlaOp on_false,
             absl::Span<const int64_t> broadcast_dimensions = {});

// clamp(min, operand, max) = min(max(min, operand), max); min and max may
// be scalars. `broadcast_dimensions` as for Select.
XlaOp Clamp(XlaOp min, XlaOp operand, XlaOp max,
            absl::Span<const int64_t> broadcast_dimensions = {});

// --- Conversions: the caller chooses the result element type. ---

// convert: each element converted to `new_element_type`; same dimensions.
XlaOp ConvertElementType(XlaOp operand, ElementType new_element_type);

// bitcast-convert: the bits reinterpreted as `new_element_type`. Between
// widths, a narrower target adds a minor dimension of size (old bits / new
// bits); a wider one drops a last dimension that must have that size.
XlaOp BitcastConvertType(XlaOp operand, ElementType new_element_type);

// stochastic-convert: rounds `operand` (floating point) to
// `new_element_type` using `random` (unsigned bits of the same width and
// dimensions) to choose the rounding direction.
XlaOp StochasticConvertType(XlaOp operand, XlaOp random,
                            ElementType new_element_type);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_ELEMENTWISE_H_
