#include "compiler/builder/indexing.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kF32, std::move(dims));
}
Shape S32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kS32, std::move(dims));
}

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

void ExpectError(XlaBuilder& b, std::vector<std::string> parts) {
  absl::Status error = b.first_error();
  ASSERT_FALSE(error.ok());
  for (const std::string& part : parts) {
    EXPECT_THAT(std::string(error.message()), HasSubstr(part));
  }
  EXPECT_EQ(b.Build().status(), error);
}

// Builds, prints, re-parses and verifies; returns the printed text.
std::string RoundTrip(XlaBuilder& b) {
  absl::StatusOr<XlaComputation> built = b.Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  absl::Status verified = VerifyModule(**reparsed);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

// A scalar f32 combiner: (a, b) -> a + b.
XlaComputation AddF32(XlaBuilder& parent) {
  std::unique_ptr<XlaBuilder> sub = parent.CreateSubBuilder("add");
  XlaOp a = Parameter(sub.get(), 0, F32({}), "a");
  XlaOp b = Parameter(sub.get(), 1, F32({}), "b");
  sub->AddInstruction(Opcode::kAdd, {a, b}, {});
  return *sub->Build();
}

// Rows of a [rows, 8] table picked by a vector of row indices.
GatherDimensionNumbers RowGather() {
  GatherDimensionNumbers dnums;
  dnums.offset_dims = {1};
  dnums.collapsed_slice_dims = {0};
  dnums.start_index_map = {0};
  dnums.index_vector_dim = 1;
  return dnums;
}

// Rows of a [rows, 8] operand updated at [n, 1] indices.
ScatterDimensionNumbers RowScatter() {
  ScatterDimensionNumbers dnums;
  dnums.update_window_dims = {1};
  dnums.inserted_window_dims = {0};
  dnums.scatter_dims_to_operand_dims = {0};
  dnums.index_vector_dim = 1;
  return dnums;
}

TEST(GatherTest, GathersRows) {
  XlaBuilder b("gather");
  XlaOp table = Parameter(&b, 0, F32({3, 8}), "table");
  XlaOp indices = Parameter(&b, 1, S32({5}), "indices");
  XlaOp rows = Gather(table, indices, RowGather(), {1, 8});
  EXPECT_EQ(ShapeOf(rows), "f32[5,8]");
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("offset_dims={1}, collapsed_slice_dims={0}, "
                              "start_index_map={0}, index_vector_dim=1, "
                              "slice_sizes={1,8}"));
  // Defaults are left out, as XLA prints them.
  EXPECT_THAT(text, Not(HasSubstr("indices_are_sorted")));
  EXPECT_THAT(text, Not(HasSubstr("batching")));
}

TEST(GatherTest, BatchingDimsAndSortedHint) {
  XlaBuilder b("gather_batched");
  XlaOp table = Parameter(&b, 0, F32({2, 3, 8}), "table");
  XlaOp indices = Parameter(&b, 1, S32({2, 5, 1}), "indices");
  GatherDimensionNumbers dnums;
  dnums.offset_dims = {2};
  dnums.collapsed_slice_dims = {1};
  dnums.start_index_map = {1};
  dnums.operand_batching_dims = {0};
  dnums.start_indices_batching_dims = {0};
  dnums.index_vector_dim = 2;
  XlaOp rows = Gather(table, indices, dnums, {1, 1, 8},
                      /*indices_are_sorted=*/true);
  EXPECT_EQ(ShapeOf(rows), "f32[2,5,8]");
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("operand_batching_dims={0}, "
                              "start_indices_batching_dims={0}"));
  EXPECT_THAT(text, HasSubstr("indices_are_sorted=true"));
}

TEST(GatherTest, SliceSizesOfWrongLengthIsAnError) {
  XlaBuilder b("gather_bad");
  XlaOp table = Parameter(&b, 0, F32({3, 8}), "table");
  XlaOp indices = Parameter(&b, 1, S32({5}), "indices");
  Gather(table, indices, RowGather(), {1});
  ExpectError(b, {"gather", "slice_sizes", "Gather"});
}

TEST(GatherTest, SliceLargerThanTheOperandIsAnError) {
  XlaBuilder b("gather_big");
  XlaOp table = Parameter(&b, 0, F32({3, 8}), "table");
  XlaOp indices = Parameter(&b, 1, S32({5}), "indices");
  Gather(table, indices, RowGather(), {1, 9});
  ExpectError(b, {"gather", "Gather"});
}

TEST(ScatterTest, ScattersRowsWithACombiner) {
  XlaBuilder b("scatter");
  XlaOp operand = Parameter(&b, 0, F32({3, 8}), "operand");
  XlaOp indices = Parameter(&b, 1, S32({5, 1}), "indices");
  XlaOp updates = Parameter(&b, 2, F32({5, 8}), "updates");
  XlaOp result = Scatter(operand, indices, updates, AddF32(b), RowScatter(),
                         /*indices_are_sorted=*/false,
                         /*unique_indices=*/true);
  EXPECT_EQ(ShapeOf(result), "f32[3,8]");
  const std::string text = RoundTrip(b);
  EXPECT_THAT(text, HasSubstr("update_window_dims={1}, "
                              "inserted_window_dims={0}, "
                              "scatter_dims_to_operand_dims={0}, "
                              "index_vector_dim=1, unique_indices=true, "
                              "to_apply="));
  EXPECT_THAT(text, Not(HasSubstr("indices_are_sorted")));
}

TEST(ScatterTest, VariadicScatterYieldsATuple) {
  XlaBuilder b("scatter2");
  std::unique_ptr<XlaBuilder> sub = b.CreateSubBuilder("add_pair");
  {
    XlaOp a0 = Parameter(sub.get(), 0, F32({}), "a0");
    XlaOp a1 = Parameter(sub.get(), 1, S32({}), "a1");
    XlaOp b0 = Parameter(sub.get(), 2, F32({}), "b0");
    XlaOp b1 = Parameter(sub.get(), 3, S32({}), "b1");
    XlaOp s0 = sub->AddInstruction(Opcode::kAdd, {a0, b0}, {});
    XlaOp s1 = sub->AddInstruction(Opcode::kAdd, {a1, b1}, {});
    sub->AddInstruction(Opcode::kTuple, {s0, s1}, {});
  }
  XlaComputation combiner = *sub->Build();
  XlaOp x = Parameter(&b, 0, F32({3, 8}), "x");
  XlaOp y = Parameter(&b, 1, S32({3, 8}), "y");
  XlaOp indices = Parameter(&b, 2, S32({5, 1}), "indices");
  XlaOp ux = Parameter(&b, 3, F32({5, 8}), "ux");
  XlaOp uy = Parameter(&b, 4, S32({5, 8}), "uy");
  XlaOp result = Scatter({x, y}, indices, {ux, uy}, combiner, RowScatter(),
                         /*indices_are_sorted=*/true);
  EXPECT_EQ(ShapeOf(result), "(f32[3,8], s32[3,8])");
  EXPECT_THAT(RoundTrip(b), HasSubstr("indices_are_sorted=true"));
}

TEST(ScatterTest, BatchingDims) {
  XlaBuilder b("scatter_batched");
  XlaOp operand = Parameter(&b, 0, F32({2, 3, 8}), "operand");
  XlaOp indices = Parameter(&b, 1, S32({2, 5, 1}), "indices");
  XlaOp updates = Parameter(&b, 2, F32({2, 5, 8}), "updates");
  ScatterDimensionNumbers dnums;
  dnums.update_window_dims = {2};
  dnums.inserted_window_dims = {1};
  dnums.scatter_dims_to_operand_dims = {1};
  dnums.input_batching_dims = {0};
  dnums.scatter_indices_batching_dims = {0};
  dnums.index_vector_dim = 2;
  EXPECT_EQ(ShapeOf(Scatter(operand, indices, updates, AddF32(b), dnums)),
            "f32[2,3,8]");
  EXPECT_THAT(RoundTrip(b), HasSubstr("input_batching_dims={0}, "
                                      "scatter_indices_batching_dims={0}"));
}

TEST(ScatterTest, UnequalOperandAndUpdateCountsAreAnError) {
  XlaBuilder b("scatter_counts");
  XlaOp x = Parameter(&b, 0, F32({3, 8}), "x");
  XlaOp indices = Parameter(&b, 1, S32({5, 1}), "indices");
  XlaOp u = Parameter(&b, 2, F32({5, 8}), "u");
  Scatter({x, x}, indices, {u}, AddF32(b), RowScatter());
  ExpectError(b, {"scatter", "2 operands and 1 updates", "Scatter"});
}

TEST(ScatterTest, UpdatesOfTheWrongShapeAreAnError) {
  XlaBuilder b("scatter_shape");
  XlaOp x = Parameter(&b, 0, F32({3, 8}), "x");
  XlaOp indices = Parameter(&b, 1, S32({5, 1}), "indices");
  XlaOp u = Parameter(&b, 2, F32({4, 8}), "u");
  Scatter(x, indices, u, AddF32(b), RowScatter());
  ExpectError(b, {"scatter", "Scatter"});
}

TEST(ScatterTest, CombinerOfTheWrongTypeIsAnError) {
  XlaBuilder b("scatter_combiner");
  XlaOp x = Parameter(&b, 0, S32({3, 8}), "x");
  XlaOp indices = Parameter(&b, 1, S32({5, 1}), "indices");
  XlaOp u = Parameter(&b, 2, S32({5, 8}), "u");
  Scatter(x, indices, u, AddF32(b), RowScatter());
  ExpectError(b, {"scatter"});
}

}  // namespace
}  // namespace kiln
