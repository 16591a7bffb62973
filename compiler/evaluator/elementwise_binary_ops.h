// The scalar functions behind the binary elementwise kernels, one functor
// per op, in the style of elementwise_unary_ops.h. Integer results wrap
// (two's complement); integer division follows XLA (see
// docs/evaluator_elementwise.md).
#ifndef KILN_COMPILER_EVALUATOR_ELEMENTWISE_BINARY_OPS_H_
#define KILN_COMPILER_EVALUATOR_ELEMENTWISE_BINARY_OPS_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "compiler/evaluator/elementwise_unary_ops.h"

namespace kiln {
namespace eval {

// a (op) b on integers computed modulo 2^64 and truncated to T: the
// two's complement wrap, with no signed overflow and no promotion of
// narrow unsigned types to int.
template <typename T>
T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename T>
T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename T>
T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// NaN-propagating max and min as XLA's CPU backend computes them: lhs when
// lhs is NaN or wins the comparison, else rhs (so max(-0, +0) is -0 and
// max(+0, -0) is +0).
template <typename T>
T FloatMax(T a, T b) {
  return (std::isnan(a) || a >= b) ? a : b;
}
template <typename T>
T FloatMin(T a, T b) {
  return (std::isnan(a) || a <= b) ? a : b;
}

struct AddOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return true;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (kIsInteger<T>) {
      return WrapAdd(a, b);
    } else {
      return a + b;
    }
  }
};

struct SubtractOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !std::is_same_v<T, bool>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInteger<T>) {
      return WrapSub(a, b);
    } else {
      return a - b;
    }
  }
};

struct MultiplyOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return true;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (kIsInteger<T>) {
      return WrapMul(a, b);
    } else {
      return a * b;
    }
  }
};

// Integers as XLA: x / 0 is -1 (all ones; the maximum for unsigned) and
// INT_MIN / -1 is INT_MIN. Sub-byte types compute in 8 bits and wrap, which
// gives the same values at their own width (s4: -8 / -1 = 8 wraps to -8).
struct DivideOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !std::is_same_v<T, bool>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInteger<T>) {
      if (b == 0) return static_cast<T>(~T(0));
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return WrapNegate(a);
      }
      return static_cast<T>(a / b);
    } else {
      return a / b;
    }
  }
};

// Integers as XLA: x % 0 is x and INT_MIN % -1 is 0. Floats: fmod (the
// sign of the dividend).
struct RemainderOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T> || kIsFloat<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInteger<T>) {
      if (b == 0) return a;
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
      }
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

struct MaximumOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !kIsComplex<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      return FloatMax(a, b);
    } else {
      return a > b ? a : b;
    }
  }
};

struct MinimumOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !kIsComplex<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsFloat<T>) {
      return FloatMin(a, b);
    } else {
      return a < b ? a : b;
    }
  }
};

// x^y by squaring, modulo 2^64 (then truncated to the type).
inline uint64_t IntegerPower(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  for (; exponent != 0; exponent >>= 1) {
    if (exponent & 1) result *= base;
    base *= base;
  }
  return result;
}

// As XLA: 1^y = x^0 = 1 for every type (NaN included); integers wrap, and a
// negative integer exponent gives 1 when x == 1 and 0 otherwise; pred is
// x || !y.
struct PowerOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return !std::is_same_v<T, bool>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if (a == T(1) || b == T(0)) return T(1);
    if constexpr (kIsInteger<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) return T(0);
      }
      return static_cast<T>(
          IntegerPower(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
    } else if constexpr (kIsComplex<T>) {
      // 0^z is 0 for Re(z) > 0 (std::pow goes through log(0) = -inf).
      if (a == T(0) && b.real() > 0) return T(0);
      return std::pow(a, b);
    } else {
      return std::pow(a, b);
    }
  }
};

// atan2(y, x); for complex operands -i log((x + iy) / sqrt(x^2 + y^2)).
struct Atan2Op {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsFloatOrComplex<T>;
  }
  template <typename T>
  T operator()(T y, T x) const {
    if constexpr (kIsComplex<T>) {
      const T i(0, 1);
      return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
    } else {
      return std::atan2(y, x);
    }
  }
};

#define KILN_BITWISE_OP(Name, bool_expression, int_expression) \
  struct Name {                                                \
    int bits;                                                  \
    template <typename T>                                      \
    static constexpr bool Supports() {                         \
      return std::is_integral_v<T>;                            \
    }                                                          \
    template <typename T>                                      \
    T operator()(T a, T b) const {                             \
      if constexpr (std::is_same_v<T, bool>) {                 \
        return bool_expression;                                \
      } else {                                                 \
        return static_cast<T>(int_expression);                 \
      }                                                        \
    }                                                          \
  };
KILN_BITWISE_OP(AndOp, a&& b, a& b)
KILN_BITWISE_OP(OrOp, a || b, a | b)
KILN_BITWISE_OP(XorOp, a != b, a ^ b)
#undef KILN_BITWISE_OP

// The shifts take the amount as unsigned: an amount of at least the bit
// width (negative ones included) shifts every bit out, giving 0, or the
// sign fill for shift-right-arithmetic (XLA's rule).
template <typename T>
bool ShiftOutOfRange(T amount, int bits) {
  return static_cast<uint64_t>(LowBits(amount, bits)) >=
         static_cast<uint64_t>(bits);
}

// The value of the low `bits` bits of `x` read as a signed number.
template <typename T>
int64_t SignExtend(T x, int bits) {
  const uint64_t pattern = LowBits(x, bits);
  if (bits >= 64) return static_cast<int64_t>(pattern);
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((pattern ^ sign) - sign);
}

struct ShiftLeftOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if (ShiftOutOfRange(b, bits)) return T(0);
    return static_cast<T>(LowBits(a, bits) << LowBits(b, bits));
  }
};

struct ShiftRightLogicalOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    if (ShiftOutOfRange(b, bits)) return T(0);
    return static_cast<T>(LowBits(a, bits) >> LowBits(b, bits));
  }
};

struct ShiftRightArithmeticOp {
  int bits;
  template <typename T>
  static constexpr bool Supports() {
    return kIsInteger<T>;
  }
  template <typename T>
  T operator()(T a, T b) const {
    const int64_t value = SignExtend(a, bits);
    if (ShiftOutOfRange(b, bits)) return static_cast<T>(value < 0 ? -1 : 0);
    // >> of a negative int64_t is an arithmetic shift (C++20, and every
    // compiler Kiln supports before it).
    return static_cast<T>(value >> LowBits(b, bits));
  }
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_ELEMENTWISE_BINARY_OPS_H_
