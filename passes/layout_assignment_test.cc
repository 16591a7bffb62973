#include "passes/layout_assignment.h"

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/layout_constraints.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::testing::HasSubstr;
using ::testing::Not;

// Random values for `shape` (dynamic dimensions at their bound): small
// integers (they fit s4), pred 0/1, floats in [-2, 2).
Literal RandomLiteral(const Shape& shape, std::mt19937_64& generator) {
  if (shape.IsTuple()) {
    std::vector<Literal> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      elements.push_back(RandomLiteral(element, generator));
    }
    return Literal::Tuple(std::move(elements));
  }
  Shape bounded = Shape::Array(shape.element_type(), shape.dimensions());
  absl::StatusOr<Literal> literal = Literal::Create(bounded);
  EXPECT_TRUE(literal.ok()) << literal.status();
  if (!literal.ok()) return Literal();
  std::uniform_int_distribution<int> integer(-7, 7);
  std::uniform_real_distribution<double> real(-2, 2);
  for (int64_t i = 0; i < literal->element_count(); ++i) {
    if (shape.element_type() == ElementType::kPred) {
      literal->SetInt64(i, integer(generator) & 1);
    } else if (IsIntegralType(shape.element_type())) {
      literal->SetInt64(i, integer(generator));
    } else {
      literal->SetDouble(i, real(generator));
    }
  }
  return *std::move(literal);
}

// Three argument sets of random values for the entry's parameters.
std::vector<std::vector<Literal>> RandomArguments(const Module& module) {
  std::mt19937_64 generator(7);
  std::vector<std::vector<Literal>> sets(3);
  for (std::vector<Literal>& set : sets) {
    for (const Instruction* parameter : module.entry()->parameters()) {
      set.push_back(RandomLiteral(parameter->shape(), generator));
    }
  }
  return sets;
}

// Where an array without a layout hides in the module ("" when none).
std::string MissingLayout(const Module& module) {
  std::function<bool(const Shape&)> complete = [&](const Shape& shape) {
    if (shape.IsTuple()) {
      for (const Shape& element : shape.tuple_shapes()) {
        if (!complete(element)) return false;
      }
      return true;
    }
    return !shape.IsArray() || shape.has_layout();
  };
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      if (!complete(instruction->shape())) return instruction->name();
    }
  }
  return "";
}

std::unique_ptr<Pass> PassFor(absl::string_view backend) {
  if (backend.empty())
    return PassRegistry::Global().Create("layout-assignment");
  absl::StatusOr<std::unique_ptr<Pass>> pass =
      MakeLayoutAssignmentPass(backend);
  EXPECT_TRUE(pass.ok()) << pass.status();
  return pass.ok() ? *std::move(pass) : nullptr;
}

// Runs the pass on `hlo` and checks what it promises: it succeeds, says
// whether it changed the module, every array has a layout, the module
// verifies strictly (entry layout included) and round-trips, and the
// evaluator computes the same values on random inputs before and after
// (bitcasts read through layouts, so a wrong layout is a wrong value).
// Returns the printed module.
std::string Assign(const std::string& hlo, absl::string_view backend = "",
                   bool expect_change = true) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  absl::StatusOr<SemanticChecker> checker =
      SemanticChecker::Create(**module, RandomArguments(**module));
  EXPECT_TRUE(checker.ok()) << checker.status();
  std::unique_ptr<Pass> pass = PassFor(backend);
  if (pass == nullptr) return "";
  absl::StatusOr<bool> changed = pass->Run(**module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return "";
  EXPECT_EQ(*changed, expect_change) << Print(**module);
  EXPECT_EQ(MissingLayout(**module), "");
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  absl::Status verified = VerifyModule(**module, strict);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << Print(**module);
  EXPECT_TRUE(RoundTrips(**module));
  if (checker.ok()) {
    absl::Status same = checker->Check("layout-assignment", **module);
    EXPECT_TRUE(same.ok()) << same << "\n" << Print(**module);
  }
  // A second run finds nothing left to do.
  absl::StatusOr<bool> again = PassFor(backend)->Run(**module);
  EXPECT_TRUE(again.ok() && !*again) << Print(**module);
  return Print(**module);
}

int Count(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

// --- Bitcasts ---

TEST(LayoutAssignmentTest, DefaultLayoutReshapeBecomesBitcast) {
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT r = f32[6] reshape(p0)
})");
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT bitcast = f32[6]{0} bitcast(p0)"}));
  EXPECT_THAT(out, Not(HasSubstr("reshape")));
}

TEST(LayoutAssignmentTest, TransposeAbsorbsColumnMajorParameter) {
  // Column-major [2,3] is row-major [3,2]: the transpose moves no byte,
  // and the reshape after it is a bitcast too.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[6]{0}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  t = f32[3,2] transpose(p0), dimensions={1,0}
  ROOT r = f32[6] reshape(t)
})");
  EXPECT_TRUE(ContainsInOrder(
      out,
      {"p0 = f32[2,3]{0,1} parameter(0)", "bitcast = f32[3,2]{1,0} bitcast(p0)",
       "ROOT bitcast.1 = f32[6]{0} bitcast(bitcast)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, TransposeIntoRequiredLayoutStaysATranspose) {
  // The result must be row-major, so the transpose really moves data; it
  // is not a bitcast, and no copy is needed either.
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT t = f32[3,2] transpose(p0), dimensions={1,0}
})",
                                 "", /*expect_change=*/false);
  EXPECT_TRUE(ContainsInOrder(
      out, {"ROOT t = f32[3,2]{1,0} transpose(p0), dimensions={1,0}"}));
}

TEST(LayoutAssignmentTest, ReshapeThatMovesDataIsKept) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[6]{0}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT r = f32[6] reshape(p0)
})");
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[6]{0} reshape(p0)"}));
}

// --- Entry layout and copies ---

TEST(LayoutAssignmentTest, ElementwiseFollowsEntryLayoutWithoutCopies) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  p1 = f32[2,3] parameter(1)
  a = f32[2,3] add(p0, p1)
  ROOT n = f32[2,3] negate(a)
})");
  EXPECT_TRUE(ContainsInOrder(out, {"a = f32[2,3]{0,1} add(p0, p1)",
                                    "ROOT n = f32[2,3]{0,1} negate(a)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, ResultLayoutForcesOneCopy) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{1,0}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  e1 = f32[2,3] exponential(p0)
  ROOT n = f32[2,3] negate(e1)
})");
  EXPECT_EQ(Count(out, " copy("), 1) << out;
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = f32[2,3]{1,0} negate("}));
}

TEST(LayoutAssignmentTest, ElementwiseTakesTheMajorityLayout) {
  // Two operands and the result agree on {1,0}: only p0 is copied.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[2,3]{1,0})->f32[2,3]{1,0}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  p1 = f32[2,3] parameter(1)
  ROOT a = f32[2,3] add(p0, p1)
})");
  EXPECT_TRUE(ContainsInOrder(out, {"copy = f32[2,3]{1,0} copy(p0)",
                                    "ROOT a = f32[2,3]{1,0} add(copy, p1)"}));
  EXPECT_EQ(Count(out, " copy("), 1);
}

TEST(LayoutAssignmentTest, BroadcastTakesItsUsersLayout) {
  // The broadcast is free: it is laid out like the parameter it meets.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[])->f32[2,3]{0,1}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  s = f32[] parameter(1)
  b = f32[2,3] broadcast(s), dimensions={}
  i = f32[2,3] iota(), iota_dimension=1
  m = f32[2,3] multiply(b, i)
  ROOT a = f32[2,3] add(m, p0)
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"b = f32[2,3]{0,1} broadcast(s)", "i = f32[2,3]{0,1} iota()",
            "m = f32[2,3]{0,1} multiply(b, i)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, FreeProducersWaitForTheirUser) {
  // Nothing downstream asks for a layout (the reduce reads any), so the
  // broadcast waits and takes the layout of the parameter it is added to.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[])->f32[2]{0}}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  p1 = f32[] parameter(1)
  b = f32[2,3] broadcast(p1), dimensions={}
  a = f32[2,3] add(b, p0)
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add
})");
  EXPECT_TRUE(ContainsInOrder(out, {"b = f32[2,3]{0,1} broadcast(p1)",
                                    "a = f32[2,3]{0,1} add(b, p0)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, OneCopyPerValueAndLayout) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->(f32[2,3]{1,0}, f32[2,3]{1,0})}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  n = f32[2,3] negate(p0)
  ROOT t = (f32[2,3], f32[2,3]) tuple(n, n)
})");
  EXPECT_LE(Count(out, " copy("), 1) << out;
  EXPECT_TRUE(
      ContainsInOrder(out, {"ROOT t = (f32[2,3]{1,0}, f32[2,3]{1,0}) tuple("}));
}

TEST(LayoutAssignmentTest, UnchangedModuleReportsNoChange) {
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(p0)
})",
                                 "", /*expect_change=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = f32[2,3]{1,0} negate(p0)"}));
}

TEST(LayoutAssignmentTest, ReduceKeepsTheOperandsDimensionOrder) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3,4]{0,1,2})->f32[2,4]{0,1}}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p0 = f32[2,3,4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,4] reduce(p0, z), dimensions={1}, to_apply=add
})");
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[2,4]{0,1} reduce(p0, z)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

// --- Tuples and called computations ---

TEST(LayoutAssignmentTest, TupleParameterLayoutsFlowThroughGetTupleElement) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={((f32[2,3]{0,1}, f32[3,2]{1,0}))->f32[3,2]{1,0}}
ENTRY e {
  p0 = (f32[2,3], f32[3,2]) parameter(0)
  a = f32[2,3] get-tuple-element(p0), index=0
  b = f32[3,2] get-tuple-element(p0), index=1
  t = f32[3,2] transpose(a), dimensions={1,0}
  ROOT s = f32[3,2] add(t, b)
})");
  EXPECT_TRUE(
      ContainsInOrder(out, {"p0 = (f32[2,3]{0,1}, f32[3,2]{1,0}) parameter(0)",
                            "a = f32[2,3]{0,1} get-tuple-element(p0), index=0",
                            "bitcast = f32[3,2]{1,0} bitcast(a)",
                            "ROOT s = f32[3,2]{1,0} add(bitcast, b)"}));
}

TEST(LayoutAssignmentTest, WhileBodyTakesTheInitLayout) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
cond {
  cs = (s32[], f32[2,3]) parameter(0)
  ci = s32[] get-tuple-element(cs), index=0
  c = s32[] constant(3)
  ROOT lt = pred[] compare(ci, c), direction=LT
}
body {
  bs = (s32[], f32[2,3]) parameter(0)
  i = s32[] get-tuple-element(bs), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  x = f32[2,3] get-tuple-element(bs), index=1
  n = f32[2,3] negate(x)
  ROOT t = (s32[], f32[2,3]) tuple(i1, n)
}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[2,3]) tuple(z, p0)
  w = (s32[], f32[2,3]) while(init), condition=cond, body=body
  ROOT r = f32[2,3] get-tuple-element(w), index=1
})");
  EXPECT_TRUE(ContainsInOrder(out, {"cs = (s32[], f32[2,3]{0,1}) parameter(0)",
                                    "bs = (s32[], f32[2,3]{0,1}) parameter(0)",
                                    "n = f32[2,3]{0,1} negate(x)",
                                    "w = (s32[], f32[2,3]{0,1}) while(init)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, CallAndFusionParametersTakeTheCallersLayouts) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[3,2]{1,0}}
callee {
  x = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(x)
}
fused {
  y = f32[2,3] parameter(0)
  ROOT t = f32[3,2] transpose(y), dimensions={1,0}
}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  c = f32[2,3] call(p0), to_apply=callee
  ROOT f = f32[3,2] fusion(c), kind=kLoop, calls=fused
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"x = f32[2,3]{0,1} parameter(0)", "n = f32[2,3]{0,1} negate(x)",
            "y = f32[2,3]{0,1} parameter(0)",
            "ROOT bitcast = f32[3,2]{1,0} bitcast(y)",
            "c = f32[2,3]{0,1} call(p0)", "ROOT f = f32[3,2]{1,0} fusion(c)"}));
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, ConditionalBranchesAgreeOnTheResult) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(pred[], f32[2,3]{0,1}, f32[2,3]{1,0})->f32[2,3]{0,1}}
on_true {
  x = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(x)
}
on_false {
  y = f32[2,3] parameter(0)
  ROOT e = f32[2,3] exponential(y)
}
ENTRY e {
  p = pred[] parameter(0)
  a = f32[2,3] parameter(1)
  b = f32[2,3] parameter(2)
  ROOT c = f32[2,3] conditional(p, a, b), true_computation=on_true, false_computation=on_false
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"x = f32[2,3]{0,1} parameter(0)", "ROOT n = f32[2,3]{0,1} negate",
            "y = f32[2,3]{1,0} parameter(0)",
            "ROOT c = f32[2,3]{0,1} conditional("}));
  // The false branch computes in its parameter's layout and copies once.
  EXPECT_EQ(Count(out, " copy("), 1) << out;
}

TEST(LayoutAssignmentTest, SharedCalleeKeepsItsFirstInterface) {
  // The second call passes a row-major value to a callee already laid out
  // column-major: the operand is copied, the callee is not changed twice.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[2,3]{1,0})->(f32[2,3]{0,1}, f32[2,3]{0,1})}
callee {
  x = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(x)
}
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[2,3] parameter(1)
  c1 = f32[2,3] call(a), to_apply=callee
  c2 = f32[2,3] call(b), to_apply=callee
  ROOT t = (f32[2,3], f32[2,3]) tuple(c1, c2)
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"x = f32[2,3]{0,1} parameter(0)", "copy = f32[2,3]{0,1} copy(b)",
            "c2 = f32[2,3]{0,1} call(copy)"}));
  EXPECT_EQ(Count(out, " copy("), 1) << out;
}

TEST(LayoutAssignmentTest, WhileBodyLaidOutByAnEarlierCallIsCloned) {
  // `body` is first assigned through the call, where its result (an iota)
  // takes the default layout; a loop needs result == parameter, so the
  // while gets its own copy of the body.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->(s32[], f32[2,3]{0,1})}
cond {
  cs = (s32[], f32[2,3]) parameter(0)
  ci = s32[] get-tuple-element(cs), index=0
  c = s32[] constant(2)
  ROOT lt = pred[] compare(ci, c), direction=LT
}
body {
  bs = (s32[], f32[2,3]) parameter(0)
  i = s32[] get-tuple-element(bs), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  io = f32[2,3] iota(), iota_dimension=0
  ROOT t = (s32[], f32[2,3]) tuple(i1, io)
}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[2,3]) tuple(z, p0)
  once = (s32[], f32[2,3]) call(init), to_apply=body
  ROOT w = (s32[], f32[2,3]) while(init), condition=cond, body=body
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"body.layout", "(s32[], f32[2,3]{0,1}) parameter(0)",
            "ROOT w = (s32[], f32[2,3]{0,1}) while(init), condition=cond, "
            "body=body.layout"}));
}

TEST(LayoutAssignmentTest, TupleRootIsRebuiltWithCopies) {
  // The ROOT is the parameter itself: its array element is copied and the
  // tuple rebuilt around it.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={((f32[2,3]{0,1}, s32[]))->(f32[2,3]{1,0}, s32[])}
ENTRY e {
  ROOT p0 = (f32[2,3], s32[]) parameter(0)
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"get-tuple-element = f32[2,3]{0,1} get-tuple-element(p0), index=0",
            "copy = f32[2,3]{1,0} copy(get-tuple-element)",
            "get-tuple-element.1 = s32[] get-tuple-element(p0), index=1",
            "ROOT tuple = (f32[2,3]{1,0}, s32[]) tuple(copy, "
            "get-tuple-element.1)"}));
}

TEST(LayoutAssignmentTest, CustomCallKeepsItsLayouts) {
  // custom-call is opaque: its operand arrives in the layout it was
  // written with, whatever the entry layout does to the parameter.
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY e {
  p0 = f32[2,3]{1,0} parameter(0)
  ROOT c = f32[2,3]{0,1} custom-call(p0), custom_call_target="foo"
})");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<bool> changed = PassFor("")->Run(**module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(ContainsInOrder(
      Print(**module),
      {"p0 = f32[2,3]{0,1} parameter(0)", "copy = f32[2,3]{1,0} copy(p0)",
       "ROOT c = f32[2,3]{0,1} custom-call(copy)"}));
  EXPECT_TRUE(VerifyModule(**module).ok());
}

// Linear time and no recursion: a 50k-long chain of free values is decided
// only at its end, and a 20k-element tuple is read by 20k
// get-tuple-elements (built in code: the text parser is slow on such wide
// tuples). A quadratic pass took over a minute here.
TEST(LayoutAssignmentTest, LongChainsAndWideTuples) {
  constexpr int kChain = 50000;
  std::string body =
      "  p0 = f32[2,3]{0,1} parameter(0)\n"
      "  s = f32[] parameter(1)\n"
      "  v0 = f32[2,3] broadcast(s), dimensions={}\n";
  for (int i = 1; i <= kChain; ++i) {
    absl::StrAppend(&body, "  v", i, " = f32[2,3] negate(v", i - 1, ")\n");
  }
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(absl::StrCat(
      "HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[])->"
      "f32[2,3]{0,1}}\nENTRY e {\n",
      body, "  ROOT a = f32[2,3]{0,1} add(v", kChain, ", p0)\n}\n"));
  ASSERT_TRUE(module.ok()) << module.status();
  Computation& entry = *(*module)->entry();
  Instruction* a = entry.root();
  constexpr int kWide = 20000;
  std::vector<Shape> elements(kWide, Shape::Array(ElementType::kF32, {2, 3}));
  Instruction* tuple = entry.AddInstruction(std::make_unique<Instruction>(
      Opcode::kTuple, Shape::Tuple(elements), "t"));
  for (int i = 0; i < kWide; ++i) tuple->AppendOperand(a);
  std::vector<Instruction*> reads;
  for (int i = 0; i < kWide; ++i) {
    auto read = std::make_unique<Instruction>(
        Opcode::kGetTupleElement, elements[i], absl::StrCat("g", i));
    read->mutable_attrs()->Set("index", static_cast<int64_t>(i));
    read->AppendOperand(tuple);
    reads.push_back(entry.AddInstruction(std::move(read)));
  }
  auto sum = std::make_unique<Instruction>(Opcode::kAdd, elements[0], "r");
  sum->AppendOperand(reads.front());
  sum->AppendOperand(reads.back());
  entry.set_root(entry.AddInstruction(std::move(sum)));

  const absl::Time start = absl::Now();
  absl::StatusOr<bool> changed = PassFor("")->Run(**module);
  const absl::Duration took = absl::Now() - start;
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_LT(took, absl::Seconds(30));
  EXPECT_EQ(entry.FindInstruction("v0")->shape().layout(), Layout({0, 1}));
  EXPECT_EQ(entry.FindInstruction("v25000")->shape().layout(), Layout({0, 1}));
  EXPECT_EQ(entry.FindInstruction("g19999")->shape().layout(), Layout({0, 1}));
  EXPECT_EQ(entry.FindInstruction("copy"), nullptr);
}

TEST(LayoutAssignmentTest, IndexedConditionalBranchesShareOneResultLayout) {
  // branch_computations: the first branch returns what the conditional's
  // user wants ({1,0}, copying its column-major parameter once); the other
  // branches must return that layout too.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(s32[], f32[2,3]{0,1}, f32[2,3]{1,0}, f32[2,3]{1,0})->f32[2,3]{1,0}}
b0 {
  x0 = f32[2,3] parameter(0)
  ROOT n0 = f32[2,3] negate(x0)
}
b1 {
  x1 = f32[2,3] parameter(0)
  ROOT n1 = f32[2,3] exponential(x1)
}
b2 {
  x2 = f32[2,3] parameter(0)
  ROOT n2 = f32[2,3] abs(x2)
}
ENTRY e {
  i = s32[] parameter(0)
  a = f32[2,3] parameter(1)
  b = f32[2,3] parameter(2)
  c = f32[2,3] parameter(3)
  ROOT k = f32[2,3] conditional(i, a, b, c), branch_computations={b0, b1, b2}
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"ROOT n0 = f32[2,3]{1,0} negate(", "ROOT n1 = f32[2,3]{1,0}",
            "ROOT n2 = f32[2,3]{1,0}", "ROOT k = f32[2,3]{1,0} conditional("}));
  EXPECT_EQ(Count(out, " copy("), 1) << out;
}

TEST(LayoutAssignmentTest, UncalledComputationsAreLaidOutToo) {
  const std::string out = Assign(R"(HloModule m
unused {
  u = f32[2,3] parameter(0)
  ROOT r = f32[3,2] reshape(u)
}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(p0)
})");
  EXPECT_TRUE(
      ContainsInOrder(out, {"ROOT bitcast = f32[3,2]{1,0} bitcast(u)"}));
}

// --- Left alone ---

TEST(LayoutAssignmentTest, ExistingBitcastKeepsItsOperandLayout) {
  // The entry layout changes p0's layout; the old bitcast must still read
  // p0's bytes in the old order, so p0 is copied back for it.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[3,2]{1,0}}
ENTRY e {
  p0 = f32[2,3]{1,0} parameter(0)
  ROOT b = f32[3,2]{1,0} bitcast(p0)
})");
  EXPECT_TRUE(ContainsInOrder(out, {"copy = f32[2,3]{1,0} copy(p0)",
                                    "ROOT b = f32[3,2]{1,0} bitcast(copy)"}));
}

TEST(LayoutAssignmentTest, SubByteElementSizeIsLeftAlone) {
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = s4[2,4]{1,0:E(4)} parameter(0)
  n = s4[2,4]{1,0:E(4)} negate(p0)
  ROOT r = s4[8]{0:E(4)} reshape(n)
})",
                                 "", /*expect_change=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"n = s4[2,4]{1,0:E(4)} negate(p0)",
                                    "ROOT r = s4[8]{0:E(4)} reshape(n)"}));
}

TEST(LayoutAssignmentTest, DynamicReshapeIsNotABitcast) {
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = f32[<=4,3] parameter(0)
  n = f32[<=4,3] negate(p0)
  ROOT r = f32[<=12] reshape(n)
})",
                                 "", /*expect_change=*/false);
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT r = f32[<=12]{0} reshape(n)"}));
}

TEST(LayoutAssignmentTest, ControlDependenciesSurviveTheBitcastRewrite) {
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  n = f32[2,3] negate(p0)
  r = f32[6] reshape(p0), control-predecessors={n}
  ROOT t = (f32[2,3], f32[6]) tuple(n, r)
})");
  EXPECT_TRUE(ContainsInOrder(
      out, {"bitcast = f32[6]{0} bitcast(p0), control-predecessors={n}"}));
}

TEST(LayoutAssignmentTest, ArraysWithoutLayoutsGetThem) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(p0)
})");
  ASSERT_TRUE(module.ok());
  for (Instruction* instruction : (*module)->entry()->instructions()) {
    instruction->mutable_shape()->clear_layout();
  }
  ASSERT_NE(MissingLayout(**module), "");
  ASSERT_TRUE(PassFor("")->Run(**module).ok());
  EXPECT_EQ(MissingLayout(**module), "");
}

// --- Backend constraints ---

TEST(LayoutAssignmentTest, CpuDotOperandsAreRowMajor) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[3,4]{1,0})->f32[2,4]{1,0}}
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
      "cpu");
  EXPECT_TRUE(ContainsInOrder(out, {"copy = f32[2,3]{1,0} copy(a)",
                                    "ROOT d = f32[2,4]{1,0} dot(copy, b)"}));
}

TEST(LayoutAssignmentTest, WithoutBackendTheDotTakesNoCopy) {
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[3,4]{1,0})->f32[2,4]{1,0}}
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  EXPECT_THAT(out, Not(HasSubstr("copy")));
}

TEST(LayoutAssignmentTest, CpuConvolutionIsNhwc) {
  // NCHW input (bf01), OIHW kernel: the cpu set wants NHWC / HWIO.
  const std::string out = Assign(R"(HloModule m
ENTRY e {
  x = f32[1,2,4,4] parameter(0)
  k = f32[3,2,2,2] parameter(1)
  ROOT c = f32[1,3,3,3] convolution(x, k), window={size=2x2}, dim_labels=bf01_oi01->bf01
})",
                                 "gpu");
  EXPECT_TRUE(ContainsInOrder(
      out, {"copy = f32[1,2,4,4]{1,3,2,0} copy(x)",
            "copy.1 = f32[3,2,2,2]{0,1,3,2} copy(k)",
            "c = f32[1,3,3,3]{1,3,2,0} convolution(copy, copy.1)",
            "ROOT copy.2 = f32[1,3,3,3]{3,2,1,0} copy(c)"}));
}

TEST(LayoutAssignmentTest, ConstraintsPullProducersIntoShape) {
  // The negate feeding the dot is laid out row-major from the start, so
  // the copy sits on the parameter, and only one is needed.
  const std::string out = Assign(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1}, f32[3,4]{1,0})->f32[2,4]{1,0}}
ENTRY e {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  n = f32[2,3] negate(a)
  ROOT d = f32[2,4] dot(n, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
      "cpu");
  EXPECT_EQ(Count(out, " copy("), 1) << out;
  EXPECT_TRUE(ContainsInOrder(out, {"n = f32[2,3]{1,0} negate("}));
}

TEST(LayoutAssignmentTest, UnknownBackendIsAnError) {
  absl::StatusOr<std::unique_ptr<Pass>> pass = MakeLayoutAssignmentPass("tpu");
  ASSERT_FALSE(pass.ok());
  EXPECT_THAT(std::string(pass.status().message()),
              HasSubstr("no layout constraints registered as 'tpu' "
                        "(registered: cpu, gpu"));
}

class BadRankConstraints : public LayoutConstraints {
 public:
  absl::string_view name() const override { return "bad"; }
  LayoutRequirement Requirement(const Instruction& instruction) const override {
    LayoutRequirement requirement;
    if (instruction.opcode() == Opcode::kNegate) {
      requirement.result = Layout({0, 1, 2});
    }
    return requirement;
  }
};

TEST(LayoutAssignmentTest, MalformedBackendConstraintIsAnError) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(p0)
})");
  ASSERT_TRUE(module.ok());
  std::unique_ptr<Pass> pass =
      MakeLayoutAssignmentPass(std::make_shared<BadRankConstraints>());
  absl::StatusOr<bool> changed = pass->Run(**module);
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(std::string(changed.status().message()),
            "layout-assignment: backend 'bad' requires layout {0,1,2} for the "
            "result of negate n, which is f32[2,3] (layout constraint)");
}

TEST(LayoutAssignmentTest, EntryLayoutOfTheWrongArityIsAnError) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(R"(HloModule m
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT n = f32[2,3] negate(p0)
})");
  ASSERT_TRUE(module.ok());
  (*module)->config().entry_computation_layout =
      ComputationLayout{{}, Shape::Array(ElementType::kF32, {2, 3})};
  absl::StatusOr<bool> changed = PassFor("")->Run(**module);
  ASSERT_FALSE(changed.ok());
  EXPECT_THAT(std::string(changed.status().message()),
              HasSubstr("entry_computation_layout has 0 parameters but the "
                        "entry computation has 1 (layout.entry)"));
}

// The semantic check has teeth: a bitcast whose operand layout is changed
// behind the pass's back computes different values.
TEST(LayoutAssignmentTest, WrongLayoutUnderABitcastChangesValues) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[3,2]{1,0}}
ENTRY e {
  p0 = f32[2,3] parameter(0)
  ROOT t = f32[3,2] transpose(p0), dimensions={1,0}
})");
  ASSERT_TRUE(module.ok());
  absl::StatusOr<SemanticChecker> checker =
      SemanticChecker::Create(**module, RandomArguments(**module));
  ASSERT_TRUE(checker.ok());
  ASSERT_TRUE(PassFor("")->Run(**module).ok());
  ASSERT_THAT(Print(**module), HasSubstr("bitcast(p0)"));
  EXPECT_TRUE(checker->Check("layout-assignment", **module).ok());
  (*module)->entry()->parameter(0)->mutable_shape()->set_layout(Layout({1, 0}));
  EXPECT_FALSE(checker->Check("layout-assignment", **module).ok());
}

}  // namespace
}  // namespace kiln
