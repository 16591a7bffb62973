#include "compiler/builder/control_flow.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compiler/builder/computations.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;

constexpr ElementType kF32 = ElementType::kF32;

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(kF32, std::move(dims));
}
Shape S32() { return Shape::Scalar(ElementType::kS32); }
Shape Pred() { return Shape::Scalar(ElementType::kPred); }
Shape State() { return Shape::Tuple({S32(), F32({4})}); }

std::string ShapeOf(const XlaBuilder& b, XlaOp op) {
  if (!op.valid()) return "error: " + std::string(b.first_error().message());
  return op.instruction()->shape().ToString(false);
}

std::string ErrorOf(const XlaBuilder& b) {
  return std::string(b.first_error().message());
}

XlaComputation BuildOrFail(XlaBuilder* b) {
  absl::StatusOr<XlaComputation> built = b->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  return *std::move(built);
}

XlaOp Gte(XlaBuilder* b, XlaOp tuple, int64_t index) {
  AttributeMap attrs;
  attrs.Set("index", index);
  return b->AddInstruction(Opcode::kGetTupleElement, {tuple}, std::move(attrs));
}

XlaOp Compare(XlaBuilder* b, XlaOp lhs, XlaOp rhs, const char* direction) {
  AttributeMap attrs;
  attrs.Set("direction", EnumValue{direction});
  return b->AddInstruction(Opcode::kCompare, {lhs, rhs}, std::move(attrs));
}

// (s32[], f32[4]) -> pred[]: the counter is below 10.
XlaComputation CounterBelowTen(XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("cond");
  XlaOp state = Parameter(sub.get(), 0, State(), "state");
  XlaOp ten = ConstantLiteral(sub.get(), Literal::ScalarS32(10));
  Compare(sub.get(), Gte(sub.get(), state, 0), ten, "LT");
  return BuildOrFail(sub.get());
}

// (s32[], f32[4]) -> (s32[], f32[4]): counter + 1, values doubled. With
// `drop_values` the body returns only the counter, a wrong signature.
XlaComputation Step(XlaBuilder* parent, bool drop_values = false) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("body");
  XlaOp state = Parameter(sub.get(), 0, State(), "state");
  XlaOp one = ConstantLiteral(sub.get(), Literal::ScalarS32(1));
  XlaOp count =
      sub->AddInstruction(Opcode::kAdd, {Gte(sub.get(), state, 0), one}, {});
  XlaOp values = Gte(sub.get(), state, 1);
  XlaOp doubled = sub->AddInstruction(Opcode::kAdd, {values, values}, {});
  if (!drop_values) sub->AddInstruction(Opcode::kTuple, {count, doubled}, {});
  return BuildOrFail(sub.get());
}

// `shape` -> `shape`: the negation of an array.
XlaComputation Negate(XlaBuilder* parent, const Shape& shape) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("negate");
  XlaOp x = Parameter(sub.get(), 0, shape, "x");
  sub->AddInstruction(Opcode::kNegate, {x}, {});
  return BuildOrFail(sub.get());
}

// (f32[4], f32[4]) tuple -> f32[4]: the sum of the two.
XlaComputation SumPair(XlaBuilder* parent) {
  std::unique_ptr<XlaBuilder> sub = parent->CreateSubBuilder("sum_pair");
  XlaOp pair =
      Parameter(sub.get(), 0, Shape::Tuple({F32({4}), F32({4})}), "pair");
  sub->AddInstruction(Opcode::kAdd,
                      {Gte(sub.get(), pair, 0), Gte(sub.get(), pair, 1)}, {});
  return BuildOrFail(sub.get());
}

// Prints, reparses (checking every declared shape), verifies and reprints.
std::string RoundTrip(XlaBuilder* b, std::unique_ptr<Module>* out = nullptr) {
  absl::StatusOr<XlaComputation> built = b->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return "";
  absl::Status verified = VerifyModule(**reparsed);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  EXPECT_EQ(PrintModule(**reparsed), text);
  if (out != nullptr) *out = std::move(module);
  return text;
}

TEST(WhileTest, ResultIsTheLoopState) {
  XlaBuilder b("loop");
  XlaOp init = Parameter(&b, 0, State(), "init");
  const XlaComputation condition = CounterBelowTen(&b);
  const XlaComputation body = Step(&b);
  XlaOp loop = While(condition, body, init);
  EXPECT_EQ(ShapeOf(b, loop), "(s32[], f32[4])");
  const std::string text = RoundTrip(&b);
  EXPECT_THAT(text, HasSubstr("condition=%loop.cond.1, body=%loop.body.2"));
}

TEST(WhileTest, RejectsABodyWhoseResultDiffersFromTheState) {
  XlaBuilder b("bad");
  XlaOp init = Parameter(&b, 0, State(), "init");
  EXPECT_FALSE(While(CounterBelowTen(&b), Step(&b, true), init).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("while: body="));
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("-> f32[4], expected ((s32[], f32[4])) -> "
                        "(s32[], f32[4]) (operation_semantics.md, While)"));
}

TEST(WhileTest, RejectsAConditionNotReturningPred) {
  XlaBuilder b("bad");
  XlaOp init = Parameter(&b, 0, State(), "init");
  EXPECT_FALSE(While(Step(&b), Step(&b), init).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("while: condition="));
  EXPECT_THAT(ErrorOf(b), HasSubstr("-> pred[] (operation_semantics.md, "
                                    "While)"));
}

TEST(ConditionalTest, PredicateFormCallsTrueOrFalse) {
  XlaBuilder b("cond");
  XlaOp p = Parameter(&b, 0, Pred(), "p");
  XlaOp x = Parameter(&b, 1, F32({4}), "x");
  XlaOp pair = Parameter(&b, 2, Shape::Tuple({F32({4}), F32({4})}), "pair");
  const XlaComputation negate = Negate(&b, F32({4}));
  const XlaComputation sum = SumPair(&b);
  XlaOp out = Conditional(p, x, negate, pair, sum);
  EXPECT_EQ(ShapeOf(b, out), "f32[4]");
  const std::string text = RoundTrip(&b);
  EXPECT_THAT(text, HasSubstr("true_computation=%cond.negate.1, "
                              "false_computation=%cond.sum_pair.2"));
}

TEST(ConditionalTest, RejectsBranchesWithDifferentResults) {
  XlaBuilder b("bad");
  XlaOp p = Parameter(&b, 0, Pred(), "p");
  XlaOp x = Parameter(&b, 1, F32({4}), "x");
  XlaOp y = Parameter(&b, 2, F32({2}), "y");
  EXPECT_FALSE(
      Conditional(p, x, Negate(&b, F32({4})), y, Negate(&b, F32({2}))).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("conditional: branch 1="));
  EXPECT_THAT(ErrorOf(b), HasSubstr("expected (f32[2]) -> f32[4] "
                                    "(operation_semantics.md, Conditional)"));
}

TEST(ConditionalTest, IndexFormTakesNBranches) {
  XlaBuilder b("switch");
  XlaOp index = Parameter(&b, 0, S32(), "index");
  XlaOp x = Parameter(&b, 1, F32({4}), "x");
  XlaOp pair = Parameter(&b, 2, Shape::Tuple({F32({4}), F32({4})}), "pair");
  const XlaComputation negate = Negate(&b, F32({4}));
  const XlaComputation sum = SumPair(&b);
  XlaOp out = Conditional(index, {&negate, &sum, &negate}, {x, pair, x});
  EXPECT_EQ(ShapeOf(b, out), "f32[4]");
  std::unique_ptr<Module> module;
  const std::string text = RoundTrip(&b, &module);
  EXPECT_THAT(text, HasSubstr("branch_computations={%switch.negate.1, "
                              "%switch.sum_pair.2, %switch.negate.1}"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->computations().size(), 3u) << text;
}

TEST(ConditionalTest, IndexFormWithAPredicateIsTheTrueFalseForm) {
  XlaBuilder b("cond");
  XlaOp p = Parameter(&b, 0, Pred(), "p");
  XlaOp x = Parameter(&b, 1, F32({4}), "x");
  const XlaComputation negate = Negate(&b, F32({4}));
  XlaOp out = Conditional(p, {&negate, &negate}, {x, x});
  EXPECT_EQ(ShapeOf(b, out), "f32[4]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("true_computation=%cond.negate.1, "
                                       "false_computation=%cond.negate.1"));
}

TEST(ConditionalTest, RejectsBranchAndOperandCountsThatDiffer) {
  XlaBuilder b("bad");
  XlaOp index = Parameter(&b, 0, S32(), "index");
  XlaOp x = Parameter(&b, 1, F32({4}), "x");
  const XlaComputation negate = Negate(&b, F32({4}));
  EXPECT_FALSE(Conditional(index, {&negate, &negate}, {x}).valid());
  EXPECT_THAT(ErrorOf(b),
              HasSubstr("conditional: 2 branch computations and 1 branch "
                        "operands; N >= 1 branches need one operand each "
                        "(operation_semantics.md, Conditional)"));
}

TEST(CallTest, CallsWithOrWithoutOperands) {
  XlaBuilder b("call");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  const XlaComputation negate = Negate(&b, F32({4}));
  XlaOp negated = Call(&b, negate, {x});
  EXPECT_EQ(ShapeOf(b, negated), "f32[4]");

  std::unique_ptr<XlaBuilder> sub = b.CreateSubBuilder("seven");
  ConstantLiteral(sub.get(), Literal::ScalarS32(7));
  const XlaComputation seven_computation = BuildOrFail(sub.get());
  XlaOp seven = Call(&b, seven_computation, {});
  EXPECT_EQ(ShapeOf(b, seven), "s32[]");
  b.AddInstruction(Opcode::kTuple, {negated, seven}, {});
  EXPECT_THAT(RoundTrip(&b), HasSubstr("call(), to_apply=%call.seven.2"));
}

TEST(CallTest, RejectsOperandsThatDoNotMatchTheParameters) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  EXPECT_FALSE(Call(&b, Negate(&b, F32({4})), {x, x}).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("call: to_apply="));
  EXPECT_THAT(ErrorOf(b), HasSubstr("expected (f32[4], f32[4]) -> f32[4] "
                                    "(operation_semantics.md, Call)"));
}

TEST(OptimizationBarrierTest, PassesATupleThrough) {
  XlaBuilder b("barrier");
  XlaOp state = Parameter(&b, 0, State(), "state");
  EXPECT_EQ(ShapeOf(b, OptimizationBarrier(state)), "(s32[], f32[4])");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("opt-barrier("));

  XlaBuilder bad("bad");
  XlaOp x = Parameter(&bad, 0, F32({4}), "x");
  EXPECT_FALSE(OptimizationBarrier(x).valid());
  EXPECT_THAT(ErrorOf(bad),
              HasSubstr("operand is f32[4], expected a tuple "
                        "(operation_semantics.md, OptimizationBarrier)"));
}

TEST(TokenTest, AfterAllJoinsTokensAndAddDependencyOrdersAValue) {
  XlaBuilder b("tokens");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  XlaOp fresh = AfterAll(&b, {});
  EXPECT_EQ(ShapeOf(b, fresh), "token[]");
  XlaOp joined = AfterAll(&b, {fresh, fresh});
  EXPECT_EQ(ShapeOf(b, joined), "token[]");
  XlaOp ordered = AddDependency(x, joined);
  EXPECT_EQ(ShapeOf(b, ordered), "f32[4]");
  EXPECT_THAT(RoundTrip(&b), HasSubstr("add-dependency("));
}

TEST(TokenTest, RejectsValuesWhereTokensBelong) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({4}), "x");
  EXPECT_FALSE(AfterAll(&b, {x}).valid());
  EXPECT_THAT(ErrorOf(b), HasSubstr("operand 0 is f32[4], expected token[] "
                                    "(operation_semantics.md, AfterAll)"));

  XlaBuilder b2("bad2");
  XlaOp y = Parameter(&b2, 0, F32({4}), "y");
  EXPECT_FALSE(AddDependency(y, y).valid());
  EXPECT_THAT(ErrorOf(b2),
              HasSubstr("operand 1 is f32[4], expected token[] "
                        "(operation_semantics.md, AddDependency)"));
}

// A while, a conditional and calls in one module; the negate computation
// serves a call and both branches and is imported once.
TEST(ControlFlowRoundTripTest, SharesSubComputationsAcrossOps) {
  XlaBuilder b("mixed");
  XlaOp init = Parameter(&b, 0, State(), "init");
  XlaOp p = Parameter(&b, 1, Pred(), "p");
  const XlaComputation negate = Negate(&b, F32({4}));
  const XlaComputation condition = CounterBelowTen(&b);
  const XlaComputation body = Step(&b);
  XlaOp loop = While(condition, body, init);
  XlaOp values = Gte(&b, loop, 1);
  XlaOp called = Call(&b, negate, {values});
  XlaOp chosen = Conditional(p, called, negate, values, negate);
  OptimizationBarrier(
      b.AddInstruction(Opcode::kTuple, {chosen, Gte(&b, loop, 0)}, {}));
  ASSERT_TRUE(b.ok()) << b.first_error();
  std::unique_ptr<Module> module;
  const std::string text = RoundTrip(&b, &module);
  ASSERT_NE(module, nullptr);
  // negate, cond, body and the entry.
  EXPECT_EQ(module->computations().size(), 4u) << text;
  EXPECT_THAT(text, HasSubstr("to_apply=%mixed.negate.1"));
  EXPECT_THAT(text, HasSubstr("true_computation=%mixed.negate.1, "
                              "false_computation=%mixed.negate.1"));
}

}  // namespace
}  // namespace kiln
