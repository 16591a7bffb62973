// The reference evaluator: runs a module on literals, op by op, with plain
// typed loops that can be read against the spec. It is the oracle that the
// conformance suite, the passes' semantic checks, the backends and the
// fuzzers are judged against. It accepts client form (implicit
// broadcasting) as well as strict form.
//
// Each op's kernel lives in the evaluator file of its family
// (elementwise_kernels.cc, data_movement_kernels.cc, ...); kernel.h is the
// interface between this driver and the kernels.
#ifndef KILN_COMPILER_EVALUATOR_EVALUATOR_H_
#define KILN_COMPILER_EVALUATOR_EVALUATOR_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace kiln {
namespace eval {
class CollectiveHub;
struct DeviceId;
}  // namespace eval

// A host callback for custom-call: takes the operands, returns the result
// (a literal of the custom-call's shape).
using CustomCallFn = std::function<absl::StatusOr<Literal>(
    absl::Span<const Literal* const> operands, const Shape& result_shape,
    absl::string_view opaque)>;

// Custom-call targets by name. The process-wide registry is
// GlobalCustomCallRegistry(); EvalOptions may name another one.
class CustomCallRegistry {
 public:
  // Replaces any earlier callback for `target`.
  void Register(std::string target, CustomCallFn fn);
  // Null when `target` is not registered.
  const CustomCallFn* Find(absl::string_view target) const;

 private:
  absl::flat_hash_map<std::string, CustomCallFn> targets_;
};
CustomCallRegistry& GlobalCustomCallRegistry();

// EvalOptions::max_steps by default: 2^32 instructions, minutes of work.
inline constexpr int64_t kDefaultMaxSteps = int64_t{1} << 32;
// EvalOptions::max_live_bytes by default: half of the physical memory, at
// most 16 GiB (16 GiB when the memory size is unknown).
int64_t DefaultMaxLiveBytes();

struct EvalOptions {
  // A while loop that runs more iterations than this is an error naming
  // the instruction (a reference evaluator must terminate). Must be >= 0.
  int64_t max_while_iterations = 1 << 24;
  // The budget of the whole run: every instruction the evaluator runs (in
  // every computation, loop iteration and per-element call of a reducer or
  // comparator) is one step, and the step past this is an error naming
  // the instruction. Loops nested inside each other each stay under
  // max_while_iterations yet may multiply; this bounds their product.
  // Counted per simulated device. Must be >= 1.
  int64_t max_steps = kDefaultMaxSteps;
  // No single literal larger than this is allocated.
  int64_t max_literal_bytes = kDefaultMaxLiteralBytes;
  // The values alive together (the instructions' values the evaluator
  // holds at once, in every frame of nested calls; not the caller's
  // arguments) stay within this many bytes, shared evenly by the simulated
  // devices. A computation whose values would exceed it is refused before
  // it runs where its declared shapes say so (the instruction at the
  // peak), otherwise when the value that would exceed it is created; the
  // error names the instruction. Must be >= 1.
  int64_t max_live_bytes = DefaultMaxLiveBytes();
  // Seed of the generator behind `rng` (uniform/normal) and the initial
  // state of rng-get-and-update-state. The same seed gives the same values.
  uint64_t rng_seed = 0;
  // Custom-call targets; null means GlobalCustomCallRegistry().
  const CustomCallRegistry* custom_calls = nullptr;
  // Values infeed reads, in order (null or empty: infeed is an error), and
  // where outfeed appends what it writes (null: dropped).
  std::deque<Literal>* infeed = nullptr;
  std::vector<Literal>* outfeed = nullptr;
};

// An error naming the first EvalOptions field out of its range.
absl::Status CheckEvalOptions(const EvalOptions& options);

// Runs the entry computation of `module` on `arguments` (one per entry
// parameter, shapes compatible with the parameters'). Returns the root's
// value (a tuple literal when the root is a tuple). The module should
// verify; the evaluator still refuses, with an error naming the
// instruction, anything it cannot run rather than crashing.
absl::StatusOr<Literal> Evaluate(const Module& module,
                                 absl::Span<const Literal> arguments,
                                 const EvalOptions& options = {});

// One thread per device of replica_count x num_partitions (device d =
// replica d / num_partitions, partition d % num_partitions), each calling
// `run(d, id, hub)` with one CollectiveHub shared by all; a device that
// fails aborts the hub (its error names the device), so the others stop
// instead of waiting. Returns each device's result, or the first error.
// EvaluateReplicated and backends that run lowered programs per device
// (the cpu backend) share it.
absl::StatusOr<std::vector<Literal>> RunOnDevices(
    int64_t replica_count, int64_t num_partitions,
    const std::function<absl::StatusOr<Literal>(int64_t, eval::DeviceId,
                                                eval::CollectiveHub*)>& run);

// Runs `module` on replica_count x num_partitions simulated devices (device
// d = replica d / num_partitions, partition d % num_partitions, as XLA
// numbers them), the collectives exchanging data between them.
// `arguments[d]` are device d's arguments. Returns each device's result.
absl::StatusOr<std::vector<Literal>> EvaluateReplicated(
    const Module& module, absl::Span<const std::vector<Literal>> arguments,
    int64_t replica_count, int64_t num_partitions,
    const EvalOptions& options = {});

}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_EVALUATOR_H_
