#include "compiler/evaluator/collective_hub.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kiln {
namespace eval {

CollectiveHub::CollectiveHub(int64_t replica_count, int64_t num_partitions,
                             absl::Duration timeout)
    : replica_count_(replica_count),
      num_partitions_(num_partitions),
      timeout_(timeout),
      occurrences_(static_cast<size_t>(replica_count * num_partitions)),
      finished_(static_cast<size_t>(replica_count * num_partitions), false),
      running_(replica_count * num_partitions) {}

absl::StatusOr<CollectiveHub::Contributions> CollectiveHub::Exchange(
    const Instruction& instruction, int64_t device,
    absl::Span<const int64_t> participants, Literal contribution) {
  const auto position =
      std::find(participants.begin(), participants.end(), device);
  if (device < 0 || device >= device_count() ||
      position == participants.end()) {
    return absl::InternalError(absl::StrCat(
        instruction.name(), ": device ", device, " is not among devices {",
        absl::StrJoin(participants, ","), "}"));
  }
  const size_t index = static_cast<size_t>(position - participants.begin());
  std::unique_lock<std::mutex> lock(mutex_);
  if (!error_.ok()) return error_;
  const int64_t occurrence = occurrences_[device][&instruction]++;
  const Key key(&instruction, occurrence,
                std::vector<int64_t>(participants.begin(), participants.end()));
  Rendezvous& rendezvous = rendezvous_[key];
  const int64_t size = static_cast<int64_t>(participants.size());
  if (rendezvous.contributions.empty()) {
    rendezvous.contributions.resize(participants.size());
  }
  rendezvous.contributions[index] = std::move(contribution);
  if (++rendezvous.arrived == size) {
    auto values = std::make_shared<std::vector<Literal>>();
    values->reserve(participants.size());
    for (std::optional<Literal>& value : rendezvous.contributions) {
      values->push_back(std::move(*value));
    }
    rendezvous.result = std::move(values);
    waiting_ -= size - 1;  // The others stop waiting now.
    changed_.notify_all();
  } else {
    ++waiting_;
    CheckDeadlockLocked();
    const auto deadline =
        std::chrono::steady_clock::now() + absl::ToChronoNanoseconds(timeout_);
    while (rendezvous.result == nullptr && error_.ok()) {
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout &&
          rendezvous.result == nullptr && error_.ok()) {
        AbortLocked(absl::DeadlineExceededError(absl::StrCat(
            "collectives timed out after ", absl::FormatDuration(timeout_),
            ": ", DescribeWaitsLocked())));
      }
    }
  }
  if (rendezvous.result == nullptr) return error_;
  Contributions result = rendezvous.result;
  if (++rendezvous.departed == size) rendezvous_.erase(key);
  return result;
}

absl::Status CollectiveHub::Post(int64_t channel, int64_t from, int64_t to,
                                 Literal value) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!error_.ok()) return error_;
  const MailboxKey key(channel, from, to);
  mailboxes_[key].push_back(std::move(value));
  // A receiver blocked on this mailbox stops waiting now (counted here, so
  // that the deadlock check never sees it as waiting once it can go on).
  auto receiver = receivers_.find(to);
  if (receiver != receivers_.end() && receiver->second.key == key) {
    receivers_.erase(receiver);
    --waiting_;
    changed_.notify_all();
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> CollectiveHub::Receive(const Instruction& instruction,
                                               int64_t channel, int64_t from,
                                               int64_t to) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!error_.ok()) return error_;
  const MailboxKey key(channel, from, to);
  std::deque<Literal>& mailbox = mailboxes_[key];
  if (mailbox.empty()) {
    receivers_[to] = BlockedReceiver{key, instruction.name()};
    ++waiting_;
    CheckDeadlockLocked();
    const auto deadline =
        std::chrono::steady_clock::now() + absl::ToChronoNanoseconds(timeout_);
    while (receivers_.count(to) != 0 && error_.ok()) {
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout &&
          receivers_.count(to) != 0 && error_.ok()) {
        AbortLocked(absl::DeadlineExceededError(absl::StrCat(
            "transfers timed out after ", absl::FormatDuration(timeout_), ": ",
            DescribeWaitsLocked())));
      }
    }
    if (receivers_.erase(to) != 0 || mailbox.empty()) return error_;
  }
  Literal value = std::move(mailbox.front());
  mailbox.pop_front();
  return value;
}

void CollectiveHub::DeviceFinished(int64_t device) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (device < 0 || device >= device_count() || finished_[device]) return;
  finished_[device] = true;
  --running_;
  CheckDeadlockLocked();
}

void CollectiveHub::Abort(absl::Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  AbortLocked(std::move(status));
}

absl::Status CollectiveHub::first_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void CollectiveHub::AbortLocked(absl::Status status) {
  if (error_.ok() && !status.ok()) error_ = std::move(status);
  changed_.notify_all();
}

void CollectiveHub::CheckDeadlockLocked() {
  if (waiting_ == 0 || waiting_ < running_ || !error_.ok()) return;
  AbortLocked(absl::AbortedError(
      absl::StrCat("collective deadlock: ", DescribeWaitsLocked())));
}

std::string CollectiveHub::DescribeWaitsLocked() const {
  std::vector<std::string> waits;
  for (const auto& [key, rendezvous] : rendezvous_) {
    if (rendezvous.result != nullptr) continue;
    const std::vector<int64_t>& participants = std::get<2>(key);
    std::vector<int64_t> arrived;
    std::vector<int64_t> missing;
    for (size_t i = 0; i < participants.size(); ++i) {
      (rendezvous.contributions[i].has_value() ? arrived : missing)
          .push_back(participants[i]);
    }
    waits.push_back(absl::StrCat(
        "device(s) ", absl::StrJoin(arrived, ","), " wait in ",
        std::get<0>(key)->name(), " (occurrence ", std::get<1>(key),
        ") for device(s) ", absl::StrJoin(missing, ",")));
  }
  for (const auto& [device, receiver] : receivers_) {
    waits.push_back(
        absl::StrCat("device ", device, " waits in ", receiver.instruction,
                     " for a send on channel ", std::get<0>(receiver.key),
                     " from device ", std::get<1>(receiver.key)));
  }
  std::vector<int64_t> finished;
  for (size_t d = 0; d < finished_.size(); ++d) {
    if (finished_[d]) finished.push_back(static_cast<int64_t>(d));
  }
  std::string text = absl::StrJoin(waits, "; ");
  if (!finished.empty()) {
    absl::StrAppend(&text, "; device(s) ", absl::StrJoin(finished, ","),
                    " have finished");
  }
  return text;
}

}  // namespace eval
}  // namespace kiln
