// Which devices a collective's replica_groups name: XLA's
// CollectiveOpGroupMode, decided by channel_id and (on all-reduce,
// all-gather and reduce-scatter) use_global_device_ids. Shared by the shape
// rules (which ids are valid) and the evaluator (which devices meet).
#ifndef KILN_COMPILER_OPS_COLLECTIVE_GROUP_MODE_H_
#define KILN_COMPILER_OPS_COLLECTIVE_GROUP_MODE_H_

#include "compiler/ir/instruction.h"

namespace kiln {

enum class CollectiveGroupMode {
  kCrossReplica,              // No channel_id: ids are replicas.
  kCrossPartition,            // channel_id, op without the flag: partitions.
  kCrossReplicaAndPartition,  // channel_id, flag false: replicas, each
                              // across every partition.
  kFlattenedId,               // channel_id, flag true: device ids.
};

// The mode of `instruction`; `has_global_device_ids` says whether the op
// has the use_global_device_ids attribute at all. (The flag without a
// channel_id is an error the shape rule reports; here it reads as
// kCrossReplica.)
CollectiveGroupMode CollectiveGroupModeOf(const Instruction& instruction,
                                          bool has_global_device_ids);

}  // namespace kiln

#endif  // KILN_COMPILER_OPS_COLLECTIVE_GROUP_MODE_H_
