// Helpers shared by the linear-algebra and convolution kernels: the
// arithmetic type a contraction accumulates in, value conversion from an
// operand's type to the result's, canonical (transposed) copies of
// operands, and the shape-rule check every kernel runs first.
//
// Contractions (dot, ragged-dot, scaled-dot, convolution) compute in the
// ComputeType of the *result* type (XLA's preferred_element_type): each
// operand element is converted to it, products are summed in it, and the
// sum is rounded once when stored. Integers wrap: they accumulate in an
// unsigned type of at least 32 bits (no signed overflow), and the store
// keeps the low bits, which is two's-complement wraparound.
#ifndef KILN_COMPILER_EVALUATOR_LINALG_COMMON_H_
#define KILN_COMPILER_EVALUATOR_LINALG_COMMON_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {

// Runs the op's client-form shape rule so that the kernel may trust its
// operands and attributes, and checks that the declared shape is the
// inferred one; the error names the instruction.
absl::Status CheckLinalgShapeRule(const Instruction& instruction,
                                  EvalContext& context);

// Refuses work buffers of `elements` values of `element_bytes` each when
// they exceed EvalOptions::max_literal_bytes (the cap kernels' results
// obey), so that a huge contraction fails with an error naming the
// instruction instead of exhausting memory.
absl::Status CheckWorkBytes(const Instruction& instruction,
                            const EvalContext& context, int64_t elements,
                            int64_t element_bytes);

// a * b * ..., or -1 on int64 overflow (which CheckWorkBytes refuses).
int64_t SafeProduct(std::initializer_list<int64_t> factors);

// The operand list attribute `name`, or an empty list when absent.
const std::vector<int64_t>& Int64ListOrEmpty(const Instruction& instruction,
                                             absl::string_view name);

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// The type sums of products of ComputeType T are formed in: double for
// float (f32 and every narrower float: each product is exact in double and
// the sum rounds once into the element type, so the oracle is at least as
// accurate as any backend's f32 GEMM), complex<double> for c64, T itself
// for f64 and c128; for integers (and pred) an unsigned type of at least
// 32 bits, so that overflow wraps instead of being undefined.
template <typename T>
struct ArithOf {
  using type = T;
};
#define KILN_ARITH(T, A) \
  template <>            \
  struct ArithOf<T> {    \
    using type = A;      \
  };
KILN_ARITH(float, double)
KILN_ARITH(std::complex<float>, std::complex<double>)
KILN_ARITH(bool, uint32_t)
KILN_ARITH(int8_t, uint32_t)
KILN_ARITH(uint8_t, uint32_t)
KILN_ARITH(int16_t, uint32_t)
KILN_ARITH(uint16_t, uint32_t)
KILN_ARITH(int32_t, uint32_t)
KILN_ARITH(uint32_t, uint32_t)
KILN_ARITH(int64_t, uint64_t)
KILN_ARITH(uint64_t, uint64_t)
#undef KILN_ARITH
template <typename T>
using Arith = typename ArithOf<T>::type;

// The same for each of `counts` buffers of Arith<T> values.
template <typename T>
absl::Status CheckWork(const Instruction& instruction,
                       const EvalContext& context,
                       std::initializer_list<int64_t> counts) {
  for (int64_t count : counts) {
    absl::Status ok =
        CheckWorkBytes(instruction, context, count, sizeof(Arith<T>));
    if (!ok.ok()) return ok;
  }
  return absl::OkStatus();
}

// Converts a value of ComputeType From into ComputeType To as XLA's convert
// does: complex -> real keeps the real part; float -> integer truncates
// toward zero and saturates, NaN -> 0; anything -> pred is value != 0.
template <typename From, typename To>
To ConvertValue(From value) {
  if constexpr (std::is_same_v<From, To>) {
    return value;
  } else if constexpr (IsComplex<From>::value && IsComplex<To>::value) {
    using R = typename To::value_type;
    return To(static_cast<R>(value.real()), static_cast<R>(value.imag()));
  } else if constexpr (IsComplex<From>::value) {
    return ConvertValue<typename From::value_type, To>(value.real());
  } else if constexpr (IsComplex<To>::value) {
    return To(ConvertValue<From, typename To::value_type>(value), 0);
  } else if constexpr (std::is_same_v<To, bool>) {
    return value != From(0);
  } else if constexpr (std::is_integral_v<To> &&
                       std::is_floating_point_v<From>) {
    if (std::isnan(value)) return 0;
    const long double v = std::trunc(static_cast<long double>(value));
    if (v <= static_cast<long double>(std::numeric_limits<To>::lowest())) {
      return std::numeric_limits<To>::lowest();
    }
    if (v >= static_cast<long double>(std::numeric_limits<To>::max())) {
      return std::numeric_limits<To>::max();
    }
    return static_cast<To>(v);
  } else {
    return static_cast<To>(value);
  }
}

// Every element of `literal` converted to result ComputeType T and then to
// its arithmetic type A = Arith<T>.
template <typename T>
std::vector<Arith<T>> ReadConverted(const Literal& literal) {
  using A = Arith<T>;
  std::vector<A> out(static_cast<size_t>(literal.element_count()));
  DispatchByComputeType(literal.element_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (std::is_same_v<S, T> && std::is_same_v<T, A>) {
      if (StorageIsNative(literal.element_type())) {
        absl::Span<const S> in = Elements<S>(literal);
        std::copy(in.begin(), in.end(), out.begin());
        return;
      }
    }
    const std::vector<S> in = Read<S>(literal);
    for (size_t i = 0; i < in.size(); ++i) {
      out[i] = static_cast<A>(ConvertValue<S, T>(in[i]));
    }
  });
  return out;
}

// Stores arithmetic values into `literal` (ComputeType T): wraps integers,
// rounds narrow floats once.
template <typename T>
void StoreArith(absl::Span<const Arith<T>> values, Literal& literal) {
  if constexpr (std::is_same_v<T, Arith<T>>) {
    Write<T>(values, literal);
  } else if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < values.size(); ++i) {
      Set<bool>(literal, i, values[i] != 0);
    }
  } else if constexpr (std::is_same_v<T, float>) {
    // From double, rounded once: straight into the element type (f32 by
    // the hardware, narrower floats by FloatToBits), never through float.
    if (literal.element_type() == ElementType::kF32) {
      absl::Span<float> out = MutableElements<float>(literal);
      for (size_t i = 0; i < values.size(); ++i) {
        out[i] = static_cast<float>(values[i]);
      }
    } else {
      for (size_t i = 0; i < values.size(); ++i) {
        literal.SetDouble(static_cast<int64_t>(i), values[i]);
      }
    }
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    for (size_t i = 0; i < values.size(); ++i) {
      literal.SetComplex(static_cast<int64_t>(i), values[i]);
    }
  } else {
    std::vector<T> narrowed(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      narrowed[i] = static_cast<T>(values[i]);
    }
    Write<T>(absl::Span<const T>(narrowed), literal);
  }
}

// Copies `values` (row-major over `dims`) into a new row-major array whose
// dimension i is source dimension order[i].
template <typename V>
std::vector<V> Transposed(const std::vector<V>& values,
                          absl::Span<const int64_t> dims,
                          absl::Span<const int64_t> order) {
  std::vector<V> out(values.size());
  if (values.empty()) return out;
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  const size_t rank = order.size();
  if (rank == 0) {
    out[0] = values[0];
    return out;
  }
  std::vector<int64_t> sizes(rank), steps(rank), index(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    sizes[i] = dims[order[i]];
    steps[i] = strides[order[i]];
  }
  // Innermost output dimension as a tight strided loop; an odometer over
  // the others keeps the source offset incrementally.
  const int64_t inner = sizes[rank - 1];
  const int64_t inner_step = steps[rank - 1];
  int64_t source = 0;
  size_t target = 0;
  while (true) {
    for (int64_t j = 0; j < inner; ++j) {
      out[target++] = values[source + j * inner_step];
    }
    int64_t d = static_cast<int64_t>(rank) - 2;
    for (; d >= 0; --d) {
      source += steps[d];
      if (++index[d] < sizes[d]) break;
      source -= steps[d] * sizes[d];
      index[d] = 0;
    }
    if (d < 0) return out;
  }
}

// Product of dims[i] for i in `which`.
int64_t ProductOf(absl::Span<const int64_t> dims,
                  absl::Span<const int64_t> which);

// Concatenation of lists.
std::vector<int64_t> Joined(
    std::initializer_list<absl::Span<const int64_t>> parts);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_LINALG_COMMON_H_
