// How closely a backend's value must match a case's expected value, and the
// default for each op and element type (docs/conformance.md, Tolerances).
#ifndef KILN_TOOLS_CONFORM_TOLERANCE_H_
#define KILN_TOOLS_CONFORM_TOLERANCE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/module.h"

namespace kiln::conform {

// An element matches when its bits equal the expected bits or both are NaN;
// unless `exact`, also when it is within `ulps` ULPs of the expected value
// or within abs + rel * |expected| of it. Infinities only match themselves.
struct Tolerance {
  bool exact = true;
  int64_t ulps = 0;
  double abs = 0;
  double rel = 0;

  static Tolerance Exact() { return Tolerance(); }
  static Tolerance Ulps(int64_t n);
  static Tolerance AbsRel(double abs, double rel);
  // The loosest of both: exact only if both are.
  Tolerance Loosest(const Tolerance& other) const;
  // "exact", "ulp=2", "abs=1e-06 rel=1e-05", "ulp=2 abs=0 rel=1e-05".
  std::string ToString() const;
};

// `exact`, `ulp=N`, `abs=X rel=Y` (either or both of abs/rel).
absl::StatusOr<Tolerance> ParseTolerance(absl::string_view text);

// The ULPs allowed for a transcendental op (by its HLO name) on `type`;
// -1 when the op is compared exactly (structural, integer and correctly
// rounded ops).
int64_t TranscendentalUlps(absl::string_view op, ElementType type);

// The longest reduction (elements combined into one output element) of any
// float reduce, reduce-window, dot, convolution, all-reduce and friends in
// `module`; 0 when it has none.
int64_t LongestReduction(const Module& module);

// The default tolerance for a result of element type `type` computed by
// `module`: the loosest over its ops of the transcendental table and, with
// a reduction of length n, rel = abs = n * epsilon(type).
Tolerance DefaultTolerance(const Module& module, ElementType type);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_TOLERANCE_H_
