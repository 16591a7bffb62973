// send/recv between the simulated devices of EvaluateReplicated. A send or
// recv that carries XLA's frontend attribute
// _xla_send_recv_source_target_pairs="{{s,t},...}" moves data from device
// s to device t through the hub: the send of s posts its operand for t on
// its channel_id (never blocking), the recv of t takes the oldest value s
// posted on that channel_id at its recv-done (blocking there until it is
// there; the hub's deadlock check counts it as waiting). The recv itself
// never waits: the spec orders Recv before Send before RecvDone. Ids name
// partitions when the run has more than one partition, else replicas. Without
// the attribute, or without a hub, send/recv use the device's own channel queue
// (io_kernels.cc).
#ifndef KILN_COMPILER_EVALUATOR_IO_TRANSFERS_H_
#define KILN_COMPILER_EVALUATOR_IO_TRANSFERS_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/literal.h"

namespace kiln {
namespace eval {

using TransferPairs = std::vector<std::pair<int64_t, int64_t>>;

// The pairs of the frontend attribute; nullopt when the instruction has
// none or no hub simulates several devices. A malformed attribute is an
// error naming the instruction.
absl::StatusOr<std::optional<TransferPairs>> CrossDevicePairs(
    const Instruction& instruction, const EvalContext& context);

// Posts `value` to every target this device sends to on `channel`.
absl::Status SendToDevices(const Instruction& instruction, EvalContext& context,
                           const TransferPairs& pairs, int64_t channel,
                           const Literal& value);

// The value this device's source sent on `channel`; zeros of `shape` when
// no pair targets this device.
absl::StatusOr<Literal> ReceiveFromDevice(const Instruction& instruction,
                                          EvalContext& context,
                                          const TransferPairs& pairs,
                                          int64_t channel, const Shape& shape);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_IO_TRANSFERS_H_
