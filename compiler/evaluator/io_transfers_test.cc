// send/recv between simulated devices (io_transfers.h): the frontend
// attribute _xla_send_recv_source_target_pairs names who sends to whom;
// channel_id pairs a send with its recv. Device d's value is (d + 1) *
// {1, 10}, so each result shows where it came from.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::vector<std::string> RunOn(const std::string& hlo, int64_t replicas,
                               int64_t partitions = 1) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok()) {
    return {absl::StrCat("parse error: ", module.status().message())};
  }
  std::vector<std::vector<Literal>> arguments(replicas * partitions);
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateReplicated(**module, arguments, replicas, partitions);
  if (!results.ok()) {
    return {absl::StrCat("error: ", results.status().message())};
  }
  std::vector<std::string> texts;
  for (const Literal& result : *results) {
    texts.push_back(LiteralToString(result));
  }
  return texts;
}

// x = (id + 1) * {1, 10} where id is the replica id, then `body`.
std::string Module(int replicas, const std::string& body) {
  return absl::StrCat("HloModule m, replica_count=", replicas, R"(

ENTRY e {
  id = u32[] replica-id()
  one = u32[] constant(1)
  idp1 = u32[] add(id, one)
  f = f32[] convert(idp1)
  fb = f32[2] broadcast(f), dimensions={}
  scale = f32[2] constant({1, 10})
  x = f32[2] multiply(fb, scale)
  t0 = token[] after-all()
)",
                      body, "\n}\n");
}

// A send and a recv on channel 1 with `pairs`; the result is the data
// received.
std::string SendRecv(const std::string& pairs) {
  const std::string attribute =
      absl::StrCat("frontend_attributes={_xla_send_recv_source_target_pairs=\"",
                   pairs, "\"}");
  return absl::StrCat(
      "  r = (f32[2], u32[], token[]) recv(t0), channel_id=1, ", attribute,
      "\n  s = (f32[2], u32[], token[]) send(x, t0), channel_id=1, ", attribute,
      "\n  sd = token[] send-done(s), channel_id=1\n"
      "  rd = (f32[2], token[]) recv-done(r), channel_id=1\n"
      "  ROOT data = f32[2] get-tuple-element(rd), index=0");
}

TEST(CrossDeviceTransferTest, ARingShiftsValuesByOne) {
  // 0 -> 1 -> 2 -> 0: device d receives device (d - 1)'s value.
  EXPECT_EQ(RunOn(Module(3, SendRecv("{{0,1},{1,2},{2,0}}")), 3),
            (std::vector<std::string>{"f32[2] {3, 30}", "f32[2] {1, 10}",
                                      "f32[2] {2, 20}"}));
}

TEST(CrossDeviceTransferTest, AnUntargetedDeviceReceivesZeros) {
  EXPECT_EQ(RunOn(Module(2, SendRecv("{{0,1}}")), 2),
            (std::vector<std::string>{"f32[2] {0, 0}", "f32[2] {1, 10}"}));
}

TEST(CrossDeviceTransferTest, PairsNamePartitionsWhenThereAreSeveral) {
  // 1 replica x 2 partitions: the ids are partition ids; every device's x
  // is {1, 10} (replica 0), so partition 0 gets {1, 10} and partition 1,
  // which no pair targets, zeros.
  EXPECT_EQ(RunOn(Module(1, SendRecv("{{1,0}}")), 1, 2),
            (std::vector<std::string>{"f32[2] {1, 10}", "f32[2] {0, 0}"}));
}

TEST(CrossDeviceTransferTest, ARecvNoDeviceServesIsADeadlock) {
  // Device 1 waits for device 0, which sends on channel 2 only: the hub
  // sees device 1 blocked with device 0 finished.
  const std::string hlo = Module(
      2,
      "  r = (f32[2], u32[], token[]) recv(t0), channel_id=1, "
      "frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1}}\"}\n"
      "  s = (f32[2], u32[], token[]) send(x, t0), channel_id=2, "
      "frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1}}\"}\n"
      "  rd = (f32[2], token[]) recv-done(r), channel_id=1\n"
      "  ROOT data = f32[2] get-tuple-element(rd), index=0");
  const std::vector<std::string> result = RunOn(hlo, 2);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(absl::StrContains(result[0], "deadlock")) << result[0];
  EXPECT_TRUE(absl::StrContains(result[0],
                                "device 1 waits in r for a send on channel 1 "
                                "from device 0"))
      << result[0];
}

TEST(CrossDeviceTransferTest, BadPairsAreErrors) {
  std::vector<std::string> result = RunOn(Module(2, SendRecv("{{0,5}}")), 2);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(absl::StrContains(result[0], "names device 5, outside [0, 2)"))
      << result[0];
  result = RunOn(Module(2, SendRecv("{0,1}")), 2);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(absl::StrContains(result[0], "is not of the form {{s,t},...}"))
      << result[0];
}

}  // namespace
}  // namespace kiln
