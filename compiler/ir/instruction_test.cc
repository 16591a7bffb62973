#include "compiler/ir/instruction.h"

#include <algorithm>
#include <memory>

#include "compiler/ir/computation.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using Instrs = std::vector<Instruction*>;

const Shape& F32x2() {
  static const Shape* shape = new Shape(Shape::Array(ElementType::kF32, {2}));
  return *shape;
}

int Count(const Instrs& list, const Instruction* x) {
  return static_cast<int>(std::count(list.begin(), list.end(), x));
}

// Use-def invariants: operands <-> users and control edges are symmetric,
// and users/control lists hold each instruction once.
void ExpectUseDefConsistent(const Computation& computation) {
  for (Instruction* x : computation.instructions()) {
    for (Instruction* operand : x->operands()) {
      EXPECT_EQ(Count(operand->users(), x), 1)
          << x->name() << " uses " << operand->name();
    }
    for (Instruction* user : x->users()) {
      EXPECT_EQ(Count(x->users(), user), 1) << x->name();
      EXPECT_GE(Count(user->operands(), x), 1)
          << user->name() << " listed as user of " << x->name();
    }
    for (Instruction* successor : x->control_successors()) {
      EXPECT_EQ(Count(x->control_successors(), successor), 1);
      EXPECT_EQ(Count(successor->control_predecessors(), x), 1);
    }
    for (Instruction* predecessor : x->control_predecessors()) {
      EXPECT_EQ(Count(predecessor->control_successors(), x), 1);
    }
  }
}

class InstructionTest : public ::testing::Test {
 protected:
  Instruction* Param(int64_t n, const std::string& name) {
    auto p = std::make_unique<Instruction>(Opcode::kParameter, F32x2(), name);
    p->set_parameter_number(n);
    return comp_.AddInstruction(std::move(p));
  }
  Instruction* Binary(Opcode op, Instruction* a, Instruction* b,
                      const std::string& name) {
    auto x = std::make_unique<Instruction>(op, F32x2(), name);
    x->AppendOperand(a);
    x->AppendOperand(b);
    return comp_.AddInstruction(std::move(x));
  }
  Instruction* Unary(Opcode op, Instruction* a, const std::string& name) {
    auto x = std::make_unique<Instruction>(op, F32x2(), name);
    x->AppendOperand(a);
    return comp_.AddInstruction(std::move(x));
  }

  Computation comp_{"c"};
};

TEST_F(InstructionTest, UsersAreDeduplicatedInFirstUseOrder) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* square = Binary(Opcode::kMultiply, x, x, "square");
  Instruction* add = Binary(Opcode::kAdd, y, x, "add");
  EXPECT_EQ(x->users(), (Instrs{square, add}));
  EXPECT_EQ(y->users(), (Instrs{add}));
  EXPECT_EQ(square->operands(), (Instrs{x, x}));
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ReplaceOneOfTwoIdenticalOperands) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* square = Binary(Opcode::kMultiply, x, x, "square");
  square->ReplaceOperandWith(0, y);
  EXPECT_EQ(square->operands(), (Instrs{y, x}));
  EXPECT_EQ(x->users(), (Instrs{square}));  // Still used by operand 1.
  EXPECT_EQ(y->users(), (Instrs{square}));
  ExpectUseDefConsistent(comp_);
  square->ReplaceOperandWith(1, y);
  EXPECT_TRUE(x->users().empty());
  EXPECT_EQ(y->users(), (Instrs{square}));
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ReplaceOperandAll) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* add = Binary(Opcode::kAdd, x, y, "add");
  Instruction* square = Binary(Opcode::kMultiply, x, x, "square");
  square->ReplaceOperandAll(x, y);
  EXPECT_EQ(square->operands(), (Instrs{y, y}));
  EXPECT_EQ(x->users(), (Instrs{add}));
  EXPECT_EQ(y->users(), (Instrs{add, square}));
  add->ReplaceOperandAll(x, y);  // y already an operand: no duplicate user.
  EXPECT_EQ(y->users(), (Instrs{add, square}));
  EXPECT_TRUE(x->users().empty());
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ReplaceAllUsesWithMovesUsersAndRoot) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* neg = Unary(Opcode::kNegate, x, "neg");
  Instruction* add = Binary(Opcode::kAdd, neg, y, "add");
  Instruction* mul = Binary(Opcode::kMultiply, neg, neg, "mul");
  comp_.set_root(neg);
  Instruction* abs = Unary(Opcode::kAbs, y, "abs");
  ASSERT_TRUE(neg->ReplaceAllUsesWith(abs).ok());
  EXPECT_TRUE(neg->users().empty());
  EXPECT_EQ(abs->users(), (Instrs{add, mul}));
  EXPECT_EQ(add->operands(), (Instrs{abs, y}));
  EXPECT_EQ(mul->operands(), (Instrs{abs, abs}));
  EXPECT_EQ(comp_.root(), abs);
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ReplaceAllUsesWithKeepsNewProducerUse) {
  Instruction* x = Param(0, "x");
  Instruction* user = Unary(Opcode::kAbs, x, "user");
  Instruction* wrapped = Unary(Opcode::kNegate, x, "wrapped");
  ASSERT_TRUE(x->ReplaceAllUsesWith(wrapped).ok());
  // The new producer keeps using x; no cycle is created.
  EXPECT_EQ(x->users(), (Instrs{wrapped}));
  EXPECT_EQ(user->operands(), (Instrs{wrapped}));
  EXPECT_EQ(wrapped->operands(), (Instrs{x}));
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ReplaceAllUsesWithRejectsOtherShapes) {
  Instruction* x = Param(0, "x");
  Instruction* user = Unary(Opcode::kAbs, x, "user");
  auto other = std::make_unique<Instruction>(
      Opcode::kConstant, Shape::Scalar(ElementType::kS32), "c");
  Instruction* c = comp_.AddInstruction(std::move(other));
  EXPECT_FALSE(x->ReplaceAllUsesWith(c).ok());
  EXPECT_EQ(user->operands(), (Instrs{x}));
  EXPECT_FALSE(x->ReplaceAllUsesWith(nullptr).ok());
  EXPECT_TRUE(x->ReplaceAllUsesWith(x).ok());
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, DetachOperands) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* a = Binary(Opcode::kAdd, x, x, "a");
  Instruction* b = Binary(Opcode::kAdd, y, x, "b");
  a->DetachOperands();
  EXPECT_TRUE(a->operands().empty());
  EXPECT_EQ(x->users(), (Instrs{b}));
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ControlDependenciesStaySymmetric) {
  Instruction* x = Param(0, "x");
  Instruction* a = Unary(Opcode::kAbs, x, "a");
  Instruction* b = Unary(Opcode::kNegate, x, "b");
  Instruction* c = Unary(Opcode::kExp, x, "c");
  ASSERT_TRUE(a->AddControlDependencyTo(b).ok());
  ASSERT_TRUE(a->AddControlDependencyTo(b).ok());  // Idempotent.
  ASSERT_TRUE(c->AddControlDependencyTo(b).ok());
  ASSERT_TRUE(b->AddControlDependencyTo(x).ok());
  EXPECT_EQ(a->control_successors(), (Instrs{b}));
  EXPECT_EQ(b->control_predecessors(), (Instrs{a, c}));
  ExpectUseDefConsistent(comp_);
  EXPECT_FALSE(a->AddControlDependencyTo(a).ok());
  EXPECT_FALSE(a->AddControlDependencyTo(nullptr).ok());
  ASSERT_TRUE(a->RemoveControlDependencyTo(b).ok());
  EXPECT_FALSE(a->RemoveControlDependencyTo(b).ok());
  EXPECT_EQ(b->control_predecessors(), (Instrs{c}));
  b->DropAllControlDeps();
  EXPECT_TRUE(b->control_predecessors().empty());
  EXPECT_TRUE(b->control_successors().empty());
  EXPECT_TRUE(c->control_successors().empty());
  EXPECT_TRUE(x->control_predecessors().empty());
  ExpectUseDefConsistent(comp_);
}

TEST_F(InstructionTest, ControlDependencyAcrossComputationsIsAnError) {
  Instruction* x = Param(0, "x");
  Computation other("other");
  Instruction* y = other.AddInstruction(
      std::make_unique<Instruction>(Opcode::kParameter, F32x2(), "y"));
  EXPECT_FALSE(x->AddControlDependencyTo(y).ok());
}

TEST_F(InstructionTest, CalledComputationsInAttributeOrder) {
  Computation cond("cond");
  Computation body("body");
  Computation branch("branch");
  Instruction* x = Param(0, "x");
  Instruction* w = Unary(Opcode::kWhile, x, "w");
  w->mutable_attrs()->Set("condition", &cond);
  w->mutable_attrs()->Set("body", &body);
  w->mutable_attrs()->Set("dims", Int64List{1});
  w->mutable_attrs()->Set("branches", ComputationList{&branch, &cond});
  EXPECT_EQ(w->called_computations(),
            (std::vector<Computation*>{&cond, &body, &branch, &cond}));
  Computation cond2("cond2");
  w->RemapCalledComputations(
      [&](Computation* c) { return c == &cond ? &cond2 : c; });
  EXPECT_EQ(w->called_computations(),
            (std::vector<Computation*>{&cond2, &body, &branch, &cond2}));
  EXPECT_TRUE(x->called_computations().empty());
}

TEST_F(InstructionTest, CloneWithNewOperandsCopiesNonGraphState) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* add = Binary(Opcode::kAdd, x, x, "add");
  add->mutable_attrs()->Set("k", int64_t{7});
  add->metadata = RawText{"{op_name=\"a\"}"};
  add->sharding = RawText{"{replicated}"};
  add->frontend_attributes = {{"key", "value"}};
  add->location = SourceLocation{"f.hlo", 3, 4};
  ASSERT_TRUE(add->AddControlDependencyTo(y).ok());
  std::unique_ptr<Instruction> clone =
      add->CloneWithNewOperands(add->shape(), {y, x}, "clone");
  EXPECT_EQ(clone->name(), "clone");
  EXPECT_EQ(clone->opcode(), Opcode::kAdd);
  EXPECT_EQ(clone->operands(), (Instrs{y, x}));
  EXPECT_EQ(clone->parent(), nullptr);
  EXPECT_TRUE(clone->control_successors().empty());
  EXPECT_TRUE(clone->users().empty());
  EXPECT_EQ(*clone->attrs().Get<int64_t>("k"), 7);
  EXPECT_EQ(clone->metadata->text, "{op_name=\"a\"}");
  EXPECT_EQ(clone->sharding->text, "{replicated}");
  EXPECT_EQ(clone->frontend_attributes, add->frontend_attributes);
  EXPECT_EQ(clone->location.ToString(), "f.hlo:3:4");
  EXPECT_TRUE(clone->IdenticalIgnoringOperands(*add));
  EXPECT_EQ(Count(y->users(), clone.get()), 1);
  clone->DetachOperands();  // Leave no dangling users behind.
}

TEST_F(InstructionTest, IdenticalIgnoringOperands) {
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* a = Binary(Opcode::kAdd, x, y, "a");
  Instruction* b = Binary(Opcode::kAdd, y, y, "b");
  EXPECT_TRUE(a->IdenticalIgnoringOperands(*b));
  b->metadata = RawText{"{op_name=\"b\"}"};  // Debug info is ignored.
  EXPECT_TRUE(a->IdenticalIgnoringOperands(*b));
  b->mutable_attrs()->Set("k", true);
  EXPECT_FALSE(a->IdenticalIgnoringOperands(*b));
  Instruction* c = Binary(Opcode::kMultiply, x, y, "c");
  EXPECT_FALSE(a->IdenticalIgnoringOperands(*c));
  Instruction* d = Binary(Opcode::kAdd, x, y, "d");
  d->set_shape(Shape::Array(ElementType::kF32, {3}));
  EXPECT_FALSE(a->IdenticalIgnoringOperands(*d));
  Instruction* e = Binary(Opcode::kAdd, x, y, "e");
  e->sharding = RawText{"{maximal device=0}"};
  EXPECT_FALSE(a->IdenticalIgnoringOperands(*e));
  EXPECT_FALSE(x->IdenticalIgnoringOperands(*y));  // Parameter numbers.
}

TEST(SourceLocationTest, ToString) {
  EXPECT_EQ(SourceLocation{}.ToString(), "");
  EXPECT_EQ((SourceLocation{"a.hlo", 12, 5}).ToString(), "a.hlo:12:5");
  EXPECT_EQ((SourceLocation{"a.hlo", 12, 0}).ToString(), "a.hlo:12");
  EXPECT_EQ((SourceLocation{"", 1, 2}).ToString(), "<unknown>:1:2");
}

}  // namespace
}  // namespace kiln
