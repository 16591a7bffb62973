// One conversion routine for every float type, driven by the element type
// table, and the decimal text XLA prints for each (at the end of the file).
// Narrow types follow ml_dtypes' default (non-saturating) static_cast from
// double; f16/bf16 follow IEEE 754 (as Eigen does from float), and f32/f64
// use the hardware conversion. A double is rounded once, straight into the
// type: Eigen's half(double) goes through float first, which can differ
// only for a double within 2^-29 (relative) of an f16/bf16 tie.
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
#include "compiler/ir/float_convert.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/strings/charconv.h"
#include "absl/strings/str_cat.h"

namespace kiln {
namespace {

// Layout of one float type's bits, derived from its table row.
struct FloatLayout {
  const ElementTypeInfo* info;
  int magnitude_bits;       // exponent + mantissa
  uint64_t magnitude_mask;  // all exponent and mantissa bits
  uint64_t sign_bit;        // 0 for unsigned types
  uint64_t exponent_all_ones;

  explicit FloatLayout(ElementType type) : info(&GetElementTypeInfo(type)) {
    magnitude_bits = info->exponent_bits + info->mantissa_bits;
    magnitude_mask = (uint64_t{1} << magnitude_bits) - 1;
    sign_bit = info->is_signed ? uint64_t{1} << magnitude_bits : 0;
    exponent_all_ones = (uint64_t{1} << info->exponent_bits) - 1;
  }
  FloatEncoding encoding() const { return info->encoding; }
};

uint64_t DoubleBits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

double BitsDouble(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

// Largest finite magnitude pattern of the type.
uint64_t MaxFiniteMagnitude(const FloatLayout& l) {
  switch (l.encoding()) {
    case FloatEncoding::kIeee:
      return ((l.exponent_all_ones - 1) << l.info->mantissa_bits) |
             ((uint64_t{1} << l.info->mantissa_bits) - 1);
    case FloatEncoding::kFiniteOnly:
    case FloatEncoding::kExponentOnly:
      // The all-ones pattern is NaN when the type has one.
      return l.info->has_nan ? l.magnitude_mask - 1 : l.magnitude_mask;
    default:  // fnuz: NaN is the sign bit, so every magnitude is finite.
      return l.magnitude_mask;
  }
}

// The pattern NaN converts to (ml_dtypes' quiet_NaN, then negated).
uint64_t NanPattern(const FloatLayout& l, bool negative) {
  switch (l.encoding()) {
    case FloatEncoding::kIeee: {
      uint64_t quiet = uint64_t{1} << (l.info->mantissa_bits - 1);
      return (negative ? l.sign_bit : 0) |
             (l.exponent_all_ones << l.info->mantissa_bits) | quiet;
    }
    case FloatEncoding::kFiniteOnly:
      if (l.info->has_nan) {
        return (negative ? l.sign_bit : 0) | l.magnitude_mask;
      }
      // No NaN: ml_dtypes' stand-in is -0, and negating flips its sign.
      return negative ? 0 : l.sign_bit;
    case FloatEncoding::kFiniteUnsignedZero:
      return l.sign_bit;
    default:  // kExponentOnly
      return l.magnitude_mask;
  }
}

// The pattern infinity and overflow convert to.
uint64_t OverflowPattern(const FloatLayout& l, bool negative) {
  switch (l.encoding()) {
    case FloatEncoding::kIeee:
      return (negative ? l.sign_bit : 0) |
             (l.exponent_all_ones << l.info->mantissa_bits);
    case FloatEncoding::kFiniteOnly:
      // NaN where there is one (f8e4m3fn), else the largest value.
      return (negative ? l.sign_bit : 0) |
             (l.info->has_nan ? l.magnitude_mask : MaxFiniteMagnitude(l));
    default:  // fnuz and e8m0: the NaN.
      return NanPattern(l, negative);
  }
}

// Rounds a finite non-zero magnitude to the type's magnitude pattern, which
// may exceed MaxFiniteMagnitude on overflow.
uint64_t RoundMagnitude(const FloatLayout& l, double magnitude) {
  constexpr int kDoubleMantissa = 52;
  uint64_t bits = DoubleBits(magnitude);
  int biased = static_cast<int>(bits >> kDoubleMantissa);
  uint64_t mantissa = bits & ((uint64_t{1} << kDoubleMantissa) - 1);
  int exponent;  // unbiased, with the leading 1 at bit 52 of `mantissa`
  if (biased != 0) {
    exponent = biased - 1023;
    mantissa |= uint64_t{1} << kDoubleMantissa;
  } else {  // double subnormal: normalize
    int shift = __builtin_clzll(mantissa) - (63 - kDoubleMantissa);
    mantissa <<= shift;
    exponent = -1022 - shift;
  }
  // The target's biased exponent minus one: the leading 1 of the rounded
  // mantissa adds the one back when the two are summed below, and a carry
  // out of rounding bumps the exponent for free.
  int exponent_base = exponent + l.info->exponent_bias - 1;
  int denormal_shift = exponent_base < 0 ? -exponent_base : 0;
  int shift = kDoubleMantissa - l.info->mantissa_bits + denormal_shift;
  // Beyond 54 the result is 0 either way; clamping keeps shifts defined.
  if (shift > kDoubleMantissa + 2) shift = kDoubleMantissa + 2;
  // Round to nearest even: add half minus one, plus the kept lowest bit.
  uint64_t keep_lsb = (mantissa >> shift) & 1;
  mantissa += keep_lsb + (uint64_t{1} << (shift - 1)) - 1;
  uint64_t exponent_field = exponent_base > 0 ? exponent_base : 0;
  // Huge exponents overflow anyway; cap them so the shift stays defined.
  if (exponent_field > l.magnitude_mask) exponent_field = l.magnitude_mask;
  return (mantissa >> shift) + (exponent_field << l.info->mantissa_bits);
}

uint64_t NarrowFloatToBits(ElementType type, double value) {
  FloatLayout l(type);
  bool negative = std::signbit(value);
  if (std::isinf(value)) return OverflowPattern(l, negative);
  if (std::isnan(value)) return NanPattern(l, negative);
  if (l.encoding() == FloatEncoding::kExponentOnly) {
    // No zero and no sign: both become NaN.
    if (value == 0 || negative) return NanPattern(l, false);
  }
  if (value == 0) {
    return negative && l.info->has_negative_zero ? l.sign_bit : 0;
  }
  uint64_t magnitude = RoundMagnitude(l, std::fabs(value));
  if (magnitude > MaxFiniteMagnitude(l)) return OverflowPattern(l, negative);
  // fnuz has no -0: a negative value that rounds to zero is +0.
  if (magnitude == 0 && !l.info->has_negative_zero) return 0;
  return (negative ? l.sign_bit : 0) | magnitude;
}

// A double NaN carrying the type's NaN payload in its top mantissa bits,
// quieted as the hardware does when widening.
double NanWithPayload(bool negative, uint64_t payload, int payload_bits) {
  uint64_t bits = (uint64_t{negative} << 63) | (uint64_t{0x7ff} << 52) |
                  (uint64_t{1} << 51) | (payload << (52 - payload_bits));
  return BitsDouble(bits);
}

double NarrowBitsToFloat(ElementType type, uint64_t bits) {
  FloatLayout l(type);
  bits &= l.sign_bit | l.magnitude_mask;
  bool negative = (bits & l.sign_bit) != 0;
  uint64_t magnitude = bits & l.magnitude_mask;
  int m = l.info->mantissa_bits;
  uint64_t exponent_field = magnitude >> m;
  uint64_t fraction = magnitude & ((uint64_t{1} << m) - 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (FloatBitsIsNaN(type, bits)) {
    if (l.encoding() == FloatEncoding::kIeee) {
      return NanWithPayload(negative, fraction, m);
    }
    return negative ? -nan : nan;
  }
  double result;
  if (l.encoding() == FloatEncoding::kExponentOnly) {
    result = std::ldexp(
        1.0, static_cast<int>(exponent_field) - l.info->exponent_bias);
  } else if (l.encoding() == FloatEncoding::kIeee &&
             exponent_field == l.exponent_all_ones) {
    result = std::numeric_limits<double>::infinity();
  } else if (exponent_field == 0) {  // zero or subnormal
    result = std::ldexp(static_cast<double>(fraction),
                        1 - l.info->exponent_bias - m);
  } else {
    uint64_t significand = fraction | (uint64_t{1} << m);
    result = std::ldexp(
        static_cast<double>(significand),
        static_cast<int>(exponent_field) - l.info->exponent_bias - m);
  }
  return negative ? -result : result;
}

}  // namespace

uint64_t FloatToBits(ElementType type, double value) {
  if (type == ElementType::kF64) return DoubleBits(value);
  if (type == ElementType::kF32) {
    float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
  }
  if (!IsFloatType(type)) return 0;
  return NarrowFloatToBits(type, value);
}

double BitsToFloat(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) return BitsDouble(bits);
  if (type == ElementType::kF32) {
    uint32_t narrow = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, sizeof(f));
    return f;
  }
  if (!IsFloatType(type)) return 0;
  return NarrowBitsToFloat(type, bits);
}

bool FloatBitsIsNaN(ElementType type, uint64_t bits) {
  if (!IsFloatType(type)) return false;
  FloatLayout l(type);
  bits &= l.sign_bit | l.magnitude_mask;
  uint64_t magnitude = bits & l.magnitude_mask;
  switch (l.encoding()) {
    case FloatEncoding::kIeee: {
      uint64_t exponent_field = magnitude >> l.info->mantissa_bits;
      uint64_t fraction =
          magnitude & ((uint64_t{1} << l.info->mantissa_bits) - 1);
      return exponent_field == l.exponent_all_ones && fraction != 0;
    }
    case FloatEncoding::kFiniteOnly:
    case FloatEncoding::kExponentOnly:
      return l.info->has_nan && magnitude == l.magnitude_mask;
    case FloatEncoding::kFiniteUnsignedZero:
      return bits == l.sign_bit;
    default:
      return false;
  }
}

bool IsOutOfRange(ElementType type, double value) {
  if (std::isnan(value)) return false;
  if (std::isinf(value)) return false;
  double rounded = BitsToFloat(type, FloatToBits(type, value));
  if (!std::isfinite(rounded)) return true;
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (info.has_inf || info.has_nan) return false;
  double max = FloatMax(type);
  double below_max = BitsToFloat(type, FloatToBits(type, max) - 1);
  return std::fabs(value) >= max + (max - below_max) / 2;
}

double FloatMax(ElementType type) {
  if (!IsFloatType(type)) return 0;
  return BitsToFloat(type, MaxFiniteMagnitude(FloatLayout(type)));
}

double FloatMinNormal(ElementType type) {
  if (!IsFloatType(type)) return 0;
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (info.encoding == FloatEncoding::kExponentOnly) {
    return BitsToFloat(type, 0);  // 2^-127: every value is "normal"
  }
  return BitsToFloat(type, uint64_t{1} << info.mantissa_bits);
}

double FloatMinSubnormal(ElementType type) {
  if (!IsFloatType(type)) return 0;
  if (GetElementTypeInfo(type).mantissa_bits == 0) {
    return FloatMinNormal(type);
  }
  return BitsToFloat(type, 1);
}

// ---------------------------------------------------------------------------
// Text: shortest, or as XLA's RoundTripFpToString prints it
// ---------------------------------------------------------------------------

namespace {

// C's max_digits10 for a type with `mantissa_bits` explicit bits:
// ceil(1 + digits * log10(2)), as ml_dtypes and the standard define it.
int MaxDigits10(const ElementTypeInfo& info) {
  return static_cast<int>(
      std::ceil(1 + (info.mantissa_bits + 1) * 0.30102999566398120));
}

void AppendG(std::string* out, double value, int precision) {
  char buffer[64];
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                         std::chars_format::general, precision);
  out->append(buffer, r.ptr);
}

// Significant digits of the shortest text that reads back as `value`.
template <typename T>
int ShortestDigits(T value) {
  char buffer[64];
  // Scientific form: the plain form may spell a large integer-valued float
  // with all its digits ("4730849792" for 4.73085e+09f).
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                         std::chars_format::scientific);
  int digits = 0, trailing_zeros = 0;
  bool leading = true;
  for (const char* p = buffer; p < r.ptr && *p != 'e'; ++p) {
    if (*p < '0' || *p > '9') continue;
    if (leading && *p == '0') continue;
    leading = false;
    ++digits;
    trailing_zeros = *p == '0' ? trailing_zeros + 1 : 0;
  }
  return digits - trailing_zeros;
}

// Appends "%.<short>g" if it reads back as the same value, else
// "%.<long>g" (XLA's order for f32 and f64).
template <typename T>
void AppendShortOrLong(std::string* out, T value, int short_digits,
                       int long_digits) {
  // No short text can read back when even the shortest one is longer; this
  // spares the read-back check for most values.
  if (ShortestDigits(value) <= short_digits) {
    char buffer[64];
    std::to_chars_result r =
        std::to_chars(buffer, buffer + sizeof(buffer), value,
                      std::chars_format::general, short_digits);
    // Read back the way parsers do (a double, then narrowed), so the text
    // is sure to give `value` back to them.
    double back = 0;
    absl::from_chars_result f = absl::from_chars(buffer, r.ptr, back);
    if (f.ec == std::errc() && static_cast<T>(back) == value) {
      out->append(buffer, r.ptr);
      return;
    }
  }
  AppendG(out, static_cast<double>(value), long_digits);
}

// "%.<max_digits10>g" as XLA prints narrow types. That always reads back
// under round-to-nearest-even, but not under e8m0's rounding (ml_dtypes
// sends everything just above 2^-127 to 2^-126, so "5.9e-39" does not give
// 2^-127 back); there, more digits are added until the text reads back.
void AppendNarrow(std::string* out, ElementType type, uint64_t bits,
                  double value, int digits) {
  // Round-to-nearest-even types need no check (max_digits10 suffices).
  const bool verify = GetElementTypeInfo(type).mantissa_bits == 0;
  char buffer[64];
  for (;; ++digits) {
    std::to_chars_result r =
        std::to_chars(buffer, buffer + sizeof(buffer), value,
                      std::chars_format::general, digits);
    if (!verify) {
      out->append(buffer, r.ptr);
      return;
    }
    double back = 0;
    absl::from_chars_result f = absl::from_chars(buffer, r.ptr, back);
    if (digits >= 17 ||
        (f.ec == std::errc() && FloatToBits(type, back) == bits)) {
      out->append(buffer, r.ptr);
      return;
    }
  }
}

void AppendNaN(std::string* out, const ElementTypeInfo& info, uint64_t bits) {
  bool negative = info.is_signed && ((bits >> (info.bit_width - 1)) & 1) != 0;
  out->append(negative ? "-nan" : "nan");
  if (info.encoding != FloatEncoding::kIeee) return;  // no payloads
  uint64_t mantissa = bits & ((uint64_t{1} << info.mantissa_bits) - 1);
  uint64_t quiet = uint64_t{1} << (info.mantissa_bits - 1);
  if (mantissa != quiet) {
    char buffer[24];
    std::to_chars_result r =
        std::to_chars(buffer, buffer + sizeof(buffer), mantissa, 16);
    absl::StrAppend(out, "(0x", absl::string_view(buffer, r.ptr - buffer), ")");
  }
}

// True if `text` reads back, through a double as parsers do, to `bits`.
// Text the parser would refuse as out of range never counts, even where
// the type would saturate it to max (f4, f6).
bool ReadsBackTo(ElementType type, uint64_t bits, const char* begin,
                 const char* end) {
  double back = 0;
  absl::from_chars_result f = absl::from_chars(begin, end, back);
  return f.ec == std::errc() && !IsOutOfRange(type, back) &&
         FloatToBits(type, back) == bits;
}

// The shortest text (fewest characters; then fewest digits) among the
// "%.<n>g" spellings of `value` that read back to `bits` of `type`. So
// f16 0.1 prints "0.1", f8e4m3fn 448 prints "448" (not "4.5e+02") and f32
// 1e10 prints "1e+10". f32 and f64 take std::to_chars' shortest text, which
// is that same choice, when it reads back through a double.
void AppendShortest(std::string* out, ElementType type, uint64_t bits,
                    double value) {
  char buffer[64];
  if (type == ElementType::kF64 || type == ElementType::kF32) {
    std::to_chars_result r =
        type == ElementType::kF64
            ? std::to_chars(buffer, buffer + sizeof(buffer), value)
            : std::to_chars(buffer, buffer + sizeof(buffer),
                            static_cast<float>(value));
    if (ReadsBackTo(type, bits, buffer, r.ptr)) {
      out->append(buffer, r.ptr);
      return;
    }
  }
  std::string best;
  for (int digits = 1; digits <= 17; ++digits) {
    std::to_chars_result r =
        std::to_chars(buffer, buffer + sizeof(buffer), value,
                      std::chars_format::general, digits);
    size_t length = r.ptr - buffer;
    if ((best.empty() || length < best.size()) &&
        ReadsBackTo(type, bits, buffer, r.ptr)) {
      best.assign(buffer, length);
    }
  }
  out->append(best);
}

void AppendFloatUncached(std::string* out, ElementType type, uint64_t bits,
                         FloatTextStyle style) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (FloatBitsIsNaN(type, bits)) {
    AppendNaN(out, info, bits);
    return;
  }
  double value = BitsToFloat(type, bits);
  if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
  } else if (style == FloatTextStyle::kShortest) {
    AppendShortest(out, type, bits, value);
  } else if (type == ElementType::kF32) {
    AppendShortOrLong(out, static_cast<float>(value), 6, 9);
  } else if (type == ElementType::kF64) {
    AppendShortOrLong(out, value, 15, 17);
  } else {
    AppendNarrow(out, type, bits, value, MaxDigits10(info));
  }
}

// The text of every pattern of one float type of at most 16 bits, built on
// first use, so that printing such a float is a copy.
class NarrowFloatTexts {
 public:
  NarrowFloatTexts(ElementType type, FloatTextStyle style) {
    uint32_t count = uint32_t{1} << BitWidth(type);
    starts_.reserve(count + 1);
    for (uint32_t p = 0; p < count; ++p) {
      starts_.push_back(static_cast<uint32_t>(text_.size()));
      AppendFloatUncached(&text_, type, p, style);
    }
    starts_.push_back(static_cast<uint32_t>(text_.size()));
  }

  absl::string_view Get(uint64_t bits) const {
    return absl::string_view(text_).substr(starts_[bits],
                                           starts_[bits + 1] - starts_[bits]);
  }

 private:
  std::string text_;
  std::vector<uint32_t> starts_;
};

const NarrowFloatTexts& TextsFor(ElementType type, FloatTextStyle style) {
  constexpr int kTypes = static_cast<int>(ElementType::kToken) + 1;
  constexpr int kStyles = 2;
  static absl::once_flag once[kStyles][kTypes];
  static const NarrowFloatTexts* texts[kStyles][kTypes];
  int s = static_cast<int>(style);
  int i = static_cast<int>(type);
  absl::call_once(once[s][i],
                  [&] { texts[s][i] = new NarrowFloatTexts(type, style); });
  return *texts[s][i];
}

}  // namespace

void AppendFloatText(std::string* out, ElementType type, uint64_t bits,
                     FloatTextStyle style) {
  if (!IsFloatType(type)) return;
  if (BitWidth(type) <= 16) {
    uint64_t mask = (uint64_t{1} << BitWidth(type)) - 1;
    absl::string_view text = TextsFor(type, style).Get(bits & mask);
    out->append(text.data(), text.size());
    return;
  }
  AppendFloatUncached(out, type, bits, style);
}

}  // namespace kiln
