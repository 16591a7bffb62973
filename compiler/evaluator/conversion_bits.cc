// Kernels of the conversions that work on bit patterns: bitcast-convert,
// reduce-precision and stochastic-convert (docs/evaluator_elementwise.md).
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/conversion_kernels.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/float_convert.h"

namespace kiln {
namespace eval {
namespace {

// --- bitcast-convert ---

// True when a literal's bytes are exactly the elements' bit patterns
// (no sub-byte type padded to a byte).
bool ByteAligned(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  return info.storage_bytes * 8 == info.bit_width;
}

// The result dimensions: equal widths keep them; a narrower target adds a
// minor dimension of width ratio; a wider one drops the minor dimension,
// which must have that size (operation_semantics.md, BitcastConvertType).
absl::StatusOr<std::vector<int64_t>> BitcastDims(const Instruction& instruction,
                                                 const Shape& operand,
                                                 ElementType target) {
  const int from = BitWidth(operand.element_type());
  const int to = BitWidth(target);
  std::vector<int64_t> dims = operand.dimensions();
  if (from == to) return dims;
  const int wide = std::max(from, to), narrow = std::min(from, to);
  if (wide % narrow != 0) {
    return KernelError(instruction,
                       absl::StrCat("bit widths ", from, " and ", to,
                                    " are not multiples (operation_semantics."
                                    "md, BitcastConvertType)"));
  }
  const int64_t ratio = wide / narrow;
  if (from > to) {
    dims.push_back(ratio);
    return dims;
  }
  if (dims.empty() || dims.back() != ratio) {
    return KernelError(
        instruction,
        absl::StrCat("bitcasting ", operand.ToString(false), " to ",
                     ElementTypeName(target),
                     " needs a last dimension of size ", ratio,
                     " (operation_semantics.md, BitcastConvertType)"));
  }
  dims.pop_back();
  return dims;
}

// The elements' bit patterns as one little-endian bit string: element 0 in
// the lowest bits.
std::vector<uint8_t> PackBits(const Literal& literal) {
  const ElementType type = literal.element_type();
  if (ByteAligned(type)) {
    return std::vector<uint8_t>(literal.data().begin(), literal.data().end());
  }
  const int width = BitWidth(type);
  const int64_t total = literal.element_count() * width;
  std::vector<uint8_t> packed(static_cast<size_t>((total + 7) / 8), 0);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    const uint64_t bits = literal.GetBits(i);
    for (int b = 0; b < width; ++b) {
      const int64_t at = i * width + b;
      if ((bits >> b) & 1)
        packed[at / 8] |= static_cast<uint8_t>(1 << (at % 8));
    }
  }
  return packed;
}

// Fills `literal`'s elements from a bit string made by PackBits.
void UnpackBits(const std::vector<uint8_t>& packed, Literal& literal) {
  const ElementType type = literal.element_type();
  if (ByteAligned(type)) {
    // A zero-sized value has no storage (null data): nothing to copy.
    const size_t bytes = std::min(packed.size(), literal.data().size());
    if (bytes > 0) {
      std::memcpy(literal.mutable_data().data(), packed.data(), bytes);
    }
    return;
  }
  const int width = BitWidth(type);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    uint64_t bits = 0;
    for (int b = 0; b < width; ++b) {
      const int64_t at = i * width + b;
      bits |= static_cast<uint64_t>((packed[at / 8] >> (at % 8)) & 1) << b;
    }
    literal.SetBits(i, bits);
  }
}

absl::StatusOr<Literal> BitcastConvertKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (operands.size() != 1 || !operands[0]->shape().IsArray() ||
      !instruction.shape().IsArray()) {
    return KernelError(instruction,
                       "bitcast-convert takes one array to an array");
  }
  const ElementType target = instruction.shape().element_type();
  absl::StatusOr<std::vector<int64_t>> dims =
      BitcastDims(instruction, operands[0]->shape(), target);
  if (!dims.ok()) return dims.status();
  absl::StatusOr<Literal> result =
      context.NewLiteral(instruction, Shape::Array(target, *std::move(dims)));
  if (!result.ok()) return result;
  UnpackBits(PackBits(*operands[0]), *result);
  return result;
}

// --- reduce-precision ---

// Rounds the float with bit pattern `bits` (a format of `exponent_bits` and
// `mantissa_bits`, IEEE layout) to `keep_mantissa` fraction bits, to
// nearest even, then to the range of `keep_exponent` exponent bits: values
// above it become infinity, values below its smallest normal become zero
// (of the same sign). NaN stays the same NaN.
template <typename U>
U ReducePrecisionBits(U bits, int exponent_bits, int mantissa_bits,
                      int64_t keep_exponent, int64_t keep_mantissa) {
  const U mantissa_mask = (U{1} << mantissa_bits) - 1;
  const U exponent_mask = ((U{1} << exponent_bits) - 1) << mantissa_bits;
  const U sign_mask = U{1} << (exponent_bits + mantissa_bits);
  if ((bits & exponent_mask) == exponent_mask && (bits & mantissa_mask) != 0) {
    return bits;  // NaN.
  }
  if (keep_mantissa < mantissa_bits) {
    const int dropped = mantissa_bits - static_cast<int>(keep_mantissa);
    const U last_kept = U{1} << dropped;
    // Adding half an ulp less one, plus the kept bit's parity, rounds to
    // nearest with ties to even; a carry moves into the exponent.
    const U bias = (last_kept >> 1) - 1 + ((bits >> dropped) & 1);
    bits = (bits + bias) & ~(last_kept - 1);
  }
  if (keep_exponent < exponent_bits) {
    const int64_t bias = (int64_t{1} << (exponent_bits - 1)) - 1;
    const int64_t kept_bias = (int64_t{1} << (keep_exponent - 1)) - 1;
    const int64_t exponent =
        static_cast<int64_t>((bits & exponent_mask) >> mantissa_bits);
    const U sign = bits & sign_mask;
    if (exponent > bias + kept_bias) {
      bits = sign | exponent_mask;  // Infinity.
    } else if (exponent <= bias - kept_bias) {
      bits = sign;  // Zero.
    }
  }
  return bits;
}

template <typename F, typename U>
void ReducePrecisionValues(absl::Span<F> values, int64_t exponent,
                           int64_t mantissa) {
  constexpr int kMantissa = std::numeric_limits<F>::digits - 1;
  constexpr int kExponent = static_cast<int>(sizeof(F) * 8) - 1 - kMantissa;
  for (F& value : values) {
    U bits;
    std::memcpy(&bits, &value, sizeof(bits));
    bits =
        ReducePrecisionBits<U>(bits, kExponent, kMantissa, exponent, mantissa);
    std::memcpy(&value, &bits, sizeof(bits));
  }
}

absl::StatusOr<Literal> ReducePrecisionKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  const int64_t* exponent =
      instruction.attrs().Get<int64_t>(attr::kExponentBits);
  const int64_t* mantissa =
      instruction.attrs().Get<int64_t>(attr::kMantissaBits);
  if (operands.size() != 1 || !IsFloatType(operands[0]->element_type())) {
    return KernelError(instruction,
                       "reduce-precision takes one floating-point array");
  }
  if (exponent == nullptr || mantissa == nullptr || *exponent < 1 ||
      *mantissa < 0) {
    return KernelError(instruction,
                       "reduce-precision needs exponent_bits >= 1 and "
                       "mantissa_bits >= 0 (operation_semantics.md, "
                       "ReducePrecision)");
  }
  absl::StatusOr<Literal> result = context.NewLiteral(
      instruction, Shape::Array(operands[0]->element_type(),
                                operands[0]->shape().dimensions()));
  if (!result.ok()) return result;
  if (operands[0]->element_type() == ElementType::kF64) {
    std::vector<double> values = Read<double>(*operands[0]);
    ReducePrecisionValues<double, uint64_t>(absl::MakeSpan(values), *exponent,
                                            *mantissa);
    Write<double>(values, *result);
  } else {
    // f32, and the narrower floats through their exact f32 values.
    std::vector<float> values = Read<float>(*operands[0]);
    ReducePrecisionValues<float, uint32_t>(absl::MakeSpan(values), *exponent,
                                           *mantissa);
    Write<float>(values, *result);
  }
  return result;
}

// --- stochastic-convert ---

// XLA's stochastic rounding to an integer: NaN -> 0; values at or beyond
// the target's limits (as the operand's type rounds them) and infinities
// saturate; otherwise |x| is truncated and rounded up by one when `random`
// (`random_bits` wide) is below the dropped fraction scaled by
// 2^random_bits; the sign is applied last.
uint64_t StochasticIntegerBits(double x, ElementType operand_type,
                               uint64_t random, int random_bits,
                               const ElementTypeInfo& target) {
  if (std::isnan(x)) return 0;
  const int w = target.bit_width;
  const bool is_signed = target.kind == TypeKind::kSigned;
  const int64_t max_value =
      is_signed ? static_cast<int64_t>((uint64_t{1} << (w - 1)) - 1) : 0;
  const int64_t min_value =
      is_signed ? static_cast<int64_t>(uint64_t{0} - (uint64_t{1} << (w - 1)))
                : 0;
  const uint64_t max_bits =
      is_signed ? static_cast<uint64_t>(max_value)
                : (w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1);
  const double max_double = is_signed ? static_cast<double>(max_value)
                                      : static_cast<double>(max_bits);
  // The limits as the operand's own type holds them.
  const double max_in =
      BitsToFloat(operand_type, FloatToBits(operand_type, max_double));
  const double min_in = BitsToFloat(
      operand_type, FloatToBits(operand_type, static_cast<double>(min_value)));
  if (x >= max_in) return max_bits;
  if (x <= min_in) return static_cast<uint64_t>(min_value);
  const double magnitude = std::fabs(x);
  const double truncated = std::floor(magnitude);
  uint64_t rounded = static_cast<uint64_t>(truncated);
  const double fraction = magnitude - truncated;
  if (fraction > 0) {
    const uint64_t scaled =
        static_cast<uint64_t>(std::ldexp(fraction, random_bits));
    if (random < scaled) ++rounded;
  }
  if (!std::signbit(x)) return std::min(rounded, max_bits);
  // Negative (signed targets only get here): -rounded, saturated at min.
  const uint64_t limit = uint64_t{0} - static_cast<uint64_t>(min_value);
  return uint64_t{0} - std::min(rounded, limit);
}

absl::StatusOr<Literal> StochasticConvertKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (operands.size() != 2 || !IsFloatType(operands[0]->element_type()) ||
      GetElementTypeInfo(operands[1]->element_type()).kind !=
          TypeKind::kUnsigned ||
      operands[0]->shape().dimensions() != operands[1]->shape().dimensions()) {
    return KernelError(instruction,
                       "stochastic-convert takes a float array and unsigned "
                       "random bits of its dimensions");
  }
  const ElementType target = instruction.shape().element_type();
  const ElementTypeInfo& info = GetElementTypeInfo(target);
  if (info.kind != TypeKind::kSigned && info.kind != TypeKind::kUnsigned) {
    return KernelError(
        instruction,
        absl::StrCat("stochastic-convert to ", ElementTypeName(target),
                     " is not implemented; the evaluator (like XLA's) "
                     "converts to integer types only"));
  }
  const Literal& in = *operands[0];
  const Literal& random = *operands[1];
  absl::StatusOr<Literal> result = context.NewLiteral(
      instruction, Shape::Array(target, in.shape().dimensions()));
  if (!result.ok()) return result;
  const int random_bits = BitWidth(random.element_type());
  for (int64_t i = 0; i < in.element_count(); ++i) {
    result->SetBits(
        i, StochasticIntegerBits(in.GetDouble(i), in.element_type(),
                                 random.GetUint64(i), random_bits, info));
  }
  return result;
}

}  // namespace

void RegisterBitConversionKernels(KernelTable* table) {
  table->Set(Opcode::kBitcastConvert, &BitcastConvertKernel);
  table->Set(Opcode::kReducePrecision, &OnValidElements<ReducePrecisionKernel>);
  table->Set(Opcode::kStochasticConvert,
             &OnValidElements<StochasticConvertKernel>);
}

}  // namespace eval
}  // namespace kiln
