// Replica-group checks shared by the collective ops' shape rules: which ids
// the groups name (replicas, partitions or flattened device ids, from
// channel_id and use_global_device_ids as XLA's CollectiveOpGroupMode), that
// each id is in range and named once, and the size of one group. Internal
// to compiler/ops/.
#ifndef KILN_COMPILER_OPS_COLLECTIVE_GROUPS_H_
#define KILN_COMPILER_OPS_COLLECTIVE_GROUPS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace ops_internal {

// The module config's replica_count and num_partitions (1 and 1 when the
// instruction is not in a module).
struct DeviceCounts {
  int64_t replicas = 1;
  int64_t partitions = 1;
};
DeviceCounts DeviceCountsOf(const Instruction& instruction);

// How the ops' own attributes decide what the replica groups name.
struct GroupOptions {
  // The op has the use_global_device_ids attribute (all-reduce,
  // all-gather, reduce-scatter); without it a channel_id means
  // cross-partition.
  bool has_global_device_ids = false;
  // All groups must have the same size (all-gather, all-to-all, ...).
  bool uniform = false;
  // Non-empty groups must name every id of the mode (the spec: "empty ... or
  // contain the same number of elements as the number of replicas").
  // Collective-broadcast leaves replicas out (they get zeros).
  bool cover_all = true;
};

// Checks replica_groups= and returns the number of participants in one
// group (XLA's subgroup size: the whole replica or partition set when the
// groups are empty).
absl::StatusOr<int64_t> CheckReplicaGroups(const Instruction& instruction,
                                           const GroupOptions& options,
                                           absl::string_view spec_section);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_COLLECTIVE_GROUPS_H_
