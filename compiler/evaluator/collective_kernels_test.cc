// The collectives on simulated devices (EvaluateReplicated): exact values
// per device, computed by hand from replica-dependent inputs, for every
// op, replica-group subsets and the group modes of channel_id /
// use_global_device_ids; and on one device (plain Evaluate).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::LiteralText;
using eval_test::RunToText;

// Runs `hlo` on replicas x partitions devices; `arguments[d]` are device
// d's argument texts (empty: no arguments). Returns each device's result
// as text, or {"error: ..."}.
std::vector<std::string> RunOn(
    absl::string_view hlo, int64_t replicas, int64_t partitions,
    const std::vector<std::vector<std::string>>& arguments = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok())
    return {absl::StrCat("parse error: ", module.status().message())};
  std::vector<std::vector<Literal>> values(replicas * partitions);
  for (size_t d = 0; d < arguments.size(); ++d) {
    for (const std::string& text : arguments[d]) {
      absl::StatusOr<Literal> value = ParseLiteral(text);
      if (!value.ok()) return {absl::StrCat("bad argument ", text)};
      values[d].push_back(*std::move(value));
    }
  }
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateReplicated(**module, values, replicas, partitions);
  if (!results.ok())
    return {absl::StrCat("error: ", results.status().message())};
  std::vector<std::string> texts;
  for (const Literal& result : *results) texts.push_back(LiteralText(result));
  return texts;
}

using Texts = std::vector<std::string>;

// Each device's value: x = (replica-id + 1) * {1, 10} (f32[2]).
std::string ReplicaValue(const std::string& header, const std::string& body,
                         const std::string& prelude = "") {
  return absl::StrCat(header, "\n\n", prelude, R"(
ENTRY e {
  id = u32[] replica-id()
  one = u32[] constant(1)
  idp1 = u32[] add(id, one)
  f = f32[] convert(idp1)
  fb = f32[2] broadcast(f), dimensions={}
  scale = f32[2] constant({1, 10})
  x = f32[2] multiply(fb, scale)
)",
                      body, "\n}\n");
}

const char kSum[] = R"(sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
})";

// A combiner that is not a single add, so the per-element call path runs.
const char kSumMinusZero[] = R"(sum2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] add(a, b)
  z = f32[] constant(0)
  ROOT d = f32[] subtract(c, z)
})";

TEST(AllReduceTest, SumsOverAllReplicas) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=4",
      "  ROOT r = f32[2] all-reduce(x), replica_groups={}, to_apply=sum", kSum);
  EXPECT_EQ(RunOn(hlo, 4, 1), Texts(4, "f32[2] {10, 100}"));
}

TEST(AllReduceTest, GeneralCombinerAndTupleOperands) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=3",
      "  y = f32[2] add(x, x)\n"
      "  ROOT r = (f32[2], f32[2]) all-reduce(x, y), replica_groups={}, "
      "to_apply=sum2",
      kSumMinusZero);
  EXPECT_EQ(RunOn(hlo, 3, 1),
            Texts(3, "(f32[2], f32[2]) ( {6, 60}, {12, 120} )"));
}

TEST(AllReduceTest, ReplicaGroupSubsets) {
  // {0,2}: 1+3 = 4; {1,3}: 2+4 = 6. Iota form [2,2]<=[2,2]T(1,0) is the
  // same groups.
  for (const char* groups : {"{{0,2},{1,3}}", "[2,2]<=[2,2]T(1,0)"}) {
    const std::string hlo = ReplicaValue(
        "HloModule m, replica_count=4",
        absl::StrCat("  ROOT r = f32[2] all-reduce(x), replica_groups=", groups,
                     ", to_apply=sum"),
        kSum);
    EXPECT_EQ(RunOn(hlo, 4, 1), (Texts{"f32[2] {4, 40}", "f32[2] {6, 60}",
                                       "f32[2] {4, 40}", "f32[2] {6, 60}"}))
        << groups;
  }
}

// Device value from replica and partition: v = 10 * replica + partition.
std::string DeviceValue(const std::string& header, const std::string& body) {
  return absl::StrCat(header, "\n\n", kSum, R"(

ENTRY e {
  r = u32[] replica-id()
  p = u32[] partition-id()
  ten = u32[] constant(10)
  r10 = u32[] multiply(r, ten)
  v = u32[] add(r10, p)
  x = f32[] convert(v)
)",
                      body, "\n}\n");
}

TEST(AllReduceTest, GroupModesOfChannelIdAndGlobalIds) {
  // 2 replicas x 2 partitions; values 0, 1, 10, 11 on devices 0..3.
  const std::string header = "HloModule m, replica_count=2, num_partitions=2";
  // No channel_id: replicas of the same partition: 0+10, 1+11.
  EXPECT_EQ(RunOn(DeviceValue(header,
                              "  ROOT s = f32[] all-reduce(x), "
                              "replica_groups={}, to_apply=sum"),
                  2, 2),
            (Texts{"f32[] 10", "f32[] 12", "f32[] 10", "f32[] 12"}));
  // channel_id, use_global_device_ids=false: groups name replicas and
  // bring all their partitions: {0,1} -> every device: 22.
  EXPECT_EQ(RunOn(DeviceValue(header,
                              "  ROOT s = f32[] all-reduce(x), channel_id=1, "
                              "replica_groups={{0,1}}, to_apply=sum"),
                  2, 2),
            Texts(4, "f32[] 22"));
  // channel_id, use_global_device_ids=true: device ids {0,3} and {1,2}.
  EXPECT_EQ(RunOn(DeviceValue(header,
                              "  ROOT s = f32[] all-reduce(x), channel_id=1, "
                              "replica_groups={{0,3},{1,2}}, "
                              "use_global_device_ids=true, to_apply=sum"),
                  2, 2),
            (Texts{"f32[] 11", "f32[] 11", "f32[] 11", "f32[] 11"}));
  EXPECT_EQ(RunOn(DeviceValue(header,
                              "  ROOT s = f32[] all-reduce(x), channel_id=1, "
                              "replica_groups={{0,1},{2,3}}, "
                              "use_global_device_ids=true, to_apply=sum"),
                  2, 2),
            (Texts{"f32[] 1", "f32[] 1", "f32[] 21", "f32[] 21"}));
}

TEST(AllReduceTest, StartDoneAndSingleDevice) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=2",
      "  s = f32[2] all-reduce-start(x), replica_groups={}, to_apply=sum\n"
      "  ROOT d = f32[2] all-reduce-done(s)",
      kSum);
  EXPECT_EQ(RunOn(hlo, 2, 1), Texts(2, "f32[2] {3, 30}"));
  // Plain Evaluate: one device, a group of one: the identity.
  EXPECT_EQ(RunToText(ReplicaValue("HloModule m",
                                   "  ROOT r = f32[2] all-reduce(x), "
                                   "replica_groups={}, to_apply=sum",
                                   kSum)),
            "f32[2] {1, 10}");
}

TEST(AllGatherTest, ConcatenatesInGroupOrder) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=3",
      "  ROOT r = f32[6] all-gather(x), replica_groups={}, dimensions={0}");
  EXPECT_EQ(RunOn(hlo, 3, 1), Texts(3, "f32[6] {1, 10, 2, 20, 3, 30}"));
  // Group order decides the order: {1,0} puts replica 1 first.
  const std::string reordered =
      ReplicaValue("HloModule m, replica_count=2",
                   "  y = f32[1,2] reshape(x)\n"
                   "  ROOT r = f32[2,2] all-gather(y), replica_groups={{1,0}}, "
                   "dimensions={0}");
  EXPECT_EQ(RunOn(reordered, 2, 1),
            Texts(2, "f32[2,2] { { 2, 20 }, { 1, 10 } }"));
  // Along a minor dimension.
  const std::string minor =
      ReplicaValue("HloModule m, replica_count=2",
                   "  y = f32[2,1] reshape(x)\n"
                   "  ROOT r = f32[2,2] all-gather(y), replica_groups={}, "
                   "dimensions={1}");
  EXPECT_EQ(RunOn(minor, 2, 1), Texts(2, "f32[2,2] { { 1, 2 }, { 10, 20 } }"));
}

TEST(AllGatherTest, StartDoneForm) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=2",
      "  s = (f32[2], f32[4]) all-gather-start(x), replica_groups={}, "
      "dimensions={0}\n"
      "  ROOT d = f32[4] all-gather-done(s)");
  EXPECT_EQ(RunOn(hlo, 2, 1), Texts(2, "f32[4] {1, 10, 2, 20}"));
}

TEST(ReduceScatterTest, EachMemberGetsItsBlockOfTheSum) {
  // Sum over 2 replicas of (r+1)*{1,10}: {3, 30}; replica k gets block k.
  const std::string hlo =
      ReplicaValue("HloModule m, replica_count=2",
                   "  ROOT r = f32[1] reduce-scatter(x), replica_groups={}, "
                   "dimensions={0}, to_apply=sum",
                   kSum);
  EXPECT_EQ(RunOn(hlo, 2, 1), (Texts{"f32[1] {3}", "f32[1] {30}"}));
}

TEST(AllToAllTest, ArrayFormExchangesBlocks) {
  // Device r holds {4r, 4r+1, 4r+2, 4r+3}; with 2 devices, block k (2
  // elements) goes to device k.
  const char hlo[] = R"(HloModule m, replica_count=2

ENTRY e {
  id = u32[] replica-id()
  four = u32[] constant(4)
  base = u32[] multiply(id, four)
  b = u32[4] broadcast(base), dimensions={}
  i = u32[4] iota(), iota_dimension=0
  x = u32[4] add(b, i)
  ROOT r = u32[4] all-to-all(x), replica_groups={}, dimensions={0}
}
)";
  EXPECT_EQ(RunOn(hlo, 2, 1),
            (Texts{"u32[4] {0, 1, 4, 5}", "u32[4] {2, 3, 6, 7}"}));
}

TEST(AllToAllTest, TupleFormSendsOperandKToMemberK) {
  const char hlo[] = R"(HloModule m, replica_count=2

ENTRY e {
  id = u32[] replica-id()
  ten = u32[] constant(10)
  a = u32[] multiply(id, ten)
  one = u32[] constant(1)
  b = u32[] add(a, one)
  ROOT r = (u32[], u32[]) all-to-all(a, b), replica_groups={{0,1}}
}
)";
  // Device 0 sends a=0 to 0, b=1 to 1; device 1 sends a=10 to 0, b=11 to 1.
  EXPECT_EQ(RunOn(hlo, 2, 1),
            (Texts{"(u32[], u32[]) ( 0, 10 )", "(u32[], u32[]) ( 1, 11 )"}));
}

TEST(CollectivePermuteTest, SourcesToTargetsAndZerosElsewhere) {
  const std::string hlo =
      ReplicaValue("HloModule m, replica_count=3",
                   "  ROOT r = f32[2] collective-permute(x), "
                   "source_target_pairs={{0,1},{1,0}}");
  EXPECT_EQ(RunOn(hlo, 3, 1),
            (Texts{"f32[2] {2, 20}", "f32[2] {1, 10}", "f32[2] {0, 0}"}));
}

TEST(CollectivePermuteTest, ChannelIdPermutesPartitions) {
  const std::string hlo =
      DeviceValue("HloModule m, replica_count=2, num_partitions=2",
                  "  ROOT s = f32[] collective-permute(x), channel_id=1, "
                  "source_target_pairs={{0,1},{1,0}}");
  // Partitions swap within each replica: 0,1,10,11 -> 1,0,11,10.
  EXPECT_EQ(RunOn(hlo, 2, 2),
            (Texts{"f32[] 1", "f32[] 0", "f32[] 11", "f32[] 10"}));
}

TEST(CollectivePermuteTest, StartDoneForm) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=2",
      "  s = (f32[2], f32[2], u32[], u32[]) collective-permute-start(x), "
      "source_target_pairs={{0,1},{1,0}}\n"
      "  ROOT d = f32[2] collective-permute-done(s)");
  EXPECT_EQ(RunOn(hlo, 2, 1), (Texts{"f32[2] {2, 20}", "f32[2] {1, 10}"}));
}

// A device no pair targets gets zeros of the start's result element, not of
// the whole (input, output, u32[], u32[]) tuple.
TEST(CollectivePermuteTest, StartDoneFormUntargetedDeviceGetsZeros) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=3",
      "  s = (f32[2], f32[2], u32[], u32[]) collective-permute-start(x), "
      "source_target_pairs={{0,1}}\n"
      "  ROOT d = f32[2] collective-permute-done(s)");
  EXPECT_EQ(RunOn(hlo, 3, 1),
            (Texts{"f32[2] {0, 0}", "f32[2] {1, 10}", "f32[2] {0, 0}"}));
  // The start's own value keeps the input in element 0.
  const std::string start = ReplicaValue(
      "HloModule m, replica_count=2",
      "  ROOT s = (f32[2], f32[2], u32[], u32[]) collective-permute-start(x), "
      "source_target_pairs={{1,0}}");
  EXPECT_EQ(
      RunOn(start, 2, 1),
      (Texts{"(f32[2], f32[2], u32[], u32[]) ( {1, 10}, {2, 20}, 0, 0 )",
             "(f32[2], f32[2], u32[], u32[]) ( {2, 20}, {0, 0}, 0, 0 )"}));
}

// XLA's combined form: several arrays permuted together, one tuple result;
// an untargeted device gets zeros in every element.
TEST(CollectivePermuteTest, CombinedFormPermutesEachOperand) {
  const std::string hlo =
      ReplicaValue("HloModule m, replica_count=3",
                   "  n = f32[] negate(f)\n"
                   "  ROOT r = (f32[2], f32[]) collective-permute(x, n), "
                   "source_target_pairs={{0,1},{1,0}}");
  EXPECT_EQ(RunOn(hlo, 3, 1), (Texts{"(f32[2], f32[]) ( {2, 20}, -2 )",
                                     "(f32[2], f32[]) ( {1, 10}, -1 )",
                                     "(f32[2], f32[]) ( {0, 0}, 0 )"}));
  const std::string start = ReplicaValue(
      "HloModule m, replica_count=2",
      "  n = f32[] negate(f)\n"
      "  s = ((f32[2], f32[]), (f32[2], f32[]), u32[], u32[]) "
      "collective-permute-start(x, n), source_target_pairs={{0,1}}\n"
      "  ROOT d = (f32[2], f32[]) collective-permute-done(s)");
  EXPECT_EQ(RunOn(start, 2, 1), (Texts{"(f32[2], f32[]) ( {0, 0}, 0 )",
                                       "(f32[2], f32[]) ( {1, 10}, -1 )"}));
}

TEST(CollectiveBroadcastTest, FirstMemberIsTheSourceOutsidersGetZeros) {
  const std::string hlo = ReplicaValue(
      "HloModule m, replica_count=4",
      "  ROOT r = f32[2] collective-broadcast(x), replica_groups={{2,0}}");
  EXPECT_EQ(RunOn(hlo, 4, 1), (Texts{"f32[2] {3, 30}", "f32[2] {0, 0}",
                                     "f32[2] {3, 30}", "f32[2] {0, 0}"}));
}

TEST(RaggedAllToAllTest, SpecExample) {
  // operation_semantics.md, RaggedAllToAll: results [1, 3, 0, 0] and
  // [2, 2, 4, 0].
  const char hlo[] = R"(HloModule m, replica_count=2

ENTRY e {
  input = f32[3] parameter(0)
  output = f32[4] parameter(1)
  input_offsets = s32[2] parameter(2)
  send_sizes = s32[2] parameter(3)
  output_offsets = s32[2] parameter(4)
  recv_sizes = s32[2] parameter(5)
  ROOT r = f32[4] ragged-all-to-all(input, output, input_offsets, send_sizes, output_offsets, recv_sizes), replica_groups={{0,1}}
}
)";
  EXPECT_EQ(RunOn(hlo, 2, 1,
                  {{"f32[3] {1, 2, 2}", "f32[4] {0, 0, 0, 0}", "s32[2] {0, 1}",
                    "s32[2] {1, 2}", "s32[2] {0, 0}", "s32[2] {1, 1}"},
                   {"f32[3] {3, 4, 0}", "f32[4] {0, 0, 0, 0}", "s32[2] {0, 1}",
                    "s32[2] {1, 1}", "s32[2] {1, 2}", "s32[2] {2, 1}"}}),
            (Texts{"f32[4] {1, 3, 0, 0}", "f32[4] {2, 2, 4, 0}"}));
}

TEST(RaggedAllToAllTest, OutOfBoundsUpdateIsAnError) {
  const char hlo[] = R"(HloModule m, replica_count=2

ENTRY e {
  input = f32[3] parameter(0)
  output = f32[4] parameter(1)
  input_offsets = s32[2] parameter(2)
  send_sizes = s32[2] parameter(3)
  output_offsets = s32[2] parameter(4)
  recv_sizes = s32[2] parameter(5)
  ROOT r = f32[4] ragged-all-to-all(input, output, input_offsets, send_sizes, output_offsets, recv_sizes), replica_groups={{0,1}}
}
)";
  const Texts result =
      RunOn(hlo, 2, 1,
            {{"f32[3] {1, 2, 2}", "f32[4] {0, 0, 0, 0}", "s32[2] {0, 1}",
              "s32[2] {1, 2}", "s32[2] {0, 3}", "s32[2] {1, 2}"},
             {"f32[3] {3, 4, 0}", "f32[4] {0, 0, 0, 0}", "s32[2] {0, 1}",
              "s32[2] {1, 1}", "s32[2] {1, 2}", "s32[2] {2, 1}"}});
  ASSERT_EQ(result.size(), 1u);
  EXPECT_NE(result[0].find("device 0 sends rows [1, +2) of 3 to rows [3, +2) "
                           "of 4: out of bounds"),
            std::string::npos)
      << result[0];
}

TEST(IdTest, ReplicaAndPartitionIds) {
  const char hlo[] = R"(HloModule m, replica_count=2, num_partitions=3

ENTRY e {
  r = u32[] replica-id()
  p = u32[] partition-id()
  ROOT t = (u32[], u32[]) tuple(r, p)
}
)";
  EXPECT_EQ(RunOn(hlo, 2, 3),
            (Texts{"(u32[], u32[]) ( 0, 0 )", "(u32[], u32[]) ( 0, 1 )",
                   "(u32[], u32[]) ( 0, 2 )", "(u32[], u32[]) ( 1, 0 )",
                   "(u32[], u32[]) ( 1, 1 )", "(u32[], u32[]) ( 1, 2 )"}));
  EXPECT_EQ(RunToText(hlo), "(u32[], u32[]) ( 0, 0 )");
}

TEST(SingleDeviceTest, CollectivesActOverAGroupOfOne) {
  EXPECT_EQ(RunToText(ReplicaValue("HloModule m",
                                   "  ROOT r = f32[2] all-gather(x), "
                                   "replica_groups={}, dimensions={0}")),
            "f32[2] {1, 10}");
  EXPECT_EQ(RunToText(ReplicaValue("HloModule m",
                                   "  ROOT r = f32[2] collective-permute(x), "
                                   "source_target_pairs={{0,0}}")),
            "f32[2] {1, 10}");
  EXPECT_EQ(RunToText(ReplicaValue("HloModule m",
                                   "  ROOT r = f32[2] all-to-all(x), "
                                   "replica_groups={}, dimensions={0}")),
            "f32[2] {1, 10}");
  EXPECT_EQ(RunToText(ReplicaValue("HloModule m",
                                   "  ROOT r = f32[2] collective-broadcast(x), "
                                   "replica_groups={{0}}")),
            "f32[2] {1, 10}");
}

TEST(AllReduceTest, InsideAWhileLoopEachIterationMeetsItsPeers) {
  // Each iteration all-reduces the running value over 2 replicas, so it
  // doubles (after adding the replica's own first value): replica r starts
  // at r+1; iteration 1: 1+2 = 3 on both; 2: 6; 3: 12.
  const char hlo[] = R"(HloModule m, replica_count=2

sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}

cond {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}

body {
  s = (s32[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  total = f32[] all-reduce(v), replica_groups={}, to_apply=sum
  ROOT t = (s32[], f32[]) tuple(next, total)
}

ENTRY e {
  id = u32[] replica-id()
  one = u32[] constant(1)
  idp1 = u32[] add(id, one)
  f = f32[] convert(idp1)
  zero = s32[] constant(0)
  init = (s32[], f32[]) tuple(zero, f)
  loop = (s32[], f32[]) while(init), condition=cond, body=body
  ROOT out = f32[] get-tuple-element(loop), index=1
}
)";
  EXPECT_EQ(RunOn(hlo, 2, 1), Texts(2, "f32[] 12"));
}

TEST(AllToAllTest, CrossPartitionWithChannelId) {
  // 1 replica x 2 partitions, channel_id: the group is the partitions.
  const char hlo[] = R"(HloModule m, num_partitions=2

ENTRY e {
  p = u32[] partition-id()
  ten = u32[] constant(10)
  base = u32[] multiply(p, ten)
  b = u32[2] broadcast(base), dimensions={}
  i = u32[2] iota(), iota_dimension=0
  x = u32[2] add(b, i)
  ROOT r = u32[2] all-to-all(x), channel_id=1, replica_groups={{0,1}}, dimensions={0}
}
)";
  EXPECT_EQ(RunOn(hlo, 1, 2), (Texts{"u32[2] {0, 10}", "u32[2] {1, 11}"}));
}

TEST(SingleDeviceTest, ModulesForSeveralDevicesNeedEvaluateReplicated) {
  const std::string text = RunToText(ReplicaValue(
      "HloModule m, replica_count=2",
      "  ROOT r = f32[4] all-gather(x), replica_groups={}, dimensions={0}"));
  EXPECT_NE(text.find("r: a group of 1 device(s) gives f32[2], not the "
                      "declared f32[4] (plain Evaluate simulates one device; "
                      "run modules for several with EvaluateReplicated)"),
            std::string::npos)
      << text;
}

TEST(GroupErrorsTest, DeviceInNoGroupAndIdsOutOfRange) {
  // Replicas 2 and 3 are in no group of this all-reduce (the module does
  // not say how many replicas it is for, so its rule accepts the groups).
  const Texts none = RunOn(ReplicaValue("HloModule m",
                                        "  ROOT r = f32[2] all-reduce(x), "
                                        "replica_groups={{0,1}}, to_apply=sum",
                                        kSum),
                           4, 1);
  ASSERT_EQ(none.size(), 1u);
  EXPECT_NE(none[0].find("is in no replica group"), std::string::npos)
      << none[0];
  // The module does not say how many replicas it is for; run on 2, its
  // groups name 4.
  const Texts range = RunOn(ReplicaValue("HloModule m",
                                         "  ROOT r = f32[2] all-reduce(x), "
                                         "replica_groups={{0,1,2,3}}, "
                                         "to_apply=sum",
                                         kSum),
                            2, 1);
  ASSERT_EQ(range.size(), 1u);
  EXPECT_NE(range[0].find("replica group id 2 is out of range [0, 2) for 2 "
                          "replica(s) x 1 partition(s)"),
            std::string::npos)
      << range[0];
}

}  // namespace
}  // namespace kiln
