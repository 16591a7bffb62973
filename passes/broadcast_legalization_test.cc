#include "passes/broadcast_legalization.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPass[] = "broadcast-legalization";

absl::Status VerifyStrict(const Module& module) {
  VerifyOptions options;
  options.form = ShapeForm::kStrict;
  return VerifyModule(module, options);
}

// Runs the pass on `hlo`, expects a change, a strict module that prints as
// valid text; returns the printed module.
std::string Legalize(const std::string& hlo) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  absl::StatusOr<bool> changed = RunPass(kPass, **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(changed.ok() && *changed);
  EXPECT_TRUE(VerifyStrict(**module).ok()) << VerifyStrict(**module) << "\n"
                                           << Print(**module);
  EXPECT_TRUE(RoundTrips(**module));
  return Print(**module);
}

// --- Positive cases: the IR after the pass ---

TEST(BroadcastLegalizationTest, ScalarOperandBecomesBroadcast) {
  const std::string out =
      Legalize(EntryModule({"f32[2,3]", "f32[]"}, "ROOT a = add(p0, p1)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[2,3]{1,0} broadcast(p1), dimensions={}",
            "ROOT a = f32[2,3]{1,0} add(p0, broadcast)"}));
}

TEST(BroadcastLegalizationTest, InDimBecomesBroadcastAndAttributeIsDropped) {
  const std::string out =
      Legalize(EntryModule({"f32[2,3]", "f32[3]"},
                           "ROOT a = add(p0, p1), broadcast_dimensions={1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[2,3]{1,0} broadcast(p1), dimensions={1}",
            "ROOT a = f32[2,3]{1,0} add(p0, broadcast)\n"}));
  EXPECT_THAT(out, Not(HasSubstr("broadcast_dimensions")));
}

TEST(BroadcastLegalizationTest, LowerRankOnTheLeft) {
  const std::string out = Legalize(
      EntryModule({"f32[3]", "f32[3,3]"},
                  "ROOT s = subtract(p0, p1), broadcast_dimensions={0}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[3,3]{1,0} broadcast(p0), dimensions={0}",
            "ROOT s = f32[3,3]{1,0} subtract(broadcast, p1)"}));
}

TEST(BroadcastLegalizationTest, DegenerateDimIsReshapedAwayThenBroadcast) {
  const std::string out = Legalize(
      EntryModule({"f32[2,1]", "f32[2,3]"}, "ROOT m = multiply(p0, p1)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = f32[2]{0} reshape(p0)",
            "broadcast = f32[2,3]{1,0} broadcast(reshape), dimensions={0}",
            "ROOT m = f32[2,3]{1,0} multiply(broadcast, p1)"}));
}

TEST(BroadcastLegalizationTest, OuterOperationBroadcastsBothOperands) {
  const std::string out =
      Legalize(EntryModule({"f32[2,1]", "f32[1,3]"}, "ROOT a = add(p0, p1)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = f32[2]{0} reshape(p0)",
            "broadcast = f32[2,3]{1,0} broadcast(reshape), dimensions={0}",
            "reshape.1 = f32[3]{0} reshape(p1)",
            "broadcast.1 = f32[2,3]{1,0} broadcast(reshape.1), dimensions={1}",
            "ROOT a = f32[2,3]{1,0} add(broadcast, broadcast.1)"}));
}

TEST(BroadcastLegalizationTest, CompositeInDimThenDegenerate) {
  // broadcasting.md: a 1x2 matrix added to a 4x3x1 array with (1, 2).
  const std::string out =
      Legalize(EntryModule({"f32[1,2]", "f32[4,3,1]"},
                           "ROOT a = add(p0, p1), broadcast_dimensions={1,2}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = f32[2]{0} reshape(p0)",
            "broadcast = f32[4,3,2]{2,1,0} broadcast(reshape), dimensions={2}",
            "reshape.1 = f32[4,3]{1,0} reshape(p1)",
            "broadcast.1 = f32[4,3,2]{2,1,0} broadcast(reshape.1), "
            "dimensions={0,1}",
            "ROOT a = f32[4,3,2]{2,1,0} add(broadcast, broadcast.1)"}));
}

TEST(BroadcastLegalizationTest, InDimOntoSizeOneResultDimIsAReshape) {
  // f32[3] into f32[1,3]: the broadcast would only add a size-1 dim.
  const std::string out =
      Legalize(EntryModule({"f32[3]", "f32[1,3]"},
                           "ROOT a = add(p0, p1), broadcast_dimensions={1}"));
  EXPECT_TRUE(
      ContainsInOrder(out, {"reshape = f32[1,3]{1,0} reshape(p0)",
                            "ROOT a = f32[1,3]{1,0} add(reshape, p1)"}));
  EXPECT_THAT(out, Not(HasSubstr(" broadcast(")));
}

TEST(BroadcastLegalizationTest, CompareSelectAndComplex) {
  const std::string out = Legalize(EntryModule(
      {"f32[2,3]", "f32[3]", "pred[]", "f32[]"},
      "c = compare(p0, p1), direction=LT, broadcast_dimensions={1}\n"
      "  s = select(p2, p0, p3)\n"
      "  ROOT x = complex(s, p1), broadcast_dimensions={1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[2,3]{1,0} broadcast(p1), dimensions={1}",
            "c = pred[2,3]{1,0} compare(p0, broadcast), direction=LT",
            "broadcast.1 = pred[2,3]{1,0} broadcast(p2), dimensions={}",
            "broadcast.2 = f32[2,3]{1,0} broadcast(p3), dimensions={}",
            "s = f32[2,3]{1,0} select(broadcast.1, p0, broadcast.2)",
            "broadcast.3 = f32[2,3]{1,0} broadcast(p1), dimensions={1}",
            "ROOT x = c64[2,3]{1,0} complex(s, broadcast.3)"}));
}

TEST(BroadcastLegalizationTest, ClampKeepsScalarBoundsButBroadcastsArrays) {
  const std::string out = Legalize(
      EntryModule({"f32[]", "f32[2,3]", "f32[3]"},
                  "ROOT c = clamp(p0, p1, p2), broadcast_dimensions={1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[2,3]{1,0} broadcast(p2), dimensions={1}",
            "ROOT c = f32[2,3]{1,0} clamp(p0, p1, broadcast)"}));
}

TEST(BroadcastLegalizationTest, SameOperandTwiceIsBroadcastOnce) {
  const std::string out = Legalize(
      EntryModule({"f32[1]", "f32[1,4]"},
                  "ROOT c = clamp(p0, p1, p0), broadcast_dimensions={0}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[1,4]{1,0} broadcast(p0), dimensions={0}",
            "ROOT c = f32[1,4]{1,0} clamp(broadcast, p1, broadcast)"}));
  EXPECT_THAT(out, Not(HasSubstr("broadcast.1")));
}

TEST(BroadcastLegalizationTest, KeepsMetadataOfTheRewrittenOp) {
  const std::string out = Legalize(
      EntryModule({"f32[2]", "f32[]"},
                  "ROOT a = add(p0, p1), metadata={op_name=\"jit/add\"}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast(p1), dimensions={}, metadata={op_name=\"jit/add\"}"}));
}

TEST(BroadcastLegalizationTest, UsersOfTheRewrittenOpStayAfterNewOperands) {
  // New instructions are defined before their first use in the text.
  const std::string out = Legalize(
      EntryModule({"f32[2,3]", "f32[3]"},
                  "a = add(p0, p1), broadcast_dimensions={1}\n"
                  "  n = negate(a)\n"
                  "  ROOT m = multiply(n, p1), broadcast_dimensions={1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"p0 = f32[2,3]{1,0} parameter(0)", "p1 = f32[3]{0} parameter(1)",
            "broadcast = ", "a = ", "n = ", "broadcast.1 = ", "ROOT m = "}));
}

TEST(BroadcastLegalizationTest, RewritesNestedComputations) {
  const std::string out = Legalize(EntryModule(
      {"f32[2,3]", "f32[3]"}, "ROOT c = f32[2,3] call(p0, p1), to_apply=body",
      "body {\n  x = f32[2,3] parameter(0)\n  y = f32[3] parameter(1)\n"
      "  ROOT r = add(x, y), broadcast_dimensions={1}\n}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"body ", "broadcast = f32[2,3]{1,0} broadcast(y), dimensions={1}",
            "ROOT r = f32[2,3]{1,0} add(x, broadcast)", "ENTRY e",
            "to_apply=body"}));
}

TEST(BroadcastLegalizationTest, TupleRootOfBroadcastingOps) {
  const std::string out = Legalize(EntryModule(
      {"s32[4]", "s32[]"},
      "a = shift-left(p0, p1)\n  b = and(p1, p0)\n  ROOT t = tuple(a, b)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = s32[4]{0} broadcast(p1), dimensions={}",
            "a = s32[4]{0} shift-left(p0, broadcast)",
            "b = s32[4]{0} and(broadcast.1, p0)", "ROOT t = "}));
}

TEST(BroadcastLegalizationTest, SizeZeroDimensions) {
  const std::string out =
      Legalize(EntryModule({"f32[0,3]", "f32[1,3]"}, "ROOT a = add(p0, p1)"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = f32[3]{0} reshape(p1)",
            "broadcast = f32[0,3]{1,0} broadcast(reshape), dimensions={1}",
            "ROOT a = f32[0,3]{1,0} add(p0, broadcast)"}));
}

// --- Broadcast canonicalization ---

TEST(BroadcastLegalizationTest, BroadcastAddingOnlySizeOneDimsIsAReshape) {
  const std::string out = Legalize(EntryModule(
      {"f32[3]"}, "ROOT b = f32[1,3,1] broadcast(p0), dimensions={1}"));
  EXPECT_TRUE(
      ContainsInOrder(out, {"ROOT reshape = f32[1,3,1]{2,1,0} reshape(p0)"}));
}

TEST(BroadcastLegalizationTest, NestedBroadcastsFold) {
  const std::string out = Legalize(
      EntryModule({"f32[3]"},
                  "b1 = f32[2,3] broadcast(p0), dimensions={1}\n"
                  "  ROOT b2 = f32[4,2,3] broadcast(b1), dimensions={1,2}"));
  EXPECT_TRUE(ContainsInOrder(
      out,
      {"ROOT broadcast = f32[4,2,3]{2,1,0} broadcast(p0), dimensions={2}"}));
  EXPECT_THAT(out, Not(HasSubstr("b1 =")));
}

TEST(BroadcastLegalizationTest, ClientBroadcastInDimOfImplicitBroadcastFolds) {
  // A scalar broadcast explicitly, then implicitly again by the add.
  const std::string out =
      Legalize(EntryModule({"f32[]", "f32[5,3]"},
                           "b = f32[3] broadcast(p0), dimensions={}\n"
                           "  ROOT a = add(b, p1), broadcast_dimensions={1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"broadcast = f32[5,3]{1,0} broadcast(p0), dimensions={}",
            "ROOT a = f32[5,3]{1,0} add(broadcast, p1)"}));
  EXPECT_THAT(out, Not(HasSubstr("b =")));
}

TEST(BroadcastLegalizationTest, IdentityBroadcastIsItsOperand) {
  const std::string out =
      Legalize(EntryModule({"f32[3]"},
                           "b = f32[3] broadcast(p0), dimensions={0}\n"
                           "  ROOT n = negate(b)"));
  EXPECT_TRUE(ContainsInOrder(out, {"ROOT n = f32[3]{0} negate(p0)"}));
}

TEST(BroadcastLegalizationTest, ClientFormDegenerateBroadcastIsLegalized) {
  const std::string out = Legalize(EntryModule(
      {"f32[1,3]"}, "ROOT b = f32[2,3] broadcast(p0), dimensions={0,1}"));
  EXPECT_TRUE(ContainsInOrder(
      out, {"reshape = f32[3]{0} reshape(p0)",
            "ROOT broadcast = f32[2,3]{1,0} broadcast(reshape), "
            "dimensions={1}"}));
}

TEST(BroadcastLegalizationTest, PermutingBroadcastIsATranspose) {
  // The text form refuses unsorted broadcast dimensions, so build it.
  Module module("m");
  auto entry = std::make_unique<Computation>("e");
  auto parameter = std::make_unique<Instruction>(
      Opcode::kParameter, Shape::Array(ElementType::kF32, {2, 3}), "p0");
  parameter->set_parameter_number(0);
  Instruction* p0 = entry->AddParameter(std::move(parameter));
  auto broadcast = std::make_unique<Instruction>(
      Opcode::kBroadcast, Shape::Array(ElementType::kF32, {3, 2}), "b");
  broadcast->AppendOperand(p0);
  broadcast->mutable_attrs()->Set("dimensions", Int64List{1, 0});
  entry->set_root(entry->AddInstruction(std::move(broadcast)));
  module.AddEntryComputation(std::move(entry));
  absl::StatusOr<bool> changed = RunPass(kPass, module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(ContainsInOrder(
      Print(module),
      {"ROOT transpose = f32[3,2] transpose(p0), dimensions={1,0}"}));
  EXPECT_TRUE(VerifyStrict(module).ok()) << VerifyStrict(module);
}

// --- Negative cases: the pass must not fire ---

void ExpectUnchanged(const std::string& hlo) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  const std::string before = Print(**module);
  absl::StatusOr<bool> changed = RunPass(kPass, **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_FALSE(*changed);
  EXPECT_EQ(Print(**module), before);
}

TEST(BroadcastLegalizationTest, StrictModuleIsUnchanged) {
  ExpectUnchanged(EntryModule({"f32[2,3]", "f32[3]"},
                              "b = f32[2,3] broadcast(p1), dimensions={1}\n"
                              "  ROOT a = add(p0, b)"));
}

TEST(BroadcastLegalizationTest, ScalarsAndRankZeroAreUnchanged) {
  ExpectUnchanged(EntryModule({"f32[]", "f32[]"}, "ROOT a = power(p0, p1)"));
}

TEST(BroadcastLegalizationTest, ClampWithScalarBoundsIsUnchanged) {
  ExpectUnchanged(
      EntryModule({"s32[]", "s32[4]", "s32[]"}, "ROOT c = clamp(p0, p1, p2)"));
}

TEST(BroadcastLegalizationTest, TupleSelectIsNotABroadcast) {
  ExpectUnchanged(EntryModule({"pred[]", "(f32[2], s32[])", "(f32[2], s32[])"},
                              "ROOT s = select(p0, p1, p2)"));
}

TEST(BroadcastLegalizationTest, UnaryAndNonElementwiseOpsAreUnchanged) {
  ExpectUnchanged(
      EntryModule({"f32[2,3]"},
                  "n = negate(p0)\n  ROOT t = f32[3,2] transpose(n), "
                  "dimensions={1,0}"));
}

TEST(BroadcastLegalizationTest, IsRegisteredUnderItsName) {
  std::unique_ptr<Pass> pass = PassRegistry::Global().Create(kPass);
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->name(), kPass);
}

// --- Semantics: every example of broadcasting.md, evaluated ---

// A literal of `shape_text` (e.g. "f32[2,3]") holding 1, 2, 3, ... in
// row-major order, scaled by `scale`, as literal text.
std::string CountingLiteral(const std::string& type,
                            const std::vector<int64_t>& dims, int scale) {
  int64_t next = 1;
  std::function<std::string(size_t)> level = [&](size_t d) -> std::string {
    if (d == dims.size()) return absl::StrCat(scale * next++);
    std::vector<std::string> parts;
    for (int64_t i = 0; i < dims[d]; ++i) parts.push_back(level(d + 1));
    return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
  };
  return absl::StrCat(type, "[", absl::StrJoin(dims, ","), "] ", level(0));
}

struct SpecExample {
  std::string name;
  std::vector<int64_t> lhs;
  std::vector<int64_t> rhs;
  std::string broadcast_dimensions;  // "" for none
};

// Evaluates the module before and after the pass on the same arguments.
void ExpectSameResults(const std::string& hlo,
                       const std::vector<std::string>& argument_texts,
                       std::string* result_text) {
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  std::vector<Literal> arguments;
  for (const std::string& text : argument_texts) {
    absl::StatusOr<Literal> literal = ParseLiteral(text);
    ASSERT_TRUE(literal.ok()) << literal.status() << " " << text;
    arguments.push_back(*std::move(literal));
  }
  absl::StatusOr<Literal> before = Evaluate(**module, arguments);
  ASSERT_TRUE(before.ok()) << before.status();
  absl::StatusOr<bool> changed = RunPass(kPass, **module);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_TRUE(*changed);
  absl::Status strict = VerifyStrict(**module);
  EXPECT_TRUE(strict.ok()) << strict << "\n" << Print(**module);
  absl::StatusOr<Literal> after = Evaluate(**module, arguments);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(eval_test::LiteralText(*after), eval_test::LiteralText(*before))
      << hlo;
  *result_text = eval_test::LiteralText(*after);
}

std::string AddModule(const SpecExample& example) {
  std::string body = "ROOT a = add(p0, p1)";
  if (!example.broadcast_dimensions.empty()) {
    absl::StrAppend(&body, ", broadcast_dimensions={",
                    example.broadcast_dimensions, "}");
  }
  auto shape = [](const std::vector<int64_t>& dims) {
    return absl::StrCat("s32[", absl::StrJoin(dims, ","), "]");
  };
  return EntryModule({shape(example.lhs), shape(example.rhs)}, body);
}

TEST(BroadcastLegalizationSemanticsTest, EveryBroadcastingMdExample) {
  const std::vector<SpecExample> examples = {
      {"matrix plus vector", {2, 3}, {3}, "1"},
      {"matrix plus scalar", {2, 3}, {}, ""},
      {"3x3 plus vector, dim 1", {3, 3}, {3}, "1"},
      {"3x3 plus vector, dim 0", {3, 3}, {3}, "0"},
      {"cuboid plus matrix (1,2)", {2, 3, 4}, {3, 4}, "1,2"},
      {"MxNxPxQ, T at dim 3", {2, 3, 4, 5}, {5}, "3"},
      {"MxNxPxQ, T at dim 2", {2, 3, 4, 5}, {4}, "2"},
      {"MxNxPxQ, T at dim 1", {2, 3, 4, 5}, {3}, "1"},
      {"MxNxPxQ, T at dim 0", {2, 3, 4, 5}, {2}, "0"},
      {"MxNxPxQ, TxV at 2,3", {2, 3, 4, 5}, {4, 5}, "2,3"},
      {"MxNxPxQ, TxV at 1,2", {2, 3, 4, 5}, {3, 4}, "1,2"},
      {"MxNxPxQ, TxV at 0,3", {2, 3, 4, 5}, {2, 5}, "0,3"},
      {"(2,1) and (2,3)", {2, 1}, {2, 3}, ""},
      {"(1,2,5) and (7,2,5)", {1, 2, 5}, {7, 2, 5}, ""},
      {"(7,2,5) and (7,1,5)", {7, 2, 5}, {7, 1, 5}, ""},
      {"outer (2,1) and (1,3)", {2, 1}, {1, 3}, ""},
      {"vector 4 plus 1x2, (0)", {4}, {1, 2}, "0"},
      {"1x2 plus 4x3x1, (1,2)", {1, 2}, {4, 3, 1}, "1,2"},
  };
  for (const SpecExample& example : examples) {
    SCOPED_TRACE(example.name);
    std::string result;
    ExpectSameResults(AddModule(example),
                      {CountingLiteral("s32", example.lhs, 1),
                       CountingLiteral("s32", example.rhs, 10)},
                      &result);
  }
}

TEST(BroadcastLegalizationSemanticsTest, SpecValuesMatchAfterThePass) {
  std::string result;
  ExpectSameResults(
      EntryModule({"s32[2,3]", "s32[3]"},
                  "ROOT a = add(p0, p1), broadcast_dimensions={1}"),
      {"s32[2,3] {{1, 2, 3}, {4, 5, 6}}", "s32[3] {7, 8, 9}"}, &result);
  EXPECT_EQ(result, "s32[2,3] { { 8, 10, 12 }, { 11, 13, 15 } }");
  ExpectSameResults(EntryModule({"s32[2,3]", "s32[]"}, "ROOT a = add(p0, p1)"),
                    {"s32[2,3] {{1, 2, 3}, {4, 5, 6}}", "s32[] 7"}, &result);
  EXPECT_EQ(result, "s32[2,3] { { 8, 9, 10 }, { 11, 12, 13 } }");
  ExpectSameResults(
      EntryModule({"s32[3,3]", "s32[3]"},
                  "ROOT a = add(p0, p1), broadcast_dimensions={0}"),
      {"s32[3,3] {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}", "s32[3] {7, 8, 9}"},
      &result);
  EXPECT_EQ(result, "s32[3,3] { { 7, 7, 7 }, { 8, 8, 8 }, { 9, 9, 9 } }");
  ExpectSameResults(
      EntryModule({"s32[4]", "s32[1,2]"},
                  "ROOT a = add(p0, p1), broadcast_dimensions={0}"),
      {"s32[4] {1, 2, 3, 4}", "s32[1,2] {{5, 6}}"}, &result);
  EXPECT_EQ(result, "s32[4,2] { { 6, 7 }, { 7, 8 }, { 8, 9 }, { 9, 10 } }");
}

TEST(BroadcastLegalizationSemanticsTest, IncompatibleShapesAreRefusedEarlier) {
  // (7,2,5) and (7,2,6) cannot broadcast: the parser's shape check refuses
  // the module, so the pass never sees it.
  EXPECT_FALSE(
      Parse(EntryModule({"s32[7,2,5]", "s32[7,2,6]"}, "ROOT a = add(p0, p1)"))
          .ok());
}

TEST(BroadcastLegalizationSemanticsTest, OtherOpsKeepTheirValues) {
  std::string result;
  ExpectSameResults(
      EntryModule({"f32[2,1]", "f32[3]", "pred[1,3]"},
                  "m = maximum(p0, p1), broadcast_dimensions={1}\n"
                  "  d = divide(m, p1), broadcast_dimensions={1}\n"
                  "  ROOT s = select(p2, d, p0)"),
      {"f32[2,1] {{1}, {-4}}", "f32[3] {2, -1, 4}",
       "pred[1,3] {{true, false, true}}"},
      &result);
  EXPECT_EQ(result, "f32[2,3] { { 1, 1, 1 }, { 1, -4, 1 } }");
  ExpectSameResults(
      EntryModule({"f32[1,2]", "f32[3,1]"},
                  "b = f32[4,1,2] broadcast(p0), dimensions={1,2}\n"
                  "  c = f32[4,3,2] broadcast(b), dimensions={0,1,2}\n"
                  "  ROOT a = add(c, p1), broadcast_dimensions={1,2}"),
      {"f32[1,2] {{1, 2}}", "f32[3,1] {{10}, {20}, {30}}"}, &result);
  // Size-0 operands are checked on the IR only (SizeZeroDimensions): the
  // evaluator's eval::Read memcpys from the null data of an empty literal,
  // which UBSan reports.
}

}  // namespace
}  // namespace kiln
