// One invalid case per constraint the spec states for the collective ops
// (operation_semantics.md: AllGather, AllReduce, AllToAll, RaggedAllToAll,
// CollectiveBroadcast, CollectivePermute, ReduceScatter, ReplicaId,
// PartitionID), each checking that the error names the op's section, plus
// the valid case the constraint is measured against. The table in
// docs/shape_rule_coverage_compute_control.md maps constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "compiler/ops/testing/rule_cases.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::ExpectRuleErrors;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::Rule;
using shape_test::RuleCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// 4 replicas x 2 partitions; ROOT `root` over x = f32[8,4], y = f32[4,2],
// s = s32[4], off = s64[2], big = f32[8,2], t = token.
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m, replica_count=4, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT sum = f32[] add(a, b)
}
add3 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  ROOT sum = f32[] add(a, b)
}
ENTRY e {
  x = f32[8,4] parameter(0)
  y = f32[4,2] parameter(1)
  s = s32[4] parameter(2)
  off = s64[2] parameter(3)
  big = f32[8,2] parameter(4)
  off2 = s64[2,3] parameter(5)
  off3 = s64[2,3,1] parameter(6)
  t = token[] after-all()
  ROOT r = )",
                      root, "\n}\n");
}

TEST(AllGatherConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[8,2] all-gather(y), "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}")),
            "f32[8,2]");
  ExpectRuleErrors({
      {"operand is an array",
       Module("f32[8,2] all-gather(t), replica_groups={}, dimensions={0}"),
       Rule("operand 0 is token[], expected an array", "AllGather")},
      {"all_gather_dimension in range",
       Module("f32[8,2] all-gather(y), replica_groups={}, dimensions={2}"),
       Rule("dimensions {2} has dimension 2 out of range [0, 2)", "AllGather")},
      {"groups: each id once",
       Module("f32[8,2] all-gather(y), replica_groups={{0,1},{1,2}}, "
              "dimensions={0}"),
       Rule("replica group id 1 appears more than once", "AllGather")},
      {"groups: ids are replica ids",
       Module("f32[8,2] all-gather(y), replica_groups={{0,5},{1,2}}, "
              "dimensions={0}"),
       Rule("replica group id 5 is out of range [0, 4)", "AllGather")},
      {"groups: all of one size (shard_count)",
       Module("f32[8,2] all-gather(y), replica_groups={{0,1,2},{3}}, "
              "dimensions={0}"),
       Rule("replica group 1 has 1 ids, expected 3", "AllGather")},
      {"groups: empty or name every replica",
       Module("f32[8,2] all-gather(y), replica_groups={{0,1}}, "
              "dimensions={0}"),
       Rule("replica_groups name 2 ids, expected all 4", "AllGather")},
      {"use_global_device_ids needs a channel_id",
       Module("f32[8,2] all-gather(y), replica_groups={{0,1},{2,3}}, "
              "dimensions={0}, use_global_device_ids=true"),
       Rule("use_global_device_ids=true requires a channel_id", "AllGather")},
      {"use_global_device_ids: groups name global ids",
       Module("f32[8,2] all-gather(y), channel_id=1, "
              "replica_groups={{0,1},{2,3}}, dimensions={0}, "
              "use_global_device_ids=true"),
       Rule("replica_groups name 4 ids, expected all 8", "AllGather")},
  });
}

TEST(AllReduceConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("(f32[8,4], f32[4,2]) all-reduce(x, y), "
                              "replica_groups={}, to_apply=add")),
            "(f32[8,4], f32[4,2])");
  ExpectRuleErrors({
      {"operands are arrays",
       Module("f32[8,4] all-reduce(t), replica_groups={}, to_apply=add"),
       Rule("expected an array", "AllReduce")},
      {"one element type for the reducer",
       Module("(f32[8,4], s32[4]) all-reduce(x, s), replica_groups={}, "
              "to_apply=add"),
       Rule("operand 1 is s32[4] but operand 0 is f32[8,4]; element types must "
            "be equal",
            "AllReduce")},
      {"computation is (T, T) -> T",
       Module("f32[8,4] all-reduce(x), replica_groups={}, to_apply=add3"),
       Rule("to_apply=add3 has signature", "AllReduce")},
      {"groups: empty or name every replica",
       Module("f32[8,4] all-reduce(x), replica_groups={{0,1,2}}, "
              "to_apply=add"),
       Rule("replica_groups name 3 ids, expected all 4", "AllReduce")},
      {"groups: no empty group",
       Module("f32[8,4] all-reduce(x), replica_groups={{0,1,2,3},{}}, "
              "to_apply=add"),
       Rule("replica group 1 is empty", "AllReduce")},
      {"channel_id: cross-replica-and-partition ids are replicas",
       Module("f32[8,4] all-reduce(x), channel_id=1, "
              "replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=add"),
       Rule("replica group id 7 is out of range [0, 4)", "AllReduce")},
      {"use_global_device_ids needs groups",
       Module("f32[8,4] all-reduce(x), channel_id=1, replica_groups={}, "
              "use_global_device_ids=true, to_apply=add"),
       Rule("requires non-empty replica_groups", "AllReduce")},
  });
}

TEST(AllToAllConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[8,4] all-to-all(x), "
                              "replica_groups={{0,1},{2,3}}, dimensions={1}")),
            "f32[8,4]");
  ExpectRuleErrors({
      {"split_count is the size of every group",
       Module("f32[4,2] all-to-all(y), replica_groups={{0,1,2},{3}}, "
              "dimensions={0}"),
       Rule("replica group 1 has 1 ids, expected 3", "AllToAll")},
      {"split dimension size divisible by the group size",
       Module("f32[4,2] all-to-all(y), replica_groups={}, dimensions={1}"),
       Rule("split dimension 1 (size 2) is not divisible by the group "
            "size 4",
            "AllToAll")},
      {"split/concat dimension in [0, n)",
       Module("f32[4,2] all-to-all(y), replica_groups={}, dimensions={2}"),
       Rule("dimensions {2} has dimension 2 out of range [0, 2)", "AllToAll")},
      {"one split dimension",
       Module("f32[4,2] all-to-all(y), replica_groups={}, dimensions={0,1}"),
       Rule("must name exactly one dimension", "AllToAll")},
      {"operand is not a tuple / token",
       Module("f32[4,2] all-to-all(t), replica_groups={}, dimensions={0}"),
       Rule("expected an array", "AllToAll")},
      {"groups: empty or name every replica",
       Module("f32[8,4] all-to-all(x), replica_groups={{0,1}}, "
              "dimensions={0}"),
       Rule("replica_groups name 2 ids, expected all 4", "AllToAll")},
  });
}

TEST(RaggedAllToAllConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[8,2] ragged-all-to-all(y, big, off2, off2, "
                              "off2, off2), replica_groups={{0,1},{2,3}}")),
            "f32[8,2]");
  ExpectRuleErrors({
      {"six operands (the parser's arity check)",
       Module("f32[8,2] ragged-all-to-all(y, big, off, off, off), "
              "replica_groups={}"),
       Rule("ragged-all-to-all takes 6 operands but has 5", "")},
      {"input and output of one type T",
       Module("f32[8,2] ragged-all-to-all(s, big, off, off, off, off), "
              "replica_groups={}"),
       Rule("must be arrays of one type and rank >= 1", "RaggedAllToAll")},
      {"offsets and sizes have the same shape",
       Module("f32[8,2] ragged-all-to-all(y, big, off, off2, off, off), "
              "replica_groups={}"),
       Rule("operand 3 is s64[2,3], expected s32 or s64 offsets/sizes "
            "shaped like input_offsets s64[2]",
            "RaggedAllToAll")},
      {"offsets are [num_devices] or [num_devices, num_updates]",
       Module("f32[8,2] ragged-all-to-all(y, big, off3, off3, off3, off3), "
              "replica_groups={}"),
       Rule("offsets and sizes are s64[2,3,1], expected rank 1 "
            "([num_devices]) or 2 ([num_devices, num_updates])",
            "RaggedAllToAll")},
      {"groups: ids in range",
       Module("f32[8,2] ragged-all-to-all(y, big, off, off, off, off), "
              "replica_groups={{0,9}}"),
       Rule("replica group id 9 is out of range", "RaggedAllToAll")},
  });
}

TEST(CollectiveBroadcastConstraintsTest, EachConstraint) {
  // The spec allows replicas outside every group (their output is zeros).
  EXPECT_EQ(*InferText(Module("f32[4,2] collective-broadcast(y), "
                              "replica_groups={{0,1}}")),
            "f32[4,2]");
  ExpectRuleErrors({
      {"groups: ids in range",
       Module("f32[4,2] collective-broadcast(y), replica_groups={{0,4}}"),
       Rule("replica group id 4 is out of range [0, 4)",
            "CollectiveBroadcast")},
      {"groups: each id once",
       Module("f32[4,2] collective-broadcast(y), replica_groups={{0,1},{1}}"),
       Rule("replica group id 1 appears more than once",
            "CollectiveBroadcast")},
  });
}

TEST(CollectivePermuteConstraintsTest, EachConstraint) {
  // A replica that is no target gets zeros: pairs may leave ids out.
  EXPECT_EQ(*InferText(Module("f32[4,2] collective-permute(y), "
                              "source_target_pairs={{0,1}}")),
            "f32[4,2]");
  ExpectRuleErrors({
      {"no two pairs with one source",
       Module("f32[4,2] collective-permute(y), "
              "source_target_pairs={{0,1},{0,2}}"),
       Rule("source 0 appears twice in source_target_pairs",
            "CollectivePermute")},
      {"no two pairs with one target",
       Module("f32[4,2] collective-permute(y), "
              "source_target_pairs={{0,1},{2,1}}"),
       Rule("target 1 appears twice in source_target_pairs",
            "CollectivePermute")},
      {"ids are replica ids",
       Module("f32[4,2] collective-permute(y), "
              "source_target_pairs={{0,4}}"),
       Rule("source_target_pairs id 4 is out of range [0, 4)",
            "CollectivePermute")},
      {"pairs are pairs",
       Module("f32[4,2] collective-permute(y), source_target_pairs={{0}}"),
       Rule("is not a {source,target} pair", "CollectivePermute")},
  });
}

TEST(ReduceScatterConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[4,4] reduce-scatter(x), "
                              "replica_groups={{0,1},{2,3}}, dimensions={0}, "
                              "to_apply=add")),
            "f32[4,4]");
  ExpectRuleErrors({
      {"scatter_dimension in range",
       Module("f32[4,4] reduce-scatter(x), replica_groups={}, "
              "dimensions={2}, to_apply=add"),
       Rule("dimensions {2} has dimension 2 out of range [0, 2)",
            "ReduceScatter")},
      {"dimension divisible by shard_count",
       Module("f32[4,4] reduce-scatter(y), replica_groups={}, "
              "dimensions={1}, to_apply=add"),
       Rule("operand 0 dimension 1 (size 2) is not divisible by the group "
            "size 4",
            "ReduceScatter")},
      {"groups: all of the same size",
       Module("f32[4,4] reduce-scatter(x), replica_groups={{0,1,2},{3}}, "
              "dimensions={0}, to_apply=add"),
       Rule("replica group 1 has 1 ids, expected 3", "ReduceScatter")},
      {"groups: empty or name every replica",
       Module("f32[4,4] reduce-scatter(x), replica_groups={{0,1}}, "
              "dimensions={0}, to_apply=add"),
       Rule("replica_groups name 2 ids, expected all 4", "ReduceScatter")},
      {"computation is (T, T) -> T",
       Module("f32[4,4] reduce-scatter(x), replica_groups={}, "
              "dimensions={0}, to_apply=add3"),
       Rule("to_apply=add3 has signature", "ReduceScatter")},
  });
}

TEST(ReplicaIdConstraintsTest, U32ScalarWithoutOperands) {
  EXPECT_EQ(*InferText(Module("u32[] replica-id()")), "u32[]");
  EXPECT_EQ(*InferText(Module("u32[] partition-id()")), "u32[]");
}

}  // namespace
}  // namespace kiln
