// Shape rules of async-start/update/done (async_ops.md, late binding
// included) and custom-call: valid cases, the corpus's declared shapes, and
// one invalid case per constraint. Also checks that every opcode has a
// shape rule.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/shape_inference.h"
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
add2 {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT s = f32[2] add(a, b)
}
)";

// kComputations and an entry over x = f32[2], k = s32[3] with the
// instruction lines `body` (the last one the ROOT).
std::string Module(absl::string_view body) {
  return absl::StrCat(kComputations, R"(
ENTRY e {
  x = f32[2] parameter(0)
  k = s32[3] parameter(1)
  t = (f32[2], s32[3]) parameter(2)
)",
                      body, "\n}\n");
}

TEST(AsyncShapeTest, StartUpdateDone) {
  const std::string start =
      "st = ((f32[2], f32[2]), f32[2], s32[]) async-start(x, x), calls=add2\n";
  EXPECT_EQ(*InferText(Module(absl::StrCat("ROOT ", start))),
            "((f32[2], f32[2]), f32[2], s32[])");
  EXPECT_EQ(*InferText(Module(
                absl::StrCat(start,
                             "ROOT up = ((f32[2], f32[2]), f32[2], s32[]) "
                             "async-update(st)"))),
            "((f32[2], f32[2]), f32[2], s32[])");
  EXPECT_EQ(*InferText(Module(
                absl::StrCat(start, "ROOT done = f32[2] async-done(st)"))),
            "f32[2]");
}

TEST(AsyncShapeTest, LateBinding) {
  const std::string start =
      "st = ((f32[2]), (), s32[]) async-start(x), calls=add2\n";
  EXPECT_EQ(*InferText(Module(
                absl::StrCat(start,
                             "ROOT up = ((f32[2], f32[2]), f32[2], s32[]) "
                             "async-update(st, x)"))),
            "((f32[2], f32[2]), f32[2], s32[])");
  EXPECT_EQ(
      *InferText(Module(absl::StrCat(
          start, "up = ((f32[2], f32[2]), (), s32[]) async-update(st, x)\n",
          "ROOT done = f32[2] async-done(up)"))),
      "f32[2]");
}

TEST(AsyncShapeTest, LateBoundOutputBuffer) {
  // All parameters bound at start; the update's extra operand is the output
  // buffer (async_ops.md, Late-Bound Outputs).
  const std::string start =
      "st = ((f32[2], f32[2]), (), s32[]) async-start(x, x), calls=add2\n";
  EXPECT_EQ(*InferText(Module(
                absl::StrCat(start,
                             "ROOT up = ((f32[2], f32[2]), (f32[2]), s32[]) "
                             "async-update(st, x)"))),
            "((f32[2], f32[2]), (f32[2]), s32[])");
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "st = ((f32[2], f32[2]), f32[2], s32[]) async-start(x, x), "
                  "calls=add2\n",
                  "ROOT up = ((f32[2], f32[2]), f32[2], s32[]) "
                  "async-update(st, x)"))),
              HasSubstr("up: operand 1 binds an output, but the output is "
                        "already bound (async_ops.md, Late Binding)"));
}

TEST(AsyncShapeTest, RejectsBadStart) {
  EXPECT_THAT(
      InferError(Module("ROOT st = ((f32[2], s32[3]), f32[2], s32[]) "
                        "async-start(x, k), calls=add2")),
      HasSubstr("st: bound operand 1 is s32[3], expected f32[2] (parameter 1 "
                "of add2) (async_ops.md, Late Binding)"));
  EXPECT_THAT(
      InferError(Module("ROOT st = ((f32[2], f32[2], f32[2]), f32[2], s32[]) "
                        "async-start(x, x, x), calls=add2")),
      HasSubstr("3 operands bound but calls=add2 takes 2"));
  EXPECT_THAT(InferError(Module("ROOT st = ((f32[2], f32[2]), s32[3], s32[]) "
                                "async-start(x, x), calls=add2")),
              HasSubstr("output slot is s32[3], expected () or the "
                        "computation's root f32[2]"));
  EXPECT_THAT(InferError(Module("ROOT st = f32[2] async-start(x, x), "
                                "calls=add2")),
              HasSubstr("the shape is f32[2], expected ((operands...), "
                        "result, context...) (async_ops.md, Async HLO "
                        "Instructions)"));
  EXPECT_THAT(
      InferError(Module("ROOT up = ((f32[2]), f32[2], s32[]) "
                        "async-update(x)")),
      HasSubstr("up: operand 0 is x, expected an async-start or async-update"));
}

TEST(AsyncShapeTest, RejectsBadUpdateAndDone) {
  const std::string start =
      "st = ((f32[2]), (), s32[]) async-start(x), calls=add2\n";
  EXPECT_THAT(InferError(Module(
                  absl::StrCat(start,
                               "ROOT up = ((f32[2], s32[3]), f32[2], s32[]) "
                               "async-update(st, k)"))),
              HasSubstr("bound operand 1 is s32[3], expected f32[2]"));
  EXPECT_THAT(InferError(Module(
                  absl::StrCat(start, "ROOT done = f32[2] async-done(st)"))),
              HasSubstr("done: only 1 of the 2 operands of add2 are bound "
                        "(async_ops.md, Late Binding)"));
  EXPECT_THAT(
      InferError(Module(absl::StrCat(
          start, "up = ((f32[2], f32[2]), (), s32[]) ", "async-update(st, x)\n",
          "ROOT done = s32[3] async-done(up)"))),
      HasSubstr("binds output s32[3], expected the computation's "
                "root f32[2]"));
  EXPECT_THAT(InferError(Module(absl::StrCat(
                  "st = ((f32[2], f32[2]), f32[2], s32[]) async-start(x, x), "
                  "calls=add2\n",
                  "ROOT up = ((f32[2], f32[2]), (), s32[]) "
                  "async-update(st)"))),
              HasSubstr("output slot is (), but the previous step bound "
                        "f32[2]"));
}

TEST(AsyncShapeTest, CyclicChainIsAnErrorNotAHang) {
  const Shape value = Shape::Tuple(
      {Shape::Tuple({}), Shape::Tuple({}), Shape::Scalar(ElementType::kS32)});
  Instruction first(Opcode::kAsyncUpdate, value, "first");
  Instruction second(Opcode::kAsyncUpdate, value, "second");
  first.AppendOperand(&second);
  second.AppendOperand(&first);
  absl::StatusOr<Shape> shape = InferShape(first);
  EXPECT_THAT(shape.status().message(),
              HasSubstr("first: the async chain has no async-start"));
  first.DetachOperands();
  second.DetachOperands();
}

TEST(CustomCallShapeTest, DeclaredShapeIsTheResult) {
  EXPECT_EQ(*InferText(Module("ROOT cc = (f32[7], s32[]) custom-call(x, k), "
                              "custom_call_target=\"t\"")),
            "(f32[7], s32[])");
  EXPECT_EQ(*InferText(Module("ROOT cc = f32[2] custom-call(t), "
                              "custom_call_target=\"t\", "
                              "output_to_operand_aliasing={{}: (0, {0})}")),
            "f32[2]");
}

TEST(CustomCallShapeTest, ChecksLayoutConstraints) {
  EXPECT_EQ(*InferText(Module("ROOT cc = f32[1] custom-call(x, k), "
                              "custom_call_target=\"t\", "
                              "operand_layout_constraints={f32[2]{0}, "
                              "s32[3]{0}}")),
            "f32[1]");
  EXPECT_THAT(InferError(Module("ROOT cc = f32[1] custom-call(x, k), "
                                "custom_call_target=\"t\", "
                                "operand_layout_constraints={f32[2]{0}}")),
              HasSubstr("cc: operand_layout_constraints has 1 shapes for 2 "
                        "operands (operation_semantics.md, CustomCall)"));
  EXPECT_THAT(InferError(Module("ROOT cc = f32[1] custom-call(x, k), "
                                "custom_call_target=\"t\", "
                                "operand_layout_constraints={f32[2]{0}, "
                                "s32[4]{0}}")),
              HasSubstr("operand_layout_constraints shape 1 is s32[4], but "
                        "operand 1 is s32[3]"));
}

TEST(CustomCallShapeTest, ChecksAliasing) {
  EXPECT_THAT(InferError(Module("ROOT cc = f32[2] custom-call(t), "
                                "custom_call_target=\"t\", "
                                "output_to_operand_aliasing={{}: (0, {1})}")),
              HasSubstr("aliases output {} (f32[2]) with operand 0 index {1} "
                        "of (f32[2], s32[3]) (operation_semantics.md, "
                        "CustomCall)"));
  EXPECT_THAT(InferError(Module("ROOT cc = f32[2] custom-call(t), "
                                "custom_call_target=\"t\", "
                                "output_to_operand_aliasing={{}: (0, {2})}")),
              HasSubstr("with operand 0 index {2}"));
  EXPECT_THAT(InferError(Module("ROOT cc = f32[2] custom-call(x), "
                                "custom_call_target=\"t\", "
                                "output_to_operand_aliasing={{}: (-1, {})}")),
              HasSubstr("operand -1 is not in [0, 1)"));
}

TEST(AsyncCustomCallCorpusTest, DeclaredShapesMatch) {
  const std::vector<Opcode> opcodes = {Opcode::kAsyncStart,
                                       Opcode::kAsyncUpdate, Opcode::kAsyncDone,
                                       Opcode::kCustomCall};
  for (absl::string_view file : {"async.hlo", "async_late_binding.hlo",
                                 "async_sugar.hlo", "custom_call.hlo"}) {
    SCOPED_TRACE(file);
    EXPECT_THAT(DeclaredShapeMismatches(ReadCorpusFile(file), opcodes),
                IsEmpty());
  }
}

// The real-world dumps of the corpus, every op of this family that their
// entry computations hold.
TEST(AsyncCustomCallCorpusTest, DumpsDeclaredShapesMatch) {
  const std::vector<Opcode> opcodes = {Opcode::kAsyncStart,
                                       Opcode::kAsyncUpdate,
                                       Opcode::kAsyncDone,
                                       Opcode::kCustomCall,
                                       Opcode::kWhile,
                                       Opcode::kConditional,
                                       Opcode::kCall,
                                       Opcode::kFusion,
                                       Opcode::kAfterAll,
                                       Opcode::kAddDependency,
                                       Opcode::kOptimizationBarrier,
                                       Opcode::kDomain};
  for (absl::string_view file :
       {"header.hlo", "jax_sharded_dump.hlo", "xla_gpu_dump.hlo",
        "xla_optimized_dump.hlo"}) {
    SCOPED_TRACE(file);
    std::vector<std::string> mismatches =
        DeclaredShapeMismatches(ReadCorpusFile(file), opcodes);
    mismatches.erase(std::remove(mismatches.begin(), mismatches.end(),
                                 "no instruction checked"),
                     mismatches.end());
    EXPECT_THAT(mismatches, IsEmpty());
  }
}

// Every opcode has a shape rule; the message lists the ones that lost it.
TEST(ShapeRuleCoverageTest, EveryOpcodeHasARule) {
  std::vector<std::string> missing;
  for (Opcode opcode : AllOpcodes()) {
    if (!HasShapeRule(opcode)) {
      missing.push_back(std::string(OpcodeName(opcode)));
    }
  }
  EXPECT_THAT(missing, IsEmpty()) << absl::StrJoin(missing, ", ");
}

}  // namespace
}  // namespace kiln
