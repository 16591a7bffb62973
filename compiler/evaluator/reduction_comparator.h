// Sort's fast comparator: a comparator that is exactly
//   ROOT c = pred[] compare(p0, p1), direction=D[, type=T]
// (its other parameters unused) compares operand 0's elements without
// calling the computation. Each element becomes a key whose comparisons
// give what compare would: integers and TOTALORDER floats as ordered
// unsigned keys, FLOAT comparisons on the values as doubles (exact for
// every float type, NaN unordered, -0 == +0).
#ifndef KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_
#define KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_

#include <cstdint>
#include <optional>
#include <vector>

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
  // The comparator for a sort of `operand_count` operands whose operand 0
  // is `keys`, or nullopt when `computation` is not of that form or its
  // type= does not suit the element type (the general path reports that).
  static std::optional<FastComparator> Recognize(const Computation& computation,
                                                 const Literal& keys,
                                                 int64_t operand_count);

  // comparator(keys[a], keys[b]), a and b linear element indices.
  bool Compare(int64_t a, int64_t b) const {
    return by_value_ ? Apply(values_[a], values_[b])
                     : Apply(ordered_[a], ordered_[b]);
  }

 private:
  template <typename T>
  bool Apply(T a, T b) const {
    return ApplyDirection(direction_, a, b);
  }

  ComparisonDirection direction_ = ComparisonDirection::kLt;
  bool by_value_ = false;          // FLOAT comparison of float values.
  std::vector<double> values_;     // When by_value_.
  std::vector<uint64_t> ordered_;  // Otherwise: order-preserving keys.
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_REDUCTION_COMPARATOR_H_
