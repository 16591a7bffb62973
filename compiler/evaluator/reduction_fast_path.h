// Reduce's fast path: a combiner that is a single add, multiply, maximum,
// minimum, and or or of its two parameters (in that order) runs as a tight
// typed loop instead of one computation call per element. The loop folds
// in the order of reduction_walk.h, the same as the general path. (reduce
// sends float add and multiply to the accurate path, reduction_wide.h,
// instead; reduce-window uses these loops for them.)
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_FAST_PATH_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_FAST_PATH_H_

#include <optional>
#include <type_traits>

#include "compiler/evaluator/elementwise_binary_ops.h"
#include "compiler/evaluator/reduction_walk.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

enum class CombinerOp { kAdd, kMultiply, kMaximum, kMinimum, kAnd, kOr };

// The op `computation` consists of, when it is exactly
//   p0 = T[] parameter(0), p1 = T[] parameter(1), ROOT r = T[] op(p0, p1)
// with no other instruction or attribute and `op` one of CombinerOp's, on
// any element type `type`; nullopt otherwise.
std::optional<CombinerOp> MatchCombinerOp(const Computation& computation,
                                          ElementType type);

// MatchCombinerOp's op when, besides, the typed loops below cover `op` on
// `type`, i.e. when it is exactly
//   p0 = T[] parameter(0), p1 = T[] parameter(1), ROOT r = T[] op(p0, p1)
// with no other instruction or attribute, and the fast path covers `op` on
// `type` (native storage: f32, f64, s8..s64, u8..u64; pred for and/or;
// and/or only on integers and pred). nullopt otherwise.
std::optional<CombinerOp> RecognizeCombiner(const Computation& computation,
                                            ElementType type);

namespace fast_path_internal {

// f(TypeTag<T>{}, fn) with fn(T, T) -> T the elementwise kernels' own
// scalar functor for `op` (elementwise_binary_ops.h), so that the fast
// loops compute each step exactly as the combiner would.
template <typename T, typename F>
void WithOp(CombinerOp op, int bits, F&& f) {
  const auto pass = [&](auto functor) {
    f(TypeTag<T>{},
      [functor](T a, T b) { return functor.template operator()<T>(a, b); });
  };
  switch (op) {
    case CombinerOp::kAdd:
      return pass(AddOp{bits});
    case CombinerOp::kMultiply:
      return pass(MultiplyOp{bits});
    case CombinerOp::kMaximum:
      return pass(MaximumOp{bits});
    case CombinerOp::kMinimum:
      return pass(MinimumOp{bits});
    case CombinerOp::kAnd:
      if constexpr (std::is_integral_v<T>) pass(AndOp{bits});
      return;
    case CombinerOp::kOr:
      if constexpr (std::is_integral_v<T>) pass(OrOp{bits});
      return;
  }
}

}  // namespace fast_path_internal

// Calls f(TypeTag<T>{}, fn) where T is the storage type of `type` (uint8_t
// for pred) and fn(T a, T b) computes `op`. `op` must have come from
// RecognizeCombiner for `type`.
template <typename F>
void WithTypedCombiner(CombinerOp op, ElementType type, F&& f) {
  const int bits = BitWidth(type);
  if (type == ElementType::kPred) {
    fast_path_internal::WithOp<uint8_t>(op, bits, f);
    return;
  }
  DispatchByComputeType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      fast_path_internal::WithOp<T>(op, bits, f);
    }
  });
}

// Folds `input` into `output` (pre-filled with the init value) along
// `walk` with `op`. `op` must have come from RecognizeCombiner for the
// literals' element type.
void RunFastReduce(CombinerOp op, const ReduceWalk& walk, const Literal& input,
                   Literal& output);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_FAST_PATH_H_
