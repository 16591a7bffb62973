// Outfeed (its token feeds an add-dependency, so the value is observed),
// bitcast, copy-start/copy-done, ragged-dot and scaled-dot.
#include <algorithm>

#include "compiler/builder/constants.h"
#include "compiler/builder/control_flow.h"
#include "compiler/builder/linalg.h"
#include "compiler/builder/random_io.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

XlaOp GenOutfeed(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  XlaOp token =
      OutfeedWithToken(operand, AfterAll(c.b(), {}), c.ShapeOf(operand), "");
  return AddDependency(c.Any(kAnyClass), token);
}

// A bitcast that is a reshape: default layouts on both sides.
XlaOp GenBitcast(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  const Shape shape = c.ShapeOf(operand);
  Layout default_layout = Layout::Default(shape.dimensions().size());
  if (shape.has_layout() && !(shape.layout() == default_layout)) return XlaOp();
  int64_t count = 1;
  for (int64_t d : shape.dimensions()) count *= d;
  std::vector<int64_t> dims;
  if (count > 1 && c.d().Chance(50)) {
    for (int64_t f = std::min<int64_t>(count, 4); f >= 1; --f) {
      if (count % f == 0) {
        dims = {f, count / f};
        break;
      }
    }
  } else {
    dims = {count};
  }
  Shape result = Shape::Array(shape.element_type(), dims);
  result.SetDefaultLayoutIfMissing();
  return c.b()->AddInstruction(Opcode::kBitcast, {operand}, {}, result);
}

XlaOp GenCopyStartDone(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  const Shape shape = c.ShapeOf(operand);
  Shape started =
      Shape::Tuple({shape, shape, Shape::Scalar(ElementType::kU32)});
  XlaOp start =
      c.b()->AddInstruction(Opcode::kCopyStart, {operand}, {}, started);
  return c.b()->AddInstruction(Opcode::kCopyDone, {start}, {}, shape);
}

// Ragged in lhs's non-contracting dim: lhs [m, k], rhs [g, k, n], group
// sizes summing to m.
XlaOp GenRaggedDot(Context& c) {
  const ElementType type = c.Type(kFloatClass | kSignedClass);
  const int64_t m = c.Dim(), k = c.Dim(), n = c.Dim(), g = c.Dim(true);
  XlaOp lhs = c.Value(type, {m, k});
  XlaOp rhs = c.Value(type, {g, k, n});
  std::vector<int32_t> sizes(g, 0);
  for (int64_t i = 0; i < m; ++i) ++sizes[c.d().Below(g)];
  XlaOp group_sizes = ConstantR1<int32_t>(c.b(), sizes);
  RaggedDotDimensionNumbers numbers;
  numbers.dot_dimension_numbers.lhs_contracting_dimensions = {1};
  numbers.dot_dimension_numbers.rhs_contracting_dimensions = {1};
  numbers.lhs_ragged_dimensions = {0};
  numbers.rhs_group_dimensions = {0};
  return RaggedDot(lhs, rhs, group_sizes, numbers);
}

// Block scales over the contracting dimension (blocks of 2).
XlaOp GenScaledDot(Context& c) {
  const int64_t m = c.Dim(true), n = c.Dim(true), blocks = c.Dim(true);
  const bool narrow = c.d().Chance(50);
  const ElementType type = narrow ? ElementType::kF8E4M3FN : ElementType::kBF16;
  const ElementType scale =
      narrow ? ElementType::kF8E8M0FNU : ElementType::kBF16;
  const int64_t k = narrow ? 32 * blocks : 2 * blocks;
  DotDimensionNumbers numbers;
  numbers.lhs_contracting_dimensions = {1};
  numbers.rhs_contracting_dimensions = {0};
  return ScaledDot(c.Value(type, {m, k}), c.Value(scale, {m, blocks}),
                   c.Value(type, {k, n}), c.Value(scale, {blocks, n}), numbers);
}

}  // namespace

void AddIoGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"outfeed", false, GenOutfeed},
                          {"bitcast", false, GenBitcast},
                          {"copy-start", false, GenCopyStartDone},
                          {"ragged-dot", false, GenRaggedDot},
                          {"scaled-dot", false, GenScaledDot},
                      });
}

}  // namespace kiln::fuzzgen
