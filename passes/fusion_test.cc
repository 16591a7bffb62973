#include "passes/fusion.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/fusion_policy.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::testing::HasSubstr;
using ::testing::Not;

// Random arguments for the entry's parameters: floats in [-2, 2], integers
// in [0, 6), pred either way.
std::vector<Literal> RandomArguments(const Module& module, uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<Literal> arguments;
  for (const Instruction* parameter : module.entry()->parameters()) {
    absl::StatusOr<Literal> literal = Literal::Create(parameter->shape());
    EXPECT_TRUE(literal.ok()) << literal.status();
    if (!literal.ok()) return {};
    const ElementType type = literal->element_type();
    for (int64_t i = 0; i < literal->element_count(); ++i) {
      if (IsFloatType(type)) {
        literal->SetDouble(
            i, std::uniform_real_distribution<double>(-2, 2)(generator));
      } else {
        literal->SetInt64(i, static_cast<int64_t>(generator() % 6) %
                                 (type == ElementType::kPred ? 2 : 6));
      }
    }
    arguments.push_back(*std::move(literal));
  }
  return arguments;
}

std::vector<Literal> EvaluateOnSeeds(const Module& module) {
  std::vector<Literal> results;
  for (uint64_t seed : {1, 2, 3}) {
    absl::StatusOr<Literal> result =
        Evaluate(module, RandomArguments(module, seed));
    EXPECT_TRUE(result.ok()) << result.status();
    if (result.ok()) results.push_back(*std::move(result));
  }
  return results;
}

void ExpectSameResults(const std::vector<Literal>& expected,
                       const Module& module) {
  const std::vector<Literal> actual = EvaluateOnSeeds(module);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    std::optional<std::string> difference =
        DescribeDifference(expected[i], actual[i]);
    EXPECT_FALSE(difference.has_value()) << *difference << "\n"
                                         << Print(module);
  }
}

// Runs fusion (under `policy`, or the default) on `hlo` and checks what
// every fusion must guarantee: the expected change, a module that
// verifies (strictly if the input did), prints as text that parses back
// (with the fusion shape checks) to the same text, and computes the same
// values, before and after re-parsing, on random inputs. Returns the text.
std::string Fuse(const std::string& hlo, bool expect_change = true,
                 std::unique_ptr<FusionPolicy> policy = nullptr) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  const bool was_strict = VerifyModule(**module, strict).ok();
  const std::vector<Literal> expected = EvaluateOnSeeds(**module);
  FusionPass pass(std::move(policy));
  absl::StatusOr<bool> changed = pass.Run(**module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return "";
  EXPECT_EQ(*changed, expect_change) << Print(**module);
  const std::string text = Print(**module);
  absl::Status verified = VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  if (was_strict) {
    absl::Status verified_strict = VerifyModule(**module, strict);
    EXPECT_TRUE(verified_strict.ok()) << verified_strict << "\n" << text;
  }
  EXPECT_TRUE(RoundTrips(**module));
  ExpectSameResults(expected, **module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status();
  if (reparsed.ok()) ExpectSameResults(expected, **reparsed);
  return text;
}

std::unique_ptr<FusionPolicy> Policy(FusionLimits limits,
                                     bool siblings = true) {
  auto policy = std::make_unique<DefaultFusionPolicy>("test", limits);
  policy->set_sibling_fusion(siblings);
  return policy;
}

int64_t Count(absl::string_view text, absl::string_view what) {
  int64_t count = 0;
  for (size_t at = text.find(what); at != absl::string_view::npos;
       at = text.find(what, at + what.size())) {
    ++count;
  }
  return count;
}

// The text of the ENTRY computation.
std::string Entry(const std::string& text) {
  const size_t at = text.find("ENTRY");
  return at == std::string::npos ? "" : text.substr(at);
}

// --- Loop fusion ---

TEST(FusionTest, ElementwiseChainBecomesOneLoopFusion) {
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4]"},
                       "a = f32[4] add(p0, p1)\n"
                       "  n = f32[4] negate(a)\n"
                       "  ROOT m = f32[4] multiply(n, p0)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "param_0 = f32[4]{0} parameter(0)",
            "param_1 = f32[4]{0} parameter(1)",
            "a = f32[4]{0} add(param_0, param_1)", "n = f32[4]{0} negate(a)",
            "ROOT m = f32[4]{0} multiply(n, param_0)", "ENTRY e",
            "ROOT fusion = f32[4]{0} fusion(p0, p1), kind=kLoop, "
            "calls=fused_computation\n"}));
}

TEST(FusionTest, DataMovementOpsFuseWithElementwise) {
  const std::string out = Fuse(EntryModule(
      {"f32[2,3]", "f32[3]", "s32[]"},
      "b = f32[2,3] broadcast(p1), dimensions={1}\n"
      "  t = f32[3,2] transpose(b), dimensions={1,0}\n"
      "  r = f32[2,3] reshape(t)\n"
      "  s = f32[2,2] slice(r), slice={[0:2], [1:3]}\n"
      "  z = f32[] constant(0)\n"
      "  pd = f32[4,3] pad(s, z), padding=1_1x0_1\n"
      "  c = f32[4,3] concatenate(p0, p0), dimensions={0}\n"
      "  i = s32[4,3] iota(), iota_dimension=1\n"
      "  ci = f32[4,3] convert(i)\n"
      "  ds = f32[2,3] dynamic-slice(c, p2, p2), dynamic_slice_sizes={2,3}\n"
      "  dsr = f32[4,3] concatenate(ds, ds), dimensions={0}\n"
      "  m = f32[4,3] multiply(pd, c)\n"
      "  a = f32[4,3] add(m, ci)\n"
      "  ROOT o = f32[4,3] subtract(a, dsr)"));
  // One fusion holds everything; the entry keeps only parameters.
  EXPECT_EQ(Count(out, "kind=kLoop"), 1) << out;
  const std::string entry = Entry(out);
  for (const char* op :
       {"broadcast(", "transpose(", "reshape(", "slice(", "pad(",
        "concatenate(", "iota(", "convert(", "dynamic-slice(", "multiply("}) {
    EXPECT_THAT(out, HasSubstr(op));
    EXPECT_THAT(entry, Not(HasSubstr(op))) << op;
  }
  EXPECT_TRUE(ContainsInOrder(
      entry, {"ROOT fusion = f32[4,3]{1,0} fusion(p0, p1, p2), kind=kLoop"}));
}

// --- Input and output fusion ---

constexpr char kAddReducer[] =
    "add_f32 {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n}\n";

TEST(FusionTest, ReduceWithElementwiseProducersIsAnInputFusion) {
  const std::string out =
      Fuse(EntryModule({"f32[8,16]"},
                       "sq = f32[8,16] multiply(p0, p0)\n"
                       "  zero = f32[] constant(0)\n"
                       "  ROOT r = f32[8] reduce(sq, zero), dimensions={1}, "
                       "to_apply=add_f32",
                       kAddReducer));
  EXPECT_TRUE(ContainsInOrder(
      out, {"add_f32 {", "fused_computation {",
            "sq = f32[8,16]{1,0} multiply(param_0, param_0)",
            "zero = f32[] constant(0)",
            "ROOT r = f32[8]{0} reduce(sq, zero), dimensions={1}, "
            "to_apply=add_f32",
            "ROOT fusion = f32[8]{0} fusion(p0), kind=kInput, "
            "calls=fused_computation"}));
  // The reducer itself is not fused into.
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT s = f32[] add(x, y)"}));
}

TEST(FusionTest, DotWithElementwiseConsumersIsAnOutputFusion) {
  const std::string out =
      Fuse(EntryModule({"f32[2,3]", "f32[3,4]", "f32[4]"},
                       "d = f32[2,4] dot(p0, p1), lhs_contracting_dims={1}, "
                       "rhs_contracting_dims={0}\n"
                       "  b = f32[2,4] broadcast(p2), dimensions={1}\n"
                       "  a = f32[2,4] add(d, b)\n"
                       "  ROOT m = f32[2,4] maximum(a, b)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "dot(param_0, param_1)",
            "broadcast(param_2), dimensions={1}", "add(d, b)",
            "ROOT m = f32[2,4]{1,0} maximum(a, b)",
            "ROOT fusion = f32[2,4]{1,0} fusion(p0, p1, p2), kind=kOutput"}));
}

TEST(FusionTest, ConvolutionWithConsumersIsAnOutputFusion) {
  const std::string out = Fuse(
      EntryModule({"f32[1,4,4,1]", "f32[2,2,1,1]"},
                  "c = f32[1,3,3,1] convolution(p0, p1), window={size=2x2}, "
                  "dim_labels=b01f_01io->b01f\n"
                  "  ROOT n = f32[1,3,3,1] negate(c)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"convolution(param_0, param_1)",
            "ROOT n = f32[1,3,3,1]{3,2,1,0} negate(c)", "kind=kOutput"}));
}

TEST(FusionTest, ProducersOfTheDotStayOutsideTheOutputFusion) {
  const std::string out =
      Fuse(EntryModule({"f32[2,3]", "f32[3,2]"},
                       "t = f32[2,3] negate(p0)\n"
                       "  d = f32[2,2] dot(t, p1), lhs_contracting_dims={1}, "
                       "rhs_contracting_dims={0}\n"
                       "  ROOT e = f32[2,2] exponential(d)"));
  EXPECT_TRUE(ContainsInOrder(Entry(out), {"t = f32[2,3]{1,0} negate(p0)",
                                           "fusion(p1, t), kind=kOutput"}));
}

TEST(FusionTest, DotIsNotFusedBelowABroadcast) {
  const std::string out =
      Fuse(EntryModule({"f32[3]", "f32[3]", "f32[4,5]"},
                       "d = f32[] dot(p0, p1), lhs_contracting_dims={0}, "
                       "rhs_contracting_dims={0}\n"
                       "  b = f32[4,5] broadcast(d), dimensions={}\n"
                       "  ROOT a = f32[4,5] add(b, p2)"));
  EXPECT_THAT(out, Not(HasSubstr("kind=kOutput")));
  EXPECT_THAT(Entry(out), HasSubstr("d = f32[] dot(p0, p1)"));
}

// --- Sibling (multi-output) fusion ---

TEST(FusionTest, SiblingsReadingTheSameOperandBecomeOneMultiOutputFusion) {
  const std::string out = Fuse(EntryModule({"f32[4]"},
                                           "n = f32[4] negate(p0)\n"
                                           "  e = f32[4] exponential(p0)\n"
                                           "  ROOT t = (f32[4], f32[4]) "
                                           "tuple(n, e)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "n = f32[4]{0} negate(param_0)",
            "e = f32[4]{0} exponential(param_0)",
            "ROOT tuple = (f32[4]{0}, f32[4]{0}) tuple(n, e)", "ENTRY e",
            "fusion = (f32[4]{0}, f32[4]{0}) fusion(p0), kind=kLoop",
            "get-tuple-element = f32[4]{0} get-tuple-element(fusion), index=0",
            "get-tuple-element.1 = f32[4]{0} get-tuple-element(fusion), "
            "index=1",
            "ROOT t = (f32[4]{0}, f32[4]{0}) tuple(get-tuple-element, "
            "get-tuple-element.1)"}));
}

TEST(FusionTest, SiblingReductionsShareOneInputFusion) {
  const std::string out = Fuse(EntryModule(
      {"f32[4,8]"},
      "z = f32[] constant(0)\n"
      "  s = f32[4] reduce(p0, z), dimensions={1}, to_apply=add_f32\n"
      "  sq = f32[4,8] multiply(p0, p0)\n"
      "  q = f32[4] reduce(sq, z), dimensions={1}, to_apply=add_f32\n"
      "  ROOT t = (f32[4], f32[4]) tuple(s, q)",
      kAddReducer));
  EXPECT_EQ(Count(out, "kind=kInput"), 1) << out;
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "z = f32[] constant(0)",
            "reduce(param_0, z), dimensions={1}", "multiply(param_0, param_0)",
            "reduce(sq, z), dimensions={1}",
            "ROOT tuple = (f32[4]{0}, f32[4]{0}) tuple(",
            "fusion(p0), kind=kInput"}));
}

TEST(FusionTest, DependentSiblingsAreNotMerged) {
  // b reads a's result: merging them would make the fusion read itself.
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4,4]"},
                       "a = f32[4] exponential(p0)\n"
                       "  d = f32[4] dot(p1, a), lhs_contracting_dims={1}, "
                       "rhs_contracting_dims={0}\n"
                       "  b = f32[4] add(p0, d)\n"
                       "  ROOT t = (f32[4], f32[4], f32[4]) tuple(a, b, d)"),
           /*expect_change=*/false);
  EXPECT_THAT(out, Not(HasSubstr("fusion")));
}

// --- The cost model ---

TEST(FusionTest, CheapProducerIsDuplicatedIntoEachConsumer) {
  // `a` feeds a fusion and a dot: a copy goes into the fusion, the original
  // stays for the dot.
  const std::string out =
      Fuse(EntryModule({"f32[2,2]", "f32[2,2]"},
                       "a = f32[2,2] add(p0, p0)\n"
                       "  d = f32[2,2] dot(a, p1), lhs_contracting_dims={1}, "
                       "rhs_contracting_dims={0}\n"
                       "  m = f32[2,2] multiply(a, p1)\n"
                       "  ROOT t = (f32[2,2], f32[2,2]) tuple(d, m)"),
           true, Policy({}, /*siblings=*/false));
  EXPECT_TRUE(ContainsInOrder(out, {"fused_computation {",
                                    "add(param_0, "
                                    "param_0)",
                                    "ENTRY", "a = f32[2,2]{1,0} add(p0, p0)"}));
}

// One add read by two elementwise consumers, both results returned.
constexpr char kAddReadByTwoConsumers[] =
    "a = f32[4] add(p0, p0)\n"
    "  n = f32[4] negate(a)\n"
    "  b = f32[4] abs(a)\n"
    "  ROOT t = (f32[4], f32[4]) tuple(n, b)";

TEST(FusionTest, CheapProducerWithSeveralFusedUsersLeavesTheComputation) {
  const std::string out = Fuse(EntryModule({"f32[4]"}, kAddReadByTwoConsumers));
  // Copied into both consumers, which then merge as siblings: one add.
  EXPECT_EQ(Count(out, "add("), 1) << out;
  EXPECT_THAT(Entry(out), Not(HasSubstr("add(")));
}

// A producer that leaves the computation moves into the last fusion
// holding it and is cloned into the others; names come out as if every
// member were a clone: the first fusion added to the module gets the freed
// name, the next a fresh one.
TEST(FusionTest, CopiedProducerKeepsItsNameInTheFirstFusion) {
  const std::string out = Fuse(EntryModule({"f32[4]"}, kAddReadByTwoConsumers),
                               true, Policy({}, /*siblings=*/false));
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "a = f32[4]{0} add(param_0, param_0)",
            "fused_computation.1 {",
            "a.1 = f32[4]{0} add(param_0.1, "
            "param_0.1)"}))
      << out;
  EXPECT_THAT(Entry(out), Not(HasSubstr("add(")));
}

// A moved member whose name the fused computation already uses (here a
// parameter's) is renamed there; the name it frees is its original one, so
// an unrelated instruction named like the renamed member keeps its name.
TEST(FusionTest, MovedMemberNamedLikeAParameterFreesItsOriginalName) {
  const std::string out = Fuse(EntryModule({"f32[4]"},
                                           "param_0 = f32[4] add(p0, p0)\n"
                                           "  n = f32[4] negate(param_0)\n"
                                           "  ROOT param_0.1 = (f32[4]) "
                                           "tuple(n)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"fused_computation {", "param_0 = f32[4]{0} parameter(0)",
            "param_0.2 = f32[4]{0} add(param_0, param_0)", "ENTRY",
            "ROOT param_0.1 = (f32[4]{0}) tuple("}))
      << out;
}

TEST(FusionTest, ExpensiveProducerWithSeveralUsersIsNotDuplicated) {
  const std::string out = Fuse(EntryModule({"f32[4]"},
                                           "e = f32[4] exponential(p0)\n"
                                           "  n = f32[4] negate(e)\n"
                                           "  b = f32[4] abs(e)\n"
                                           "  ROOT t = (f32[4], f32[4]) "
                                           "tuple(n, b)"));
  EXPECT_EQ(Count(out, "exponential("), 1) << out;
  EXPECT_THAT(Entry(out), HasSubstr("e = f32[4]{0} exponential(p0)"));
  EXPECT_THAT(Entry(out), HasSubstr("fusion(e), kind=kLoop"));
}

TEST(FusionTest, ExpensiveProducerIsNotFusedBelowABroadcast) {
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4,8]"},
                       "e = f32[4] log(p0)\n"
                       "  b = f32[4,8] broadcast(e), dimensions={0}\n"
                       "  ROOT a = f32[4,8] add(b, p1)"));
  EXPECT_THAT(Entry(out), HasSubstr("e = f32[4]{0} log(p0)"));
  EXPECT_THAT(Entry(out), HasSubstr("fusion(p1, e), kind=kLoop"));
}

TEST(FusionTest, BigProducerCountsAsExpensive) {
  FusionLimits limits;
  limits.max_cheap_elements = 3;
  const std::string out = Fuse(EntryModule({"f32[4]"}, kAddReadByTwoConsumers),
                               true, Policy(limits));
  EXPECT_THAT(Entry(out), HasSubstr("a = f32[4]{0} add(p0, p0)"));
}

TEST(FusionTest, InstructionLimitSplitsALongChain) {
  FusionLimits limits;
  limits.max_instructions = 3;
  std::string body = "x0 = f32[4] negate(p0)\n";
  for (int i = 1; i < 7; ++i) {
    absl::StrAppend(&body, "  x", i, " = f32[4] negate(x", i - 1, ")\n");
  }
  absl::StrAppend(&body, "  ROOT r = f32[4] abs(x6)");
  const std::string out =
      Fuse(EntryModule({"f32[4]"}, body), true, Policy(limits));
  // 8 instructions, at most 3 per fusion.
  EXPECT_EQ(Count(out, "kind=kLoop"), 3) << out;
  for (absl::string_view computation : absl::StrSplit(out, "\n\n")) {
    if (!absl::StartsWith(computation, "fused_computation")) continue;
    EXPECT_LE(Count(computation, "negate(") + Count(computation, "abs("), 3);
  }
}

TEST(FusionTest, OperandLimitIsRespected) {
  FusionLimits limits;
  limits.max_operands = 4;  // Three operands plus the output.
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4]", "f32[4]", "f32[4]"},
                       "a = f32[4] add(p0, p1)\n"
                       "  b = f32[4] add(a, p2)\n"
                       "  ROOT c = f32[4] add(b, p3)"),
           true, Policy(limits));
  EXPECT_THAT(Entry(out), HasSubstr("a = f32[4]{0} add(p0, p1)"));
  EXPECT_THAT(Entry(out), HasSubstr("fusion(p2, p3, a), kind=kLoop"));
}

// --- What never fuses ---

TEST(FusionTest, SideEffectsCustomCallsAndCollectivesStayOutside) {
  GlobalCustomCallRegistry().Register(
      "fusion_test_identity",
      [](absl::Span<const Literal* const> operands, const Shape&,
         absl::string_view) -> absl::StatusOr<Literal> {
        return *operands[0];
      });
  const std::string out =
      Fuse(EntryModule({"f32[4]"},
                       "c = f32[4] custom-call(p0), "
                       "custom_call_target=\"fusion_test_identity\"\n"
                       "  ar = f32[4] all-reduce(c), to_apply=add_f32\n"
                       "  n = f32[4] negate(ar)\n"
                       "  ROOT a = f32[4] add(n, n)",
                       kAddReducer),
           true);
  const std::string entry = Entry(out);
  EXPECT_TRUE(ContainsInOrder(
      entry, {"custom-call(p0)", "all-reduce(c)", "fusion(ar), kind=kLoop"}));
}

TEST(FusionTest, NothingToFuseReportsNoChange) {
  Fuse(EntryModule({"f32[4]"}, "ROOT n = f32[4] negate(p0)"), false);
  Fuse(EntryModule({"f32[4]", "f32[4]"},
                   "ROOT t = (f32[4], f32[4]) tuple(p0, p1)"),
       false);
}

TEST(FusionTest, DynamicShapesAreNotFused) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      Parse(EntryModule({"f32[<=4]"},
                        "n = f32[<=4] negate(p0)\n"
                        "  ROOT a = f32[<=4] add(n, n)"));
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string before = Print(**module);
  absl::StatusOr<bool> changed = FusionPass().Run(**module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(Print(**module), before);
}

TEST(FusionTest, ControlDependenciesMoveToTheFusion) {
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4]"},
                       "x = f32[4] abs(p1)\n"
                       "  n = f32[4] negate(p0)\n"
                       "  a = f32[4] add(n, p0), control-predecessors={x}\n"
                       "  ROOT t = (f32[4], f32[4]) tuple(a, x)"),
           true, Policy({}, /*siblings=*/false));
  EXPECT_TRUE(ContainsInOrder(
      Entry(out), {"x = f32[4]{0} abs(p1)",
                   "fusion = f32[4]{0} fusion(p0), kind=kLoop, "
                   "calls=fused_computation, control-predecessors={x}"}));
}

TEST(FusionTest, ProducerWithControlDependenciesIsNotFused) {
  const std::string out =
      Fuse(EntryModule({"f32[4]", "f32[4]"},
                       "x = f32[4] abs(p1)\n"
                       "  n = f32[4] negate(p0), control-predecessors={x}\n"
                       "  a = f32[4] add(n, p0)\n"
                       "  ROOT t = (f32[4], f32[4]) tuple(a, x)"),
           false, Policy({}, /*siblings=*/false));
  EXPECT_THAT(out, HasSubstr("negate(p0), control-predecessors={x}"));
}

TEST(FusionTest, WhileBodyIsFusedButNotAcrossComputations) {
  const std::string out = Fuse(EntryModule(
      {"f32[4]"}, "ROOT w = f32[4] while(p0), condition=cond, body=body",
      "cond {\n  c = f32[4] parameter(0)\n  ROOT f = pred[] constant(false)\n}"
      "\nbody {\n  b = f32[4] parameter(0)\n  n = f32[4] negate(b)\n"
      "  ROOT a = f32[4] add(n, b)\n}\n"));
  EXPECT_TRUE(ContainsInOrder(out, {"body {",
                                    "ROOT fusion = f32[4]{0} "
                                    "fusion(b), kind=kLoop",
                                    "ENTRY", "while(p0)"}));
}

TEST(FusionTest, ExistingFusionsAndReducersAreLeftAlone) {
  const std::string hlo = EntryModule(
      {"f32[4]"}, "ROOT f = f32[4] fusion(p0), kind=kLoop, calls=inner",
      "inner {\n  x = f32[4] parameter(0)\n  n = f32[4] negate(x)\n"
      "  ROOT a = f32[4] add(n, x)\n}\n");
  const std::string out = Fuse(hlo, false);
  EXPECT_EQ(Count(out, "fusion("), 1);
}

TEST(FusionTest, VariadicReduceRootKeepsItsTupleElements) {
  const std::string out = Fuse(EntryModule(
      {"f32[4,8]", "s32[4,8]"},
      "n = f32[4,8] negate(p0)\n"
      "  z = f32[] constant(0)\n  zi = s32[] constant(0)\n"
      "  r = (f32[4], s32[4]) reduce(n, p1, z, zi), dimensions={1}, "
      "to_apply=pair\n"
      "  g = f32[4] get-tuple-element(r), index=0\n"
      "  ROOT e = f32[4] exponential(g)",
      "pair {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
      "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
      "  s = f32[] add(a, c)\n  t = s32[] add(b, d)\n"
      "  ROOT u = (f32[], s32[]) tuple(s, t)\n}\n"));
  EXPECT_TRUE(ContainsInOrder(
      Entry(out), {"fusion = (f32[4]{0}, s32[4]{0}) fusion(p0, p1), "
                   "kind=kInput",
                   "get-tuple-element(fusion), index=0"}));
}

// --- Policies, registry, scale ---

TEST(FusionPolicyTest, RegistryHoldsTheDefaultAndRefusesDuplicates) {
  FusionPolicyRegistry& registry = FusionPolicyRegistry::Global();
  EXPECT_THAT(registry.Names(), ::testing::Contains("default"));
  EXPECT_FALSE(registry.Register("default", [] {
    return std::unique_ptr<FusionPolicy>(new DefaultFusionPolicy());
  }));
  EXPECT_TRUE(registry.Register("fusion-test-backend", [] {
    FusionLimits limits;
    limits.max_instructions = 2;
    return std::unique_ptr<FusionPolicy>(
        new DefaultFusionPolicy("fusion-test-backend", limits));
  }));
  std::unique_ptr<FusionPolicy> policy = registry.Create("fusion-test-backend");
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->limits().max_instructions, 2);
  EXPECT_EQ(registry.Create("no-such-backend"), nullptr);

  absl::StatusOr<std::unique_ptr<Pass>> pass =
      MakeFusionPassForBackend("fusion-test-backend");
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_EQ((*pass)->name(), "fusion");
  absl::StatusOr<std::unique_ptr<Module>> module =
      Parse(EntryModule({"f32[4]"},
                        "a = f32[4] negate(p0)\n"
                        "  b = f32[4] abs(a)\n"
                        "  ROOT c = f32[4] sine(b)"));
  ASSERT_TRUE(module.ok());
  ASSERT_TRUE((*pass)->Run(**module).ok());
  EXPECT_EQ(Count(Print(**module), "kind=kLoop"), 1);  // Two of three ops.
  EXPECT_THAT(Entry(Print(**module)), HasSubstr("a = f32[4]{0} negate(p0)"));

  absl::StatusOr<std::unique_ptr<Pass>> missing =
      MakeFusionPassForBackend("no-such-backend");
  EXPECT_THAT(missing.status().message(),
              HasSubstr("no fusion policy registered for backend "
                        "'no-such-backend' (registered: default"));
}

TEST(FusionPolicyTest, TheRegisteredPassIsNamedFusion) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create("fusion");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), "fusion");
}

TEST(FusionPolicyTest, DisabledKindsDoNotFire) {
  auto policy = std::make_unique<DefaultFusionPolicy>();
  policy->set_output_fusion(false);
  policy->set_input_fusion(false);
  const std::string out =
      Fuse(EntryModule({"f32[2,2]", "f32[2,2]"},
                       "d = f32[2,2] dot(p0, p1), lhs_contracting_dims={1}, "
                       "rhs_contracting_dims={0}\n"
                       "  ROOT n = f32[2,2] negate(d)"),
           false, std::move(policy));
  EXPECT_THAT(out, Not(HasSubstr("fusion")));
}

TEST(FusionTest, SecondRunChangesNothing) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      Parse(EntryModule({"f32[4]", "f32[4]"},
                        "a = f32[4] add(p0, p1)\n  e = f32[4] exponential(a)\n"
                        "  n = f32[4] negate(e)\n  b = f32[4] abs(e)\n"
                        "  ROOT t = (f32[4], f32[4]) tuple(n, b)"));
  ASSERT_TRUE(module.ok());
  FusionPass pass;
  ASSERT_TRUE(*pass.Run(**module));
  const std::string once = Print(**module);
  absl::StatusOr<bool> again = pass.Run(**module);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  EXPECT_EQ(Print(**module), once);
}

// A random module mixing every kind of fusion (and control dependencies):
// fusion must keep it valid and its values unchanged whatever it decides.
std::string RandomModule(uint64_t seed) {
  std::mt19937_64 generator(seed);
  auto pick = [&generator](size_t n) {
    return static_cast<size_t>(generator() % n);
  };
  std::vector<std::string> matrices = {"p0", "p1"};
  std::vector<std::string> vectors = {"p2"};
  std::vector<std::string> all = {"p0", "p1", "p2"};
  std::string body = "z = f32[] constant(0)\n";
  auto any_matrix = [&] { return matrices[pick(matrices.size())]; };
  for (int i = 0; i < 40; ++i) {
    const std::string name = absl::StrCat("v", i);
    const char* unary[] = {"negate", "abs", "exponential", "sine", "floor"};
    const char* binary[] = {"add", "multiply", "maximum", "subtract"};
    std::string line;
    bool matrix = true;
    switch (pick(7)) {
      case 0:
      case 1:
        line =
            absl::StrCat("f32[4,4] ", unary[pick(5)], "(", any_matrix(), ")");
        break;
      case 2:
      case 3:
        line = absl::StrCat("f32[4,4] ", binary[pick(4)], "(", any_matrix(),
                            ", ", any_matrix(), ")");
        break;
      case 4:
        line =
            absl::StrCat("f32[4,4] broadcast(", vectors[pick(vectors.size())],
                         "), dimensions={", pick(2), "}");
        break;
      case 5:
        line =
            absl::StrCat("f32[4] reduce(", any_matrix(), ", z), dimensions={",
                         pick(2), "}, to_apply=add_f32");
        matrix = false;
        break;
      default:
        line = pick(2) == 0 ? absl::StrCat("f32[4,4] dot(", any_matrix(), ", ",
                                           any_matrix(),
                                           "), lhs_contracting_dims={1}, "
                                           "rhs_contracting_dims={0}")
                            : absl::StrCat("f32[4,4] transpose(", any_matrix(),
                                           "), dimensions={1,0}");
        break;
    }
    if (pick(8) == 0) {
      absl::StrAppend(&line, ", control-predecessors={", all[pick(all.size())],
                      "}");
    }
    absl::StrAppend(&body, "  ", name, " = ", line, "\n");
    (matrix ? matrices : vectors).push_back(name);
    all.push_back(name);
  }
  std::vector<std::string> outputs = {matrices.back(), vectors.back(),
                                      matrices[pick(matrices.size())],
                                      vectors[pick(vectors.size())]};
  absl::StrAppend(&body,
                  "  ROOT t = (f32[4,4], f32[4], f32[4,4], f32[4]) tuple(",
                  absl::StrJoin(outputs, ", "), ")");
  return EntryModule({"f32[4,4]", "f32[4,4]", "f32[4]"}, body, kAddReducer);
}

TEST(FusionTest, RandomModulesKeepTheirValues) {
  for (uint64_t seed = 0; seed < 30; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const std::string hlo = RandomModule(seed);
    FusionLimits small;
    small.max_instructions = 4;
    small.max_operands = 4;
    FusionLimits tiny_cheap;
    tiny_cheap.max_cheap_elements = 4;
    for (FusionLimits limits : {FusionLimits(), small, tiny_cheap}) {
      absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
      ASSERT_TRUE(module.ok()) << module.status() << hlo;
      Fuse(hlo, /*expect_change=*/true, Policy(limits));
    }
  }
}

// A 20k-long elementwise chain fuses in bounded pieces (the planner is
// linear; this only checks the result, timing is the benchmark's job).
TEST(FusionTest, LongChainFusesIntoBoundedFusions) {
  constexpr int kLength = 20000;
  const char* ops[] = {"negate", "abs", "floor"};
  std::string body = "x0 = f32[2] add(p0, p0)\n";
  for (int i = 1; i < kLength; ++i) {
    absl::StrAppend(&body, "  x", i, " = f32[2] ", ops[i % 3], "(x", i - 1,
                    ")\n");
  }
  absl::StrAppend(&body, "  ROOT r = f32[2] add(x", kLength - 1, ", p0)");
  const std::string out = Fuse(EntryModule({"f32[2]"}, body));
  const int64_t per_fusion = FusionLimits().max_instructions;
  EXPECT_EQ(Count(out, "kind=kLoop"),
            (kLength + 1 + per_fusion - 1) / per_fusion);
  // The entry holds only the parameter and the fusions.
  EXPECT_EQ(Count(Entry(out), " = "), 1 + Count(out, "kind=kLoop"));
}

}  // namespace
}  // namespace kiln
