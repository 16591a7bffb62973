#include "fuzz/generator/context.h"

#include <algorithm>
#include <complex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/builder/computations.h"
#include "compiler/builder/constants.h"
#include "compiler/builder/elementwise.h"
#include "compiler/ir/layout.h"
#include "fuzz/generator/inputs.h"

namespace kiln::fuzzgen {
namespace {

// The types most programs use, drawn half of the time so that the common
// paths of backends get most of the cases.
constexpr ElementType kCommon[] = {
    ElementType::kPred, ElementType::kS8,   ElementType::kS32,
    ElementType::kS64,  ElementType::kU8,   ElementType::kU32,
    ElementType::kF16,  ElementType::kBF16, ElementType::kF32,
    ElementType::kF64,  ElementType::kC64};

}  // namespace

Context::Context(DecisionSource& source, const GeneratorOptions& options,
                 XlaBuilder* builder, int64_t replicas, int64_t depth)
    : source_(source),
      options_(options),
      builder_(builder),
      replicas_(replicas),
      depth_(depth) {}

ElementType Context::Type(uint8_t classes) {
  std::vector<ElementType> common;
  for (ElementType type : kCommon) {
    if (ClassOf(type) & classes) common.push_back(type);
  }
  if (!common.empty() && d().Chance(50)) return d().Pick(common);
  std::vector<ElementType> all;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (ClassOf(info.type) & classes) all.push_back(info.type);
  }
  return all.empty() ? ElementType::kF32 : d().Pick(all);
}

int64_t Context::Dim(bool non_empty) {
  if (!non_empty && d().Chance(6)) return 0;
  if (d().Chance(25)) return 1;
  return d().Range(1, options_.max_dim);
}

std::vector<int64_t> Context::Dims(int64_t min_rank, int64_t max_rank,
                                   bool non_empty) {
  if (max_rank < 0) max_rank = options_.max_rank;
  max_rank = std::max(min_rank, max_rank);
  std::vector<int64_t> dims(d().Range(min_rank, max_rank));
  for (int64_t& dim : dims) dim = Dim(non_empty);
  return dims;
}

XlaOp Context::NewParameter(const Shape& shape) {
  Shape with_layout = shape;
  const int64_t rank = shape.IsArray() ? shape.dimensions().size() : 0;
  if (rank >= 2 && d().Chance(25)) {
    with_layout.set_layout(Layout(d().Permutation(rank)));
  }
  const int64_t number = next_parameter_++;
  return Parameter(b(), number, with_layout, absl::StrCat("p", number));
}

XlaOp Context::Constant(ElementType type, const std::vector<int64_t>& dims) {
  absl::StatusOr<Literal> value = RandomValue(Shape::Array(type, dims), d());
  if (!value.ok()) return b()->ReportError(value.status());
  // A quarter of the constants hold one value everywhere (SplatConstant).
  if (value->element_count() > 0 && d().Chance(25)) Splat(*value);
  return ConstantLiteral(b(), *std::move(value));
}

XlaOp Context::SplatConstant(ElementType type,
                             const std::vector<int64_t>& dims) {
  absl::StatusOr<Literal> value = RandomValue(Shape::Array(type, dims), d());
  if (!value.ok()) return b()->ReportError(value.status());
  if (value->element_count() > 0) Splat(*value);
  return ConstantLiteral(b(), *std::move(value));
}

void Context::Splat(Literal& value) {
  // Most often 0 (twice as often), 1 or -1: the identities and absorbing values
  // algebraic rewrites match, which random elements almost never are; else the
  // first element (an edge value a quarter of the time) everywhere.
  const int64_t which = d().Below(5);
  const bool complex = ClassOf(value.element_type()) == kComplexClass;
  const std::complex<double> first =
      complex ? value.GetComplex(0) : std::complex<double>();
  const uint64_t first_bits = complex ? 0 : value.GetBits(0);
  constexpr double kNotable[] = {0, 0, 1, -1};
  for (int64_t i = 0; i < value.element_count(); ++i) {
    if (complex) {
      value.SetComplex(i, which < 4 ? kNotable[which] : first);
    } else if (which < 4) {
      value.SetDouble(i, kNotable[which]);
    } else {
      value.SetBits(i, first_bits);
    }
  }
}

XlaOp Context::Leaf(ElementType type, const std::vector<int64_t>& dims) {
  XlaOp leaf = d().Chance(80) ? NewParameter(Shape::Array(type, dims))
                              : Constant(type, dims);
  pool_.push_back(leaf);
  return leaf;
}

XlaOp Context::ScalarConstant(ElementType type, double value) {
  absl::StatusOr<Literal> literal = Literal::Create(Shape::Scalar(type));
  if (!literal.ok()) return b()->ReportError(literal.status());
  if (ClassOf(type) == kComplexClass) {
    literal->SetComplex(0, value);
  } else {
    literal->SetDouble(0, value);
  }
  return ConstantLiteral(b(), *std::move(literal));
}

XlaOp Context::IndexScalar(int64_t lo, int64_t hi) {
  constexpr ElementType kIndexTypes[] = {ElementType::kS32, ElementType::kS64,
                                         ElementType::kU32};
  const ElementType type = d().Pick(absl::MakeConstSpan(kIndexTypes));
  if (d().Chance(20)) return NewParameter(Shape::Scalar(type));
  return ScalarConstant(type, static_cast<double>(d().Range(lo, hi)));
}

Shape Context::ShapeOf(XlaOp op) const {
  absl::StatusOr<Shape> shape = builder_->GetShape(op);
  return shape.ok() ? *shape : Shape::Scalar(ElementType::kF32);
}

XlaOp Context::Value(ElementType type, const std::vector<int64_t>& dims) {
  std::vector<XlaOp> matches;
  for (XlaOp op : pool_) {
    const Shape shape = ShapeOf(op);
    if (shape.element_type() == type && shape.dimensions() == dims) {
      matches.push_back(op);
    }
  }
  if (!matches.empty() && d().Chance(70)) return d().Pick(matches);
  return Leaf(type, dims);
}

XlaOp Context::Any(uint8_t classes, int64_t min_rank, int64_t max_rank,
                   bool non_empty) {
  if (max_rank < 0) max_rank = options_.max_rank;
  std::vector<XlaOp> matches;
  for (XlaOp op : pool_) {
    const Shape shape = ShapeOf(op);
    const int64_t rank = shape.dimensions().size();
    if (!shape.IsArray() || !(ClassOf(shape.element_type()) & classes) ||
        rank < min_rank || rank > max_rank) {
      continue;
    }
    if (non_empty && std::count(shape.dimensions().begin(),
                                shape.dimensions().end(), 0) > 0) {
      continue;
    }
    matches.push_back(op);
  }
  if (!matches.empty() && d().Chance(75)) return d().Pick(matches);
  return Leaf(Type(classes), Dims(min_rank, max_rank, non_empty));
}

void Context::Add(XlaOp op) {
  if (!op.valid()) return;
  results_.push_back(op);
  // Values with dynamic dimensions (set-dimension-size, dynamic-reshape)
  // end in the root only: the other generators build for static shapes.
  const Shape shape = ShapeOf(op);
  if (shape.IsArray() && shape.is_static()) pool_.push_back(op);
}

XlaComputation Context::Combiner(ElementType type, bool order_free) {
  const uint8_t type_class = ClassOf(type);
  std::vector<int> kinds;  // 0 add, 1 mul, 2 max, 3 min, 4 and, 5 or, 6 xor
  if (type_class == kFloatClass) {
    kinds = order_free ? std::vector<int>{2, 3} : std::vector<int>{0, 1, 2, 3};
  } else if (type_class == kComplexClass) {
    kinds = {0, 1};
  } else if (type_class == kPredClass) {
    kinds = {4, 5, 6};
  } else {
    kinds = {0, 1, 2, 3, 4, 5, 6};
  }
  const int kind = d().Pick(kinds);
  if (kind == 0) return CreateScalarAddComputation(type, b());
  if (kind == 1) return CreateScalarMultiplyComputation(type, b());
  if (kind == 2) return CreateScalarMaxComputation(type, b());
  if (kind == 3) return CreateScalarMinComputation(type, b());
  if (kind == 4) return CreateScalarAndComputation(type, b());
  if (kind == 5) return CreateScalarOrComputation(type, b());
  std::unique_ptr<XlaBuilder> sub = b()->CreateSubBuilder("xor");
  XlaOp x = Parameter(sub.get(), 0, Shape::Scalar(type), "x");
  XlaOp y = Parameter(sub.get(), 1, Shape::Scalar(type), "y");
  Xor(x, y);
  absl::StatusOr<XlaComputation> built = sub->Build();
  if (!built.ok()) {
    b()->ReportError(built.status());
    return CreateScalarAddComputation(type, b());
  }
  return *std::move(built);
}

XlaOp Context::SameTypeOp(XlaOp a, XlaOp b) {
  const uint8_t type_class = ClassOf(TypeOf(a));
  using Binary = XlaOp (*)(XlaOp, XlaOp, absl::Span<const int64_t>);
  std::vector<Binary> ops;
  if (type_class == kPredClass) {
    ops = {kiln::And, kiln::Or, kiln::Xor};
  } else if (type_class == kFloatClass) {
    ops = {kiln::Add, kiln::Sub, kiln::Mul,   kiln::Div, kiln::Max,
           kiln::Min, kiln::Pow, kiln::Atan2, kiln::Rem};
  } else if (type_class == kComplexClass) {
    ops = {kiln::Add, kiln::Sub, kiln::Mul, kiln::Div};
  } else {
    ops = {kiln::Add,
           kiln::Sub,
           kiln::Mul,
           kiln::Div,
           kiln::Rem,
           kiln::Max,
           kiln::Min,
           kiln::And,
           kiln::Or,
           kiln::Xor,
           kiln::ShiftLeft,
           kiln::ShiftRightLogical,
           kiln::ShiftRightArithmetic};
  }
  if (d().Chance(25)) {
    if (type_class & (kFloatClass | kSignedClass)) {
      return d().Chance(50) ? Neg(a) : Abs(a);
    }
    if (type_class == kComplexClass) return Neg(a);
    if (type_class & (kIntClasses | kPredClass)) return Not(a);
  }
  return d().Pick(ops)(a, b, {});
}

XlaComputation Context::Body(ElementType type, const std::vector<int64_t>& dims,
                             int64_t arity) {
  std::unique_ptr<XlaBuilder> sub = b()->CreateSubBuilder("body");
  std::vector<XlaOp> params;
  for (int64_t i = 0; i < arity; ++i) {
    params.push_back(Parameter(sub.get(), i, Shape::Array(type, dims),
                               absl::StrCat("x", i)));
  }
  Context inner(d(), options_, sub.get(), replicas_, depth_ + 1);
  // Any parameter first, on either side: the body reads its parameters in
  // any order (an inliner or fusion mixing up parameter numbers shows).
  XlaOp value = d().Pick(params);
  const int64_t steps = d().Range(1, 3);
  for (int64_t i = 0; i < steps; ++i) {
    XlaOp other = d().Pick(params);
    if (dims.empty() && d().Chance(15)) {
      other = inner.ScalarConstant(type, d().Range(-2, 3));
    }
    value = d().Chance(50) ? inner.SameTypeOp(value, other)
                           : inner.SameTypeOp(other, value);
  }
  absl::StatusOr<XlaComputation> built = sub->Build(value);
  if (!built.ok()) {
    b()->ReportError(built.status());
    return CreateScalarAddComputation(type, b());
  }
  return *std::move(built);
}

XlaComputation Context::Comparator(const std::vector<ElementType>& types) {
  std::unique_ptr<XlaBuilder> sub = b()->CreateSubBuilder("compare");
  std::vector<XlaOp> params;
  for (size_t i = 0; i < types.size(); ++i) {
    params.push_back(Parameter(sub.get(), 2 * i, Shape::Scalar(types[i]),
                               absl::StrCat("l", i)));
    params.push_back(Parameter(sub.get(), 2 * i + 1, Shape::Scalar(types[i]),
                               absl::StrCat("r", i)));
  }
  // The key: any operand that is not complex (complex has no order).
  std::vector<int64_t> keys;
  for (size_t i = 0; i < types.size(); ++i) {
    if (ClassOf(types[i]) != kComplexClass) keys.push_back(i);
  }
  const int64_t key = keys.empty() ? 0 : d().Pick(keys);
  const bool less = d().Chance(50);
  XlaOp lhs = params[2 * key];
  XlaOp rhs = params[2 * key + 1];
  XlaOp result;
  if (ClassOf(types[key]) == kFloatClass) {
    result = less ? LtTotalOrder(lhs, rhs) : GtTotalOrder(lhs, rhs);
  } else {
    result = less ? Lt(lhs, rhs) : Gt(lhs, rhs);
  }
  absl::StatusOr<XlaComputation> built = sub->Build(result);
  if (!built.ok()) {
    b()->ReportError(built.status());
    return CreateScalarLtComputation(types, b());
  }
  return *std::move(built);
}

}  // namespace kiln::fuzzgen
