// Shape rules of the collective ops: all-reduce, all-gather, reduce-scatter,
// all-to-all, ragged-all-to-all, collective-broadcast, collective-permute,
// their -start/-done forms, replica-id and partition-id; also checked
// against the declared shapes of the HLO corpus.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
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

// A module of 4 replicas x 2 partitions with reducers `add` (f32) and
// `add_s32`; the entry's ROOT is `root` over x = f32[8,4], y = f32[4,2],
// s = s32[4], off = s64[2], big = f32[8,2].
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m, replica_count=4, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT sum = s32[] add(a, b)
}
ENTRY e {
  x = f32[8,4] parameter(0)
  y = f32[4,2] parameter(1)
  s = s32[4] parameter(2)
  off = s64[2] parameter(3)
  big = f32[8,2] parameter(4)
  z = s32[] constant(0)
  io = (s32[], s32[]) tuple(z, z)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(CollectivesCorpusTest, DeclaredShapesMatch) {
  EXPECT_THAT(DeclaredShapeMismatches(
                  ReadCorpusFile("collectives.hlo"),
                  {Opcode::kAllReduce, Opcode::kAllGather, Opcode::kAllToAll,
                   Opcode::kReduceScatter, Opcode::kCollectivePermute,
                   Opcode::kCollectiveBroadcast, Opcode::kRaggedAllToAll,
                   Opcode::kReplicaId, Opcode::kPartitionId}),
              IsEmpty());
  EXPECT_THAT(
      DeclaredShapeMismatches(
          ReadCorpusFile("async.hlo"),
          {Opcode::kAllGatherStart, Opcode::kAllGatherDone,
           Opcode::kAllReduceStart, Opcode::kAllReduceDone,
           Opcode::kCollectivePermuteStart, Opcode::kCollectivePermuteDone}),
      IsEmpty());
}

TEST(AllReduceShapeTest, KeepsOperandShapes) {
  EXPECT_EQ(*InferText(Module("f32[8,4] all-reduce(x), replica_groups={}, "
                              "to_apply=add")),
            "f32[8,4]");
  EXPECT_EQ(*InferText(Module("(f32[8,4], f32[4,2]) all-reduce(x, y), "
                              "replica_groups={{0,1},{2,3}}, to_apply=add")),
            "(f32[8,4], f32[4,2])");
  EXPECT_EQ(*InferText(Module("f32[8,4] all-reduce-start(x), "
                              "replica_groups={}, to_apply=add")),
            "f32[8,4]");
}

TEST(AllReduceShapeTest, RejectsReducerAndMixedTypes) {
  EXPECT_THAT(InferError(Module("s32[4] all-reduce(s), replica_groups={}, "
                                "to_apply=add")),
              HasSubstr("r: to_apply=add has signature"));
  EXPECT_THAT(InferError(Module("(f32[8,4], s32[4]) all-reduce(x, s), "
                                "replica_groups={}, to_apply=add")),
              HasSubstr("operand 1 is s32[4] but operand 0 is f32[8,4]; "
                        "element types must be equal"));
}

TEST(ReplicaGroupsTest, RejectsBadGroups) {
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce(x), "
                                "replica_groups={{0,4}}, to_apply=add")),
              HasSubstr("r: replica group id 4 is out of range [0, 4) "
                        "(operation_semantics.md, AllReduce)"));
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce(x), "
                                "replica_groups={{0,1},{1,2}}, to_apply=add")),
              HasSubstr("replica group id 1 appears more than once"));
  EXPECT_THAT(InferError(Module("f32[8,2] all-gather(y), "
                                "replica_groups={{0,1},{2}}, dimensions={0}")),
              HasSubstr("replica group 1 has 1 ids, expected 2"));
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce(x), replica_groups={}, "
                                "use_global_device_ids=true, to_apply=add")),
              HasSubstr("use_global_device_ids=true requires a channel_id"));
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce(x), channel_id=1, "
                                "replica_groups={}, "
                                "use_global_device_ids=true, to_apply=add")),
              HasSubstr("requires non-empty replica_groups"));
}

TEST(ReplicaGroupsTest, IdsInRangeOfTheConfig) {
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce(x), "
                                "replica_groups={{0,-1}}, to_apply=add")),
              HasSubstr("replica group id -1 is out of range"));
  // Without replica_count in the module any contiguous id set is accepted.
  const std::string no_config = R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}
ENTRY e {
  y = f32[4,2] parameter(0)
  ROOT r = f32[4,6] all-gather(y), replica_groups={{0,1,2},{3,4,5}},
      dimensions={1}
})";
  EXPECT_EQ(*InferText(no_config), "f32[4,6]");
  EXPECT_THAT(InferError(absl::StrReplaceAll(no_config, {{"5}}", "6}}"}})),
              HasSubstr("replica group id 6 is out of range [0, 6)"));
}

TEST(ReplicaGroupsTest, IdRangeFollowsTheGroupMode) {
  // Flattened ids run over replicas x partitions = 8.
  EXPECT_EQ(*InferText(Module("f32[8,4] all-reduce(x), channel_id=1, "
                              "replica_groups={{0,1,2,3},{4,5,6,7}}, "
                              "use_global_device_ids=true, to_apply=add")),
            "f32[8,4]");
  // all-to-all with a channel_id is cross-partition: ids below 2.
  EXPECT_THAT(InferError(Module("f32[8,4] all-to-all(x), channel_id=1, "
                                "replica_groups={{0,2}}, dimensions={0}")),
              HasSubstr("replica group id 2 is out of range [0, 2)"));
}

TEST(AllGatherShapeTest, MultipliesTheDimensionByTheGroupSize) {
  EXPECT_EQ(*InferText(Module("f32[4,4] all-gather(y), "
                              "replica_groups={{0,1},{2,3}}, dimensions={1}")),
            "f32[4,4]");
  // Empty groups: all 4 replicas.
  EXPECT_EQ(*InferText(Module(
                "f32[16,2] all-gather(y), replica_groups={}, dimensions={0}")),
            "f32[16,2]");
  // Iota groups [2,2]<=[4]: two groups of 2.
  EXPECT_EQ(
      *InferText(Module("f32[8,2] all-gather(y), replica_groups=[2,2]<=[4], "
                        "dimensions={0}")),
      "f32[8,2]");
  // Cross replica and partition: 2 replicas x 2 partitions.
  EXPECT_EQ(*InferText(Module("f32[16,2] all-gather(y), channel_id=1, "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}")),
            "f32[16,2]");
  EXPECT_EQ(*InferText(Module("(f32[4,2], f32[8,2]) all-gather-start(y), "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}")),
            "(f32[4,2], f32[8,2])");
}

TEST(AllGatherShapeTest, RejectsBadDimension) {
  EXPECT_THAT(InferError(Module("f32[4,4] all-gather(y), replica_groups={}, "
                                "dimensions={2}")),
              HasSubstr("r: dimensions"));
  EXPECT_THAT(InferError(Module("f32[4,4] all-gather(y), replica_groups={}, "
                                "dimensions={0,1}")),
              HasSubstr("must name exactly one dimension"));
}

TEST(ReduceScatterShapeTest, DividesTheDimension) {
  EXPECT_EQ(*InferText(Module("f32[4,4] reduce-scatter(x), "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}, "
                              "to_apply=add")),
            "f32[4,4]");
  EXPECT_THAT(InferError(Module("f32[4,2] reduce-scatter(y), "
                                "replica_groups={}, dimensions={1}, "
                                "to_apply=add")),
              HasSubstr("r: operand 0 dimension 1 (size 2) is not divisible "
                        "by the group size 4 (operation_semantics.md, "
                        "ReduceScatter)"));
  EXPECT_THAT(InferError(Module("f32[4,4] reduce-scatter(x), "
                                "replica_groups={}, dimensions={0}, "
                                "to_apply=add_s32")),
              HasSubstr("to_apply=add_s32 has signature"));
}

TEST(AllToAllShapeTest, ArrayAndTupleForms) {
  EXPECT_EQ(*InferText(Module("f32[8,4] all-to-all(x), "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}")),
            "f32[8,4]");
  EXPECT_EQ(*InferText(Module("(f32[4,2], f32[4,2]) all-to-all(y, y), "
                              "replica_groups={{0,1},{2,3}}")),
            "(f32[4,2], f32[4,2])");
  EXPECT_THAT(InferError(Module("f32[4,2] all-to-all(y), replica_groups={}, "
                                "dimensions={1}")),
              HasSubstr("split dimension 1 (size 2) is not divisible by the "
                        "group size 4"));
  EXPECT_THAT(InferError(Module("(f32[4,2], f32[4,2]) all-to-all(y, y), "
                                "replica_groups={}")),
              HasSubstr("tuple form takes one operand per group member (4), "
                        "got 2"));
  EXPECT_THAT(InferError(Module("(f32[4,2], f32[8,4]) all-to-all(y, x), "
                                "replica_groups={{0,1},{2,3}}")),
              HasSubstr("operand 1 is f32[8,4], expected operand 0's shape"));
}

TEST(RaggedAllToAllShapeTest, ResultIsTheOutputBuffer) {
  EXPECT_EQ(*InferText(Module("f32[8,2] ragged-all-to-all(y, big, off, off, "
                              "off, off), replica_groups={{0,1},{2,3}}")),
            "f32[8,2]");
  EXPECT_THAT(InferError(Module("f32[8,2] ragged-all-to-all(y, big, s, off, "
                                "off, off), replica_groups={{0,1},{2,3}}")),
              HasSubstr("r: operand 3 is s64[2], expected s32 or s64 "
                        "offsets/sizes"));
  EXPECT_THAT(InferError(Module("f32[8,2] ragged-all-to-all(y, s, off, off, "
                                "off, off), replica_groups={}")),
              HasSubstr("must be arrays of one type and rank >= 1 "
                        "(operation_semantics.md, RaggedAllToAll)"));
}

TEST(CollectiveBroadcastShapeTest, KeepsTheOperand) {
  EXPECT_EQ(*InferText(Module("f32[4,2] collective-broadcast(y), "
                              "replica_groups={{0,1},{2,3}}")),
            "f32[4,2]");
  EXPECT_THAT(InferError(Module("f32[4,2] collective-broadcast(y), "
                                "replica_groups={{0,7}}")),
              HasSubstr("replica group id 7 is out of range [0, 4) "
                        "(operation_semantics.md, CollectiveBroadcast)"));
}

TEST(CollectivePermuteShapeTest, PairsAndForms) {
  EXPECT_EQ(*InferText(Module("f32[4,2] collective-permute(y), "
                              "source_target_pairs={{0,1},{1,2},{3,0}}")),
            "f32[4,2]");
  EXPECT_EQ(*InferText(Module("f32[8,2] collective-permute(y, big, io, io), "
                              "source_target_pairs={{0,1}}, "
                              "slice_sizes={{4,2}}")),
            "f32[8,2]");
  EXPECT_EQ(*InferText(Module("(f32[4,2], f32[4,2], u32[], u32[]) "
                              "collective-permute-start(y), "
                              "source_target_pairs={{0,1}}")),
            "(f32[4,2], f32[4,2], u32[], u32[])");
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y), "
                                "source_target_pairs={{0,4}}")),
              HasSubstr("r: source_target_pairs id 4 is out of range [0, 4) "
                        "(operation_semantics.md, CollectivePermute)"));
  // With a channel_id the ids are partitions (2).
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y), "
                                "channel_id=1, source_target_pairs={{0,2}}")),
              HasSubstr("out of range [0, 2)"));
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y), "
                                "source_target_pairs={{0,1},{0,2}}")),
              HasSubstr("source 0 appears twice"));
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y), "
                                "source_target_pairs={{0,1},{2,1}}")),
              HasSubstr("target 1 appears twice"));
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y), "
                                "source_target_pairs={{0,1,2}}")),
              HasSubstr("is not a {source,target} pair"));
  EXPECT_THAT(InferError(Module("s32[4] collective-permute(y, s, io, io), "
                                "source_target_pairs={{0,1}}, "
                                "slice_sizes={{1,1}}")),
              HasSubstr("element types must be equal: input f32[4,2], "
                        "output buffer s32[4] "
                        "(operation_semantics.md, CollectivePermute)"));
}

// XLA's combined form: several arrays permuted together give the tuple of
// their shapes (slice_sizes absent, whatever the operand count).
TEST(CollectivePermuteShapeTest, CombinedForm) {
  EXPECT_EQ(*InferText(Module("(f32[4,2], s32[4]) collective-permute(y, s), "
                              "source_target_pairs={{0,1},{1,0}}")),
            "(f32[4,2], s32[4])");
  EXPECT_EQ(*InferText(Module("(f32[4,2], f32[8,4], s32[4], f32[8,2]) "
                              "collective-permute(y, x, s, big), "
                              "source_target_pairs={{0,1}}")),
            "(f32[4,2], f32[8,4], s32[4], f32[8,2])");
  EXPECT_EQ(*InferText(Module("((f32[4,2], s32[4]), (f32[4,2], s32[4]), "
                              "u32[], u32[]) collective-permute-start(y, s), "
                              "source_target_pairs={{0,1}}")),
            "((f32[4,2], s32[4]), (f32[4,2], s32[4]), u32[], u32[])");
  // Each operand must be an array.
  EXPECT_THAT(InferError(Module("(f32[4,2], (s32[], s32[])) "
                                "collective-permute(y, io), "
                                "source_target_pairs={{0,1}}")),
              HasSubstr("CollectivePermute"));
}

// Module(root) with `definitions` (instruction lines) before the ROOT.
std::string ModuleWith(absl::string_view definitions, absl::string_view root) {
  return absl::StrReplaceAll(
      Module(root),
      {{"  ROOT r = ", absl::StrCat(definitions, "  ROOT r = ")}});
}

// XLA's in-place form (slice_sizes): input and output buffers are arrays or
// tuples of arrays (several read/write pairs); the result is the output
// buffer's shape, and -start holds (input, output, u32[], u32[]).
TEST(CollectivePermuteShapeTest, InPlaceTupleForm) {
  const std::string buffers =
      "  in = (f32[8,4], f32[4,2]) tuple(x, y)\n"
      "  out = (f32[8,4], f32[8,2]) tuple(x, big)\n"
      "  start = ((f32[8,4], f32[4,2]), (f32[8,4], f32[8,2]), u32[], u32[]) "
      "collective-permute-start(in, out, io, io), "
      "source_target_pairs={{0,1}}, slice_sizes={{2,4},{1,2}}\n";
  const std::string tuples =
      ModuleWith(buffers,
                 "(f32[8,4], f32[8,2]) collective-permute(in, out, io, io), "
                 "source_target_pairs={{0,1},{1,0}}, "
                 "slice_sizes={{2,4},{1,2}}");
  EXPECT_EQ(*InferText(tuples), "(f32[8,4], f32[8,2])");
  EXPECT_EQ(*InferText(tuples, "start"),
            "((f32[8,4], f32[4,2]), (f32[8,4], f32[8,2]), u32[], u32[])");
  EXPECT_THAT(
      InferError(ModuleWith("  in = (f32[8,4], f32[4,2]) tuple(x, y)\n"
                            "  out = (f32[8,4], s32[4]) tuple(x, s)\n",
                            "(f32[8,4], s32[4]) collective-permute(in, out, "
                            "io, io), source_target_pairs={{0,1}}, "
                            "slice_sizes={{1,1}}")),
      HasSubstr("element types must be equal: input f32[4,2], "
                "output buffer s32[4]"));
  EXPECT_THAT(
      InferError(ModuleWith("  in = (f32[8,4], f32[4,2]) tuple(x, y)\n",
                            "f32[8,4] collective-permute(in, x, io, io), "
                            "source_target_pairs={{0,1}}, "
                            "slice_sizes={{1,1}}")),
      HasSubstr("must be arrays, or tuples of arrays with as many elements"));
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute(y, y), "
                                "source_target_pairs={{0,1}}, "
                                "slice_sizes={{1,1}}")),
              HasSubstr("the in-place form (slice_sizes) takes 4 operands, "
                        "got 2"));
}

TEST(AsyncCollectiveShapeTest, DoneTakesTheResultBuffer) {
  const std::string gather = R"(HloModule m, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}
ENTRY e {
  y = f32[4,2] parameter(0)
  ags = (f32[4,2], f32[8,2]) all-gather-start(y), replica_groups={},
      dimensions={0}
  agd = f32[8,2] all-gather-done(ags)
  ars = f32[4,2] all-reduce-start(y), replica_groups={}, to_apply=add
  ard = f32[4,2] all-reduce-done(ars)
  ROOT t = (f32[8,2], f32[4,2]) tuple(agd, ard)
})";
  EXPECT_EQ(*InferText(gather, "agd"), "f32[8,2]");
  EXPECT_EQ(*InferText(gather, "ard"), "f32[4,2]");
  EXPECT_THAT(InferError(Module("f32[4,2] collective-permute-done(y)")),
              HasSubstr("r: operand is f32[4,2], expected the tuple of a "
                        "-start op"));
  EXPECT_THAT(InferError(Module("f32[8,4] all-reduce-done(x)")),
              HasSubstr("expected all-reduce-start"));
}

TEST(ReplicaIdShapeTest, IsU32Scalar) {
  EXPECT_EQ(*InferText(Module("u32[] replica-id()")), "u32[]");
  EXPECT_EQ(*InferText(Module("u32[] partition-id()")), "u32[]");
}

}  // namespace
}  // namespace kiln
