// Conversions between doubles and the bits of every float type, and the
// decimal text XLA prints for each (at the end of the file). The narrow
// types (below f32) go through float_bits.h, the one routine the kernels
// compile too; ml_dtypes' rules for their special values are listed there.
// Narrow types follow ml_dtypes' default (non-saturating) static_cast from
// double; f16/bf16 follow IEEE 754 (as Eigen does from float), and f32/f64
// use the hardware conversion. A double is rounded once, straight into the
// type: Eigen's half(double) goes through float first, which can differ
// only for a double within 2^-29 (relative) of an f16/bf16 tie.
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

static_assert(kiln_float::kIeee == static_cast<int>(FloatEncoding::kIeee) &&
              kiln_float::kFiniteOnly ==
                  static_cast<int>(FloatEncoding::kFiniteOnly) &&
              kiln_float::kFiniteUnsignedZero ==
                  static_cast<int>(FloatEncoding::kFiniteUnsignedZero) &&
              kiln_float::kExponentOnly ==
                  static_cast<int>(FloatEncoding::kExponentOnly));

kiln_float::Format FloatFormatOf(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  return kiln_float::Format{
      info.exponent_bits,     info.mantissa_bits,
      info.exponent_bias,     static_cast<uint8_t>(info.encoding),
      info.is_signed,         info.has_nan,
      info.has_negative_zero,
  };
}

namespace {

using kiln_float::BitsDouble;
using kiln_float::DoubleBits;

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
  return kiln_float::FromDouble(FloatFormatOf(type), value);
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
  return kiln_float::ToDouble(FloatFormatOf(type), bits);
}

bool FloatBitsIsNaN(ElementType type, uint64_t bits) {
  if (!IsFloatType(type)) return false;
  return kiln_float::IsNaN(FloatFormatOf(type), bits);
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
  return BitsToFloat(type, kiln_float::MaxFiniteMagnitude(FloatFormatOf(type)));
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
