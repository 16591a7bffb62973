// The scalar functions behind the unary elementwise kernels, one functor
// per op. Each functor says which ComputeTypes it accepts (Supports<T>())
// and maps a T to a T; `bits` is the operand's bit width (sub-byte
// integers compute in int8_t/uint8_t but count bits at their own width).
#ifndef KILN_COMPILER_EVALUATOR_ELEMENTWISE_UNARY_OPS_H_
#define KILN_COMPILER_EVALUATOR_ELEMENTWISE_UNARY_OPS_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kiln {
namespace eval {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool kIsComplex = IsComplex<T>::value;
template <typename T>
inline constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <typename T>
inline constexpr bool kIsFloatOrComplex = kIsFloat<T> || kIsComplex<T>;
// Integers, not pred.
template <typename T>
inline constexpr bool kIsInteger =
    std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The low `bits` bits of an integer's two's complement pattern.
template <typename T>
uint64_t LowBits(T x, int bits) {
  const uint64_t pattern = static_cast<uint64_t>(x);
  return bits >= 64 ? pattern : pattern & ((uint64_t{1} << bits) - 1);
}

// -x for integers with two's complement wrapping (no signed overflow).
template <typename T>
T WrapNegate(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(0) - static_cast<U>(x));
}

// A unary functor whose formula is the same for floats and complex.
// logistic(x) = 1 / (1 + e^-x). For negative real x it is computed as
// e^x / (1 + e^x), so that e^-x cannot overflow: for x < -88.7 in f32 the
// plain formula gives 0 where the exact value is a subnormal (or tiny
// normal) number.
template <typename T>
T Logistic(T x) {
  if constexpr (kIsComplex<T>) {
    return T(1) / (T(1) + std::exp(-x));
  } else {
    if (x < T(0)) {
      T e = std::exp(x);
      return e / (T(1) + e);
    }
    return T(1) / (T(1) + std::exp(-x));
  }
}

#define KILN_FLOAT_OR_COMPLEX_OP(Name, expression) \
  struct Name {                                    \
    int bits;                                      \
    template <typename T>                          \
    static constexpr bool Supports() {             \
      return kIsFloatOrComplex<T>;                 \
    }                                              \
    template <typename T>                          \
    T operator()(T x) const {                      \
      return expression;                           \
    }                                              \
  };
KILN_FLOAT_OR_COMPLEX_OP(ExpOp, std::exp(x))
KILN_FLOAT_OR_COMPLEX_OP(LogOp, std::log(x))
KILN_FLOAT_OR_COMPLEX_OP(SqrtOp, std::sqrt(x))
KILN_FLOAT_OR_COMPLEX_OP(RsqrtOp, T(1) / std::sqrt(x))
KILN_FLOAT_OR_COMPLEX_OP(SinOp, std::sin(x))
KILN_FLOAT_OR_COMPLEX_OP(CosOp, std::cos(x))
KILN_FLOAT_OR_COMPLEX_OP(TanOp, std::tan(x))
KILN_FLOAT_OR_COMPLEX_OP(TanhOp, std::tanh(x))
KILN_FLOAT_OR_COMPLEX_OP(SinhOp, std::sinh(x))
KILN_FLOAT_OR_COMPLEX_OP(CoshOp, std::cosh(x))
KILN_FLOAT_OR_COMPLEX_OP(AsinOp, std::asin(x))
KILN_FLOAT_OR_COMPLEX_OP(AcosOp, std::acos(x))
KILN_FLOAT_OR_COMPLEX_OP(AtanOp, std::atan(x))
KILN_FLOAT_OR_COMPLEX_OP(AsinhOp, std::asinh(x))
KILN_FLOAT_OR_COMPLEX_OP(AcoshOp, std::acosh(x))
KILN_FLOAT_OR_COMPLEX_OP(AtanhOp, std::atanh(x))
KILN_FLOAT_OR_COMPLEX_OP(LogisticOp, Logistic(x))
#undef KILN_FLOAT_OR_COMPLEX_OP

// A unary functor over floats only.
#define KILN_FLOAT_OP(Name, expression) \
  struct Name {                         \
    int bits;                           \
    template <typename T>               \
    static constexpr bool Supports() {  \
      return kIsFloat<T>;               \
    }                                   \
    template <typename T>               \
    T operator()(T x) const {           \
      return expression;                \
    }                                   \
  };
KILN_FLOAT_OP(FloorOp, std::floor(x))
KILN_FLOAT_OP(CeilOp, std::ceil(x))
KILN_FLOAT_OP(ErfOp, std::erf(x))
// Ties away from zero.
KILN_FLOAT_OP(RoundAfzOp, std::round(x))
// Ties to even: nearbyint under the default rounding mode (to nearest),
// which Kiln never changes.
KILN_FLOAT_OP(RoundEvenOp, std::nearbyint(x))
#undef KILN_FLOAT_OP

struct Expm1Op {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloatOrComplex<T>;
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      // e^(a+bi) - 1 = (expm1(a) cos b + (cos b - 1)) + i e^a sin b, with
      // cos b - 1 = -2 sin^2(b/2) to keep precision near zero.
      using R = typename T::value_type;
      const R a = x.real(), b = x.imag();
      const R half_sin = std::sin(b / 2);
      const R re = std::expm1(a) * std::cos(b) - 2 * half_sin * half_sin;
      return T(re, std::exp(a) * std::sin(b));
    } else {
      return std::expm1(x);
    }
  }
};

struct Log1pOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloatOrComplex<T>;
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      return std::log(T(1) + x);
    } else {
      return std::log1p(x);
    }
  }
};

struct CbrtOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloatOrComplex<T>;
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      // The principal cube root, e^(log(z)/3).
      using R = typename T::value_type;
      return std::exp(std::log(x) / R(3));
    } else {
      return std::cbrt(x);
    }
  }
};

struct NegateOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !std::is_same_v<T, bool>;
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInteger<T>) {
      return WrapNegate(x);  // -INT_MIN wraps to INT_MIN.
    } else {
      return -x;
    }
  }
};

// Integer and float abs; complex abs (a magnitude of another type) has its
// own kernel.
struct AbsOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloat<T> || (kIsInteger<T> && std::is_signed_v<T>);
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsInteger<T>) {
      return x < 0 ? WrapNegate(x) : x;  // |INT_MIN| wraps to INT_MIN.
    } else {
      return std::fabs(x);
    }
  }
};

// sgn: -1, -0, NaN, +0 or 1 (operation_semantics.md, Sign); z/|z| for
// complex (0 stays 0).
struct SignOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloatOrComplex<T> || (kIsInteger<T> && std::is_signed_v<T>);
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      using R = typename T::value_type;
      if (std::isnan(x.real()) || std::isnan(x.imag())) {
        const R nan = std::numeric_limits<R>::quiet_NaN();
        return T(nan, nan);
      }
      if (x == T(0)) return x;
      return x / std::abs(x);
    } else if constexpr (kIsFloat<T>) {
      if (std::isnan(x) || x == 0) return x;
      return std::copysign(T(1), x);
    } else {
      return static_cast<T>((T(0) < x) - (x < T(0)));
    }
  }
};

struct NotOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return std::is_integral_v<T>;
  }
  template <typename T>
  T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;
    } else {
      return static_cast<T>(~x);  // Sub-byte types wrap on store.
    }
  }
};

struct PopcntOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T>;
  }
  template <typename T>
  T operator()(T x) const {
    uint64_t pattern = LowBits(x, bits);
    int count = 0;
    for (; pattern != 0; pattern &= pattern - 1) ++count;
    return static_cast<T>(count);
  }
};

struct ClzOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T>;
  }
  template <typename T>
  T operator()(T x) const {
    const uint64_t pattern = LowBits(x, bits);
    int length = 0;  // Position of the highest set bit, plus one.
    while (length < 64 && (pattern >> length) != 0) ++length;
    return static_cast<T>(bits - length);
  }
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_ELEMENTWISE_UNARY_OPS_H_
