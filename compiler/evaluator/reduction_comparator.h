// Sort's fast comparator: a comparator that is exactly
//   ROOT c = pred[] compare(p2k, p2k+1), direction=D[, type=T]
// or compare(p2k+1, p2k) (the direction then reversed), its other
// parameters unused, compares operand k's elements without calling the
// computation. Each element becomes a key whose comparisons give what
// compare would: integers and TOTALORDER floats as ordered unsigned keys,
// FLOAT comparisons on the values as doubles (exact for every float type,
// NaN unordered, -0 == +0).
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "compiler/evaluator/comparison.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

// Keys whose unsigned order is the element order: integers and pred by
// value; floats by their bits read as sign and magnitude, the total order
// -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN of compare's TOTALORDER
// and XLA's TopK (NaNs by payload; the one NaN of the fnuz types, the
// pattern of -0, just below +0; e8m0 has no sign). `literal` must not be
// complex.
std::vector<uint64_t> OrderedKeys(const Literal& literal);

class FastComparator {
 public:
  // The comparator for a sort of `operands`, or nullopt when
  // `computation` is not of that form or its type= does not suit the
  // element type (the general path reports that).
  static std::optional<FastComparator> Recognize(
      const Computation& computation,
      absl::Span<const Literal* const> operands);

  // comparator(keys[a], keys[b]), a and b linear element indices.
  bool Compare(int64_t a, int64_t b) const {
    return by_value_ ? Apply(values_[a], values_[b])
                     : Apply(ordered_[a], ordered_[b]);
  }

  // Sorts `order` (positions 0..n-1 of one slice, position p at linear
  // index base + p * step) stably by the comparator. A strict weak order
  // (LT or GT on ordered keys, or on values with no NaN) takes
  // std::stable_sort on (key, position) pairs; any other comparator the
  // same bounds-safe bottom-up merge as the general path, so the
  // permutation it gives does not depend on the path either.
  void Sort(std::vector<int64_t>& order, int64_t base, int64_t step) const;

 private:
  template <typename T>
  bool Apply(T a, T b) const {
    return ApplyDirection(direction_, a, b);
  }

  ComparisonDirection direction_ = ComparisonDirection::kLt;
  bool by_value_ = false;          // FLOAT comparison of float values.
  bool has_nan_ = false;           // Some value is NaN (when by_value_).
  std::vector<double> values_;     // When by_value_.
  std::vector<uint64_t> ordered_;  // Otherwise: order-preserving keys.
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_
