// The prelude of every kernel the CPU backend generates. It is not compiled
// into Kiln: the emitter pastes it (after the evaluator's scalar op headers,
// elementwise_unary_ops.h and elementwise_binary_ops.h) at the top of each
// generated translation unit, so generated kernels and the reference
// evaluator compute every elementwise op with the same functors. Only the
// standard library may be used here: the host compiler sees this text alone.
#ifndef KILN_BACKENDS_CPU_KERNEL_PRELUDE_H_
#define KILN_BACKENDS_CPU_KERNEL_PRELUDE_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace kiln_cpu {

// A float stored as its bit pattern (constants keep -0, NaN payloads).
inline float F32FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
// (float_bits.h, pasted before this prelude, has the f64 ones.)
inline double F64FromBits(uint64_t bits) {
  return kiln_float::BitsDouble(bits);
}

// bf16 and f16: stored as their bit patterns, computed in float (every
// value of both is a float), rounded to nearest even after every op, as
// the evaluator computes them.
inline float BF16ToF32(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}
inline uint16_t F32ToBF16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40;  // NaN.
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}
inline float F16ToF32(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  uint32_t x;
  if (exponent == 0x1f) {
    x = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {  // Zero or subnormal: mantissa x 2^-24.
    const float magnitude =
        static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign != 0 ? -magnitude : magnitude;
  } else {
    x = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &x, sizeof value);
  return value;
}
inline uint16_t F32ToF16(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof x);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) return sign | 0x7e00 | ((x >> 13) & 0x3ff);  // NaN.
  if (x >= 0x477ff000u) return sign | 0x7c00;  // Rounds to infinity.
  if (x < 0x38800000u) {  // Below 2^-14: a multiple of 2^-24, exactly scaled.
    float magnitude;
    std::memcpy(&magnitude, &x, sizeof magnitude);
    return sign |
           static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0f));
  }
  const uint32_t rebased = x - 0x38000000u;
  return sign | static_cast<uint16_t>(
                    (rebased + 0xfffu + ((rebased >> 13) & 1)) >> 13);
}
inline float RoundBF16(float value) { return BF16ToF32(F32ToBF16(value)); }
inline float RoundF16(float value) { return F16ToF32(F32ToF16(value)); }

// exp, tanh and logistic of floats (and of bf16/f16, computed in float),
// written without branches or library calls so that loops over them
// vectorize. Each is computed in double, with a relative error below
// 1e-15, and rounded to float once: the result is the double result of
// the libm function rounded to float, within 2 ulp of the evaluator's
// float libm (docs/backends.md). f64 keeps the evaluator's functor.
inline uint64_t BitsOfF64(double x) { return kiln_float::DoubleBits(x); }
// e^x for x in [-708, 709] (callers clamp): x = k ln2 + r with |r| <=
// ln2/2 (ln2 split in two, so k ln2 is exact), e^r by its Taylor series
// to degree 12, and 2^k built in the exponent bits.
inline double ExpCore(double x) {
  const double kShift = 6755399441055744.0;  // 1.5 * 2^52: k in the low bits.
  double k_shifted = x * 1.4426950408889634 + kShift;
  const int64_t k =
      static_cast<int64_t>(BitsOfF64(k_shifted) - BitsOfF64(kShift));
  k_shifted -= kShift;
  const double r = (x - k_shifted * 0.693147180369123816490) -
                   k_shifted * 1.90821492927058770002e-10;
  double p = 1.0 / 479001600.0;
  const double kInverseFactorials[] = {1.0 / 39916800.0,
                                       1.0 / 3628800.0,
                                       1.0 / 362880.0,
                                       1.0 / 40320.0,
                                       1.0 / 5040.0,
                                       1.0 / 720.0,
                                       1.0 / 120.0,
                                       1.0 / 24.0,
                                       1.0 / 6.0,
                                       0.5,
                                       1.0,
                                       1.0};
  for (double c : kInverseFactorials) p = p * r + c;
  return p * F64FromBits(static_cast<uint64_t>(k + 1023) << 52);
}
// x clamped to [lo, hi]; NaN compares false and passes through.
inline float ClampF32(float x, float lo, float hi) {
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}
// e^-150 and e^100 are already 0 and inf once rounded to float.
inline float ExpF32(float x) {
  return static_cast<float>(ExpCore(ClampF32(x, -150.0f, 100.0f)));
}
inline float LogisticF32(float x) {
  return static_cast<float>(1.0 /
                            (1.0 + ExpCore(ClampF32(-x, -150.0f, 150.0f))));
}
// tanh|x| = (e^2|x| - 1) / (e^2|x| + 1), or its odd series below 1/16
// where the subtraction would cancel; tanh 20 is 1 in double. The sign is
// copied back, so tanh(-0) is -0 and NaN stays NaN.
inline float TanhF32(float x) {
  const double d = x;
  double a = d < 0 ? -d : d;
  a = a > 20.0 ? 20.0 : a;
  const double e = ExpCore(2.0 * a);
  const double large = (e - 1.0) / (e + 1.0);
  const double a2 = a * a;
  double p = -1382.0 / 155925.0;
  p = p * a2 + 62.0 / 2835.0;
  p = p * a2 - 17.0 / 315.0;
  p = p * a2 + 2.0 / 15.0;
  p = p * a2 - 1.0 / 3.0;
  const double small = a + a * a2 * p;
  const double magnitude = a < 0.0625 ? small : large;
  const uint64_t sign = BitsOfF64(d) & 0x8000000000000000ull;
  return static_cast<float>(F64FromBits(BitsOfF64(magnitude) | sign));
}

// convert from a float to an integer as XLA (and the evaluator's
// SaturatingIntegerBits): truncate toward zero, saturate, NaN gives 0.
// kBits narrows the range to a sub-byte integer's (s4 saturates at 7).
template <typename To,
          int kBits = std::numeric_limits<To>::digits +
                      (std::numeric_limits<To>::is_signed ? 1 : 0),
          typename From>
inline To FloatToInt(From value) {
  if (value != value) return To(0);
  const double t = std::trunc(static_cast<double>(value));
  if constexpr (std::numeric_limits<To>::is_signed) {
    const double limit = std::ldexp(1.0, kBits - 1);
    if (t >= limit) return static_cast<To>(limit - 1);
    if (t < -limit) return static_cast<To>(-limit);
    return static_cast<To>(t);
  } else {
    if (t <= 0) return To(0);
    if (t >= std::ldexp(1.0, kBits)) {
      return static_cast<To>(std::ldexp(1.0, kBits) - 1);
    }
    return static_cast<To>(t);
  }
}

// convert between any two native types (bool, the integers, float,
// double) with the spec's rules: to pred is != 0, integers wrap, floats
// round to nearest even once, floats to integers saturate.
template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

template <typename To, typename From>
inline To Convert(From value) {
  // (Leaving complex is not a convert: the verifier asks for real/imag.)
  if constexpr (IsComplex<To>::value && IsComplex<From>::value) {
    return To(static_cast<typename To::value_type>(value.real()),
              static_cast<typename To::value_type>(value.imag()));
  } else if constexpr (IsComplex<To>::value) {
    // From a real: rounded once into the part type.
    return To(static_cast<typename To::value_type>(value));
  } else if constexpr (std::is_same_v<To, bool>) {
    return value != From(0);
  } else if constexpr (std::is_floating_point_v<From> &&
                       std::is_integral_v<To>) {
    return FloatToInt<To>(value);
  } else if constexpr (std::is_integral_v<From> && std::is_integral_v<To> &&
                       !std::is_same_v<From, bool>) {
    // Two's complement: keep the low bits of the (sign-extended) value.
    return static_cast<To>(static_cast<std::make_unsigned_t<To>>(value));
  } else {
    return static_cast<To>(value);
  }
}

// Sub-byte integers (s1, s2, s4, u1, u2, u4): stored as their low bits in
// a byte (as literals store them), computed in int8_t/uint8_t, wrapped to
// their width after every op, as the evaluator computes them.
template <int kBits>
inline int8_t WrapSigned(int64_t value) {
  const uint8_t low = static_cast<uint8_t>(value) & ((1u << kBits) - 1);
  const uint8_t sign = 1u << (kBits - 1);
  return static_cast<int8_t>(static_cast<int>(low ^ sign) - sign);
}
template <int kBits>
inline uint8_t WrapUnsigned(uint64_t value) {
  return static_cast<uint8_t>(value & ((1u << kBits) - 1));
}

// bitcast-convert between types of one width: the stored bits read as
// another type's storage.
template <typename To, typename From>
inline To BitCast(From value) {
  static_assert(sizeof(To) == sizeof(From), "bitcast of one width");
  To out;
  std::memcpy(&out, &value, sizeof out);
  return out;
}

// Start index of dynamic-slice/dynamic-update-slice: clamped so that the
// window of `size` fits a dimension of `bound`.
template <typename T>
inline int64_t ClampStart(T start, int64_t bound, int64_t size) {
  int64_t s;
  if constexpr (std::is_unsigned_v<T>) {
    s = start > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX
                                                 : static_cast<int64_t>(start);
  } else {
    s = static_cast<int64_t>(start);
  }
  const int64_t high = bound - size;
  return s < 0 ? 0 : (s > high ? high : s);
}

// The key of a float in the total order (-NaN < -inf < ... < -0 < +0 <
// ... < inf < +NaN) as the evaluator computes it (comparison.h).
template <typename F>
inline uint64_t TotalOrderKey(F value) {
  using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  Bits bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint64_t sign = uint64_t{1} << (8 * sizeof(F) - 1);
  const uint64_t magnitude = static_cast<uint64_t>(bits) & (sign - 1);
  const uint64_t middle = uint64_t{1} << 63;
  return (bits & sign) != 0 ? middle - 1 - magnitude : middle + magnitude;
}

// TotalOrderKey of a value of an fnuz type held as float: its one NaN has
// the bits of -0, which the evaluator orders just below +0.
template <typename F>
inline uint64_t FnuzTotalOrderKey(F value) {
  return TotalOrderKey(value != value ? F(-0.0) : value);
}

// The evaluator's sort (reduction_sort.cc): a bottom-up stable merge sort
// whose indices stay in bounds whatever the comparator answers, so that a
// comparator that is not a strict weak order gives the same permutation
// as on the evaluator.
template <typename Less>
inline void StableMergeSort(std::vector<int64_t>& items,
                            std::vector<int64_t>& buffer, Less&& less) {
  const int64_t n = static_cast<int64_t>(items.size());
  buffer.resize(items.size());
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      const int64_t mid = std::min(lo + width, n);
      const int64_t hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, out = lo;
      while (i < mid && j < hi) {
        buffer[out++] = less(items[j], items[i]) ? items[j++] : items[i++];
      }
      while (i < mid) buffer[out++] = items[i++];
      while (j < hi) buffer[out++] = items[j++];
    }
    items.swap(buffer);
  }
}

}  // namespace kiln_cpu

// The float types of at most 8 bits (f8*, f6*, f4*, f8e8m0fnu): stored as
// their bits in a byte, computed in float (each of their values is one),
// and converted by compiler/ir/float_bits.h, which the emitter pastes
// before this prelude: the evaluator's own routine, so kernels round
// exactly as it does, on the host and on a device alike. The emitter
// writes each type's Format out at the call. (bf16 and f16 use it too, to
// round a double once.)
namespace kiln_cpu {
inline float NarrowToF32(const kiln_float::Format& format, uint8_t bits) {
  return static_cast<float>(kiln_float::ToDouble(format, bits));
}
inline uint8_t F32ToNarrow(const kiln_float::Format& format, float value) {
  return static_cast<uint8_t>(kiln_float::FromDouble(format, value));
}
inline float RoundNarrow(const kiln_float::Format& format, float value) {
  return NarrowToF32(format, F32ToNarrow(format, value));
}
// A double rounded once into a float type of at most 16 bits (a wide
// reduction's result), as a float.
inline float RoundFromF64(const kiln_float::Format& format, double value) {
  return static_cast<float>(
      kiln_float::ToDouble(format, kiln_float::FromDouble(format, value)));
}
}  // namespace kiln_cpu

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kiln_cpu {
// Copies a block computed into a cache-resident buffer to `to` with
// non-temporal stores (no read of the destination lines, no cache
// pollution); a fence makes the stores visible before the block's thread
// reaches the loop's barrier. Without SSE2, a plain copy.
inline void StreamStore(void* to, const void* from, int64_t bytes) {
#if defined(__SSE2__)
  char* d = static_cast<char*>(to);
  const char* s = static_cast<const char*>(from);
  const int64_t misaligned =
      static_cast<int64_t>(reinterpret_cast<uintptr_t>(d) % 16);
  const int64_t head = std::min<int64_t>(bytes, (16 - misaligned) % 16);
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  for (; bytes >= 16; bytes -= 16, d += 16, s += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(d),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
  }
  std::memcpy(d, s, bytes);
  _mm_sfence();
#else
  std::memcpy(to, from, bytes);
#endif
}
}  // namespace kiln_cpu

#include <omp.h>

// The intra-op threads of this library's parallel loops, set once when the
// library is loaded (kiln_set_threads; 0: every core the process may use).
static int kiln_threads = 0;
static inline int KilnThreads() {
  return kiln_threads > 0 ? kiln_threads : omp_get_num_procs();
}
extern "C" __attribute__((used)) void kiln_set_threads(int threads) {
  kiln_threads = threads;
}

#endif  // KILN_BACKENDS_CPU_KERNEL_PRELUDE_H_
