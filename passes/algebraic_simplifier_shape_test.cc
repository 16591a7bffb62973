// Tests of algebraic-simplifier: shape, indexing and reduce rewrites.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/algebraic_simplifier_test_util.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::algsimp_test::EntryRoot;
using ::kiln::algsimp_test::ExpectSimplified;
using ::kiln::algsimp_test::ExpectUnchanged;
using ::kiln::algsimp_test::kFastMath;
using ::kiln::algsimp_test::kPass;
using ::kiln::algsimp_test::Outcome;
using ::kiln::algsimp_test::RunOn;
using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::ContainsInOrder;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;
using ::testing::Not;

// --- shape ops ---

TEST(AlgebraicSimplifierTest, ReshapeToTheSameShapeAndChains) {
  ExpectSimplified({"f32[2,3]"}, "ROOT r = f32[2,3] reshape(p0)",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectSimplified({"f32[2,3]"},
                   "a = f32[6] reshape(p0)\n"
                   "  ROOT b = f32[3,2] reshape(a)",
                   "ROOT b = f32[3,2]{1,0} reshape(p0)");
  ExpectSimplified({"f32[2,3]"},
                   "a = f32[6] reshape(p0)\n"
                   "  ROOT b = f32[2,3] reshape(a)",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, TransposeIdentityAndComposition) {
  ExpectSimplified({"f32[2,3]"},
                   "ROOT t = f32[2,3] transpose(p0), dimensions={0,1}",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectSimplified({"f32[2,3,4]"},
                   "a = f32[3,4,2] transpose(p0), dimensions={1,2,0}\n"
                   "  ROOT b = f32[4,2,3] transpose(a), dimensions={1,2,0}",
                   "ROOT b = f32[4,2,3]{2,1,0} transpose(p0), "
                   "dimensions={2,0,1}");
  ExpectSimplified({"f32[2,3]"},
                   "a = f32[3,2] transpose(p0), dimensions={1,0}\n"
                   "  ROOT b = f32[2,3] transpose(a), dimensions={1,0}",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
}

TEST(AlgebraicSimplifierTest, BroadcastChainsFoldButScalarConstantsStay) {
  ExpectSimplified({"f32[3]"},
                   "a = f32[2,3] broadcast(p0), dimensions={1}\n"
                   "  ROOT b = f32[2,4,3] broadcast(a), dimensions={0,2}",
                   "ROOT b = f32[2,4,3]{2,1,0} broadcast(p0), dimensions={2}");
  ExpectSimplified({"f32[3]"}, "ROOT b = f32[3] broadcast(p0), dimensions={0}",
                   "ROOT p0 = f32[3]{0} parameter(0)");
  // A broadcast scalar constant is not materialized (no growth).
  ExpectUnchanged({},
                  "c = f32[] constant(2)\n"
                  "  ROOT b = f32[1000,1000] broadcast(c), dimensions={}");
}

TEST(AlgebraicSimplifierTest, ReverseTrivialCases) {
  ExpectSimplified({"f32[1,3]"},
                   "ROOT r = f32[1,3] reverse(p0), dimensions={0}",
                   "ROOT p0 = f32[1,3]{1,0} parameter(0)");
  ExpectSimplified({"f32[2,3]"},
                   "a = f32[2,3] reverse(p0), dimensions={0,1}\n"
                   "  ROOT b = f32[2,3] reverse(a), dimensions={1,0}",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectUnchanged({"f32[2,3]"},
                  "a = f32[2,3] reverse(p0), dimensions={0}\n"
                  "  ROOT b = f32[2,3] reverse(a), dimensions={1}");
}

TEST(AlgebraicSimplifierTest, CopyOnlyWhenTheLayoutIsTheSame) {
  ExpectSimplified({"f32[2,3]{1,0}"}, "ROOT c = f32[2,3]{1,0} copy(p0)",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectUnchanged({"f32[2,3]{1,0}"},
                  "c = f32[2,3]{0,1} copy(p0)\n"
                  "  ROOT d = f32[2,3]{1,0} copy(c)");
}

TEST(AlgebraicSimplifierTest, ConvertToTheSameTypeAndLosslessRoundTrips) {
  ExpectSimplified({"f32[4]"}, "ROOT c = f32[4] convert(p0)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"f32[4]"},
                   "a = f64[4] convert(p0)\n"
                   "  ROOT b = f32[4] convert(a)",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectSimplified({"u8[4]"},
                   "a = s16[4] convert(p0)\n"
                   "  ROOT b = u8[4] convert(a)",
                   "ROOT p0 = u8[4]{0} parameter(0)");
  // Narrowing in between loses values.
  ExpectUnchanged({"f32[4]"},
                  "a = f16[4] convert(p0)\n"
                  "  ROOT b = f32[4] convert(a)");
  ExpectUnchanged({"s32[4]"},
                  "a = s8[4] convert(p0)\n"
                  "  ROOT b = s32[4] convert(a)");
  ExpectUnchanged({"s8[4]"},
                  "a = u32[4] convert(p0)\n"
                  "  ROOT b = s8[4] convert(a)");
}

TEST(AlgebraicSimplifierTest, PadWithNothing) {
  ExpectSimplified({"f32[2,3]"},
                   "z = f32[] constant(0)\n"
                   "  ROOT p = f32[2,3] pad(p0, z), padding=0_0x0_0",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectUnchanged({"f32[2,3]"},
                  "z = f32[] constant(0)\n"
                  "  ROOT p = f32[2,4] pad(p0, z), padding=0_0x0_1");
}

TEST(AlgebraicSimplifierTest, ConcatenateOfOneAndOfEmptyOperands) {
  ExpectSimplified({"f32[2,3]"},
                   "ROOT c = f32[2,3] concatenate(p0), dimensions={0}",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  ExpectSimplified({"f32[2,0]", "f32[2,3]", "f32[2,0]"},
                   "ROOT c = f32[2,3] concatenate(p0, p1, p2), dimensions={1}",
                   "ROOT p1 = f32[2,3]{1,0} parameter(1)");
  ExpectSimplified(
      {"f32[2,0]", "f32[2,3]", "f32[2,1]"},
      "ROOT c = f32[2,4] concatenate(p0, p1, p2), dimensions={1}",
      "ROOT c = f32[2,4]{1,0} concatenate(p1, p2), dimensions={1}");
}

// --- indexing ---

TEST(AlgebraicSimplifierTest, FullSliceAndSliceOfSlice) {
  ExpectSimplified({"f32[4,5]"},
                   "ROOT s = f32[4,5] slice(p0), slice={[0:4], [0:5]}",
                   "ROOT p0 = f32[4,5]{1,0} parameter(0)");
  // Inner: rows 1,3,5,7; outer: its elements 1 and 2 -> rows 3 and 5.
  ExpectSimplified(
      {"f32[9,5]"},
      "a = f32[4,5] slice(p0), slice={[1:9:2], [0:5]}\n"
      "  ROOT b = f32[2,2] slice(a), slice={[1:3], [1:5:2]}",
      "ROOT b = f32[2,2]{1,0} slice(p0), slice={[3:6:2], [1:4:2]}");
}

TEST(AlgebraicSimplifierTest, SliceOfConcatenateReadsOneOperand) {
  // Columns 4..6 of [p0 (3 columns) | p1 (4 columns)] are p1's 1..3.
  ExpectSimplified({"f32[2,3]", "f32[2,4]"},
                   "c = f32[2,7] concatenate(p0, p1), dimensions={1}\n"
                   "  ROOT s = f32[1,3] slice(c), slice={[1:2], [4:7]}",
                   "ROOT s = f32[1,3]{1,0} slice(p1), slice={[1:2], [1:4]}");
  // Exactly one operand: the slice goes away.
  ExpectSimplified({"f32[2,3]", "f32[2,4]"},
                   "c = f32[2,7] concatenate(p0, p1), dimensions={1}\n"
                   "  ROOT s = f32[2,3] slice(c), slice={[0:2], [0:3]}",
                   "ROOT p0 = f32[2,3]{1,0} parameter(0)");
  // Across the boundary: stays.
  ExpectUnchanged({"f32[2,3]", "f32[2,4]"},
                  "c = f32[2,7] concatenate(p0, p1), dimensions={1}\n"
                  "  ROOT s = f32[2,2] slice(c), slice={[0:2], [2:4]}");
  // A stride that stays inside p1 (columns 3 and 5).
  ExpectSimplified(
      {"f32[2,3]", "f32[2,4]"},
      "c = f32[2,7] concatenate(p0, p1), dimensions={1}\n"
      "  ROOT s = f32[2,2] slice(c), slice={[0:2], [3:7:2]}",
      "ROOT s = f32[2,2]{1,0} slice(p1), slice={[0:2:1], [0:3:2]}");
}

TEST(AlgebraicSimplifierTest, DataMovementOfAScalarBroadcastIsABroadcast) {
  const std::string broadcast =
      "c = f32[] constant(2)\n"
      "  b = f32[4,6] broadcast(c), dimensions={}\n";
  ExpectSimplified({}, broadcast + "  ROOT r = f32[24] reshape(b)",
                   "ROOT broadcast = f32[24]{0} broadcast(c), dimensions={}");
  ExpectSimplified({},
                   broadcast +
                       "  ROOT t = f32[6,4] transpose(b), "
                       "dimensions={1,0}",
                   "ROOT broadcast = f32[6,4]{1,0} broadcast(c)");
  ExpectSimplified({},
                   broadcast +
                       "  ROOT s = f32[2,3] slice(b), "
                       "slice={[0:2], [1:4]}",
                   "ROOT broadcast = f32[2,3]{1,0} broadcast(c)");
  ExpectSimplified({"f32[]"},
                   "b = f32[4] broadcast(p0), dimensions={}\n"
                   "  ROOT r = f32[4] reverse(b), dimensions={0}",
                   "ROOT broadcast = f32[4]{0} broadcast(p0), dimensions={}");
  // A non-scalar broadcast is moved by nothing here.
  ExpectUnchanged({"f32[4]"},
                  "b = f32[3,4] broadcast(p0), dimensions={1}\n"
                  "  ROOT t = f32[4,3] transpose(b), dimensions={1,0}");
}

TEST(AlgebraicSimplifierTest, DynamicSliceWithConstantIndicesIsClamped) {
  // Start 5 in a dimension of 4 with size 2 clamps to 2; -3 clamps to 0.
  ExpectSimplified(
      {"f32[4,6]"},
      "i = s32[] constant(5)\n"
      "  j = s32[] constant(-3)\n"
      "  ROOT d = f32[2,3] dynamic-slice(p0, i, j), "
      "dynamic_slice_sizes={2,3}",
      "ROOT slice = f32[2,3]{1,0} slice(p0), slice={[2:4], [0:3]}");
  ExpectSimplified({"f32[4,6]"},
                   "i = u8[] constant(255)\n"
                   "  j = u8[] constant(1)\n"
                   "  ROOT d = f32[2,3] dynamic-slice(p0, i, j), "
                   "dynamic_slice_sizes={2,3}",
                   "slice={[2:4], [1:4]}");
}

TEST(AlgebraicSimplifierTest, DynamicSliceWithParameterIndices) {
  // A slice of the whole operand starts at 0 whatever the index.
  ExpectSimplified({"f32[4]", "s32[]"},
                   "ROOT d = f32[4] dynamic-slice(p0, p1), "
                   "dynamic_slice_sizes={4}",
                   "ROOT p0 = f32[4]{0} parameter(0)");
  ExpectUnchanged({"f32[4]", "s32[]"},
                  "ROOT d = f32[2] dynamic-slice(p0, p1), "
                  "dynamic_slice_sizes={2}");
}

TEST(AlgebraicSimplifierTest, DynamicUpdateSliceOfEverything) {
  ExpectSimplified({"f32[4]", "f32[4]", "s32[]"},
                   "ROOT d = f32[4] dynamic-update-slice(p0, p1, p2)",
                   "ROOT p1 = f32[4]{0} parameter(1)");
  ExpectUnchanged({"f32[4]", "f32[2]", "s32[]"},
                  "ROOT d = f32[4] dynamic-update-slice(p0, p1, p2)");
}

constexpr char kAddF32[] =
    "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n}\n"
    "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] maximum(b, a)\n}\n"
    "sub {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] subtract(a, b)\n}\n";

TEST(AlgebraicSimplifierTest, ReduceOverSizeOneDimsWithExactIdentity) {
  const Outcome outcome =
      RunOn(EntryModule({"f32[3,1]"},
                        "z = f32[] constant(-0)\n"
                        "  ROOT r = f32[3] reduce(p0, z), dimensions={1}, "
                        "to_apply=add",
                        kAddF32));
  EXPECT_TRUE(outcome.changed);
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics;
  EXPECT_THAT(EntryRoot(outcome.text),
              HasSubstr("ROOT reshape = f32[3]{0} reshape(p0)"));
  const Outcome no_dims =
      RunOn(EntryModule({"f32[3]"},
                        "m = f32[] constant(-inf)\n"
                        "  ROOT r = f32[3] reduce(p0, m), dimensions={}, "
                        "to_apply=max",
                        kAddF32));
  EXPECT_TRUE(no_dims.changed);
  EXPECT_TRUE(no_dims.semantics.ok()) << no_dims.semantics;
  EXPECT_THAT(EntryRoot(no_dims.text),
              HasSubstr("ROOT p0 = f32[3]{0} parameter(0)"));
}

TEST(AlgebraicSimplifierTest, ReduceWithoutExactIdentityDoesNotFire) {
  const auto unchanged = [](const std::string& body) {
    const std::string hlo = EntryModule({"f32[3,1]"}, body, kAddF32);
    const Outcome outcome = RunOn(hlo);
    EXPECT_FALSE(outcome.changed) << outcome.text;
  };
  // +0 + -0 is +0.
  unchanged(
      "z = f32[] constant(0)\n"
      "  ROOT r = f32[3] reduce(p0, z), dimensions={1}, to_apply=add");
  // subtract has no identity on the left.
  unchanged(
      "z = f32[] constant(0)\n"
      "  ROOT r = f32[3] reduce(p0, z), dimensions={1}, to_apply=sub");
  // A real reduction (size 3).
  unchanged(
      "z = f32[] constant(-0)\n"
      "  ROOT r = f32[1] reduce(p0, z), dimensions={0}, to_apply=add");
}

}  // namespace
}  // namespace kiln
