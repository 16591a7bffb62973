// The hub's rendezvous, its deadlock detection and timeout, and error
// propagation between simulated devices (directly and through
// EvaluateReplicated).
#include "compiler/evaluator/collective_hub.h"

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace eval {
namespace {

// Two instructions to rendezvous on (the hub only uses their identity and
// name).
struct TwoInstructions {
  std::unique_ptr<Module> module;
  const Instruction* a = nullptr;
  const Instruction* b = nullptr;
};

TwoInstructions MakeInstructions() {
  TwoInstructions result;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(HloModule m

ENTRY e {
  a = f32[] constant(1)
  ROOT b = f32[] constant(2)
}
)");
  EXPECT_TRUE(module.ok()) << module.status();
  result.module = *std::move(module);
  for (const Instruction* instruction :
       result.module->entry()->instructions()) {
    (instruction->name() == "a" ? result.a : result.b) = instruction;
  }
  return result;
}

TEST(CollectiveHubTest, ExchangeReturnsContributionsInGroupOrder) {
  TwoInstructions ops = MakeInstructions();
  CollectiveHub hub(3, 1);
  std::vector<absl::StatusOr<CollectiveHub::Contributions>> results(3);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < 3; ++d) {
    threads.emplace_back([&, d] {
      // Twice, to check that occurrences are matched in order.
      for (int round = 0; round < 2; ++round) {
        results[d] = hub.Exchange(*ops.a, d, {2, 0, 1},
                                  Literal::ScalarS32(10 * round + d));
      }
      hub.DeviceFinished(d);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int64_t d = 0; d < 3; ++d) {
    ASSERT_TRUE(results[d].ok()) << results[d].status();
    const std::vector<Literal>& values = **results[d];
    ASSERT_EQ(values.size(), 3u);
    EXPECT_EQ(values[0], Literal::ScalarS32(12));
    EXPECT_EQ(values[1], Literal::ScalarS32(10));
    EXPECT_EQ(values[2], Literal::ScalarS32(11));
  }
  EXPECT_TRUE(hub.first_error().ok());
}

TEST(CollectiveHubTest, DevicesInDifferentCollectivesDeadlockFast) {
  TwoInstructions ops = MakeInstructions();
  CollectiveHub hub(2, 1, absl::Seconds(600));
  std::vector<absl::Status> statuses(2);
  const auto start = std::chrono::steady_clock::now();
  std::thread t0([&] {
    statuses[0] =
        hub.Exchange(*ops.a, 0, {0, 1}, Literal::ScalarS32(0)).status();
    hub.DeviceFinished(0);
  });
  std::thread t1([&] {
    statuses[1] =
        hub.Exchange(*ops.b, 1, {0, 1}, Literal::ScalarS32(1)).status();
    hub.DeviceFinished(1);
  });
  t0.join();
  t1.join();
  // Detected, not timed out.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  for (const absl::Status& status : statuses) {
    EXPECT_EQ(status.code(), absl::StatusCode::kAborted);
    EXPECT_NE(status.message().find("collective deadlock"), std::string::npos)
        << status;
  }
  const std::string message(hub.first_error().message());
  EXPECT_NE(
      message.find("device(s) 0 wait in a (occurrence 0) for device(s) 1"),
      std::string::npos)
      << message;
  EXPECT_NE(
      message.find("device(s) 1 wait in b (occurrence 0) for device(s) 0"),
      std::string::npos)
      << message;
}

TEST(CollectiveHubTest, WaitingForAFinishedDeviceIsADeadlock) {
  TwoInstructions ops = MakeInstructions();
  CollectiveHub hub(2, 1, absl::Seconds(600));
  hub.DeviceFinished(1);
  absl::Status status =
      hub.Exchange(*ops.a, 0, {0, 1}, Literal::ScalarS32(0)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kAborted);
  EXPECT_NE(status.message().find("device(s) 1 have finished"),
            std::string::npos)
      << status;
}

TEST(CollectiveHubTest, TimeoutWhenADeviceNeverArrives) {
  // Device 1 is neither waiting nor finished (busy forever, say): only the
  // timeout can end the wait.
  TwoInstructions ops = MakeInstructions();
  CollectiveHub hub(2, 1, absl::Milliseconds(200));
  absl::Status status =
      hub.Exchange(*ops.a, 0, {0, 1}, Literal::ScalarS32(0)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_NE(status.message().find("timed out"), std::string::npos) << status;
}

TEST(CollectiveHubTest, AbortWakesWaitersWithTheFirstError) {
  TwoInstructions ops = MakeInstructions();
  CollectiveHub hub(2, 1, absl::Seconds(600));
  absl::Status waiter;
  std::thread t0([&] {
    waiter = hub.Exchange(*ops.a, 0, {0, 1}, Literal::ScalarS32(0)).status();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  hub.Abort(absl::InvalidArgumentError("device 1 broke"));
  hub.Abort(absl::InvalidArgumentError("later error"));
  t0.join();
  EXPECT_EQ(waiter, absl::InvalidArgumentError("device 1 broke"));
  EXPECT_EQ(hub.first_error(), absl::InvalidArgumentError("device 1 broke"));
}

absl::StatusOr<std::vector<Literal>> RunReplicated(absl::string_view hlo,
                                                   int64_t replicas) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok()) return module.status();
  std::vector<std::vector<Literal>> arguments(replicas);
  return EvaluateReplicated(**module, arguments, replicas, 1);
}

TEST(EvaluateReplicatedTest, DevicesThatDisagreeFailInsteadOfHanging) {
  // Replica 0 takes branch "left" (an all-reduce), replica 1 branch
  // "right" (another all-reduce): neither can ever complete.
  const char hlo[] = R"(HloModule m, replica_count=2

sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}

left {
  x = f32[] parameter(0)
  ROOT l = f32[] all-reduce(x), replica_groups={}, to_apply=sum
}

right {
  y = f32[] parameter(0)
  ROOT r = f32[] all-reduce(y), replica_groups={}, to_apply=sum
}

ENTRY e {
  id = u32[] replica-id()
  zero = u32[] constant(0)
  first = pred[] compare(id, zero), direction=EQ
  v = f32[] constant(1)
  ROOT c = f32[] conditional(first, v, v), true_computation=left, false_computation=right
}
)";
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<Literal>> result = RunReplicated(hlo, 2);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("collective deadlock"),
            std::string::npos)
      << result.status();
}

TEST(EvaluateReplicatedTest, AFailingDeviceFailsTheOthers) {
  // Replica 1 reads an infeed that is empty and fails; replica 0 waits in
  // the all-reduce for it and must not hang.
  const char hlo[] = R"(HloModule m, replica_count=2

sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}

feed {
  t = token[] parameter(0)
  in = (f32[], token[]) infeed(t)
  ROOT d = f32[] get-tuple-element(in), index=0
}

constant_one {
  t = token[] parameter(0)
  ROOT one = f32[] constant(1)
}

ENTRY e {
  id = u32[] replica-id()
  zero = u32[] constant(0)
  first = pred[] compare(id, zero), direction=EQ
  tok = token[] after-all()
  v = f32[] conditional(first, tok, tok), true_computation=constant_one, false_computation=feed
  ROOT s = f32[] all-reduce(v), replica_groups={}, to_apply=sum
}
)";
  absl::StatusOr<std::vector<Literal>> result = RunReplicated(hlo, 2);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(
      result.status().message().find("device 1 (replica 1, partition 0): "),
      std::string::npos)
      << result.status();
  EXPECT_NE(result.status().message().find("the infeed queue is empty"),
            std::string::npos)
      << result.status();
}

TEST(EvaluateReplicatedTest, ChecksItsArguments) {
  const char hlo[] =
      "HloModule m\n\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n";
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  ASSERT_TRUE(module.ok());
  std::vector<std::vector<Literal>> one(1);
  EXPECT_EQ(EvaluateReplicated(**module, one, 2, 1).status().message(),
            "EvaluateReplicated: 1 argument list(s) for 2 device(s)");
  EXPECT_FALSE(EvaluateReplicated(**module, one, 0, 1).ok());
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateReplicated(**module, one, 1, 1);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(results->size(), 1u);
}

TEST(EvaluateReplicatedTest, RngStateIsPerDeviceAndSeededAlike) {
  const char hlo[] = R"(HloModule m, replica_count=2

ENTRY e {
  a = u64[2] rng-get-and-update-state(), delta=3
  ROOT b = u64[2] rng-get-and-update-state(), delta=3
}
)";
  absl::StatusOr<std::vector<Literal>> result = RunReplicated(hlo, 2);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), 2u);
  EXPECT_EQ((*result)[0].GetBits(0), 3u);
  EXPECT_EQ((*result)[1].GetBits(0), 3u);
}

}  // namespace
}  // namespace eval
}  // namespace kiln
