// EvaluateReplicated: one thread per simulated device, each with its own
// EvalContext (and so its own rng state and channels), all sharing one
// CollectiveHub through which the collectives exchange values.
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace {

// More simulated devices than this are refused (one thread each).
constexpr int64_t kMaxDevices = 1024;

absl::Status CheckDeviceCounts(const Module& module,
                               absl::Span<const std::vector<Literal>> arguments,
                               int64_t replica_count, int64_t num_partitions) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module ", module.name(), " has no entry computation"));
  }
  if (replica_count < 1 || num_partitions < 1 ||
      replica_count > kMaxDevices / num_partitions) {
    return absl::InvalidArgumentError(absl::StrCat(
        "EvaluateReplicated: ", replica_count, " replica(s) x ", num_partitions,
        " partition(s) is not between 1 and ", kMaxDevices, " devices"));
  }
  const int64_t devices = replica_count * num_partitions;
  if (static_cast<int64_t>(arguments.size()) != devices) {
    return absl::InvalidArgumentError(
        absl::StrCat("EvaluateReplicated: ", arguments.size(),
                     " argument list(s) for ", devices, " device(s)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Literal>> RunOnDevices(
    int64_t replica_count, int64_t num_partitions,
    const std::function<absl::StatusOr<Literal>(int64_t, eval::DeviceId,
                                                eval::CollectiveHub*)>& run) {
  const int64_t devices = replica_count * num_partitions;
  eval::CollectiveHub hub(replica_count, num_partitions);
  std::vector<absl::StatusOr<Literal>> results(static_cast<size_t>(devices),
                                               absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(devices));
  for (int64_t d = 0; d < devices; ++d) {
    threads.emplace_back([&, d] {
      const eval::DeviceId id{d / num_partitions, d % num_partitions};
      results[d] = run(d, id, &hub);
      if (!results[d].ok()) {
        hub.Abort(absl::Status(
            results[d].status().code(),
            absl::StrCat("device ", d, " (replica ", id.replica, ", partition ",
                         id.partition, "): ", results[d].status().message())));
      }
      hub.DeviceFinished(d);
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (absl::Status error = hub.first_error(); !error.ok()) return error;
  std::vector<Literal> values;
  values.reserve(results.size());
  for (absl::StatusOr<Literal>& result : results) {
    values.push_back(*std::move(result));
  }
  return values;
}

absl::StatusOr<std::vector<Literal>> EvaluateReplicated(
    const Module& module, absl::Span<const std::vector<Literal>> arguments,
    int64_t replica_count, int64_t num_partitions, const EvalOptions& options) {
  absl::Status counts =
      CheckDeviceCounts(module, arguments, replica_count, num_partitions);
  if (!counts.ok()) return counts;
  if (absl::Status valid = CheckEvalOptions(options); !valid.ok()) {
    return valid;
  }
  return RunOnDevices(replica_count, num_partitions,
                      [&](int64_t d, eval::DeviceId id,
                          eval::CollectiveHub* hub) -> absl::StatusOr<Literal> {
                        std::vector<const Literal*> pointers;
                        for (const Literal& argument : arguments[d]) {
                          pointers.push_back(&argument);
                        }
                        eval::EvalContext context(module, options, id, hub);
                        return context.Call(*module.entry(), pointers);
                      });
}

}  // namespace kiln
