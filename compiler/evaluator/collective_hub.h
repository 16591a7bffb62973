// The rendezvous of the simulated devices of EvaluateReplicated: each
// device runs on its own thread with its own EvalContext, and every
// collective hands its contribution to the hub, which returns all of the
// group's contributions once each member has arrived at the same
// occurrence of the same instruction.
//
// A module whose devices disagree (one waits in a collective another never
// reaches) must fail rather than hang. The hub detects that exactly: when
// every device still running is waiting in an unfinished rendezvous, none
// can ever complete, so the hub fails them all with an error that says who
// waits where. A wall-clock timeout backs this up. A device that fails
// aborts the hub, so that the devices waiting for it fail too.
#ifndef KILN_COMPILER_EVALUATOR_COLLECTIVE_HUB_H_
#define KILN_COMPILER_EVALUATOR_COLLECTIVE_HUB_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

class CollectiveHub {
 public:
  // Devices are numbered replica * num_partitions + partition.
  CollectiveHub(int64_t replica_count, int64_t num_partitions,
                absl::Duration timeout = absl::Seconds(300));
  CollectiveHub(const CollectiveHub&) = delete;
  CollectiveHub& operator=(const CollectiveHub&) = delete;

  int64_t replica_count() const { return replica_count_; }
  int64_t num_partitions() const { return num_partitions_; }
  int64_t device_count() const { return replica_count_ * num_partitions_; }

  // Device `device`'s `contribution` to its next occurrence of the
  // collective `instruction`, among `participants` (device numbers, in the
  // group's order; `device` is one of them). Blocks until every participant
  // has contributed to that occurrence, then returns the contributions in
  // participant order. Fails on deadlock, timeout or another device's
  // failure.
  using Contributions = std::shared_ptr<const std::vector<Literal>>;
  absl::StatusOr<Contributions> Exchange(const Instruction& instruction,
                                         int64_t device,
                                         absl::Span<const int64_t> participants,
                                         Literal contribution);

  // Point-to-point transfers (send/recv between simulated devices). Post
  // never blocks: it queues `value` on (channel, from, to). Receive blocks
  // until a value is queued there and takes the oldest. A blocked receiver
  // counts as waiting for the deadlock check, so a recv no running device
  // can ever serve fails rather than hangs.
  absl::Status Post(int64_t channel, int64_t from, int64_t to, Literal value);
  absl::StatusOr<Literal> Receive(const Instruction& instruction,
                                  int64_t channel, int64_t from, int64_t to);

  // The device has stopped (finished or failed): devices waiting for it
  // can no longer be served.
  void DeviceFinished(int64_t device);
  // Fails every waiting and later Exchange. The first abort's status is the
  // one kept (later ones are usually its consequences).
  void Abort(absl::Status status);
  // The first abort's status; OK when none.
  absl::Status first_error() const;

  // Serializes what devices share outside the hub: the infeed and outfeed
  // of EvalOptions and custom-call callbacks.
  std::mutex& host_mutex() { return host_mutex_; }

 private:
  // (instruction, occurrence, participants)
  using Key = std::tuple<const Instruction*, int64_t, std::vector<int64_t>>;
  struct Rendezvous {
    std::vector<std::optional<Literal>> contributions;
    int64_t arrived = 0;
    int64_t departed = 0;
    Contributions result;  // Set when complete.
  };

  // (channel, from, to) of a point-to-point transfer.
  using MailboxKey = std::tuple<int64_t, int64_t, int64_t>;
  struct BlockedReceiver {
    MailboxKey key;
    std::string instruction;
  };

  // Fails the hub when no running device can make progress.
  // The *Locked functions need mutex_ held.
  void CheckDeadlockLocked();
  std::string DescribeWaitsLocked() const;
  void AbortLocked(absl::Status status);

  const int64_t replica_count_;
  const int64_t num_partitions_;
  const absl::Duration timeout_;

  // std::mutex rather than absl::Mutex: ThreadSanitizer understands it
  // (the system's Abseil is not built with TSan).
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Everything below is guarded by mutex_.
  std::map<Key, Rendezvous> rendezvous_;
  // Occurrences so far of each instruction on each device.
  std::vector<absl::flat_hash_map<const Instruction*, int64_t>> occurrences_;
  std::vector<bool> finished_;
  int64_t running_;
  // Values posted and not yet received.
  std::map<MailboxKey, std::deque<Literal>> mailboxes_;
  // Receivers blocked on an empty mailbox, by device.
  std::map<int64_t, BlockedReceiver> receivers_;
  // Devices that have arrived at a rendezvous that is not complete, or are
  // blocked in Receive.
  int64_t waiting_ = 0;
  absl::Status error_;

  std::mutex host_mutex_;
};

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_COLLECTIVE_HUB_H_
