#include "compiler/ops/collective_group_mode.h"

#include "compiler/ir/attr_names.h"

namespace kiln {

CollectiveGroupMode CollectiveGroupModeOf(const Instruction& instruction,
                                          bool has_global_device_ids) {
  if (!instruction.attrs().Has(attr::kChannelId)) {
    return CollectiveGroupMode::kCrossReplica;
  }
  if (!has_global_device_ids) return CollectiveGroupMode::kCrossPartition;
  const bool* global = instruction.attrs().Get<bool>(attr::kUseGlobalDeviceIds);
  return global != nullptr && *global
             ? CollectiveGroupMode::kFlattenedId
             : CollectiveGroupMode::kCrossReplicaAndPartition;
}

}  // namespace kiln
