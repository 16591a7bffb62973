// Kernels of the random ops: rng-bit-generator (XLA's counter-based
// expansions, random_bits.h), rng (uniform and normal, from the device's
// seeded std::mt19937_64) and rng-get-and-update-state. The exact
// algorithms are in docs/evaluator_random_collectives.md.
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/random_bits.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace eval {
namespace {

absl::string_view EnumAttr(const Instruction& instruction,
                           absl::string_view name, absl::string_view fallback) {
  const EnumValue* value = instruction.attrs().Get<EnumValue>(name);
  return value == nullptr ? fallback : absl::string_view(value->spelling);
}

absl::StatusOr<Literal> RngBitGeneratorKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  const absl::string_view algorithm =
      EnumAttr(instruction, attr::kAlgorithm, "rng_default");
  const BitGenerator generator = BitGeneratorNamed(algorithm);
  const Literal& state = *operands[0];
  const int64_t words = state.element_count();
  if (!StateFits(generator, words)) {
    return KernelError(
        instruction,
        absl::StrCat("initial state ", state.shape().ToString(false),
                     " does not fit ", algorithm,
                     generator == BitGenerator::kThreeFry
                         ? " (u64[2])"
                         : " (runs Philox: u64[2] or u64[3])"));
  }
  absl::StatusOr<Literal> result = context.NewResult(instruction);
  if (!result.ok()) return result;
  Literal& data = (*result->mutable_tuple_elements())[1];
  const GeneratedBits generated =
      GenerateBits(generator, Elements<uint64_t>(state),
                   data.shape().dimensions(), BitWidth(data.element_type()));
  for (int64_t i = 0; i < data.element_count(); ++i) {
    data.SetBits(i, generated.bits[i]);
  }
  Literal& new_state = (*result->mutable_tuple_elements())[0];
  for (int64_t i = 0; i < words; ++i) {
    new_state.SetBits(i, generated.new_state[i]);
  }
  return result;
}

// A double in [0, 1) from the top 53 bits of one draw.
double UnitInterval(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1p-53;
}

// Uniform integers in [a, b): one draw per element, rejection against the
// top partial block of 2^64 so that every value is equally likely.
template <typename T>
void UniformIntegers(T a, T b, std::mt19937_64& generator, Literal& out) {
  using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  const uint64_t range = static_cast<uint64_t>(static_cast<Wide>(b)) -
                         static_cast<uint64_t>(static_cast<Wide>(a));
  const uint64_t reject_below = (0 - range) % range;  // 2^64 mod range
  for (int64_t i = 0; i < out.element_count(); ++i) {
    uint64_t draw = generator();
    while (draw < reject_below) draw = generator();
    const uint64_t value =
        static_cast<uint64_t>(static_cast<Wide>(a)) + draw % range;
    Set<T>(out, i, static_cast<T>(static_cast<Wide>(value)));
  }
}

// Uniform floats in [a, b): a + (b - a) * u, u from UnitInterval, in
// double, rounded to T and then to the element type; a value that rounds
// up to b is drawn again.
template <typename T>
void UniformFloats(T a, T b, std::mt19937_64& generator, Literal& out) {
  const double lo = static_cast<double>(a);
  const double hi = static_cast<double>(b);
  const double width = hi - lo;
  for (int64_t i = 0; i < out.element_count(); ++i) {
    // Redraws are rare (only values within rounding of b reach it); the
    // cap stops a degenerate interval from looping and leaves a.
    bool inside = false;
    for (int attempt = 0; attempt < 64 && !inside; ++attempt) {
      const double u = UnitInterval(generator);
      const double value =
          std::isfinite(width) ? lo + width * u : lo * (1 - u) + hi * u;
      Set<T>(out, i, static_cast<T>(value));
      inside = Get<T>(out, i) < b;
    }
    if (!inside) Set<T>(out, i, a);
  }
}

// Normal values mu + sigma * z, z by Box-Muller from two draws per element
// (u1 in (0, 1], u2 in [0, 1)): z = sqrt(-2 ln u1) cos(2 pi u2), in double.
template <typename T>
void NormalFloats(T mu, T sigma, std::mt19937_64& generator, Literal& out) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (int64_t i = 0; i < out.element_count(); ++i) {
    const double u1 = static_cast<double>((generator() >> 11) + 1) * 0x1p-53;
    const double u2 = UnitInterval(generator);
    const double z = std::sqrt(-2 * std::log(u1)) * std::cos(kTwoPi * u2);
    Set<T>(out, i,
           static_cast<T>(static_cast<double>(mu) +
                          static_cast<double>(sigma) * z));
  }
}

absl::StatusOr<Literal> RngKernel(const Instruction& instruction,
                                  absl::Span<const Literal* const> operands,
                                  EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  absl::StatusOr<Literal> result = context.NewResult(instruction);
  if (!result.ok()) return result;
  const bool normal =
      EnumAttr(instruction, attr::kDistribution, "rng_uniform") == "rng_normal";
  std::mt19937_64& generator = context.state().generator;
  const Literal& first = *operands[0];
  const Literal& second = *operands[1];
  Literal& out = *result;
  DispatchByComputeType(out.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T a = Get<T>(first, 0);
    const T b = Get<T>(second, 0);
    if constexpr (std::is_floating_point_v<T>) {
      if (normal) {
        NormalFloats<T>(a, b, generator, out);
      } else if (a < b) {
        UniformFloats<T>(a, b, generator, out);
      } else {
        // b <= a: implementation-defined; Kiln fills with a, drawing none.
        for (int64_t i = 0; i < out.element_count(); ++i) Set<T>(out, i, a);
      }
    } else if constexpr (std::is_integral_v<T>) {
      if (a < b) {
        UniformIntegers<T>(a, b, generator, out);
      } else {
        for (int64_t i = 0; i < out.element_count(); ++i) Set<T>(out, i, a);
      }
    }
    // Complex: refused by the shape rule.
  });
  return result;
}

// Returns the counter as u64[2] {counter, 0} (Kiln's counter is 64 bits;
// XLA's is 128) and advances it by delta, wrapping.
absl::StatusOr<Literal> RngGetAndUpdateStateKernel(
    const Instruction& instruction, absl::Span<const Literal* const>,
    EvalContext& context) {
  const int64_t* delta = instruction.attrs().Get<int64_t>(attr::kDelta);
  if (delta == nullptr) return KernelError(instruction, "needs delta=");
  absl::StatusOr<Literal> result =
      context.NewLiteral(instruction, Shape::Array(ElementType::kU64, {2}));
  if (!result.ok()) return result;
  uint64_t& counter = context.state().rng_state;
  result->SetBits(0, counter);
  result->SetBits(1, 0);
  counter += static_cast<uint64_t>(*delta);
  return result;
}

}  // namespace

void RegisterRandomKernels(KernelTable* table) {
  table->Set(Opcode::kRngBitGenerator, &RngBitGeneratorKernel);
  table->Set(Opcode::kRng, &RngKernel);
  table->Set(Opcode::kRngGetAndUpdateState, &RngGetAndUpdateStateKernel);
}

}  // namespace eval
}  // namespace kiln
