// Kernel of convert (ConvertElementType) between every pair of element
// types, and the registration of the conversion family; bitcast-convert,
// reduce-precision and stochastic-convert are in conversion_bits.cc.
//
// The rules (XLA's; docs/evaluator_elementwise.md):
//   integer/pred -> integer: two's complement wrap to the target width;
//   anything -> pred: x != 0 (NaN is true);
//   integer -> float: rounded once, to nearest even;
//   float -> float: rounded once, to nearest even, with the target type's
//     overflow, NaN and infinity rules (compiler/ir/float_convert.h);
//   float -> integer: truncated toward zero, saturated to the target's
//     range, NaN -> 0;
//   real -> complex: (x, 0); complex -> real: the real part.
#include "compiler/evaluator/conversion_kernels.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/float_convert.h"

namespace kiln {
namespace eval {
namespace {

// |v| for any int64_t (|INT64_MIN| = 2^63 fits).
uint64_t Magnitude(int64_t v) {
  return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v)
               : static_cast<uint64_t>(v);
}

// A double that rounds, to nearest even, to every float type of at most 51
// fraction bits exactly as `magnitude` itself would: exact below 2^53, and
// otherwise rounded to 53 bits toward zero with the last bit set when
// anything was dropped ("round to odd"), which keeps the one rounding that
// follows correct.
double RoundToOddDouble(uint64_t magnitude) {
  if (magnitude < (uint64_t{1} << 53)) return static_cast<double>(magnitude);
  int length = 64;
  while ((magnitude >> (length - 1)) == 0) --length;
  const int shift = length - 53;
  uint64_t kept = magnitude >> shift;
  if ((magnitude & ((uint64_t{1} << shift) - 1)) != 0) kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}

// Stores an integer into element i of a float, complex or pred literal.
void SetFromInteger(Literal& out, int64_t i, uint64_t magnitude,
                    bool negative) {
  const ElementType type = out.element_type();
  const TypeKind kind = GetElementTypeInfo(type).kind;
  if (kind == TypeKind::kPred) {
    out.SetBits(i, magnitude != 0);
    return;
  }
  const ElementType real =
      kind == TypeKind::kComplex ? GetElementTypeInfo(type).component : type;
  // Rounded once, to nearest even (round-to-nearest is symmetric, so the
  // magnitude may be rounded before the sign is applied).
  double value;
  if (real == ElementType::kF64) {
    value = static_cast<double>(magnitude);
  } else if (real == ElementType::kF32) {
    value = static_cast<float>(magnitude);
  } else {
    value = RoundToOddDouble(magnitude);  // FloatToBits rounds it once.
  }
  if (negative) value = -value;
  if (kind == TypeKind::kComplex) {
    out.SetComplex(i, {value, 0.0});
  } else {
    out.SetBits(i, FloatToBits(real, value));
  }
}

// The bits of `value` truncated toward zero and saturated to the integer
// type `info` (NaN gives 0).
uint64_t SaturatingIntegerBits(double value, const ElementTypeInfo& info) {
  if (std::isnan(value)) return 0;
  const double t = std::trunc(value);
  const int w = info.bit_width;
  if (info.kind == TypeKind::kSigned) {
    const double limit = std::ldexp(1.0, w - 1);  // 2^(w-1).
    int64_t result;
    if (t >= limit) {
      result = static_cast<int64_t>((uint64_t{1} << (w - 1)) - 1);
    } else if (t < -limit) {
      result = static_cast<int64_t>(uint64_t{0} - (uint64_t{1} << (w - 1)));
    } else {
      result = static_cast<int64_t>(t);
    }
    return static_cast<uint64_t>(result);  // SetBits keeps the low w bits.
  }
  if (t <= 0) return 0;
  if (t >= std::ldexp(1.0, w)) return ~uint64_t{0};
  return static_cast<uint64_t>(t);
}

// Stores a real floating-point value into element i of any array type.
void SetFromFloat(Literal& out, int64_t i, double value) {
  const ElementTypeInfo& info = GetElementTypeInfo(out.element_type());
  switch (info.kind) {
    case TypeKind::kPred:
      out.SetBits(i, value != 0);  // NaN != 0.
      return;
    case TypeKind::kSigned:
    case TypeKind::kUnsigned:
      out.SetBits(i, SaturatingIntegerBits(value, info));
      return;
    case TypeKind::kComplex:
      if (info.component == ElementType::kF32) {
        value = static_cast<float>(value);
      }
      out.SetComplex(i, {value, 0.0});
      return;
    default:
      out.SetBits(i, FloatToBits(info.type, value));  // One rounding.
      return;
  }
}

void ConvertFromInteger(const Literal& in, Literal& out) {
  const ElementTypeInfo& from = GetElementTypeInfo(in.element_type());
  const TypeKind to = GetElementTypeInfo(out.element_type()).kind;
  const bool is_signed = from.kind == TypeKind::kSigned;
  for (int64_t i = 0; i < in.element_count(); ++i) {
    if (to == TypeKind::kSigned || to == TypeKind::kUnsigned) {
      // Two's complement: keep the low bits of the sign-extended value.
      out.SetBits(i, is_signed ? static_cast<uint64_t>(in.GetInt64(i))
                               : in.GetUint64(i));
    } else if (is_signed) {
      const int64_t v = in.GetInt64(i);
      SetFromInteger(out, i, Magnitude(v), v < 0);
    } else {
      SetFromInteger(out, i, in.GetUint64(i), false);
    }
  }
}

void ConvertFromFloat(const Literal& in, Literal& out) {
  const bool complex_in = IsComplexType(in.element_type());
  const bool complex_out = IsComplexType(out.element_type());
  for (int64_t i = 0; i < in.element_count(); ++i) {
    if (complex_in && complex_out) {
      std::complex<double> z = in.GetComplex(i);
      if (out.element_type() == ElementType::kC64) {
        z = {static_cast<float>(z.real()), static_cast<float>(z.imag())};
      }
      out.SetComplex(i, z);
    } else {
      // GetDouble is exact, and takes a complex value's real part.
      SetFromFloat(out, i, in.GetDouble(i));
    }
  }
}

// f32 -> s32 and s32 -> f32, the common pairs, as tight loops.
bool ConvertFast(const Literal& in, Literal& out) {
  const ElementType from = in.element_type(), to = out.element_type();
  if (from == ElementType::kS32 && to == ElementType::kF32) {
    absl::Span<const int32_t> a = Elements<int32_t>(in);
    absl::Span<float> b = MutableElements<float>(out);
    for (size_t i = 0; i < a.size(); ++i) b[i] = static_cast<float>(a[i]);
    return true;
  }
  if (from == ElementType::kF32 && to == ElementType::kF64) {
    absl::Span<const float> a = Elements<float>(in);
    absl::Span<double> b = MutableElements<double>(out);
    for (size_t i = 0; i < a.size(); ++i) b[i] = a[i];
    return true;
  }
  if (from == to) {
    // An empty array has no storage: memcpy must not see its null pointer.
    if (!in.data().empty()) {
      std::memcpy(out.mutable_data().data(), in.data().data(),
                  in.data().size());
    }
    return true;
  }
  return false;
}

absl::StatusOr<Literal> ConvertKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  if (operands.size() != 1 || !operands[0]->shape().IsArray() ||
      !instruction.shape().IsArray()) {
    return KernelError(instruction, "convert takes one array to an array");
  }
  const Literal& in = *operands[0];
  absl::StatusOr<Literal> out = context.NewLiteral(
      instruction, Shape::Array(instruction.shape().element_type(),
                                in.shape().dimensions()));
  if (!out.ok()) return out;
  if (ConvertFast(in, *out)) return out;
  const TypeKind from = GetElementTypeInfo(in.element_type()).kind;
  if (from == TypeKind::kFloat || from == TypeKind::kComplex) {
    ConvertFromFloat(in, *out);
  } else {
    ConvertFromInteger(in, *out);
  }
  return out;
}

}  // namespace

void RegisterConversionKernels(KernelTable* table) {
  table->Set(Opcode::kConvert, &OnValidElements<ConvertKernel>);
  RegisterBitConversionKernels(table);
}

}  // namespace eval
}  // namespace kiln
