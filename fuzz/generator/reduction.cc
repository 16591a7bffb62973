// Reductions and the ops that apply a computation: reduce (one and several
// operands), reduce-window, select-and-scatter, sort, topk, map, scan.
#include "compiler/builder/reduction.h"

#include <algorithm>

#include "compiler/builder/constants.h"
#include "compiler/builder/data_movement.h"
#include "compiler/builder/elementwise.h"
#include "fuzz/generator/ops.h"
#include "fuzz/generator/window.h"

namespace kiln::fuzzgen {
namespace {

XlaOp GenReduce(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const ElementType type = c.TypeOf(operand);
  const int64_t rank = c.DimsOf(operand).size();
  std::vector<int64_t> dims = c.d().Subset(rank, c.d().Range(0, rank));
  return Reduce(operand, c.Value(type, {}), c.Combiner(type), dims);
}

// Two operands reduced together: an argmax (value, index) pair with a
// comparator-like body that picks the larger value and, on ties, the
// smaller index, so the result does not depend on the order.
XlaOp GenReduceVariadic(Context& c) {
  XlaOp values = c.Any(kIntClasses | kFloatClass, 1);
  const ElementType type = c.TypeOf(values);
  const std::vector<int64_t> dims = c.DimsOf(values);
  const int64_t dimension = c.d().Below(dims.size());
  XlaOp index = Iota(c.b(), Shape::Array(ElementType::kS32, dims), dimension);
  std::unique_ptr<XlaBuilder> sub = c.b()->CreateSubBuilder("argmax");
  XlaOp av = Parameter(sub.get(), 0, Shape::Scalar(type), "av");
  XlaOp ai = Parameter(sub.get(), 1, Shape::Scalar(ElementType::kS32), "ai");
  XlaOp bv = Parameter(sub.get(), 2, Shape::Scalar(type), "bv");
  XlaOp bi = Parameter(sub.get(), 3, Shape::Scalar(ElementType::kS32), "bi");
  const bool is_float = ClassOf(type) == kFloatClass;
  XlaOp a_gt = is_float ? GtTotalOrder(av, bv) : Gt(av, bv);
  XlaOp eq = is_float ? EqTotalOrder(av, bv) : Eq(av, bv);
  XlaOp take_a = Or(a_gt, And(eq, Lt(ai, bi)));
  Tuple(sub.get(), {Select(take_a, av, bv), Select(take_a, ai, bi)});
  absl::StatusOr<XlaComputation> body = sub->Build();
  if (!body.ok()) return c.b()->ReportError(body.status());
  XlaOp init_v = c.Value(type, {});
  XlaOp init_i = c.ScalarConstant(ElementType::kS32, -1);
  XlaOp reduced =
      Reduce(c.b(), {values, index}, {init_v, init_i}, *body, {dimension});
  return GetTupleElement(reduced, c.d().Below(2));
}

XlaOp GenReduceWindow(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const ElementType type = c.TypeOf(operand);
  Window w = RandomWindow(c, c.DimsOf(operand), /*dilations=*/true);
  return ReduceWindowWithGeneralPadding(
      operand, c.Value(type, {}), c.Combiner(type), w.dimensions, w.strides,
      w.base_dilations, w.window_dilations, w.padding);
}

XlaOp GenSelectAndScatter(Context& c) {
  XlaOp operand = c.Any(kRealNumeric, 1);
  const ElementType type = c.TypeOf(operand);
  Window w = RandomWindow(c, c.DimsOf(operand), /*dilations=*/false);
  std::unique_ptr<XlaBuilder> sub = c.b()->CreateSubBuilder("select");
  XlaOp a = Parameter(sub.get(), 0, Shape::Scalar(type), "a");
  XlaOp b = Parameter(sub.get(), 1, Shape::Scalar(type), "b");
  if (c.d().Chance(50)) {
    Ge(a, b);
  } else {
    Le(a, b);
  }
  absl::StatusOr<XlaComputation> select = sub->Build();
  if (!select.ok()) return c.b()->ReportError(select.status());
  XlaOp source = c.Value(type, w.output);
  return SelectAndScatterWithGeneralPadding(
      operand, *select, w.dimensions, w.strides, w.padding, source,
      c.Value(type, {}), c.Combiner(type, /*order_free=*/true));
}

XlaOp GenSort(Context& c) {
  XlaOp first = c.Any(kPredClass | kRealNumeric, 1);
  const std::vector<int64_t> dims = c.DimsOf(first);
  std::vector<XlaOp> operands = {first};
  std::vector<ElementType> types = {c.TypeOf(first)};
  const int64_t more = c.d().Range(0, 2);
  for (int64_t i = 0; i < more; ++i) {
    operands.push_back(c.Value(c.Type(kAnyClass), dims));
    types.push_back(c.TypeOf(operands.back()));
  }
  XlaComputation comparator = c.Comparator(types);
  // With several operands, an unstable sort may order the others of equal
  // keys either way; only a stable one has one right answer.
  const bool stable = more > 0 || c.d().Chance(50);
  // Along a dimension with two or more elements when there is one: a sort
  // along a size-1 dimension is the identity.
  std::vector<int64_t> long_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] >= 2) long_dims.push_back(static_cast<int64_t>(d));
  }
  const int64_t dimension = !long_dims.empty() && c.d().Chance(80)
                                ? c.d().Pick(long_dims)
                                : c.d().Below(dims.size());
  XlaOp sorted = Sort(operands, comparator, dimension, stable);
  return more == 0 ? sorted : GetTupleElement(sorted, c.d().Below(more + 1));
}

XlaOp GenTopK(Context& c) {
  XlaOp operand = c.Any(kRealNumeric, 1);
  const int64_t last = c.DimsOf(operand).back();
  XlaOp topk = TopK(operand, c.d().Range(0, last), c.d().Chance(70));
  return GetTupleElement(topk, c.d().Below(2));
}

XlaOp GenMap(Context& c) {
  XlaOp first = c.Any(kAnyClass);
  const ElementType type = c.TypeOf(first);
  const std::vector<int64_t> dims = c.DimsOf(first);
  const int64_t arity = c.d().Range(1, 2);
  std::vector<XlaOp> operands = {first};
  if (arity == 2) operands.push_back(c.Value(type, dims));
  std::vector<int64_t> all(dims.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return Map(c.b(), operands, c.ScalarBody(type, arity), all);
}

XlaOp GenScan(Context& c) {
  XlaOp input = c.Any(kIntClasses | kFloatClass, 1, 1);
  const ElementType type = c.TypeOf(input);
  std::unique_ptr<XlaBuilder> sub = c.b()->CreateSubBuilder("scan_body");
  XlaOp x = Parameter(sub.get(), 0, Shape::Scalar(type), "x");
  XlaOp carry = Parameter(sub.get(), 1, Shape::Scalar(type), "carry");
  XlaOp next = c.d().Chance(50) ? Add(x, carry) : Max(x, carry);
  Tuple(sub.get(), {next, next});
  absl::StatusOr<XlaComputation> body = sub->Build();
  if (!body.ok()) return c.b()->ReportError(body.status());
  XlaOp scanned =
      Scan({input}, {c.Value(type, {})}, *body, 0, c.d().Chance(30));
  return GetTupleElement(scanned, c.d().Below(2));
}

}  // namespace

void AddReductionGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"reduce", false, GenReduce},
                          {"reduce.variadic", false, GenReduceVariadic},
                          {"reduce-window", false, GenReduceWindow},
                          {"select-and-scatter", false, GenSelectAndScatter},
                          {"sort", false, GenSort},
                          {"topk", false, GenTopK},
                          {"map", false, GenMap},
                          {"scan", false, GenScan},
                      });
}

}  // namespace kiln::fuzzgen
