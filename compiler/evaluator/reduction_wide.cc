#include "compiler/evaluator/reduction_wide.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>

#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {
namespace {

// Accumulators. Each keeps kSlots doubles per output element, so that all
// of them live in one f64 literal allocated under the memory budget.

// Sum in double: f32 and narrower floats, and each part of c64.
struct Sum {
  static constexpr int kSlots = 1;
  static void Init(double* a, double x) { a[0] = x; }
  static void Add(double* a, double x) { a[0] += x; }
  static double Value(const double* a) { return a[0]; }
};

// Product in double: f32 and narrower floats.
struct Product {
  static constexpr int kSlots = 1;
  static void Init(double* a, double x) { a[0] = x; }
  static void Add(double* a, double x) { a[0] *= x; }
  static double Value(const double* a) { return a[0]; }
};

// The rounded sum and the error terms: a[0] + a[1] is the result to about
// twice f64's precision. An infinite or NaN sum is returned as it is (its
// error term is meaningless then); a zero error term leaves the sum
// untouched, so that -0 stays -0.
double Compensated(const double* a) {
  if (a[1] == 0 || !std::isfinite(a[0]) || !std::isfinite(a[1])) return a[0];
  return a[0] + a[1];
}

// Neumaier's compensated summation: f64 and each part of c128.
struct CompensatedSum {
  static constexpr int kSlots = 2;
  static void Init(double* a, double x) {
    a[0] = x;
    a[1] = 0;
  }
  static void Add(double* a, double x) {
    const double s = a[0];
    const double t = s + x;
    a[1] += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
    a[0] = t;
  }
  static double Value(const double* a) { return Compensated(a); }
};

// The compensated product (Graillat): the error of each rounded product
// is exact through an FMA and carried along, scaled by later factors: f64.
struct CompensatedProduct {
  static constexpr int kSlots = 2;
  static void Init(double* a, double x) {
    a[0] = x;
    a[1] = 0;
  }
  static void Add(double* a, double x) {
    const double p = a[0];
    const double t = p * x;
    const double error = std::fma(p, x, -t);
    a[1] = a[1] * x + error;
    a[0] = t;
  }
  static double Value(const double* a) { return Compensated(a); }
};

// The parts of a complex value, each in its own accumulator.
template <typename Part>
struct ComplexOf {
  static constexpr int kSlots = 2 * Part::kSlots;
  static void Init(double* a, std::complex<double> x) {
    Part::Init(a, x.real());
    Part::Init(a + Part::kSlots, x.imag());
  }
  static void Add(double* a, std::complex<double> x) {
    Part::Add(a, x.real());
    Part::Add(a + Part::kSlots, x.imag());
  }
  static std::complex<double> Value(const double* a) {
    return {Part::Value(a), Part::Value(a + Part::kSlots)};
  }
};

// Folds along `walk`: load(i) is input element i widened, init(o) and
// store(o, value) read and write output element o.
template <typename Acc, typename Load, typename Init, typename Store>
absl::Status Fold(const Instruction& instruction, const ReduceWalk& walk,
                  int64_t output_count, EvalContext& context, Load load,
                  Init init, Store store) {
  constexpr int k = Acc::kSlots;
  absl::StatusOr<Literal> slots = context.NewLiteral(
      instruction, Shape::Array(ElementType::kF64, {output_count * k}));
  if (!slots.ok()) return slots.status();
  double* acc = reinterpret_cast<double*>(slots->mutable_data().data());
  for (int64_t o = 0; o < output_count; ++o) Acc::Init(acc + o * k, init(o));
  absl::Status ignored =
      ForEachRun(walk, [&](int64_t i, int64_t o, int64_t n, int64_t step) {
        if (step == 0) {
          // One chain: kept in a local so that it stays in registers.
          double local[k];
          std::memcpy(local, acc + o * k, sizeof(local));
          for (int64_t j = 0; j < n; ++j) Acc::Add(local, load(i + j));
          std::memcpy(acc + o * k, local, sizeof(local));
        } else {
          for (int64_t j = 0; j < n; ++j) {
            Acc::Add(acc + (o + j * step) * k, load(i + j));
          }
        }
        return absl::OkStatus();
      });
  (void)ignored;  // The runs above never fail.
  for (int64_t o = 0; o < output_count; ++o) store(o, Acc::Value(acc + o * k));
  return absl::OkStatus();
}

template <typename Acc>
absl::Status FoldReal(const Instruction& instruction, const ReduceWalk& walk,
                      const Literal& input, Literal& output,
                      EvalContext& context) {
  const auto init = [&output](int64_t o) { return output.GetDouble(o); };
  // Rounds once, straight from double to the element type.
  const auto store = [&output](int64_t o, double v) { output.SetDouble(o, v); };
  const int64_t count = output.element_count();
  switch (input.element_type()) {
    case ElementType::kF32: {
      const float* in = reinterpret_cast<const float*>(input.data().data());
      return Fold<Acc>(
          instruction, walk, count, context,
          [in](int64_t i) { return static_cast<double>(in[i]); }, init, store);
    }
    case ElementType::kF64: {
      const double* in = reinterpret_cast<const double*>(input.data().data());
      return Fold<Acc>(
          instruction, walk, count, context, [in](int64_t i) { return in[i]; },
          init, store);
    }
    default:  // Narrow floats: exact in float.
      return Fold<Acc>(
          instruction, walk, count, context,
          [&input](int64_t i) {
            return static_cast<double>(Get<float>(input, i));
          },
          init, store);
  }
}

template <typename Acc, typename C>
absl::Status FoldComplex(const Instruction& instruction, const ReduceWalk& walk,
                         const Literal& input, Literal& output,
                         EvalContext& context) {
  const C* in = reinterpret_cast<const C*>(input.data().data());
  return Fold<Acc>(
      instruction, walk, output.element_count(), context,
      [in](int64_t i) { return std::complex<double>(in[i]); },
      [&output](int64_t o) { return output.GetComplex(o); },
      [&output](int64_t o, std::complex<double> v) {
        output.SetComplex(o, v);
      });
}

}  // namespace

bool AccumulatesWide(CombinerOp op, ElementType type) {
  const TypeKind kind = GetElementTypeInfo(type).kind;
  if (kind == TypeKind::kFloat) {
    return op == CombinerOp::kAdd || op == CombinerOp::kMultiply;
  }
  return kind == TypeKind::kComplex && op == CombinerOp::kAdd;
}

absl::Status RunWideReduce(const Instruction& instruction, CombinerOp op,
                           const ReduceWalk& walk, const Literal& input,
                           Literal& output, EvalContext& context) {
  const ElementType type = input.element_type();
  if (type == ElementType::kC128) {
    return FoldComplex<ComplexOf<CompensatedSum>, std::complex<double>>(
        instruction, walk, input, output, context);
  }
  if (type == ElementType::kC64) {
    return FoldComplex<ComplexOf<Sum>, std::complex<float>>(
        instruction, walk, input, output, context);
  }
  const bool f64 = type == ElementType::kF64;
  if (op == CombinerOp::kMultiply) {
    return f64 ? FoldReal<CompensatedProduct>(instruction, walk, input, output,
                                              context)
               : FoldReal<Product>(instruction, walk, input, output, context);
  }
  return f64 ? FoldReal<CompensatedSum>(instruction, walk, input, output,
                                        context)
             : FoldReal<Sum>(instruction, walk, input, output, context);
}

}  // namespace eval
}  // namespace kiln
