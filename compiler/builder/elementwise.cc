#include "compiler/builder/elementwise.h"

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace {

XlaOp UnaryOp(Opcode opcode, XlaOp operand, AttributeMap attrs = {}) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(opcode, {operand}, std::move(attrs));
}

// broadcast_dimensions={...} only when the caller gave some, as XLA prints.
AttributeMap BroadcastAttrs(absl::Span<const int64_t> broadcast_dimensions) {
  AttributeMap attrs;
  if (!broadcast_dimensions.empty()) {
    attrs.Set(
        attr::kBroadcastDimensions,
        Int64List(broadcast_dimensions.begin(), broadcast_dimensions.end()));
  }
  return attrs;
}

XlaOp NaryOp(Opcode opcode, absl::Span<const XlaOp> operands,
             AttributeMap attrs) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(opcode, operands, std::move(attrs));
}

XlaOp BinaryOp(Opcode opcode, XlaOp lhs, XlaOp rhs,
               absl::Span<const int64_t> broadcast_dimensions) {
  return NaryOp(opcode, {lhs, rhs}, BroadcastAttrs(broadcast_dimensions));
}

// XLA's default comparison type for an element type; a compare whose type=
// equals it carries none (the parser drops it, the printer omits it).
ComparisonType DefaultComparisonType(ElementType type) {
  if (IsFloatType(type) || IsComplexType(type)) return ComparisonType::kFloat;
  if (IsSignedIntType(type)) return ComparisonType::kSigned;
  return ComparisonType::kUnsigned;  // pred and unsigned integers.
}

// The element type of a valid op, for choices that depend on it before the
// instruction exists. Invalid ops give kInvalid; the op they feed reports.
ElementType ElementTypeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().element_type()
                    : ElementType::kInvalid;
}

XlaOp TotalOrderCompare(XlaOp lhs, XlaOp rhs,
                        absl::Span<const int64_t> broadcast_dimensions,
                        ComparisonDirection direction) {
  std::optional<ComparisonType> type;
  if (IsFloatType(ElementTypeOf(lhs))) type = ComparisonType::kTotalOrder;
  return Compare(lhs, rhs, broadcast_dimensions, direction, type);
}

// The convert-like ops take their target from the declared result shape, so
// it must be an array element type before the instruction can exist.
bool CheckTargetType(XlaBuilder* builder, Opcode opcode, ElementType target,
                     absl::string_view section) {
  if (IsArrayType(target)) return true;
  builder->ReportError(absl::InvalidArgumentError(absl::StrCat(
      OpcodeName(opcode), ": the new element type ", ElementTypeName(target),
      " is not an array element type (operation_semantics.md, ", section,
      ")")));
  return false;
}

// The operand's dimensions with `target` elements: the declared shape of
// convert and stochastic-convert.
Shape RetypedShape(const Shape& operand, ElementType target) {
  return Shape::DynamicArray(target, operand.dimensions(),
                             operand.dynamic_dimensions());
}

// The declared shape of bitcast-convert. Between widths the dimensions
// change (operation_semantics.md, "Bitcast-converting to primitive type of
// different width"); this gives them for valid requests and leaves the
// operand's dimensions otherwise, so that the op's shape rule reports why.
Shape BitcastShape(const Shape& operand, ElementType target) {
  std::vector<int64_t> dims = operand.dimensions();
  std::vector<bool> dynamic = operand.dynamic_dimensions();
  const int from_bits =
      operand.IsArray() ? BitWidth(operand.element_type()) : 0;
  const int to_bits = BitWidth(target);
  if (from_bits > to_bits && to_bits > 0 && from_bits % to_bits == 0) {
    dims.push_back(from_bits / to_bits);
    dynamic.push_back(false);
  } else if (to_bits > from_bits && from_bits > 0 && to_bits % from_bits == 0 &&
             !dims.empty() && dims.back() == to_bits / from_bits) {
    dims.pop_back();
    dynamic.pop_back();
  }
  return Shape::DynamicArray(target, std::move(dims), std::move(dynamic));
}

}  // namespace

// --- Unary ops ---

XlaOp Abs(XlaOp operand) { return UnaryOp(Opcode::kAbs, operand); }
XlaOp Acos(XlaOp operand) { return UnaryOp(Opcode::kAcos, operand); }
XlaOp Acosh(XlaOp operand) { return UnaryOp(Opcode::kAcosh, operand); }
XlaOp Asin(XlaOp operand) { return UnaryOp(Opcode::kAsin, operand); }
XlaOp Asinh(XlaOp operand) { return UnaryOp(Opcode::kAsinh, operand); }
XlaOp Atan(XlaOp operand) { return UnaryOp(Opcode::kAtan, operand); }
XlaOp Atanh(XlaOp operand) { return UnaryOp(Opcode::kAtanh, operand); }
XlaOp Cbrt(XlaOp operand) { return UnaryOp(Opcode::kCbrt, operand); }
XlaOp Ceil(XlaOp operand) { return UnaryOp(Opcode::kCeil, operand); }
XlaOp Clz(XlaOp operand) { return UnaryOp(Opcode::kClz, operand); }
XlaOp Copy(XlaOp operand) { return UnaryOp(Opcode::kCopy, operand); }
XlaOp Cos(XlaOp operand) { return UnaryOp(Opcode::kCos, operand); }
XlaOp Cosh(XlaOp operand) { return UnaryOp(Opcode::kCosh, operand); }
XlaOp Erf(XlaOp operand) { return UnaryOp(Opcode::kErf, operand); }
XlaOp Exp(XlaOp operand) { return UnaryOp(Opcode::kExp, operand); }
XlaOp Expm1(XlaOp operand) { return UnaryOp(Opcode::kExpm1, operand); }
XlaOp Floor(XlaOp operand) { return UnaryOp(Opcode::kFloor, operand); }
XlaOp Imag(XlaOp operand) { return UnaryOp(Opcode::kImag, operand); }
XlaOp IsFinite(XlaOp operand) { return UnaryOp(Opcode::kIsFinite, operand); }
XlaOp Log(XlaOp operand) { return UnaryOp(Opcode::kLog, operand); }
XlaOp Log1p(XlaOp operand) { return UnaryOp(Opcode::kLog1p, operand); }
XlaOp Logistic(XlaOp operand) { return UnaryOp(Opcode::kLogistic, operand); }
XlaOp Neg(XlaOp operand) { return UnaryOp(Opcode::kNegate, operand); }
XlaOp Not(XlaOp operand) { return UnaryOp(Opcode::kNot, operand); }
XlaOp PopulationCount(XlaOp operand) {
  return UnaryOp(Opcode::kPopulationCount, operand);
}
XlaOp Real(XlaOp operand) { return UnaryOp(Opcode::kReal, operand); }
XlaOp RoundNearestAfz(XlaOp operand) {
  return UnaryOp(Opcode::kRoundNearestAfz, operand);
}
XlaOp RoundNearestEven(XlaOp operand) {
  return UnaryOp(Opcode::kRoundNearestEven, operand);
}
XlaOp Rsqrt(XlaOp operand) { return UnaryOp(Opcode::kRsqrt, operand); }
XlaOp Sign(XlaOp operand) { return UnaryOp(Opcode::kSign, operand); }
XlaOp Sin(XlaOp operand) { return UnaryOp(Opcode::kSin, operand); }
XlaOp Sinh(XlaOp operand) { return UnaryOp(Opcode::kSinh, operand); }
XlaOp Sqrt(XlaOp operand) { return UnaryOp(Opcode::kSqrt, operand); }
XlaOp Tan(XlaOp operand) { return UnaryOp(Opcode::kTan, operand); }
XlaOp Tanh(XlaOp operand) { return UnaryOp(Opcode::kTanh, operand); }

XlaOp ReducePrecision(XlaOp operand, int64_t exponent_bits,
                      int64_t mantissa_bits) {
  AttributeMap attrs;
  attrs.Set(attr::kExponentBits, exponent_bits);
  attrs.Set(attr::kMantissaBits, mantissa_bits);
  return UnaryOp(Opcode::kReducePrecision, operand, std::move(attrs));
}

// --- Binary ops ---

XlaOp Add(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kAdd, lhs, rhs, dims);
}
XlaOp Sub(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kSubtract, lhs, rhs, dims);
}
XlaOp Mul(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kMultiply, lhs, rhs, dims);
}
XlaOp Div(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kDivide, lhs, rhs, dims);
}
XlaOp Rem(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kRemainder, lhs, rhs, dims);
}
XlaOp Max(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kMaximum, lhs, rhs, dims);
}
XlaOp Min(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kMinimum, lhs, rhs, dims);
}
XlaOp Pow(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kPower, lhs, rhs, dims);
}
XlaOp Atan2(XlaOp y, XlaOp x, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kAtan2, y, x, dims);
}
XlaOp And(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kAnd, lhs, rhs, dims);
}
XlaOp Or(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kOr, lhs, rhs, dims);
}
XlaOp Xor(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kXor, lhs, rhs, dims);
}
XlaOp ShiftLeft(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kShiftLeft, lhs, rhs, dims);
}
XlaOp ShiftRightArithmetic(XlaOp lhs, XlaOp rhs,
                           absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kShiftRightArithmetic, lhs, rhs, dims);
}
XlaOp ShiftRightLogical(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kShiftRightLogical, lhs, rhs, dims);
}
XlaOp Complex(XlaOp real, XlaOp imag, absl::Span<const int64_t> dims) {
  return BinaryOp(Opcode::kComplex, real, imag, dims);
}

// --- Comparison ---

XlaOp Compare(XlaOp lhs, XlaOp rhs,
              absl::Span<const int64_t> broadcast_dimensions,
              ComparisonDirection direction,
              std::optional<ComparisonType> compare_type) {
  AttributeMap attrs = BroadcastAttrs(broadcast_dimensions);
  attrs.Set(attr::kDirection, ToEnumValue(direction));
  if (compare_type.has_value() &&
      *compare_type != DefaultComparisonType(ElementTypeOf(lhs))) {
    attrs.Set(attr::kType, ToEnumValue(*compare_type));
  }
  return NaryOp(Opcode::kCompare, {lhs, rhs}, std::move(attrs));
}

XlaOp Compare(XlaOp lhs, XlaOp rhs, ComparisonDirection direction) {
  return Compare(lhs, rhs, {}, direction);
}

XlaOp Eq(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kEq);
}
XlaOp Ne(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kNe);
}
XlaOp Ge(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kGe);
}
XlaOp Gt(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kGt);
}
XlaOp Le(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kLe);
}
XlaOp Lt(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return Compare(lhs, rhs, dims, ComparisonDirection::kLt);
}

XlaOp EqTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kEq);
}
XlaOp NeTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kNe);
}
XlaOp GeTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kGe);
}
XlaOp GtTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kGt);
}
XlaOp LeTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kLe);
}
XlaOp LtTotalOrder(XlaOp lhs, XlaOp rhs, absl::Span<const int64_t> dims) {
  return TotalOrderCompare(lhs, rhs, dims, ComparisonDirection::kLt);
}

// --- Selection and clamping ---

XlaOp Select(XlaOp pred, XlaOp on_true, XlaOp on_false,
             absl::Span<const int64_t> broadcast_dimensions) {
  return NaryOp(Opcode::kSelect, {pred, on_true, on_false},
                BroadcastAttrs(broadcast_dimensions));
}

XlaOp Clamp(XlaOp min, XlaOp operand, XlaOp max,
            absl::Span<const int64_t> broadcast_dimensions) {
  return NaryOp(Opcode::kClamp, {min, operand, max},
                BroadcastAttrs(broadcast_dimensions));
}

// --- Conversions ---

XlaOp ConvertElementType(XlaOp operand, ElementType new_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr ||
      !CheckTargetType(builder, Opcode::kConvert, new_element_type,
                       "ConvertElementType")) {
    return XlaOp();
  }
  return builder->AddInstruction(
      Opcode::kConvert, {operand}, {},
      RetypedShape(operand.instruction()->shape(), new_element_type));
}

XlaOp BitcastConvertType(XlaOp operand, ElementType new_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand});
  if (builder == nullptr ||
      !CheckTargetType(builder, Opcode::kBitcastConvert, new_element_type,
                       "BitcastConvertType")) {
    return XlaOp();
  }
  return builder->AddInstruction(
      Opcode::kBitcastConvert, {operand}, {},
      BitcastShape(operand.instruction()->shape(), new_element_type));
}

XlaOp StochasticConvertType(XlaOp operand, XlaOp random,
                            ElementType new_element_type) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, random});
  if (builder == nullptr ||
      !CheckTargetType(builder, Opcode::kStochasticConvert, new_element_type,
                       "StochasticConvert")) {
    return XlaOp();
  }
  // An invalid operand gets a placeholder shape; AddInstruction reports it.
  const Shape operand_shape = operand.valid() ? operand.instruction()->shape()
                                              : Shape::Scalar(new_element_type);
  return builder->AddInstruction(Opcode::kStochasticConvert, {operand, random},
                                 {},
                                 RetypedShape(operand_shape, new_element_type));
}

}  // namespace kiln
