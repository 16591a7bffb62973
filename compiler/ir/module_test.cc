#include "compiler/ir/module.h"

#include <chrono>
#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace kiln {
namespace {

using Instrs = std::vector<Instruction*>;
using Comps = std::vector<Computation*>;

Shape F32() { return Shape::Scalar(ElementType::kF32); }

Instruction* Add(Computation* c, Opcode op, Instrs operands,
                 const std::string& name) {
  auto x = std::make_unique<Instruction>(op, F32(), name);
  for (Instruction* operand : operands) x->AppendOperand(operand);
  if (op == Opcode::kParameter) x->set_parameter_number(c->parameters().size());
  return c->AddInstruction(std::move(x));
}

// A reducer "name { x, y -> ROOT add(x, y) }".
Computation* AddReducer(Module* m, const std::string& name) {
  Computation* c = m->AddComputation(std::make_unique<Computation>(name));
  Instruction* x = Add(c, Opcode::kParameter, {}, "x");
  Instruction* y = Add(c, Opcode::kParameter, {}, "y");
  c->set_root(Add(c, Opcode::kAdd, {x, y}, "add"));
  return c;
}

// Entry calling `callee` through a map instruction.
Computation* AddEntryCalling(Module* m, Computation* callee) {
  Computation* e =
      m->AddEntryComputation(std::make_unique<Computation>("main"));
  Instruction* p = Add(e, Opcode::kParameter, {}, "p");
  Instruction* map = Add(e, Opcode::kMap, {p, p}, "map");
  map->mutable_attrs()->Set("to_apply", callee);
  e->set_root(map);
  return e;
}

std::vector<std::string> Names(const Comps& list) {
  std::vector<std::string> names;
  for (const Computation* c : list) names.push_back(c->name());
  return names;
}

TEST(ModuleTest, InstructionNamesUniqueModuleWideComputationNamesSeparate) {
  Module m("m");
  Computation* add = AddReducer(&m, "add");
  Computation* add2 = AddReducer(&m, "add");
  EXPECT_EQ(add->name(), "add");
  EXPECT_EQ(add2->name(), "add.1");
  // The ROOT named like its computation keeps its name.
  EXPECT_EQ(add->root()->name(), "add");
  EXPECT_EQ(add2->parameter(0)->name(), "x.1");
  EXPECT_EQ(add2->root()->name(), "add.1");
  EXPECT_EQ(add2->FindInstruction("y.1"), add2->parameter(1));
  EXPECT_EQ(m.FindComputation("add.1"), add2);
  EXPECT_EQ(m.computations(), (Comps{add, add2}));
  EXPECT_TRUE(m.IsNameUsed("x.1"));
  EXPECT_EQ(m.UniqueName("x"), "x.2");
  EXPECT_EQ(m.UniqueName("fresh"), "fresh");
  EXPECT_EQ(m.UniqueName("fresh"), "fresh.1");
}

TEST(ModuleTest, AddingAFilledComputationRenamesOnlyConflicts) {
  Module m("m");
  AddReducer(&m, "r");
  auto c = std::make_unique<Computation>("c");
  Instruction* x = Add(c.get(), Opcode::kParameter, {}, "x");
  Instruction* z = Add(c.get(), Opcode::kParameter, {}, "x.1");
  Instruction* w = Add(c.get(), Opcode::kNegate, {x}, "w");
  Computation* added = m.AddComputation(std::move(c));
  EXPECT_EQ(w->name(), "w");
  EXPECT_NE(x->name(), "x");
  EXPECT_NE(x->name(), z->name());
  EXPECT_EQ(added->FindInstruction(x->name()), x);
  EXPECT_EQ(added->FindInstruction(z->name()), z);
  EXPECT_EQ(added->FindInstruction("w"), w);
  // Later additions continue from the module's names.
  Instruction* v = Add(added, Opcode::kNegate, {x}, "w");
  EXPECT_EQ(v->name(), "w.1");
}

TEST(ModuleTest, PostOrderComputationsCalleesFirstEntryLast) {
  Module m("m");
  Computation* entry =
      m.AddEntryComputation(std::make_unique<Computation>("e"));
  Computation* inner = AddReducer(&m, "inner");
  Computation* outer = m.AddComputation(std::make_unique<Computation>("outer"));
  Instruction* p = Add(outer, Opcode::kParameter, {}, "p");
  Instruction* call = Add(outer, Opcode::kCall, {p}, "call");
  call->mutable_attrs()->Set("to_apply", inner);
  outer->set_root(call);
  Instruction* q = Add(entry, Opcode::kParameter, {}, "q");
  Instruction* c2 = Add(entry, Opcode::kCall, {q}, "c2");
  c2->mutable_attrs()->Set("to_apply", outer);
  entry->set_root(c2);
  absl::StatusOr<Comps> order = m.PostOrderComputations();
  ASSERT_TRUE(order.ok()) << order.status();
  EXPECT_EQ(Names(*order), (std::vector<std::string>{"inner", "outer", "e"}));
}

TEST(ModuleTest, RecursionIsAnError) {
  Module m("m");
  Computation* a = m.AddComputation(std::make_unique<Computation>("a"));
  Computation* b = m.AddComputation(std::make_unique<Computation>("b"));
  Instruction* ca = Add(a, Opcode::kCall, {}, "ca");
  ca->mutable_attrs()->Set("to_apply", b);
  Instruction* cb = Add(b, Opcode::kCall, {}, "cb");
  cb->mutable_attrs()->Set("to_apply", a);
  EXPECT_FALSE(m.PostOrderComputations().ok());
  EXPECT_FALSE(m.CloneComputation(a, ".clone").ok());
  m.set_entry(a);
  EXPECT_EQ(m.RemoveDeadComputations(), 0);
}

TEST(ModuleTest, CloneComputationRemapsCallees) {
  Module m("m");
  Computation* reducer = AddReducer(&m, "add");
  Computation* entry = AddEntryCalling(&m, reducer);
  absl::StatusOr<Computation*> clone = m.CloneComputation(entry, ".clone");
  ASSERT_TRUE(clone.ok()) << clone.status();
  EXPECT_EQ((*clone)->name(), "main.clone");
  EXPECT_EQ(
      Names(m.computations()),
      (std::vector<std::string>{"add", "main", "add.clone", "main.clone"}));
  Computation* reducer_clone = m.FindComputation("add.clone");
  ASSERT_NE(reducer_clone, nullptr);
  EXPECT_EQ((*clone)->root()->name(), "map.clone");
  EXPECT_EQ((*clone)->root()->called_computations(), (Comps{reducer_clone}));
  EXPECT_EQ(reducer_clone->root()->name(), "add.clone");
  EXPECT_EQ(reducer_clone->root()->operands(),
            (Instrs{reducer_clone->parameter(0), reducer_clone->parameter(1)}));
  // Originals are untouched.
  EXPECT_EQ(entry->root()->called_computations(), (Comps{reducer}));
  EXPECT_EQ(m.entry(), entry);
  // Cloning again keeps names unique.
  absl::StatusOr<Computation*> again = m.CloneComputation(entry, ".clone");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->name(), "main.clone.1");
  EXPECT_NE((*again)->root()->name(), "map.clone");
}

TEST(ModuleTest, RemoveDeadAndSingleComputations) {
  Module m("m");
  Computation* dead = AddReducer(&m, "dead");
  Computation* used = AddReducer(&m, "used");
  Computation* entry = AddEntryCalling(&m, used);
  Computation* dead2 = AddReducer(&m, "dead2");
  EXPECT_FALSE(m.RemoveComputation(entry).ok());
  EXPECT_FALSE(m.RemoveComputation(used).ok());  // Still called.
  EXPECT_FALSE(m.RemoveComputation(nullptr).ok());
  ASSERT_TRUE(m.RemoveComputation(dead2).ok());
  EXPECT_EQ(m.computations(), (Comps{dead, used, entry}));
  EXPECT_EQ(m.RemoveDeadComputations(), 1);
  EXPECT_EQ(m.computations(), (Comps{used, entry}));
  EXPECT_EQ(m.RemoveDeadComputations(), 0);
}

TEST(ModuleTest, CloneIsADeepCopy) {
  Module m("m");
  Computation* reducer = AddReducer(&m, "add");
  Computation* entry = AddEntryCalling(&m, reducer);
  m.config().replica_count = 4;
  m.config().frontend_attributes = {{"k", "v"}};
  std::unique_ptr<Module> copy = m.Clone();
  EXPECT_EQ(copy->name(), "m");
  EXPECT_EQ(copy->config(), m.config());
  ASSERT_EQ(Names(copy->computations()), Names(m.computations()));
  ASSERT_NE(copy->entry(), nullptr);
  EXPECT_NE(copy->entry(), entry);
  EXPECT_EQ(copy->entry()->name(), "main");
  Computation* copied_reducer = copy->FindComputation("add");
  EXPECT_NE(copied_reducer, reducer);
  EXPECT_EQ(copy->entry()->root()->called_computations(),
            (Comps{copied_reducer}));
  EXPECT_EQ(copied_reducer->parent(), copy.get());
  for (Computation* c : copy->computations()) {
    Computation* original = m.FindComputation(c->name());
    ASSERT_NE(original, nullptr);
    ASSERT_EQ(c->instruction_count(), original->instruction_count());
    Instrs mine = c->instructions();
    Instrs theirs = original->instructions();
    for (size_t i = 0; i < mine.size(); ++i) {
      EXPECT_EQ(mine[i]->name(), theirs[i]->name());
      EXPECT_NE(mine[i], theirs[i]);
      EXPECT_EQ(mine[i]->parent(), c);
      EXPECT_TRUE(mine[i]->IdenticalIgnoringOperands(*theirs[i]));
    }
  }
  EXPECT_TRUE(copy->IsNameUsed("map"));
}

TEST(ModuleTest, FindComputationFollowsRenamesAndRemovals) {
  Module m("m");
  Computation* a = AddReducer(&m, "a");
  Computation* b = AddReducer(&m, "b");
  AddEntryCalling(&m, b);
  EXPECT_EQ(m.FindComputation("a"), a);
  a->set_name("renamed");
  EXPECT_EQ(m.FindComputation("a"), nullptr);
  EXPECT_EQ(m.FindComputation("renamed"), a);
  ASSERT_TRUE(m.RemoveComputation(a).ok());
  EXPECT_EQ(m.FindComputation("renamed"), nullptr);
  EXPECT_EQ(m.FindComputation("b"), b);
  EXPECT_EQ(m.FindComputation("main"), m.entry());
}

TEST(ModuleTest, FusionComputationIsKnownFromItsCaller) {
  Module m("m");
  Computation* fused = AddReducer(&m, "fused_computation");
  Computation* reducer = AddReducer(&m, "add");
  Computation* entry = AddEntryCalling(&m, reducer);
  EXPECT_FALSE(fused->is_fusion_computation());
  Instruction* fusion =
      Add(entry, Opcode::kFusion, {entry->parameter(0)}, "fusion");
  fusion->mutable_attrs()->Set("calls", fused);
  EXPECT_TRUE(fused->is_fusion_computation());
  EXPECT_FALSE(reducer->is_fusion_computation());
}

TEST(ModuleTest, ModuleConfigEquality) {
  ModuleConfig a;
  ModuleConfig b;
  EXPECT_EQ(a, b);
  b.num_partitions = 2;
  EXPECT_FALSE(a == b);
  b = a;
  b.entry_computation_layout = ComputationLayout{{F32()}, F32()};
  EXPECT_FALSE(a == b);
  a.entry_computation_layout = ComputationLayout{{F32()}, F32()};
  EXPECT_EQ(a, b);
  b.input_output_alias = {InputOutputAlias{{0}, 1, {}, true}};
  EXPECT_FALSE(a == b);
  b = a;
  b.buffer_donor = {BufferDonor{0, {1}}};
  EXPECT_FALSE(a == b);
  b = a;
  b.extra_attributes = {{"x", RawText{"true"}}};
  EXPECT_FALSE(a == b);
  b = a;
  b.is_scheduled = true;
  EXPECT_FALSE(a == b);
}

TEST(ModuleTest, ManyInstructionsWithOneNameStayFast) {
  Module m("m");
  Computation* c = m.AddEntryComputation(std::make_unique<Computation>("c"));
  auto start = std::chrono::steady_clock::now();
  Instruction* last = Add(c, Opcode::kParameter, {}, "p");
  for (int i = 0; i < 100000; ++i) {
    last = Add(c, Opcode::kNegate, {last}, i % 2 == 0 ? "n" : "n.5");
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(c->instruction_count(), 100001);
  // Quadratic uniquing would take minutes; linear takes well under this.
  EXPECT_LT(seconds, 20.0);
  absl::flat_hash_set<std::string> names;
  for (Instruction* x : c->instructions()) {
    EXPECT_TRUE(names.insert(x->name()).second) << x->name();
  }
}

}  // namespace
}  // namespace kiln
