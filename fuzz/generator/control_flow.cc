// Control flow and the ops around it: while (bounded trip count),
// conditional (predicate and branch index), call, opt-barrier, and the
// token ops after-all and add-dependency.
#include "compiler/builder/control_flow.h"

#include "compiler/builder/constants.h"
#include "compiler/builder/data_movement.h"
#include "compiler/builder/elementwise.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

// while ((i, v)): cond i < trips; body (i + 1, f(v)).
XlaOp GenWhile(Context& c) {
  XlaOp value = c.Any(kAnyClass);
  const Shape shape = c.ShapeOf(value);
  const ElementType type = shape.element_type();
  const std::vector<int64_t> dims = shape.dimensions();
  const Shape counter = Shape::Scalar(ElementType::kS32);
  const Shape state = Shape::Tuple({counter, Shape::Array(type, dims)});
  const int64_t trips = c.d().Range(0, 3);

  std::unique_ptr<XlaBuilder> cond = c.b()->CreateSubBuilder("cond");
  XlaOp cs = Parameter(cond.get(), 0, state, "state");
  Lt(GetTupleElement(cs, 0), ConstantR0<int32_t>(cond.get(), trips));
  absl::StatusOr<XlaComputation> cond_c = cond->Build();
  if (!cond_c.ok()) return c.b()->ReportError(cond_c.status());

  XlaComputation step = c.Body(type, dims, 1);
  std::unique_ptr<XlaBuilder> body = c.b()->CreateSubBuilder("body");
  XlaOp bs = Parameter(body.get(), 0, state, "state");
  XlaOp i = GetTupleElement(bs, 0);
  XlaOp v = GetTupleElement(bs, 1);
  Tuple(body.get(), {Add(i, ConstantR0<int32_t>(body.get(), 1)),
                     Call(body.get(), step, {v})});
  absl::StatusOr<XlaComputation> body_c = body->Build();
  if (!body_c.ok()) return c.b()->ReportError(body_c.status());

  XlaOp init = Tuple(c.b(), {c.ScalarConstant(ElementType::kS32, 0), value});
  XlaOp loop = While(*cond_c, *body_c, init);
  return GetTupleElement(loop, c.d().Below(2));
}

XlaOp GenConditional(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  const ElementType type = c.TypeOf(operand);
  const std::vector<int64_t> dims = c.DimsOf(operand);
  if (c.d().Chance(50)) {
    XlaComputation on_true = c.Body(type, dims, 1);
    XlaComputation on_false = c.Body(type, dims, 1);
    XlaOp other = c.Value(type, dims);
    return Conditional(c.Value(ElementType::kPred, {}), operand, on_true, other,
                       on_false);
  }
  const int64_t count = c.d().Range(1, 3);
  std::vector<XlaComputation> branches;
  std::vector<XlaOp> operands;
  for (int64_t i = 0; i < count; ++i) {
    branches.push_back(c.Body(type, dims, 1));
    operands.push_back(i == 0 ? operand : c.Value(type, dims));
  }
  std::vector<const XlaComputation*> pointers;
  for (const XlaComputation& branch : branches) pointers.push_back(&branch);
  // Any s32: out of range picks the last branch.
  XlaOp index = c.d().Chance(50) ? c.Value(ElementType::kS32, {})
                                 : c.ScalarConstant(ElementType::kS32,
                                                    c.d().Range(-1, count));
  return Conditional(index, pointers, operands);
}

XlaOp GenCall(Context& c) {
  XlaOp first = c.Any(kAnyClass);
  const ElementType type = c.TypeOf(first);
  const std::vector<int64_t> dims = c.DimsOf(first);
  const int64_t arity = c.d().Range(1, 2);
  std::vector<XlaOp> operands = {first};
  if (arity == 2) operands.push_back(c.Value(type, dims));
  return Call(c.b(), c.Body(type, dims, arity), operands);
}

XlaOp GenOptimizationBarrier(Context& c) {
  XlaOp a = c.Any(kAnyClass);
  XlaOp b = c.Any(kAnyClass);
  XlaOp barrier = OptimizationBarrier(Tuple(c.b(), {a, b}));
  return GetTupleElement(barrier, c.d().Below(2));
}

XlaOp GenAddDependency(Context& c) {
  XlaOp t0 = AfterAll(c.b(), {});
  XlaOp t1 = AfterAll(c.b(), {t0, AfterAll(c.b(), {})});
  return AddDependency(c.Any(kAnyClass), t1);
}

}  // namespace

void AddControlFlowGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"while", false, GenWhile},
                          {"conditional", false, GenConditional},
                          {"call", false, GenCall},
                          {"opt-barrier", false, GenOptimizationBarrier},
                          {"add-dependency", false, GenAddDependency},
                      });
}

}  // namespace kiln::fuzzgen
