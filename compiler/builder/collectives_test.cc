#include "compiler/builder/collectives.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/ir/layout.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Shape F32(std::vector<int64_t> dims) {
  return Shape::Array(ElementType::kF32, std::move(dims));
}

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

void ExpectError(const XlaBuilder& b, std::vector<std::string> parts) {
  ASSERT_FALSE(b.ok()) << "expected an error";
  const std::string message(b.first_error().message());
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "missing \"" << part << "\" in: " << message;
  }
}

std::string RoundTrip(XlaBuilder& b) {
  absl::StatusOr<XlaComputation> built = b.Build();
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  EXPECT_TRUE(VerifyModule(**reparsed).ok()) << VerifyModule(**reparsed);
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

// (x, y) -> x + y over scalars of `type`, built in a sub-builder of `b`.
XlaComputation AddComputation(XlaBuilder& b, ElementType type) {
  std::unique_ptr<XlaBuilder> add = b.CreateSubBuilder("add");
  XlaOp x = Parameter(add.get(), 0, Shape::Scalar(type), "x");
  XlaOp y = Parameter(add.get(), 1, Shape::Scalar(type), "y");
  add->AddInstruction(Opcode::kAdd, {x, y}, {});
  absl::StatusOr<XlaComputation> built = add->Build();
  EXPECT_TRUE(built.ok()) << built.status();
  return *std::move(built);
}

TEST(CollectivesBuilderTest, AllReduceOfArraysAndTuples) {
  XlaBuilder b("all_reduce");
  XlaComputation add = AddComputation(b, ElementType::kF32);
  XlaOp x = Parameter(&b, 0, F32({8}), "x");
  XlaOp y = Parameter(&b, 1, F32({3}), "y");
  EXPECT_EQ(ShapeOf(AllReduce(x, add, {{0, 1}, {2, 3}})), "f32[8]");
  XlaOp pair = b.AddInstruction(Opcode::kTuple, {x, y}, {});
  XlaOp reduced = AllReduce(pair, add);
  EXPECT_EQ(ShapeOf(reduced), "(f32[8], f32[3])") << b.first_error();
  EXPECT_EQ(reduced.instruction()->operand_count(), 2);
  XlaOp single = b.AddInstruction(Opcode::kTuple, {y}, {});
  EXPECT_EQ(ShapeOf(AllReduce(single, add)), "(f32[3])") << b.first_error();
  EXPECT_EQ(ShapeOf(AllReduceTuple({x, y}, add, {}, ChannelHandle{5}, true)),
            "<invalid>");
  ExpectError(b, {"all-reduce",
                  "use_global_device_ids=true requires "
                  "non-empty replica_groups"});
}

TEST(CollectivesBuilderTest, AllReduceRoundTripsWithLayoutAndChannel) {
  XlaBuilder b("all_reduce_text");
  XlaComputation add = AddComputation(b, ElementType::kF32);
  XlaOp x = Parameter(&b, 0, F32({2, 3}), "x");
  Shape column_major = F32({2, 3});
  column_major.set_layout(Layout({0, 1}));
  XlaOp laid_out = AllReduce(x, add, {{0, 1}}, std::nullopt, column_major);
  ASSERT_TRUE(laid_out.valid()) << b.first_error();
  EXPECT_EQ(laid_out.instruction()->shape().layout().minor_to_major(),
            std::vector<int64_t>({0, 1}));
  AllReduce(x, add, {{0}, {1}}, ChannelHandle{3}, std::nullopt, true);
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("replica_groups={{0,1}}, constrain_layout=true, "
                      "to_apply=%all_reduce_text.add.1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("channel_id=3, replica_groups={{0},{1}}, "
                      "use_global_device_ids=true"),
            std::string::npos)
      << text;
}

// The builder's module has the default config (replica_count 1), under
// which a group list may name ids 0..n-1 only, n the number of ids named.
TEST(CollectivesBuilderTest, ReplicaGroupIdsMustBeDense) {
  XlaBuilder b("bad_groups");
  XlaComputation add = AddComputation(b, ElementType::kF32);
  XlaOp x = Parameter(&b, 0, F32({8}), "x");
  EXPECT_FALSE(AllReduce(x, add, {{0, 1}, {2, 5}}).valid());
  ExpectError(b, {"all-reduce", "replica group id 5 is out of range [0, 4)",
                  "operation_semantics.md, AllReduce"});
}

// The reducer's root for a CrossReplicaSum of `type`.
Opcode CrossReplicaSumRoot(ElementType type) {
  XlaBuilder b("crs");
  XlaOp x = Parameter(&b, 0, Shape::Array(type, {4}), "x");
  XlaOp sum = CrossReplicaSum(x, {{0, 1}});
  if (!sum.valid()) {
    ADD_FAILURE() << b.first_error();
    return Opcode::kParameter;
  }
  EXPECT_EQ(sum.instruction()->shape().element_type(), type);
  const auto* adder = sum.instruction()->attrs().Get<Computation*>("to_apply");
  EXPECT_NE(adder, nullptr);
  if (adder == nullptr) return Opcode::kParameter;
  const Opcode root = (*adder)->root()->opcode();
  RoundTrip(b);  // Takes the module: `sum` dangles from here on.
  return root;
}

TEST(CollectivesBuilderTest, CrossReplicaSumBuildsTheAdder) {
  EXPECT_EQ(CrossReplicaSumRoot(ElementType::kS32), Opcode::kAdd);
  EXPECT_EQ(CrossReplicaSumRoot(ElementType::kPred), Opcode::kOr);
}

TEST(CollectivesBuilderTest, AllGatherMultipliesTheDimensionByShardCount) {
  XlaBuilder b("all_gather");
  XlaOp x = Parameter(&b, 0, F32({3, 4}), "x");
  EXPECT_EQ(ShapeOf(AllGather(x, 0, 2, {{0, 1}, {2, 3}})), "f32[6,4]");
  EXPECT_EQ(ShapeOf(AllGather(x, 1, 1)), "f32[3,4]");
  XlaOp global = AllGather(x, 0, 2, {{0, 1}}, ChannelHandle{1}, std::nullopt,
                           /*use_global_device_ids=*/true);
  EXPECT_EQ(ShapeOf(global), "f32[6,4]") << b.first_error();
  XlaOp laid_out = AllGather(x, 0, 2, {{0, 1}}, std::nullopt, Layout({0, 1}));
  ASSERT_EQ(ShapeOf(laid_out), "f32[6,4]") << b.first_error();
  EXPECT_EQ(laid_out.instruction()->shape().layout().minor_to_major(),
            std::vector<int64_t>({0, 1}));
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("replica_groups={{0,1},{2,3}}, dimensions={0}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("channel_id=1, replica_groups={{0,1}}, dimensions={0}, "
                      "use_global_device_ids=true"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("f32[6,4]{0,1} all-gather(f32[3,4]{1,0} %x), "
                      "replica_groups={{0,1}}, constrain_layout=true"),
            std::string::npos)
      << text;
}

TEST(CollectivesBuilderTest, AllGatherDimensionMustBeInRange) {
  XlaBuilder b("bad_gather");
  XlaOp x = Parameter(&b, 0, F32({3, 4}), "x");
  EXPECT_FALSE(AllGather(x, 2, 2, {{0, 1}}).valid());
  ExpectError(b, {"all-gather", "dimensions {2} has dimension 2 out of range",
                  "operation_semantics.md, AllGather"});
}

TEST(CollectivesBuilderTest, ShardCountMustMatchTheGroups) {
  XlaBuilder b("bad_shards");
  XlaOp x = Parameter(&b, 0, F32({3, 4}), "x");
  EXPECT_FALSE(AllGather(x, 0, 3, {{0, 1}}).valid());
  ExpectError(b, {"all-gather", "shard_count=3 but replica group 0 has 2",
                  "AllGather"});
  XlaBuilder empty("empty_groups");
  XlaOp y = Parameter(&empty, 0, F32({3, 4}), "y");
  EXPECT_FALSE(AllGather(y, 0, 4).valid());
  ExpectError(empty, {"all-gather", "shard_count=4 with empty replica_groups",
                      "replica_count 1"});
}

TEST(CollectivesBuilderTest, ReduceScatterDividesTheDimension) {
  XlaBuilder b("reduce_scatter");
  XlaComputation add = AddComputation(b, ElementType::kF32);
  XlaOp x = Parameter(&b, 0, F32({8, 2}), "x");
  EXPECT_EQ(ShapeOf(ReduceScatter(x, add, 0, 4, {{0, 1, 2, 3}})), "f32[2,2]");
  XlaOp laid_out =
      ReduceScatter(x, add, 1, 2, {{0, 1}}, std::nullopt, Layout({0, 1}));
  ASSERT_EQ(ShapeOf(laid_out), "f32[8,1]") << b.first_error();
  EXPECT_TRUE(laid_out.instruction()->attrs().Has("constrain_layout"));
  RoundTrip(b);
  XlaBuilder bad("bad_scatter");
  XlaComputation bad_add = AddComputation(bad, ElementType::kF32);
  XlaOp y = Parameter(&bad, 0, F32({6, 2}), "y");
  EXPECT_FALSE(ReduceScatter(y, bad_add, 0, 4, {{0, 1, 2, 3}}).valid());
  ExpectError(bad, {"reduce-scatter", "not divisible by the group size 4",
                    "ReduceScatter"});
}

TEST(CollectivesBuilderTest, AllToAllMovesBlocksToTheConcatDimension) {
  XlaBuilder b("all_to_all");
  XlaOp x = Parameter(&b, 0, F32({4, 16}), "x");
  XlaOp same = AllToAll(x, 1, 1, 4, {{0, 1, 2, 3}});
  EXPECT_EQ(ShapeOf(same), "f32[4,16]");
  EXPECT_EQ(same.instruction()->opcode(), Opcode::kAllToAll);
  XlaOp moved = AllToAll(x, 1, 0, 4, {{0, 1, 2, 3}});
  ASSERT_EQ(ShapeOf(moved), "f32[16,4]") << b.first_error();
  // reshape(transpose(reshape(all-to-all))): [4,4,4] -> {1,0,2} -> [16,4].
  const Instruction* transpose = moved.instruction()->operand(0);
  EXPECT_EQ(transpose->opcode(), Opcode::kTranspose);
  EXPECT_EQ(*transpose->attrs().Get<Int64List>("dimensions"),
            Int64List({1, 0, 2}));
  EXPECT_EQ(transpose->operand(0)->operand(0)->opcode(), Opcode::kAllToAll);
  RoundTrip(b);
}

TEST(CollectivesBuilderTest, AllToAllSplitDimensionDivisibleBySplitCount) {
  XlaBuilder b("bad_all_to_all");
  XlaOp x = Parameter(&b, 0, F32({4, 6}), "x");
  EXPECT_FALSE(AllToAll(x, 1, 0, 4, {{0, 1, 2, 3}}).valid());
  ExpectError(
      b, {"all-to-all", "split dimension 1 (size 6)",
          "divisible by split_count 4", "operation_semantics.md, AllToAll"});
}

TEST(CollectivesBuilderTest, AllToAllTupleAndRaggedAllToAll) {
  XlaBuilder b("tuple_and_ragged");
  XlaOp x = Parameter(&b, 0, F32({3}), "x");
  XlaOp y = Parameter(&b, 1, F32({3}), "y");
  EXPECT_EQ(ShapeOf(AllToAllTuple({x, y}, {{0, 1}})), "(f32[3], f32[3])");
  XlaOp input = Parameter(&b, 2, F32({8, 3}), "input");
  XlaOp output = Parameter(&b, 3, F32({8, 3}), "output");
  const Shape offsets = Shape::Array(ElementType::kS32, {2});
  XlaOp in_offsets = Parameter(&b, 4, offsets, "in_offsets");
  XlaOp send = Parameter(&b, 5, offsets, "send");
  XlaOp out_offsets = Parameter(&b, 6, offsets, "out_offsets");
  XlaOp recv = Parameter(&b, 7, offsets, "recv");
  XlaOp ragged = RaggedAllToAll(input, in_offsets, send, output, out_offsets,
                                recv, {{0, 1}});
  ASSERT_EQ(ShapeOf(ragged), "f32[8,3]") << b.first_error();
  EXPECT_EQ(ragged.instruction()->operand(1)->name(), "output");
  RoundTrip(b);
}

TEST(CollectivesBuilderTest, PermuteBroadcastAndIds) {
  XlaBuilder b("permute");
  XlaOp x = Parameter(&b, 0, F32({2, 2}), "x");
  EXPECT_EQ(ShapeOf(CollectivePermute(x, {{0, 1}, {1, 0}})), "f32[2,2]");
  EXPECT_EQ(ShapeOf(CollectiveBroadcast(x, {{0, 1}}, ChannelHandle{7})),
            "f32[2,2]");
  EXPECT_EQ(ShapeOf(ReplicaId(&b)), "u32[]");
  EXPECT_EQ(ShapeOf(PartitionId(&b)), "u32[]");
  const std::string text = RoundTrip(b);
  EXPECT_NE(text.find("source_target_pairs={{0,1},{1,0}}"), std::string::npos)
      << text;
}

TEST(CollectivesBuilderTest, PermuteTargetsAreUnique) {
  XlaBuilder b("bad_permute");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  EXPECT_FALSE(CollectivePermute(x, {{0, 1}, {2, 1}}).valid());
  ExpectError(b, {"collective-permute", "target 1 appears twice",
                  "operation_semantics.md, CollectivePermute"});
}

}  // namespace
}  // namespace kiln
