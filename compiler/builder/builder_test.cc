#include "compiler/builder/builder.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "compiler/builder/padding.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kF32, std::move(dims));
}

TEST(BuilderTest, InfersShapesAndBuildsAParsableModule) {
  XlaBuilder b("axpy");
  XlaOp a = Parameter(&b, 0, F32({}), "a");
  XlaOp x = Parameter(&b, 1, F32({8}), "x");
  XlaOp ax = b.AddInstruction(Opcode::kMultiply, {a, x}, {});
  ASSERT_TRUE(ax.valid()) << b.first_error();
  EXPECT_EQ(ax.instruction()->shape().ToString(false), "f32[8]");
  absl::StatusOr<XlaComputation> built = b.Build();
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(built->result_shape().ToString(false), "f32[8]");
  ASSERT_EQ(built->parameter_shapes().size(), 2u);
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok());
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  EXPECT_EQ(PrintModule(**reparsed), text);
}

TEST(BuilderTest, KeepsTheFirstErrorAndIgnoresLaterOps) {
  XlaBuilder b("bad");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  XlaOp y = Parameter(&b, 1, F32({7}), "y");
  XlaOp bad = b.AddInstruction(Opcode::kAdd, {x, y}, {});
  EXPECT_FALSE(bad.valid());
  XlaOp later = b.AddInstruction(Opcode::kNegate, {x}, {});
  EXPECT_FALSE(later.valid());
  absl::StatusOr<XlaComputation> built = b.Build();
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.status().message().find("add"), std::string::npos)
      << built.status();
  EXPECT_EQ(built.status(), b.first_error());
}

TEST(BuilderTest, RejectsOpsOfAnotherBuilder) {
  XlaBuilder b1("one");
  XlaBuilder b2("two");
  XlaOp x = Parameter(&b1, 0, F32({2}), "x");
  Parameter(&b2, 0, F32({2}), "y");
  EXPECT_FALSE(b2.AddInstruction(Opcode::kNegate, {x}, {}).valid());
  EXPECT_NE(b2.first_error().message().find("belongs to builder one"),
            std::string::npos)
      << b2.first_error();
}

TEST(BuilderTest, ParameterNumbersMustBeUniqueAndDense) {
  XlaBuilder dup("dup");
  Parameter(&dup, 0, F32({2}), "x");
  EXPECT_FALSE(Parameter(&dup, 0, F32({2}), "y").valid());
  EXPECT_NE(dup.first_error().message().find("already"), std::string::npos);

  XlaBuilder gap("gap");
  Parameter(&gap, 1, F32({2}), "x");
  absl::StatusOr<XlaComputation> built = gap.Build();
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.status().message().find("parameter 0 is missing"),
            std::string::npos)
      << built.status();
}

TEST(BuilderTest, DeclaredShapeMustMatchTheRule) {
  XlaBuilder b("reshape");
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  EXPECT_TRUE(b.AddInstruction(Opcode::kReshape, {x}, {}, F32({3, 2})).valid())
      << b.first_error();
  EXPECT_FALSE(b.AddInstruction(Opcode::kReshape, {x}, {}, F32({5})).valid());
}

TEST(BuilderTest, ImportsSubComputationsOnceAndPrintsCalleesFirst) {
  std::unique_ptr<XlaBuilder> add_builder;
  XlaBuilder b("sum");
  add_builder = b.CreateSubBuilder("add");
  XlaOp lhs = Parameter(add_builder.get(), 0, F32({}), "lhs");
  XlaOp rhs = Parameter(add_builder.get(), 1, F32({}), "rhs");
  add_builder->AddInstruction(Opcode::kAdd, {lhs, rhs}, {});
  absl::StatusOr<XlaComputation> add = add_builder->Build();
  ASSERT_TRUE(add.ok()) << add.status();

  XlaOp x = Parameter(&b, 0, F32({4, 5}), "x");
  XlaOp zero = ConstantLiteral(&b, Literal::ScalarF32(0));
  absl::StatusOr<Computation*> imported = b.ImportComputation(*add);
  ASSERT_TRUE(imported.ok()) << imported.status();
  absl::StatusOr<Computation*> again = b.ImportComputation(*add);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*imported, *again);
  AttributeMap attrs;
  attrs.Set("dimensions", Int64List{1});
  attrs.Set("to_apply", *imported);
  XlaOp sum = b.AddInstruction(Opcode::kReduce, {x, zero}, std::move(attrs));
  ASSERT_TRUE(sum.valid()) << b.first_error();
  EXPECT_EQ(sum.instruction()->shape().ToString(false), "f32[4]");
  absl::StatusOr<XlaComputation> built = b.Build();
  ASSERT_TRUE(built.ok()) << built.status();
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  EXPECT_LT(text.find("lhs"), text.find("ENTRY")) << text;
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
}

TEST(PaddingTest, SameAndValid) {
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(MakePadding({5, 4}, {3, 2}, {1, 2}, Padding::kSame),
            (Pairs{{1, 1}, {0, 0}}));
  EXPECT_EQ(MakePadding({4}, {4}, {1}, Padding::kSame), (Pairs{{1, 2}}));
  EXPECT_EQ(MakePadding({5, 4}, {3, 2}, {1, 2}, Padding::kValid),
            (Pairs{{0, 0}, {0, 0}}));
}

TEST(PaddingTest, InvalidOrHugeSizesGetNoPaddingInsteadOfOverflowing) {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  using Pairs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(MakePadding({huge}, {huge}, {huge}, Padding::kSame),
            (Pairs{{0, 0}}));
  EXPECT_EQ(MakePadding({4}, {huge}, {1}, Padding::kSame), (Pairs{{0, 0}}));
  EXPECT_EQ(MakePadding({4}, {2}, {0}, Padding::kSame), (Pairs{{0, 0}}));
  EXPECT_EQ(MakePadding({-4}, {2}, {1}, Padding::kSame), (Pairs{{0, 0}}));
}

}  // namespace
}  // namespace kiln
