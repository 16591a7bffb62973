#include "fuzz/generator/inputs.h"

#include <cmath>
#include <complex>
#include <limits>

#include "compiler/ir/element_type.h"

namespace kiln::fuzzgen {
namespace {

// The bit pattern of `value` in `type`, through a one-element literal (so
// the rounding is the IR's own).
uint64_t BitsOf(ElementType type, double value) {
  absl::StatusOr<Literal> one = Literal::Create(Shape::Scalar(type));
  if (!one.ok()) return 0;
  one->SetDouble(0, value);
  return one->GetBits(0);
}

uint64_t WidthMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

std::vector<double> FloatEdges(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  const double min_normal = std::ldexp(1.0, 1 - info.exponent_bias);
  const double min_subnormal =
      std::ldexp(1.0, 1 - info.exponent_bias - info.mantissa_bits);
  return {std::numeric_limits<double>::quiet_NaN(),
          std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(),
          -0.0,
          0.0,
          min_subnormal,
          -min_subnormal,
          min_normal,
          -min_normal,
          1e300,  // Saturates or overflows to the largest value / inf.
          -1e300,
          1.0,
          -1.0,
          0.5,
          -2.5};  // A tie of round-nearest-even vs. away from zero.
}

}  // namespace

std::vector<uint64_t> EdgeBits(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  std::vector<uint64_t> bits;
  switch (info.kind) {
    case TypeKind::kPred:
      return {0, 1};
    case TypeKind::kSigned: {
      const int w = info.bit_width;
      const uint64_t mask = WidthMask(w);
      const uint64_t min =
          (uint64_t{1} << (w - 1)) & mask;  // Two's complement.
      return {min,
              (min - 1) & mask,
              0,
              1,
              mask /* -1 */,
              uint64_t(w) & mask,
              uint64_t(w + 1) & mask,
              uint64_t(w - 1) & mask};
    }
    case TypeKind::kUnsigned: {
      const int w = info.bit_width;
      const uint64_t mask = WidthMask(w);
      return {0,
              1,
              mask,
              (mask - 1) & mask,
              uint64_t(w) & mask,
              uint64_t(w + 1) & mask,
              uint64_t(1) << (w - 1)};
    }
    case TypeKind::kFloat:
      for (double v : FloatEdges(type)) bits.push_back(BitsOf(type, v));
      // Every pattern of a 4- or 6-bit type is an edge worth having.
      bits.push_back(WidthMask(info.bit_width));
      bits.push_back(uint64_t{1} << (info.bit_width - 1));
      return bits;
    default:
      return {0};
  }
}

absl::StatusOr<Literal> RandomValue(const Shape& shape, DecisionSource& source,
                                    int edge_percent) {
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      absl::StatusOr<Literal> value =
          RandomValue(element, source, edge_percent);
      if (!value.ok()) return value.status();
      elements.push_back(*std::move(value));
    }
    return Literal::Tuple(std::move(elements));
  }
  absl::StatusOr<Literal> literal = Literal::Create(shape);
  if (!literal.ok() || !IsArrayType(shape.element_type())) return literal;
  const ElementType type = shape.element_type();
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  const int64_t count = literal->element_count();
  if (info.kind == TypeKind::kComplex) {
    const std::vector<double> edges = FloatEdges(info.component);
    auto part = [&]() {
      if (source.Chance(edge_percent)) return source.Pick(edges);
      return static_cast<double>(source.Range(-400, 400)) / 100.0;
    };
    for (int64_t i = 0; i < count; ++i) {
      const double re = part();
      literal->SetComplex(i, std::complex<double>(re, part()));
    }
    return literal;
  }
  const std::vector<uint64_t> edges = EdgeBits(type);
  const uint64_t mask = WidthMask(info.bit_width);
  for (int64_t i = 0; i < count; ++i) {
    if (source.Chance(edge_percent)) {
      literal->SetBits(i, source.Pick(edges));
    } else if (info.kind != TypeKind::kPred && source.Chance(12)) {
      literal->SetBits(i, source.Next() & mask);
    } else if (info.kind == TypeKind::kFloat && source.Chance(12)) {
      // Zeros of either sign: the commonest value of real tensors (ReLU),
      // and the one -0 rewrites get wrong.
      literal->SetDouble(i, source.Chance(50) ? 0.0 : -0.0);
    } else if (info.kind == TypeKind::kFloat) {
      literal->SetDouble(i,
                         static_cast<double>(source.Range(-400, 400)) / 100.0);
    } else if (info.kind == TypeKind::kSigned) {
      literal->SetInt64(i, source.Range(-10, 10));
    } else if (info.kind == TypeKind::kUnsigned) {
      literal->SetUint64(i, static_cast<uint64_t>(source.Range(0, 10)));
    } else {
      literal->SetBits(i, source.Below(2));
    }
  }
  return literal;
}

absl::StatusOr<std::vector<std::vector<Literal>>> RandomArguments(
    const std::vector<Shape>& parameters, int64_t devices,
    DecisionSource& source, int edge_percent) {
  std::vector<std::vector<Literal>> result(devices);
  for (std::vector<Literal>& arguments : result) {
    for (const Shape& shape : parameters) {
      // A quarter of the arguments are mostly edge values: a rewrite wrong
      // only for -0, NaN or inf needs one in the right element.
      const int percent = source.Chance(25) ? 75 : edge_percent;
      absl::StatusOr<Literal> value = RandomValue(shape, source, percent);
      if (!value.ok()) return value.status();
      arguments.push_back(*std::move(value));
    }
  }
  return result;
}

}  // namespace kiln::fuzzgen
