// Compares a backend's value with a case's expected value under a
// tolerance, and describes a mismatch: the expected and actual values, the
// first differing index, its ULP distance and, on large arrays, a histogram
// of the ULP errors.
#ifndef KILN_TOOLS_CONFORM_COMPARE_H_
#define KILN_TOOLS_CONFORM_COMPARE_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "tools/conform/tolerance.h"

namespace kiln::conform {

// The number of representable values of float type `type` between the
// values with bit patterns `a` and `b` (0 for +0 and -0); nullopt when
// either is NaN or the type is not a float type.
std::optional<uint64_t> UlpDistance(ElementType type, uint64_t a, uint64_t b);

// Whether `actual` matches `expected` (both of float type `type`, given as
// bit patterns) under `tolerance`.
bool FloatElementMatches(ElementType type, uint64_t expected, uint64_t actual,
                         const Tolerance& tolerance);

struct Comparison {
  bool ok = true;
  // Empty when ok; else a multi-line description of the mismatch.
  std::string report;
  // Elements compared and elements that did not match.
  int64_t elements = 0;
  int64_t mismatches = 0;
  // ULP errors of compared float elements: 0, 1, 2, 3, >= 4 (NaN against a
  // number counts as >= 4).
  std::array<int64_t, 5> ulp_histogram{};
};

// Arrays of at least this many elements get a histogram in the report.
inline constexpr int64_t kHistogramMinElements = 16;

// Chooses the tolerance for an array part of element type `type`.
using ToleranceFor = std::function<Tolerance(ElementType type)>;

Comparison CompareLiterals(const Literal& expected, const Literal& actual,
                           const ToleranceFor& tolerance_for);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_COMPARE_H_
