// Shape rules of the control-flow family: while, conditional, call, fusion
// and the scheduling helpers (after-all, add-dependency, opt-barrier,
// domain). Valid cases, the corpus's declared shapes, and one invalid case
// per constraint.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::DeclaredShapeMismatches;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::ReadCorpusFile;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A file of the HLO corpus (compiler/text/testdata), from the runfiles.
constexpr absl::string_view kComputations = R"(HloModule m
cond {
  cs = (s32[], f32[4]) parameter(0)
  c = s32[] get-tuple-element(cs), index=0
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(c, ten), direction=LT
}
cond_s32 {
  cs = (s32[], f32[4]) parameter(0)
  ROOT c = s32[] get-tuple-element(cs), index=0
}
body {
  ROOT bs = (s32[], f32[4]) parameter(0)
}
body_f32 {
  bs = (s32[], f32[4]) parameter(0)
  ROOT v = f32[4] get-tuple-element(bs), index=1
}
negate4 {
  n = f32[4] parameter(0)
  ROOT r = f32[4] negate(n)
}
copy4 {
  n = f32[4] parameter(0)
  ROOT r = f32[4] copy(n)
}
from_s32 {
  n = s32[2] parameter(0)
  ROOT r = f32[4] constant({1, 2, 3, 4})
}
to_f64 {
  n = f32[4] parameter(0)
  ROOT r = f64[4] convert(n)
}
add4 {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT r = f32[4] add(a, b)
}
)";

// kComputations and an entry whose ROOT line is `root`, over x = f32[4],
// p = pred[], n = s32[], k = s32[2], state = (s32[], f32[4]).
std::string Module(absl::string_view root) {
  return absl::StrCat(kComputations, R"(
ENTRY e {
  x = f32[4] parameter(0)
  p = pred[] parameter(1)
  n = s32[] parameter(2)
  k = s32[2] parameter(3)
  zero = s32[] constant(0)
  state = (s32[], f32[4]) tuple(zero, x)
  tok = token[] after-all()
  ROOT out = )",
                      root, "\n}\n");
}

TEST(WhileShapeTest, ResultIsTheLoopState) {
  EXPECT_EQ(*InferText(Module("(s32[], f32[4]) while(state), condition=cond, "
                              "body=body")),
            "(s32[], f32[4])");
}

TEST(WhileShapeTest, RejectsBadComputations) {
  EXPECT_THAT(
      InferError(Module("(s32[], f32[4]) while(state), condition=cond_s32, "
                        "body=body")),
      HasSubstr("out: condition=cond_s32 has signature ((s32[], f32[4])) -> "
                "s32[], expected ((s32[], f32[4])) -> pred[] "
                "(operation_semantics.md, While)"));
  EXPECT_THAT(
      InferError(Module("(s32[], f32[4]) while(state), condition=cond, "
                        "body=body_f32")),
      HasSubstr("body=body_f32 has signature ((s32[], f32[4])) -> f32[4]"));
  EXPECT_THAT(InferError(Module("f32[4] while(x), condition=cond, body=body")),
              HasSubstr("condition=cond has signature"));
}

TEST(ConditionalShapeTest, PredAndIndexForms) {
  EXPECT_EQ(*InferText(Module("f32[4] conditional(p, x, x), "
                              "true_computation=negate4, "
                              "false_computation=copy4")),
            "f32[4]");
  EXPECT_EQ(*InferText(Module("f32[4] conditional(n, x, x, x), "
                              "branch_computations={negate4, copy4, "
                              "negate4}")),
            "f32[4]");
  EXPECT_EQ(*InferText(Module("f32[4] conditional(n, k, x), "
                              "branch_computations={from_s32, copy4}")),
            "f32[4]");
}

TEST(ConditionalShapeTest, RejectsBadSelectorAndForms) {
  EXPECT_THAT(InferError(Module("f32[4] conditional(x, x, x), "
                                "branch_computations={negate4, copy4}")),
              HasSubstr("out: selector is f32[4], expected pred[] or s32[] "
                        "(operation_semantics.md, Conditional)"));
  EXPECT_THAT(InferError(Module("f32[4] conditional(n, x, x), "
                                "true_computation=negate4, "
                                "false_computation=copy4")),
              HasSubstr("an s32 selector takes a non-empty "
                        "branch_computations="));
  EXPECT_THAT(InferError(Module("f32[4] conditional(p, x, x), "
                                "true_computation=negate4")),
              HasSubstr("missing computation false_computation="));
  EXPECT_THAT(InferError(Module("f32[4] conditional(p, x, x, x), "
                                "branch_computations={negate4, copy4, "
                                "copy4}")),
              HasSubstr("a pred selector takes 2 branches, got 3"));
}

TEST(ConditionalShapeTest, RejectsBranchMismatches) {
  EXPECT_THAT(InferError(Module("f32[4] conditional(n, x, x, x), "
                                "branch_computations={negate4, copy4}")),
              HasSubstr("has 2 branches but 3 branch operands"));
  EXPECT_THAT(InferError(Module("f32[4] conditional(n, x, k), "
                                "branch_computations={negate4, copy4}")),
              HasSubstr("branch 1=copy4 has signature (f32[4]) -> f32[4], "
                        "expected (s32[2]) -> f32[4]"));
  EXPECT_THAT(InferError(Module("f32[4] conditional(p, x, x), "
                                "true_computation=negate4, "
                                "false_computation=to_f64")),
              HasSubstr("branch 1=to_f64 has signature (f32[4]) -> f64[4], "
                        "expected (f32[4]) -> f32[4]"));
}

TEST(CallShapeTest, ResultIsTheRoot) {
  EXPECT_EQ(*InferText(Module("f64[4] call(x), to_apply=to_f64")), "f64[4]");
  EXPECT_EQ(*InferText(Module("f32[4] call(x, x), to_apply=add4")), "f32[4]");
  EXPECT_THAT(InferError(Module("f32[4] call(x), to_apply=add4")),
              HasSubstr("out: to_apply=add4 has signature (f32[4], f32[4]) -> "
                        "f32[4], expected (f32[4]) -> f32[4] "
                        "(operation_semantics.md, Call)"));
}

TEST(FusionShapeTest, ResultIsTheFusedRoot) {
  EXPECT_EQ(*InferText(Module("f32[4] fusion(x, x), kind=kLoop, calls=add4")),
            "f32[4]");
  EXPECT_THAT(InferError(Module("f32[4] fusion(x, k), kind=kLoop, "
                                "calls=add4")),
              HasSubstr("calls=add4 has signature (f32[4], f32[4]) -> f32[4], "
                        "expected (f32[4], s32[2]) -> f32[4] "
                        "(operation_semantics.md, Fusion)"));
}

TEST(FusionShapeTest, ChecksAliasing) {
  EXPECT_EQ(*InferText(Module("f32[4] fusion(x, x), kind=kLoop, calls=add4, "
                              "output_to_operand_aliasing={{}: (1, {})}")),
            "f32[4]");
  EXPECT_THAT(InferError(Module("f32[4] fusion(x, x), kind=kLoop, "
                                "calls=add4, "
                                "output_to_operand_aliasing={{}: (2, {})}")),
              HasSubstr("output_to_operand_aliasing operand 2 is not in [0, "
                        "2)"));
  EXPECT_THAT(InferError(Module("f32[4] fusion(x, x), kind=kLoop, "
                                "calls=add4, "
                                "output_to_operand_aliasing={{0}: (0, {})}")),
              HasSubstr("output index {0} is not in f32[4]"));
  EXPECT_THAT(InferError(Module("f32[4] fusion(x, x), kind=kLoop, "
                                "calls=add4, "
                                "output_to_operand_aliasing={{}: (0, {1})}")),
              HasSubstr("aliases output {} (f32[4]) with operand 0 index {1}"));
}

TEST(SchedulingShapeTest, AfterAllJoinsTokens) {
  EXPECT_EQ(*InferText(Module("token[] after-all()")), "token[]");
  EXPECT_EQ(*InferText(Module("token[] after-all(tok, tok)")), "token[]");
  EXPECT_THAT(InferError(Module("token[] after-all(tok, x)")),
              HasSubstr("out: operand 1 is f32[4], expected token[] "
                        "(operation_semantics.md, AfterAll)"));
}

TEST(SchedulingShapeTest, AddDependencyPassesOperandZero) {
  EXPECT_EQ(*InferText(Module("(s32[], f32[4]) add-dependency(state, tok)")),
            "(s32[], f32[4])");
  EXPECT_THAT(InferError(Module("f32[4] add-dependency(x, x)")),
              HasSubstr("operand 1 is f32[4], expected token[] "
                        "(operation_semantics.md, AddDependency)"));
}

TEST(SchedulingShapeTest, OptimizationBarrierAndDomain) {
  EXPECT_EQ(*InferText(Module("(s32[], f32[4]) opt-barrier(state)")),
            "(s32[], f32[4])");
  EXPECT_THAT(InferError(Module("f32[4] opt-barrier(x)")),
              HasSubstr("operand is f32[4], expected a tuple "
                        "(operation_semantics.md, OptimizationBarrier)"));
  EXPECT_EQ(*InferText(Module("f32[4] domain(x), domain={kind=\"sharding\", "
                              "entry={maximal device=0}, exit={maximal "
                              "device=1}}")),
            "f32[4]");
}

TEST(ControlFlowCorpusTest, DeclaredShapesMatch) {
  const std::vector<Opcode> opcodes = {Opcode::kWhile,
                                       Opcode::kConditional,
                                       Opcode::kCall,
                                       Opcode::kFusion,
                                       Opcode::kAfterAll,
                                       Opcode::kAddDependency,
                                       Opcode::kOptimizationBarrier,
                                       Opcode::kDomain};
  for (absl::string_view file :
       {"control_flow.hlo", "fusion.hlo", "misc.hlo", "io.hlo"}) {
    SCOPED_TRACE(file);
    EXPECT_THAT(DeclaredShapeMismatches(ReadCorpusFile(file), opcodes),
                IsEmpty());
  }
}

}  // namespace
}  // namespace kiln
