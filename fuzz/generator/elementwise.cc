// Elementwise ops: unary, binary (with client-form broadcasting), compare,
// select, clamp and the conversions.
#include "compiler/builder/elementwise.h"

#include <algorithm>

#include "compiler/ops/attr_enums.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

using Unary = XlaOp (*)(XlaOp);
using Binary = XlaOp (*)(XlaOp, XlaOp, absl::Span<const int64_t>);

template <Unary op, uint8_t classes>
XlaOp GenUnary(Context& c) {
  return op(c.Any(classes));
}

// The second operand of a binary op on `lhs`: the same shape, or a client
// form the broadcasting rules accept: a scalar, an operand of some of
// lhs's dimensions with broadcast_dimensions naming them, or the same rank
// with some dimensions of size 1. `swap` says whether the lower-rank
// operand goes first.
struct Pair {
  XlaOp lhs, rhs;
  std::vector<int64_t> broadcast_dimensions;
};

Pair BinaryOperands(Context& c, uint8_t classes, int64_t form_percent = 30) {
  XlaOp lhs = c.Any(classes);
  const ElementType type = c.TypeOf(lhs);
  const std::vector<int64_t> dims = c.DimsOf(lhs);
  Pair pair{lhs, XlaOp(), {}};
  if (!c.d().Chance(form_percent) || dims.empty()) {
    // Now and then the operand itself or one value everywhere (0, 1, -1,
    // ...): the identities algebraic rewrites match (x - x, x == x, x + 0,
    // x * 1, x * 0), which random operands almost never are.
    const int64_t special = c.d().Below(10);
    if (special == 0) {
      pair.rhs = lhs;
    } else if (special <= 2) {
      pair.rhs = c.SplatConstant(type, dims);
      if (c.d().Chance(50)) std::swap(pair.lhs, pair.rhs);
    } else {
      pair.rhs = c.Value(type, dims);
    }
  } else {
    const int form = static_cast<int>(c.d().Below(3));
    if (form == 0) {
      pair.rhs = c.Value(type, {});
    } else if (form == 1) {
      std::vector<int64_t> kept =
          c.d().Subset(dims.size(), c.d().Range(0, dims.size()));
      std::vector<int64_t> small;
      for (int64_t d : kept) small.push_back(dims[d]);
      pair.rhs = c.Value(type, small);
      pair.broadcast_dimensions = kept;
    } else {
      std::vector<int64_t> small = dims;
      for (int64_t& d : small) {
        if (c.d().Chance(50)) d = 1;
      }
      pair.rhs = c.Value(type, small);
    }
    if (c.d().Chance(50)) std::swap(pair.lhs, pair.rhs);
  }
  return pair;
}

template <Binary op, uint8_t classes>
XlaOp GenBinary(Context& c) {
  Pair p = BinaryOperands(c, classes);
  return op(p.lhs, p.rhs, p.broadcast_dimensions);
}

XlaOp GenCompare(Context& c) {
  Pair p = BinaryOperands(c, kAnyClass);
  const ElementType type = c.TypeOf(p.lhs);
  const uint8_t type_class = ClassOf(type);
  constexpr ComparisonDirection kAll[] = {
      ComparisonDirection::kEq, ComparisonDirection::kNe,
      ComparisonDirection::kGe, ComparisonDirection::kGt,
      ComparisonDirection::kLe, ComparisonDirection::kLt};
  ComparisonDirection direction = type_class == kComplexClass
                                      ? (c.d().Chance(50) ? kAll[0] : kAll[1])
                                      : c.d().Pick(absl::MakeConstSpan(kAll));
  std::optional<ComparisonType> compare_type;
  if (type_class == kFloatClass && c.d().Chance(40)) {
    compare_type = ComparisonType::kTotalOrder;
  }
  return Compare(p.lhs, p.rhs, p.broadcast_dimensions, direction, compare_type);
}

XlaOp GenSelect(Context& c) {
  XlaOp on_true = c.Any(kAnyClass);
  const std::vector<int64_t> dims = c.DimsOf(on_true);
  XlaOp on_false = c.Value(c.TypeOf(on_true), dims);
  XlaOp pred = c.d().Chance(25) ? c.Value(ElementType::kPred, {})
                                : c.Value(ElementType::kPred, dims);
  return Select(pred, on_true, on_false);
}

XlaOp GenClamp(Context& c) {
  XlaOp operand = c.Any(kPredClass | kRealNumeric);
  const ElementType type = c.TypeOf(operand);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  XlaOp lo = c.d().Chance(50) ? c.Value(type, {}) : c.Value(type, dims);
  XlaOp hi = c.d().Chance(50) ? c.Value(type, {}) : c.Value(type, dims);
  return Clamp(lo, operand, hi);
}

XlaOp GenConvert(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  // Complex converts only to complex (real and imag take the parts).
  const bool complex = ClassOf(c.TypeOf(operand)) == kComplexClass;
  return ConvertElementType(
      operand, c.Type(complex ? uint8_t{kComplexClass} : kAnyClass));
}

XlaOp GenBitcastConvert(Context& c) {
  XlaOp operand = c.Any(kNumeric);
  const ElementType from = c.TypeOf(operand);
  const int width = BitWidth(from);
  // Same width (no new dimension), or a wider source split into a trailing
  // dimension of narrower elements.
  std::vector<ElementType> targets;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (ClassOf(info.type) == 0 || ClassOf(info.type) == kPredClass) continue;
    if (info.bit_width == width ||
        (info.bit_width >= 8 && width % info.bit_width == 0)) {
      targets.push_back(info.type);
    }
  }
  if (targets.empty()) return XlaOp();
  return BitcastConvertType(operand, c.d().Pick(targets));
}

XlaOp GenReducePrecision(Context& c) {
  XlaOp operand = c.Any(kFloatClass);
  return ReducePrecision(operand, c.d().Range(1, 8), c.d().Range(0, 10));
}

XlaOp GenComplex(Context& c) {
  const ElementType part =
      c.d().Chance(50) ? ElementType::kF32 : ElementType::kF64;
  const std::vector<int64_t> dims = c.Dims(0, -1);
  return Complex(c.Value(part, dims), c.Value(part, dims));
}

XlaOp GenStochasticConvert(Context& c) {
  XlaOp operand = c.Any(kFloatClass);
  const ElementType from = c.TypeOf(operand);
  ElementType bits_type = ElementType::kInvalid;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (info.kind == TypeKind::kUnsigned && info.bit_width == BitWidth(from)) {
      bits_type = info.type;
    }
  }
  if (bits_type == ElementType::kInvalid) return XlaOp();
  XlaOp random = c.Value(bits_type, c.DimsOf(operand));
  return StochasticConvertType(operand, random, c.Type(kSignedClass));
}

}  // namespace

void AddElementwiseGenerators(std::vector<OpGenerator>* g) {
  constexpr uint8_t kFC = kFloatOrComplex;
  g->insert(
      g->end(),
      {
          {"abs", false, GenUnary<Abs, kSignedClass | kFC>},
          {"acos", false, GenUnary<Acos, kFC>},
          {"acosh", false, GenUnary<Acosh, kFC>},
          {"asin", false, GenUnary<Asin, kFC>},
          {"asinh", false, GenUnary<Asinh, kFC>},
          {"atan", false, GenUnary<Atan, kFC>},
          {"atanh", false, GenUnary<Atanh, kFC>},
          {"cbrt", false, GenUnary<Cbrt, kFC>},
          {"ceil", false, GenUnary<Ceil, kFloatClass>},
          {"count-leading-zeros", false, GenUnary<Clz, kIntClasses>},
          {"copy", false, GenUnary<Copy, kAnyClass>},
          {"cosine", false, GenUnary<Cos, kFC>},
          {"cosh", false, GenUnary<Cosh, kFC>},
          {"erf", false, GenUnary<Erf, kFloatClass>},
          {"exponential", false, GenUnary<Exp, kFC>},
          {"exponential-minus-one", false, GenUnary<Expm1, kFC>},
          {"floor", false, GenUnary<Floor, kFloatClass>},
          {"imag", false, GenUnary<Imag, kFC>},
          {"is-finite", false, GenUnary<IsFinite, kFloatClass>},
          {"log", false, GenUnary<Log, kFC>},
          {"log-plus-one", false, GenUnary<Log1p, kFC>},
          {"logistic", false, GenUnary<Logistic, kFC>},
          {"negate", false, GenUnary<Neg, kNumeric>},
          {"not", false, GenUnary<Not, kPredClass | kIntClasses>},
          {"popcnt", false, GenUnary<PopulationCount, kIntClasses>},
          {"real", false, GenUnary<Real, kFC>},
          {"round-nearest-afz", false, GenUnary<RoundNearestAfz, kFloatClass>},
          {"round-nearest-even", false,
           GenUnary<RoundNearestEven, kFloatClass>},
          {"rsqrt", false, GenUnary<Rsqrt, kFC>},
          {"sign", false, GenUnary<Sign, kSignedClass | kFC>},
          {"sine", false, GenUnary<Sin, kFC>},
          {"sinh", false, GenUnary<Sinh, kFC>},
          {"sqrt", false, GenUnary<Sqrt, kFC>},
          {"tan", false, GenUnary<Tan, kFC>},
          {"tanh", false, GenUnary<Tanh, kFC>},
          {"add", false, GenBinary<Add, kAnyClass>},
          {"subtract", false, GenBinary<Sub, kNumeric>},
          {"multiply", false, GenBinary<Mul, kAnyClass>},
          {"divide", false, GenBinary<Div, kNumeric>},
          {"remainder", false, GenBinary<Rem, kRealNumeric>},
          {"maximum", false, GenBinary<Max, kPredClass | kRealNumeric>},
          {"minimum", false, GenBinary<Min, kPredClass | kRealNumeric>},
          {"power", false, GenBinary<Pow, kNumeric>},
          {"atan2", false, GenBinary<Atan2, kFC>},
          {"and", false, GenBinary<And, kPredClass | kIntClasses>},
          {"or", false, GenBinary<Or, kPredClass | kIntClasses>},
          {"xor", false, GenBinary<Xor, kPredClass | kIntClasses>},
          {"shift-left", false, GenBinary<ShiftLeft, kIntClasses>},
          {"shift-right-arithmetic", false,
           GenBinary<ShiftRightArithmetic, kIntClasses>},
          {"shift-right-logical", false,
           GenBinary<ShiftRightLogical, kIntClasses>},
          {"compare", false, GenCompare},
          {"select", false, GenSelect},
          {"clamp", false, GenClamp},
          {"convert", false, GenConvert},
          {"bitcast-convert", false, GenBitcastConvert},
          {"reduce-precision", false, GenReducePrecision},
          {"complex", false, GenComplex},
          {"stochastic-convert", false, GenStochasticConvert},
      });
}

}  // namespace kiln::fuzzgen
