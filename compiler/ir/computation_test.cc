#include "compiler/ir/computation.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using Instrs = std::vector<Instruction*>;

Shape F32x2() { return Shape::Array(ElementType::kF32, {2}); }

int Count(const Instrs& list, const Instruction* x) {
  return static_cast<int>(std::count(list.begin(), list.end(), x));
}

void ExpectUseDefConsistent(const Computation& computation) {
  for (Instruction* x : computation.instructions()) {
    EXPECT_EQ(x->parent(), &computation);
    for (Instruction* operand : x->operands()) {
      EXPECT_EQ(Count(operand->users(), x), 1) << x->name();
    }
    for (Instruction* user : x->users()) {
      EXPECT_EQ(Count(x->users(), user), 1) << x->name();
      EXPECT_GE(Count(user->operands(), x), 1) << x->name();
    }
    for (Instruction* successor : x->control_successors()) {
      EXPECT_EQ(Count(successor->control_predecessors(), x), 1);
    }
    for (Instruction* predecessor : x->control_predecessors()) {
      EXPECT_EQ(Count(predecessor->control_successors(), x), 1);
    }
  }
}

std::vector<std::string> Names(const Instrs& list) {
  std::vector<std::string> names;
  for (const Instruction* x : list) names.push_back(x->name());
  return names;
}

class ComputationTest : public ::testing::Test {
 protected:
  Instruction* Param(int64_t n, const std::string& name) {
    auto p = std::make_unique<Instruction>(Opcode::kParameter, F32x2(), name);
    p->set_parameter_number(n);
    return comp_.AddInstruction(std::move(p));
  }
  Instruction* Op(Opcode op, Instrs operands, const std::string& name) {
    auto x = std::make_unique<Instruction>(op, F32x2(), name);
    for (Instruction* operand : operands) x->AppendOperand(operand);
    return comp_.AddInstruction(std::move(x));
  }

  Computation comp_{"comp"};
};

TEST_F(ComputationTest, NamesAreUniquifiedWithoutAModule) {
  Instruction* a = Op(Opcode::kAfterAll, {}, "x");
  Instruction* b = Op(Opcode::kAfterAll, {}, "x");
  Instruction* c = Op(Opcode::kAfterAll, {}, "x.2");
  Instruction* d = Op(Opcode::kAfterAll, {}, "x");
  Instruction* e = Op(Opcode::kAfterAll, {}, "x.2");
  EXPECT_EQ(a->name(), "x");
  EXPECT_EQ(b->name(), "x.1");
  EXPECT_EQ(c->name(), "x.2");
  EXPECT_EQ(d->name(), "x.3");
  EXPECT_EQ(e->name(), "x.4");
  EXPECT_EQ(comp_.FindInstruction("x.3"), d);
  EXPECT_EQ(comp_.FindInstruction("nope"), nullptr);
}

TEST_F(ComputationTest, ParametersRegisteredByNumber) {
  Instruction* p1 = Param(1, "p1");
  Instruction* p0 = Param(0, "p0");
  ASSERT_EQ(comp_.parameters().size(), 2u);
  EXPECT_EQ(comp_.parameter(0), p0);
  EXPECT_EQ(comp_.parameter(1), p1);
  Instruction* p2 = comp_.AddParameter(
      std::make_unique<Instruction>(Opcode::kParameter, F32x2(), "p2"));
  EXPECT_EQ(p2->parameter_number(), 2);
  EXPECT_EQ(comp_.parameter(2), p2);
  EXPECT_EQ(Names(comp_.instructions()),
            (std::vector<std::string>{"p1", "p0", "p2"}));
}

TEST_F(ComputationTest, PostOrderPutsOperandsAndControlPredsFirst) {
  Instruction* x = Param(0, "x");
  // Listed before its operand: post order must still put y first.
  auto late_user = std::make_unique<Instruction>(Opcode::kAdd, F32x2(), "sum");
  Instruction* sum = comp_.AddInstruction(std::move(late_user));
  Instruction* y = Op(Opcode::kNegate, {x}, "y");
  sum->AppendOperand(y);
  sum->AppendOperand(x);
  Instruction* z = Op(Opcode::kAbs, {x}, "z");
  ASSERT_TRUE(z->AddControlDependencyTo(y).ok());
  comp_.set_root(sum);
  absl::StatusOr<Instrs> order = comp_.PostOrder();
  ASSERT_TRUE(order.ok()) << order.status();
  EXPECT_EQ(Names(*order), (std::vector<std::string>{"x", "z", "y", "sum"}));
}

TEST_F(ComputationTest, PostOrderTieBreakIsTheStableOrder) {
  Instruction* b = Op(Opcode::kAfterAll, {}, "b");
  Instruction* a = Op(Opcode::kAfterAll, {}, "a");
  Op(Opcode::kAfterAll, {a, b}, "c");
  Op(Opcode::kAfterAll, {}, "d");
  absl::StatusOr<Instrs> order = comp_.PostOrder();
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(Names(*order), (std::vector<std::string>{"b", "a", "c", "d"}));
}

TEST_F(ComputationTest, ControlCycleIsAnError) {
  Instruction* x = Param(0, "x");
  Instruction* a = Op(Opcode::kAbs, {x}, "a");
  Instruction* b = Op(Opcode::kNegate, {a}, "b");
  ASSERT_TRUE(b->AddControlDependencyTo(a).ok());
  absl::StatusOr<Instrs> order = comp_.PostOrder();
  EXPECT_FALSE(order.ok());
  EXPECT_EQ(order.status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(b->RemoveControlDependencyTo(a).ok());
  EXPECT_TRUE(comp_.PostOrder().ok());
}

TEST_F(ComputationTest, DeepChainPostOrderDoesNotRecurse) {
  Instruction* last = Param(0, "p");
  for (int i = 0; i < 200000; ++i) last = Op(Opcode::kNegate, {last}, "n");
  comp_.set_root(last);
  absl::StatusOr<Instrs> order = comp_.PostOrder();
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order->size(), 200001u);
  EXPECT_EQ(order->back(), last);
  EXPECT_EQ(last->name(), "n.199999");
}

TEST_F(ComputationTest, ReplaceInstructionMovesUsesControlAndRoot) {
  Instruction* x = Param(0, "x");
  Instruction* old_op = Op(Opcode::kNegate, {x}, "old");
  Instruction* before = Op(Opcode::kAbs, {x}, "before");
  Instruction* user = Op(Opcode::kAdd, {old_op, x}, "user");
  Instruction* after = Op(Opcode::kExp, {x}, "after");
  Instruction* fresh = Op(Opcode::kSign, {x}, "fresh");
  ASSERT_TRUE(before->AddControlDependencyTo(old_op).ok());
  ASSERT_TRUE(old_op->AddControlDependencyTo(after).ok());
  comp_.set_root(old_op);
  ASSERT_TRUE(comp_.ReplaceInstruction(old_op, fresh).ok());
  EXPECT_EQ(comp_.FindInstruction("old"), nullptr);
  EXPECT_EQ(comp_.root(), fresh);
  EXPECT_EQ(user->operands(), (Instrs{fresh, x}));
  EXPECT_EQ(fresh->control_predecessors(), (Instrs{before}));
  EXPECT_EQ(fresh->control_successors(), (Instrs{after}));
  EXPECT_EQ(
      Names(comp_.instructions()),
      (std::vector<std::string>{"x", "before", "user", "after", "fresh"}));
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, ReplaceWithAUserOfTheOldKeepsTheOld) {
  Instruction* x = Param(0, "x");
  Instruction* a = Op(Opcode::kAbs, {x}, "a");
  Instruction* user = Op(Opcode::kExp, {a}, "user");
  Instruction* wrap = Op(Opcode::kNegate, {a}, "wrap");
  ASSERT_TRUE(comp_.ReplaceInstruction(a, wrap).ok());
  EXPECT_EQ(user->operands(), (Instrs{wrap}));
  EXPECT_EQ(a->users(), (Instrs{wrap}));
  EXPECT_EQ(comp_.instruction_count(), 4);
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, ReplaceInstructionErrors) {
  Instruction* x = Param(0, "x");
  Instruction* a = Op(Opcode::kAbs, {x}, "a");
  auto scalar = std::make_unique<Instruction>(
      Opcode::kConstant, Shape::Scalar(ElementType::kF32), "s");
  Instruction* s = comp_.AddInstruction(std::move(scalar));
  Op(Opcode::kExp, {a}, "user");
  EXPECT_FALSE(comp_.ReplaceInstruction(a, s).ok());
  Computation other("other");
  Instruction* foreign = other.AddInstruction(
      std::make_unique<Instruction>(Opcode::kAbs, F32x2(), "f"));
  EXPECT_FALSE(comp_.ReplaceInstruction(a, foreign).ok());
  EXPECT_FALSE(comp_.ReplaceInstruction(nullptr, a).ok());
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, RemoveInstructionChecksAndKeepsOrder) {
  Instruction* x = Param(0, "x");
  Instruction* a = Op(Opcode::kAbs, {x}, "a");
  Instruction* b = Op(Opcode::kNegate, {a}, "b");
  Instruction* c = Op(Opcode::kExp, {x}, "c");
  comp_.set_root(c);
  EXPECT_FALSE(comp_.RemoveInstruction(a).ok());  // Has a user.
  EXPECT_FALSE(comp_.RemoveInstruction(c).ok());  // ROOT.
  EXPECT_FALSE(comp_.RemoveInstruction(x).ok());  // Parameter.
  ASSERT_TRUE(b->AddControlDependencyTo(c).ok());
  ASSERT_TRUE(comp_.RemoveInstruction(b).ok());
  EXPECT_TRUE(a->users().empty());
  EXPECT_TRUE(c->control_predecessors().empty());
  ASSERT_TRUE(comp_.RemoveInstruction(a).ok());
  EXPECT_EQ(Names(comp_.instructions()), (std::vector<std::string>{"x", "c"}));
  EXPECT_EQ(x->users(), (Instrs{c}));
  // The freed name is reusable inside a module-less computation.
  EXPECT_EQ(Op(Opcode::kAbs, {x}, "a")->name(), "a");
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, DetachInstructionMovesOwnershipAndKeepsEdges) {
  Instruction* x = Param(0, "x");
  Instruction* a = Op(Opcode::kAbs, {x}, "a");
  Instruction* b = Op(Opcode::kNegate, {a}, "b");
  Instruction* pending = comp_.AddInstructionBefore(
      std::make_unique<Instruction>(Opcode::kExp, F32x2(), "p"), b);
  comp_.set_root(b);
  EXPECT_EQ(comp_.DetachInstruction(b), nullptr);        // ROOT.
  EXPECT_EQ(comp_.DetachInstruction(x), nullptr);        // Parameter.
  EXPECT_EQ(comp_.DetachInstruction(nullptr), nullptr);  // Not ours.

  std::unique_ptr<Instruction> detached = comp_.DetachInstruction(a);
  ASSERT_EQ(detached.get(), a);
  EXPECT_EQ(a->parent(), nullptr);
  EXPECT_EQ(comp_.FindInstruction("a"), nullptr);
  EXPECT_EQ(comp_.instruction_count(), 3);
  // Edges stay for the caller to rewire.
  EXPECT_EQ(a->operands(), (Instrs{x}));
  EXPECT_EQ(b->operands(), (Instrs{a}));
  EXPECT_EQ(comp_.DetachInstruction(a), nullptr);        // No longer ours.
  EXPECT_NE(comp_.DetachInstruction(pending), nullptr);  // A pending one.
  EXPECT_EQ(Names(comp_.instructions()), (std::vector<std::string>{"x", "b"}));

  Computation other("other");
  EXPECT_EQ(other.AddInstruction(std::move(detached)), a);
  EXPECT_EQ(a->parent(), &other);
  EXPECT_EQ(other.FindInstruction("a"), a);
  EXPECT_EQ(Names(other.instructions()), (std::vector<std::string>{"a"}));
  // Rewire so both computations are consistent again.
  b->ReplaceOperandWith(0, x);
  a->DetachOperands();
  ExpectUseDefConsistent(comp_);
  ExpectUseDefConsistent(other);
}

TEST_F(ComputationTest, RemoveDeadInstructions) {
  Instruction* x = Param(0, "x");
  Instruction* unused_param = Param(1, "unused");
  Instruction* dead1 = Op(Opcode::kAbs, {x}, "dead1");
  Op(Opcode::kNegate, {dead1, dead1}, "dead2");
  auto outfeed = std::make_unique<Instruction>(Opcode::kOutfeed, Shape::Token(),
                                               "outfeed");
  outfeed->AppendOperand(dead1);
  Instruction* kept_by_effect = comp_.AddInstruction(std::move(outfeed));
  Instruction* pred = Op(Opcode::kExp, {x}, "pred");
  Instruction* root = Op(Opcode::kSign, {x}, "root");
  Op(Opcode::kCos, {root}, "dead3");
  ASSERT_TRUE(pred->AddControlDependencyTo(root).ok());
  comp_.set_root(root);
  EXPECT_EQ(comp_.RemoveDeadInstructions(), 2);
  EXPECT_EQ(Names(comp_.instructions()),
            (std::vector<std::string>{"x", "unused", "dead1", "outfeed", "pred",
                                      "root"}));
  EXPECT_EQ(dead1->users(), (Instrs{kept_by_effect}));
  EXPECT_TRUE(unused_param->users().empty());
  EXPECT_EQ(root->users(), Instrs{});
  EXPECT_EQ(comp_.RemoveDeadInstructions(), 0);
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, CloneIsDeepAndFaithful) {
  Computation callee("callee");
  Instruction* x = Param(0, "x");
  Instruction* y = Param(1, "y");
  Instruction* a = Op(Opcode::kAdd, {x, y}, "a");
  Instruction* m = Op(Opcode::kMap, {a}, "m");
  m->mutable_attrs()->Set("to_apply", &callee);
  ASSERT_TRUE(a->AddControlDependencyTo(m).ok());
  comp_.set_root(m);
  comp_.set_execution_thread("side");
  std::unique_ptr<Computation> clone = comp_.Clone("copy");
  EXPECT_EQ(clone->name(), "copy");
  EXPECT_EQ(clone->execution_thread(), "side");
  ASSERT_EQ(clone->instruction_count(), 4);
  EXPECT_EQ(Names(clone->instructions()), Names(comp_.instructions()));
  Instruction* ca = clone->FindInstruction("a");
  Instruction* cm = clone->root();
  ASSERT_NE(ca, nullptr);
  EXPECT_NE(ca, a);
  EXPECT_EQ(cm->name(), "m");
  EXPECT_EQ(cm->operands(), (Instrs{ca}));
  EXPECT_EQ(ca->operands(), (Instrs{clone->parameter(0), clone->parameter(1)}));
  EXPECT_EQ(ca->control_successors(), (Instrs{cm}));
  EXPECT_EQ(cm->called_computations(), (std::vector<Computation*>{&callee}));
  EXPECT_TRUE(cm->IdenticalIgnoringOperands(*m));
  // The original is untouched.
  EXPECT_EQ(a->users(), (Instrs{m}));
  ExpectUseDefConsistent(*clone);
  ExpectUseDefConsistent(comp_);
}

// Random mutations of every kind keep the use-def lists consistent and the
// remaining instructions in their original relative order.
TEST_F(ComputationTest, RandomMutationsKeepUseDefConsistent) {
  std::mt19937 rng(1234);
  Instrs all = {Param(0, "p0"), Param(1, "p1")};
  for (int i = 0; i < 60; ++i) {
    Instruction* a = all[rng() % all.size()];
    Instruction* b = all[rng() % all.size()];
    all.push_back(Op(Opcode::kAdd, {a, b, a}, "op"));
  }
  comp_.set_root(all.back());
  for (int step = 0; step < 300; ++step) {
    Instrs now = comp_.instructions();
    // Only later instructions may be used, keeping the graph acyclic.
    size_t i = rng() % now.size();
    size_t j = rng() % now.size();
    if (i > j) std::swap(i, j);
    if (i == j) continue;
    Instruction* early = now[i];
    Instruction* late = now[j];
    switch (rng() % 6) {
      case 0:
        if (late->operand_count() > 0) {
          late->ReplaceOperandWith(rng() % late->operand_count(), early);
        }
        break;
      case 1:
        if (late->operand_count() > 0) {
          late->ReplaceOperandAll(late->operand(0), early);
        }
        break;
      case 2:
        if (late->opcode() != Opcode::kParameter) {
          // Users of `late` come after it, so moving them to `early` is safe.
          ASSERT_TRUE(late->ReplaceAllUsesWith(early).ok());
        }
        break;
      case 3:
        ASSERT_TRUE(early->AddControlDependencyTo(late).ok());
        break;
      case 4:
        if (!early->control_successors().empty()) {
          ASSERT_TRUE(
              early->RemoveControlDependencyTo(early->control_successors()[0])
                  .ok());
        }
        break;
      case 5:
        comp_.RemoveDeadInstructions();
        break;
    }
    ExpectUseDefConsistent(comp_);
    ASSERT_TRUE(comp_.PostOrder().ok());
    // Survivors keep their relative order.
    Instrs after = comp_.instructions();
    size_t k = 0;
    for (Instruction* x : now) {
      if (k < after.size() && after[k] == x) ++k;
    }
    EXPECT_EQ(k, after.size());
  }
}

TEST_F(ComputationTest, IsFusionComputationNeedsAModule) {
  EXPECT_FALSE(comp_.is_fusion_computation());
}

TEST_F(ComputationTest, AddInstructionBeforeKeepsDefinitionOrder) {
  Instruction* p0 = Param(0, "p0");
  Instruction* neg = Op(Opcode::kNegate, {p0}, "neg");
  auto abs = std::make_unique<Instruction>(Opcode::kAbs, F32x2(), "abs");
  abs->AppendOperand(p0);
  Instruction* added = comp_.AddInstructionBefore(std::move(abs), neg);
  neg->ReplaceOperandWith(0, added);
  EXPECT_EQ(Names(comp_.instructions()),
            (std::vector<std::string>{"p0", "abs", "neg"}));
  EXPECT_TRUE(comp_.IsInDefinitionOrder());
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, RestoreDefinitionOrderMovesLateOperandsUp) {
  Instruction* p0 = Param(0, "p0");
  Instruction* neg = Op(Opcode::kNegate, {p0}, "neg");
  Instruction* exp = Op(Opcode::kExp, {neg}, "exp");
  Instruction* late = Op(Opcode::kAbs, {p0}, "late");  // Appended last.
  neg->ReplaceOperandWith(0, late);
  comp_.set_root(exp);
  EXPECT_FALSE(comp_.IsInDefinitionOrder());
  ASSERT_TRUE(comp_.RestoreDefinitionOrder().ok());
  EXPECT_TRUE(comp_.IsInDefinitionOrder());
  EXPECT_EQ(Names(comp_.instructions()),
            (std::vector<std::string>{"p0", "late", "neg", "exp"}));
  EXPECT_EQ(comp_.FindInstruction("late"), late);  // Same objects.
  ExpectUseDefConsistent(comp_);
}

TEST_F(ComputationTest, RestoreDefinitionOrderReportsCycles) {
  Instruction* p0 = Param(0, "p0");
  Instruction* a = Op(Opcode::kNegate, {p0}, "a");
  Instruction* b = Op(Opcode::kAbs, {a}, "b");
  a->ReplaceOperandWith(0, b);
  EXPECT_FALSE(comp_.RestoreDefinitionOrder().ok());
}

TEST_F(ComputationTest, InsertionsBeforePendingAndRemovedInstructions) {
  Instruction* p0 = Param(0, "p0");
  Instruction* a = Op(Opcode::kNegate, {p0}, "a");
  Instruction* b = Op(Opcode::kAbs, {p0}, "b");
  comp_.set_root(b);
  auto make = [&](const std::string& name) {
    auto x = std::make_unique<Instruction>(Opcode::kExp, F32x2(), name);
    x->AppendOperand(p0);
    return x;
  };
  Instruction* x = comp_.AddInstructionBefore(make("x"), b);
  Instruction* y = comp_.AddInstructionBefore(make("y"), b);  // After x.
  comp_.AddInstructionBefore(make("z"), y);                   // Before y.
  comp_.AddInstructionBefore(make("w"), x);                   // Before x.
  ASSERT_TRUE(comp_.RemoveInstruction(a).ok());               // Empties a slot.
  comp_.AddInstruction(make("tail"));
  const Computation& as_const = comp_;
  const std::vector<std::string> expected = {"p0", "w", "x",   "z",
                                             "y",  "b", "tail"};
  // The const view computes the order without settling it...
  EXPECT_EQ(Names(as_const.instructions()), expected);
  EXPECT_EQ(comp_.instruction_count(), 7);
  // ...and the settled order is the same.
  EXPECT_EQ(Names(comp_.instructions()), expected);
  // Removing a pending instruction and inserting before a removed one's
  // neighbour keep the order.
  ASSERT_TRUE(comp_.RemoveInstruction(x).ok());
  comp_.AddInstructionBefore(make("v"), y);
  EXPECT_EQ(Names(as_const.instructions()),
            (std::vector<std::string>{"p0", "w", "z", "v", "y", "b", "tail"}));
  EXPECT_TRUE(as_const.IsInDefinitionOrder());
  absl::StatusOr<Instrs> const_post = as_const.PostOrder();
  ASSERT_TRUE(const_post.ok());
  absl::StatusOr<Instrs> post = comp_.PostOrder();
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(*const_post, *post);
  EXPECT_EQ(Names(*post),
            (std::vector<std::string>{"p0", "w", "z", "v", "y", "b", "tail"}));
  ExpectUseDefConsistent(comp_);
}

// Random insertions (at the end and before random instructions) and
// removals, checked against a plain list model of the stable order.
TEST_F(ComputationTest, StableOrderMatchesAListModel) {
  std::mt19937 random(7);
  Instruction* p0 = Param(0, "p0");
  std::vector<Instruction*> model = {p0};
  for (int step = 0; step < 2000; ++step) {
    const int action = static_cast<int>(random() % 4);
    if (action == 3 && model.size() > 1) {
      size_t victim = random() % model.size();
      if (model[victim] == p0) continue;  // Parameters stay.
      ASSERT_TRUE(comp_.RemoveInstruction(model[victim]).ok());
      model.erase(model.begin() + victim);
    } else {
      auto x = std::make_unique<Instruction>(Opcode::kExp, F32x2(), "x");
      x->AppendOperand(p0);
      if (action == 0) {
        model.push_back(comp_.AddInstruction(std::move(x)));
      } else {
        size_t before = random() % model.size();
        Instruction* added =
            comp_.AddInstructionBefore(std::move(x), model[before]);
        model.insert(model.begin() + before, added);
      }
    }
    if (step % 97 == 0) {
      const Computation& as_const = comp_;
      ASSERT_EQ(as_const.instructions(), model) << "step " << step;
    }
    if (step % 331 == 0) {
      ASSERT_EQ(comp_.instructions(), model);
    }
  }
  EXPECT_EQ(comp_.instructions(), model);
  EXPECT_EQ(comp_.instruction_count(), static_cast<int64_t>(model.size()));
}

TEST_F(ComputationTest, CalleesFollowAddsRemovalsAndAttributeWrites) {
  Computation reducer("reducer");
  Computation other("other");
  Instruction* p0 = Param(0, "p0");
  comp_.set_root(p0);
  EXPECT_TRUE(comp_.callees().empty());
  auto map = std::make_unique<Instruction>(Opcode::kMap, F32x2(), "map");
  map->AppendOperand(p0);
  map->mutable_attrs()->Set("to_apply", &reducer);
  Instruction* added = comp_.AddInstruction(std::move(map));
  EXPECT_EQ(comp_.callees(), (std::vector<Computation*>{&reducer}));
  added->mutable_attrs()->Set("to_apply", &other);
  EXPECT_EQ(comp_.callees(), (std::vector<Computation*>{&other}));
  added->RemapCalledComputations([&](Computation*) { return &reducer; });
  EXPECT_EQ(comp_.callees(), (std::vector<Computation*>{&reducer}));
  ASSERT_TRUE(comp_.RemoveInstruction(added).ok());
  EXPECT_TRUE(comp_.callees().empty());
}

// Inputs before users in `order` (a brute-force check).
bool IsTopological(const Instrs& order) {
  absl::flat_hash_map<const Instruction*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (size_t i = 0; i < order.size(); ++i) {
    for (const Instruction* operand : order[i]->operands()) {
      auto it = position.find(operand);
      if (it != position.end() && it->second >= i) return false;
    }
  }
  return true;
}

// Whether `from` reaches `to` through operands.
bool Reaches(const Instruction* from, const Instruction* to) {
  std::vector<const Instruction*> work = {from};
  absl::flat_hash_set<const Instruction*> seen;
  while (!work.empty()) {
    const Instruction* x = work.back();
    work.pop_back();
    if (x == to) return true;
    if (!seen.insert(x).second) continue;
    for (const Instruction* operand : x->operands()) work.push_back(operand);
  }
  return false;
}

// Random rewiring, insertions and removals: whenever the computation
// claims a definition order it has one, and PostOrder is always
// topological (and the stable order itself when the claim holds).
TEST_F(ComputationTest, DefinitionOrderClaimIsNeverWrong) {
  std::mt19937 random(11);
  Instruction* p0 = Param(0, "p0");
  std::vector<Instruction*> live = {p0};
  for (int step = 0; step < 1500; ++step) {
    const int action = static_cast<int>(random() % 4);
    Instruction* a = live[random() % live.size()];
    Instruction* b = live[random() % live.size()];
    if (action == 0) {
      live.push_back(Op(Opcode::kAdd, {a, b}, "add"));
    } else if (action == 1) {
      auto x = std::make_unique<Instruction>(Opcode::kExp, F32x2(), "exp");
      x->AppendOperand(a);
      live.push_back(comp_.AddInstructionBefore(std::move(x), b));
    } else if (action == 2 && b->operand_count() > 0 && !Reaches(a, b)) {
      b->ReplaceOperandWith(0, a);  // May point back in the order.
    } else if (action == 3 && a != p0 && a->user_count() == 0) {
      ASSERT_TRUE(comp_.RemoveInstruction(a).ok());
      live.erase(std::find(live.begin(), live.end(), a));
    }
    const Computation& as_const = comp_;
    if (as_const.IsInDefinitionOrder()) {
      ASSERT_TRUE(IsTopological(as_const.instructions())) << "step " << step;
    }
    if (step % 50 == 0) {
      absl::StatusOr<Instrs> post = comp_.PostOrder();
      ASSERT_TRUE(post.ok());
      ASSERT_TRUE(IsTopological(*post)) << "step " << step;
      ASSERT_EQ(post->size(), live.size());
      if (step % 100 == 0) {
        ASSERT_TRUE(comp_.RestoreDefinitionOrder().ok());
        ASSERT_TRUE(IsTopological(comp_.instructions()));
      }
    }
  }
}

}  // namespace
}  // namespace kiln
