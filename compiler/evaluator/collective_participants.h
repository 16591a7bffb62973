// Which simulated devices take part together in a collective, as XLA's
// CollectiveOpGroupMode decides from channel_id and use_global_device_ids:
//   no channel_id                     -> replica_groups name replicas; the
//                                        group's devices share a partition
//   channel_id, op without the flag   -> they name partitions; the devices
//   (all-to-all, collective-permute,     share a replica
//   collective-broadcast, ragged)
//   channel_id, flag false            -> they name replicas; each replica
//                                        brings all its partitions
//                                        (replica-major order)
//   channel_id, flag true             -> they name devices
//                                        (replica * num_partitions +
//                                        partition)
// Empty replica_groups means one group of every id of the mode.
#ifndef KILN_COMPILER_EVALUATOR_COLLECTIVE_PARTICIPANTS_H_
#define KILN_COMPILER_EVALUATOR_COLLECTIVE_PARTICIPANTS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

// The device layout a collective runs on: the hub's, or one device.
struct DeviceGrid {
  int64_t replicas = 1;
  int64_t partitions = 1;
  int64_t Number(DeviceId id) const {
    return id.replica * partitions + id.partition;
  }
};
DeviceGrid GridOf(const EvalContext& context);

// The devices (numbers, in group order) of `context`'s device's group for
// `instruction`; nullopt when the device is in no group. `has_flag` says
// whether the op has the use_global_device_ids attribute (all-reduce,
// all-gather, reduce-scatter and their -start forms). An id out of range
// of its mode is an error naming the instruction.
absl::StatusOr<std::optional<std::vector<int64_t>>> GroupDevices(
    const Instruction& instruction, const EvalContext& context, bool has_flag);

// collective-permute's devices: every device sharing this device's
// partition (no channel_id: pairs name replicas) or replica (channel_id:
// pairs name partitions), ordered by the id the pairs use; and this
// device's id in that numbering.
struct PermuteDomain {
  std::vector<int64_t> devices;
  int64_t self = 0;
};
PermuteDomain PermuteDomainOf(const Instruction& instruction,
                              const EvalContext& context);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_COLLECTIVE_PARTICIPANTS_H_
