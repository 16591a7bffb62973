#include "tools/conform/compare.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ir/literal_text.h"

namespace kiln::conform {
namespace {

// Literals longer than this print elided in reports.
constexpr int64_t kPrintElements = 64;

// Maps a float bit pattern onto a line where neighbouring values differ by
// one and +0 == -0.
int64_t OrderedKey(ElementType type, uint64_t bits) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (!info.is_signed) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (info.bit_width - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) != 0 ? -magnitude : magnitude;
}

bool IsInf(ElementType type, uint64_t bits) {
  return std::isinf(BitsToFloat(type, bits));
}

// One element as a comparable unit: a float (or complex part) or an integer.
struct Element {
  ElementType type;  // The component type for complex values.
  uint64_t bits;
};

// Complex literals hold the real part first, each part in its component
// type's storage width.
std::vector<Element> ElementParts(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  if (!IsComplexType(type)) return {{type, literal.GetBits(i)}};
  const ElementType part = GetElementTypeInfo(type).component;
  const int width = GetElementTypeInfo(part).storage_bytes;
  const uint8_t* base = literal.data().data() + i * 2 * width;
  std::vector<Element> parts;
  for (int p = 0; p < 2; ++p) {
    uint64_t bits = 0;
    std::memcpy(&bits, base + p * width, width);
    parts.push_back({part, bits});
  }
  return parts;
}

std::string ElementText(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  if (type == ElementType::kPred) {
    return literal.GetBits(i) != 0 ? "true" : "false";
  }
  if (IsSignedIntType(type)) return absl::StrCat(literal.GetInt64(i));
  if (IsUnsignedIntType(type)) return absl::StrCat(literal.GetUint64(i));
  std::vector<std::string> parts;
  for (const Element& e : ElementParts(literal, i)) {
    parts.push_back(FloatBitsToString(e.type, e.bits));
  }
  return parts.size() == 1 ? parts[0]
                           : absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

// Linear indices of the valid elements (all of them for static shapes).
std::vector<int64_t> ValidIndices(const Literal& literal) {
  std::vector<int64_t> indices;
  if (!literal.has_dynamic_sizes()) {
    indices.reserve(literal.element_count());
    for (int64_t i = 0; i < literal.element_count(); ++i) indices.push_back(i);
    return indices;
  }
  const std::vector<int64_t> sizes = literal.dynamic_sizes();
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t s : sizes) {
    if (s == 0) return indices;
  }
  while (true) {
    indices.push_back(literal.LinearIndex(index));
    int64_t d = static_cast<int64_t>(sizes.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
    if (d < 0) return indices;
  }
}

std::string MultiIndexText(const Shape& shape, int64_t linear) {
  std::vector<int64_t> index(shape.rank());
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    const int64_t size = shape.dimensions()[d];
    index[d] = size == 0 ? 0 : linear % size;
    linear = size == 0 ? 0 : linear / size;
  }
  return absl::StrCat("[", absl::StrJoin(index, ","), "]");
}

// A complex value also matches when the error of the whole value is small
// next to its magnitude, |a - e| <= ulps * epsilon * |e|: a part much
// smaller than the other carries an error in its own ULPs that says nothing
// about the accuracy of the value.
bool ComplexWithinRelativeError(const std::vector<Element>& e,
                                const std::vector<Element>& a,
                                const Tolerance& tolerance) {
  const ElementType part = e[0].type;
  for (int p = 0; p < 2; ++p) {
    if (IsInf(part, e[p].bits) || IsInf(part, a[p].bits)) return false;
  }
  const double epsilon =
      std::ldexp(1.0, -GetElementTypeInfo(part).mantissa_bits);
  const double er = BitsToFloat(part, e[0].bits);
  const double ei = BitsToFloat(part, e[1].bits);
  const double dr = BitsToFloat(part, a[0].bits) - er;
  const double di = BitsToFloat(part, a[1].bits) - ei;
  return std::hypot(dr, di) <= tolerance.ulps * epsilon * std::hypot(er, ei) +
                                   tolerance.abs +
                                   tolerance.rel * std::hypot(er, ei);
}

struct ElementVerdict {
  bool ok = true;
  std::optional<uint64_t> ulps;  // Largest over the parts; nullopt: NaN.
};

ElementVerdict CompareElement(const Literal& expected, const Literal& actual,
                              int64_t i, const Tolerance& tolerance) {
  ElementVerdict verdict;
  const ElementType type = expected.element_type();
  if (!IsFloatType(type) && !IsComplexType(type)) {
    verdict.ok = expected.GetBits(i) == actual.GetBits(i);
    return verdict;
  }
  std::vector<Element> e = ElementParts(expected, i);
  std::vector<Element> a = ElementParts(actual, i);
  uint64_t worst = 0;
  bool nan = false;
  for (size_t p = 0; p < e.size(); ++p) {
    verdict.ok &=
        FloatElementMatches(e[p].type, e[p].bits, a[p].bits, tolerance);
    std::optional<uint64_t> d = UlpDistance(e[p].type, e[p].bits, a[p].bits);
    const bool both_nan = FloatBitsIsNaN(e[p].type, e[p].bits) &&
                          FloatBitsIsNaN(a[p].type, a[p].bits);
    if (!d.has_value() && !both_nan) nan = true;
    if (d.has_value()) worst = std::max(worst, *d);
  }
  if (!nan) verdict.ulps = worst;
  if (!verdict.ok && e.size() == 2 && !tolerance.exact && !nan) {
    verdict.ok = ComplexWithinRelativeError(e, a, tolerance);
  }
  return verdict;
}

void AddHistogram(const ElementVerdict& verdict, Comparison* result) {
  const uint64_t bucket =
      verdict.ulps.has_value() ? std::min<uint64_t>(*verdict.ulps, 4) : 4;
  ++result->ulp_histogram[bucket];
}

std::string HistogramText(const std::array<int64_t, 5>& h) {
  return absl::StrCat("  ULP histogram: 0: ", h[0], "  1: ", h[1],
                      "  2: ", h[2], "  3: ", h[3], "  >=4: ", h[4], "\n");
}

void CompareArrays(const Literal& expected, const Literal& actual,
                   const std::string& path, const Tolerance& tolerance,
                   Comparison* result) {
  const std::vector<int64_t> indices = ValidIndices(expected);
  const bool is_float = IsFloatType(expected.element_type()) ||
                        IsComplexType(expected.element_type());
  std::array<int64_t, 5> histogram{};
  int64_t first = -1;
  int64_t mismatches = 0;
  std::optional<uint64_t> first_ulps;
  for (int64_t i : indices) {
    ElementVerdict verdict = CompareElement(expected, actual, i, tolerance);
    if (is_float) {
      Comparison part;
      AddHistogram(verdict, &part);
      for (int b = 0; b < 5; ++b) histogram[b] += part.ulp_histogram[b];
    }
    if (verdict.ok) continue;
    if (++mismatches == 1) {
      first = i;
      first_ulps = verdict.ulps;
    }
  }
  result->elements += indices.size();
  result->mismatches += mismatches;
  for (int b = 0; b < 5; ++b) result->ulp_histogram[b] += histogram[b];
  if (mismatches == 0) return;
  result->ok = false;
  LiteralPrintOptions print;
  print.elide_above = kPrintElements;
  absl::StrAppend(
      &result->report, "  ", path.empty() ? "" : absl::StrCat(path, ": "),
      mismatches, " of ", indices.size(), " elements differ (tolerance ",
      tolerance.ToString(), ")\n",
      "  expected: ", LiteralToString(expected, print), "\n",
      "  actual:   ", LiteralToString(actual, print), "\n",
      "  first difference at ", MultiIndexText(expected.shape(), first),
      ": expected ", ElementText(expected, first), ", actual ",
      ElementText(actual, first));
  if (is_float) {
    absl::StrAppend(&result->report, ", ",
                    first_ulps.has_value() ? absl::StrCat(*first_ulps, " ULP")
                                           : std::string("NaN vs number"));
  }
  absl::StrAppend(&result->report, "\n");
  if (is_float &&
      static_cast<int64_t>(indices.size()) >= kHistogramMinElements) {
    absl::StrAppend(&result->report, HistogramText(histogram));
  }
}

void CompareAt(const Literal& expected, const Literal& actual,
               const std::string& path, const ToleranceFor& tolerance_for,
               Comparison* result) {
  const Shape& es = expected.shape();
  const Shape& as = actual.shape();
  if (es.IsTuple() || as.IsTuple()) {
    if (!es.IsTuple() || !as.IsTuple() ||
        expected.tuple_elements().size() != actual.tuple_elements().size()) {
      result->ok = false;
      absl::StrAppend(&result->report, "  ", path, " shape: expected ",
                      es.ToString(false), ", actual ", as.ToString(false),
                      "\n");
      return;
    }
    for (size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      CompareAt(expected.tuple_elements()[i], actual.tuple_elements()[i],
                absl::StrCat(path, "{", i, "}"), tolerance_for, result);
    }
    return;
  }
  if (!es.IsArray() || !as.IsArray()) {
    if (es.element_type() != as.element_type()) {
      result->ok = false;
      absl::StrAppend(&result->report, "  ", path, " expected ",
                      es.ToString(false), ", actual ", as.ToString(false),
                      "\n");
    }
    return;
  }
  if (!es.Compatible(as) ||
      expected.dynamic_sizes() != actual.dynamic_sizes()) {
    result->ok = false;
    absl::StrAppend(&result->report, "  ", path.empty() ? "" : path + " ",
                    "shape: expected ", es.ToString(false),
                    DynamicSizesToString(expected), ", actual ",
                    as.ToString(false), DynamicSizesToString(actual), "\n");
    return;
  }
  CompareArrays(expected, actual, path, tolerance_for(es.element_type()),
                result);
}

}  // namespace

std::optional<uint64_t> UlpDistance(ElementType type, uint64_t a, uint64_t b) {
  if (!IsFloatType(type)) return std::nullopt;
  if (FloatBitsIsNaN(type, a) || FloatBitsIsNaN(type, b)) return std::nullopt;
  const int64_t ka = OrderedKey(type, a);
  const int64_t kb = OrderedKey(type, b);
  return ka > kb ? static_cast<uint64_t>(ka - kb)
                 : static_cast<uint64_t>(kb - ka);
}

bool FloatElementMatches(ElementType type, uint64_t expected, uint64_t actual,
                         const Tolerance& tolerance) {
  if (expected == actual) return true;
  const bool expected_nan = FloatBitsIsNaN(type, expected);
  const bool actual_nan = FloatBitsIsNaN(type, actual);
  if (expected_nan || actual_nan) return expected_nan && actual_nan;
  if (tolerance.exact) return false;
  if (IsInf(type, expected) || IsInf(type, actual)) return false;
  std::optional<uint64_t> ulps = UlpDistance(type, expected, actual);
  if (ulps.has_value() && *ulps <= static_cast<uint64_t>(tolerance.ulps)) {
    return true;
  }
  const double e = BitsToFloat(type, expected);
  const double a = BitsToFloat(type, actual);
  return std::fabs(a - e) <= tolerance.abs + tolerance.rel * std::fabs(e);
}

Comparison CompareLiterals(const Literal& expected, const Literal& actual,
                           const ToleranceFor& tolerance_for) {
  Comparison result;
  CompareAt(expected, actual, "", tolerance_for, &result);
  return result;
}

}  // namespace kiln::conform
