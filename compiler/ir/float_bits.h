// The one conversion between doubles and the bit patterns of every float
// type narrower than f32, driven by a small Format (the type's exponent
// and mantissa widths, bias and encoding). It is written against
// <cstdint> and <cstring> alone, without library calls or builtins, so
// that the same text compiles in Kiln (float_convert.cc, behind
// FloatToBits and BitsToFloat), in the CPU backend's host kernels and,
// through NVRTC, in device kernels: the kernel emitter pastes this file
// into every generated translation unit (backends/cpu/loop_emitter.cc,
// KernelPrelude). A kernel therefore rounds exactly as the evaluator does,
// on every target.
//
// Special values, per encoding (what ml_dtypes does):
//   IEEE (f16, bf16, f8e5m2, f8e4m3, f8e3m4): overflow and inf -> +-inf;
//     NaN -> the quiet NaN with the input's sign (payload dropped).
//   finite-only with NaN (f8e4m3fn): overflow and inf -> NaN (sign kept).
//   finite-only without NaN (f4e2m1fn, f6*): overflow and inf -> +-max;
//     NaN -> ml_dtypes' stand-in quiet_NaN(), the pattern of -0, negated for
//     a negative NaN (so -NaN -> +0).
//   fnuz: overflow, inf and NaN -> the single NaN (sign bit only); results
//     that round to zero are +0 whatever the sign.
//   f8e8m0fnu: zero, negatives, inf, NaN and overflow -> NaN (0xff). It has
//     no zero; ml_dtypes rounds its normals with the implicit bit as the
//     "even" bit, so ties round up. It also rounds as if exponent field 0
//     were subnormal: everything at or below 2^-127 becomes 2^-127, and
//     everything in (2^-127, 2^-126] becomes 2^-126.
#ifndef KILN_COMPILER_IR_FLOAT_BITS_H_
#define KILN_COMPILER_IR_FLOAT_BITS_H_

#include <cstdint>
#include <cstring>

namespace kiln_float {

// The values of kiln::FloatEncoding (element_type.h; float_convert.cc
// checks that they agree).
enum Encoding : uint8_t {
  kIeee = 1,
  kFiniteOnly = 2,
  kFiniteUnsignedZero = 3,
  kExponentOnly = 4,
};

// What the conversions need of one float type (its ElementTypeInfo row).
struct Format {
  int exponent_bits;
  int mantissa_bits;  // Explicit fraction bits (no hidden bit).
  int exponent_bias;
  uint8_t encoding;  // An Encoding.
  bool is_signed;
  bool has_nan;
  bool has_negative_zero;
};

inline uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
inline double BitsDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// The sign bit and the bits of +inf of a double. (Functions rather than
// namespace-scope constants, which device code may not read.)
inline uint64_t DoubleSign() { return uint64_t{1} << 63; }
inline uint64_t DoubleInfinity() { return uint64_t{0x7ff} << 52; }

// 2^exponent for a normal double's exponent range, exactly.
inline double PowerOfTwo(int exponent) {
  return BitsDouble(static_cast<uint64_t>(exponent + 1023) << 52);
}

inline int MagnitudeBits(const Format& f) {
  return f.exponent_bits + f.mantissa_bits;
}
// All exponent and mantissa bits.
inline uint64_t MagnitudeMask(const Format& f) {
  return (uint64_t{1} << MagnitudeBits(f)) - 1;
}
// 0 for the unsigned types.
inline uint64_t SignBit(const Format& f) {
  return f.is_signed ? uint64_t{1} << MagnitudeBits(f) : 0;
}
inline uint64_t ExponentAllOnes(const Format& f) {
  return (uint64_t{1} << f.exponent_bits) - 1;
}

// Largest finite magnitude pattern of the type.
inline uint64_t MaxFiniteMagnitude(const Format& f) {
  switch (f.encoding) {
    case kIeee:
      return ((ExponentAllOnes(f) - 1) << f.mantissa_bits) |
             ((uint64_t{1} << f.mantissa_bits) - 1);
    case kFiniteOnly:
    case kExponentOnly:
      // The all-ones pattern is NaN when the type has one.
      return f.has_nan ? MagnitudeMask(f) - 1 : MagnitudeMask(f);
    default:  // fnuz: NaN is the sign bit, so every magnitude is finite.
      return MagnitudeMask(f);
  }
}

// The pattern NaN converts to (ml_dtypes' quiet_NaN, then negated).
inline uint64_t NanPattern(const Format& f, bool negative) {
  switch (f.encoding) {
    case kIeee: {
      const uint64_t quiet = uint64_t{1} << (f.mantissa_bits - 1);
      return (negative ? SignBit(f) : 0) |
             (ExponentAllOnes(f) << f.mantissa_bits) | quiet;
    }
    case kFiniteOnly:
      if (f.has_nan) return (negative ? SignBit(f) : 0) | MagnitudeMask(f);
      // No NaN: ml_dtypes' stand-in is -0, and negating flips its sign.
      return negative ? 0 : SignBit(f);
    case kFiniteUnsignedZero:
      return SignBit(f);
    default:  // kExponentOnly
      return MagnitudeMask(f);
  }
}

// The pattern infinity and overflow convert to.
inline uint64_t OverflowPattern(const Format& f, bool negative) {
  switch (f.encoding) {
    case kIeee:
      return (negative ? SignBit(f) : 0) |
             (ExponentAllOnes(f) << f.mantissa_bits);
    case kFiniteOnly:
      // NaN where there is one (f8e4m3fn), else the largest value.
      return (negative ? SignBit(f) : 0) |
             (f.has_nan ? MagnitudeMask(f) : MaxFiniteMagnitude(f));
    default:  // fnuz and e8m0: the NaN.
      return NanPattern(f, negative);
  }
}

// Rounds the bits of a finite non-zero positive double to the type's
// magnitude pattern, which may exceed MaxFiniteMagnitude on overflow.
inline uint64_t RoundMagnitude(const Format& f, uint64_t bits) {
  constexpr int kDoubleMantissa = 52;
  const int biased = static_cast<int>(bits >> kDoubleMantissa);
  uint64_t mantissa = bits & ((uint64_t{1} << kDoubleMantissa) - 1);
  int exponent;  // Unbiased, with the leading 1 at bit 52 of `mantissa`.
  if (biased != 0) {
    exponent = biased - 1023;
    mantissa |= uint64_t{1} << kDoubleMantissa;
  } else {  // A double subnormal: normalize (rare; no builtin on devices).
    exponent = -1022;
    while ((mantissa & (uint64_t{1} << kDoubleMantissa)) == 0) {
      mantissa <<= 1;
      --exponent;
    }
  }
  // The target's biased exponent minus one: the leading 1 of the rounded
  // mantissa adds the one back when the two are summed below, and a carry
  // out of rounding bumps the exponent for free.
  const int exponent_base = exponent + f.exponent_bias - 1;
  const int denormal_shift = exponent_base < 0 ? -exponent_base : 0;
  int shift = kDoubleMantissa - f.mantissa_bits + denormal_shift;
  // Beyond 54 the result is 0 either way; clamping keeps shifts defined.
  if (shift > kDoubleMantissa + 2) shift = kDoubleMantissa + 2;
  // Round to nearest even: add half minus one, plus the kept lowest bit.
  const uint64_t keep_lsb = (mantissa >> shift) & 1;
  mantissa += keep_lsb + (uint64_t{1} << (shift - 1)) - 1;
  uint64_t exponent_field =
      exponent_base > 0 ? static_cast<uint64_t>(exponent_base) : 0;
  // Huge exponents overflow anyway; cap them so the shift stays defined.
  if (exponent_field > MagnitudeMask(f)) exponent_field = MagnitudeMask(f);
  return (mantissa >> shift) + (exponent_field << f.mantissa_bits);
}

// The type's bit pattern nearest `value` (to nearest even).
inline uint64_t FromDouble(const Format& f, double value) {
  const uint64_t bits = DoubleBits(value);
  const bool negative = (bits & DoubleSign()) != 0;
  const uint64_t magnitude_bits = bits & ~DoubleSign();
  if (magnitude_bits == DoubleInfinity()) return OverflowPattern(f, negative);
  if (magnitude_bits > DoubleInfinity()) return NanPattern(f, negative);
  if (f.encoding == kExponentOnly) {
    // No zero and no sign: both become NaN.
    if (magnitude_bits == 0 || negative) return NanPattern(f, false);
  }
  if (magnitude_bits == 0) {
    return negative && f.has_negative_zero ? SignBit(f) : 0;
  }
  const uint64_t magnitude = RoundMagnitude(f, magnitude_bits);
  if (magnitude > MaxFiniteMagnitude(f)) return OverflowPattern(f, negative);
  // fnuz has no -0: a negative value that rounds to zero is +0.
  if (magnitude == 0 && !f.has_negative_zero) return 0;
  return (negative ? SignBit(f) : 0) | magnitude;
}

inline bool IsNaN(const Format& f, uint64_t bits) {
  bits &= SignBit(f) | MagnitudeMask(f);
  const uint64_t magnitude = bits & MagnitudeMask(f);
  switch (f.encoding) {
    case kIeee:
      return (magnitude >> f.mantissa_bits) == ExponentAllOnes(f) &&
             (magnitude & ((uint64_t{1} << f.mantissa_bits) - 1)) != 0;
    case kFiniteOnly:
    case kExponentOnly:
      return f.has_nan && magnitude == MagnitudeMask(f);
    case kFiniteUnsignedZero:
      return bits == SignBit(f);
    default:
      return false;
  }
}

// The value of a bit pattern, exactly (every value of these types is a
// double). An IEEE NaN keeps its payload in the double's top mantissa
// bits, quieted as the hardware does when widening.
inline double ToDouble(const Format& f, uint64_t bits) {
  bits &= SignBit(f) | MagnitudeMask(f);
  const bool negative = (bits & SignBit(f)) != 0;
  const uint64_t sign = negative ? DoubleSign() : 0;
  const uint64_t magnitude = bits & MagnitudeMask(f);
  const int m = f.mantissa_bits;
  const uint64_t exponent_field = magnitude >> m;
  const uint64_t fraction = magnitude & ((uint64_t{1} << m) - 1);
  if (IsNaN(f, bits)) {
    const uint64_t payload =
        f.encoding == kIeee ? fraction << (52 - m) : uint64_t{0};
    return BitsDouble(sign | DoubleInfinity() | (uint64_t{1} << 51) | payload);
  }
  double result;
  if (f.encoding == kExponentOnly) {
    result = PowerOfTwo(static_cast<int>(exponent_field) - f.exponent_bias);
  } else if (f.encoding == kIeee && exponent_field == ExponentAllOnes(f)) {
    result = BitsDouble(DoubleInfinity());
  } else if (exponent_field == 0) {  // Zero or subnormal.
    result =
        static_cast<double>(fraction) * PowerOfTwo(1 - f.exponent_bias - m);
  } else {
    const uint64_t significand = fraction | (uint64_t{1} << m);
    result = static_cast<double>(significand) *
             PowerOfTwo(static_cast<int>(exponent_field) - f.exponent_bias - m);
  }
  return BitsDouble(DoubleBits(result) | sign);
}

}  // namespace kiln_float

#endif  // KILN_COMPILER_IR_FLOAT_BITS_H_
