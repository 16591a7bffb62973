#include "compiler/evaluator/collective_participants.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ops/collective_group_mode.h"

namespace kiln {
namespace eval {
namespace {

using GroupMode = CollectiveGroupMode;

// How many ids the groups of `mode` draw from.
int64_t IdCount(GroupMode mode, const DeviceGrid& grid) {
  switch (mode) {
    case GroupMode::kCrossPartition:
      return grid.partitions;
    case GroupMode::kFlattenedId:
      return grid.replicas * grid.partitions;
    default:
      return grid.replicas;
  }
}

// This device's own id in `mode`'s numbering.
int64_t SelfId(GroupMode mode, const DeviceGrid& grid, DeviceId device) {
  switch (mode) {
    case GroupMode::kCrossPartition:
      return device.partition;
    case GroupMode::kFlattenedId:
      return grid.Number(device);
    default:
      return device.replica;
  }
}

// The devices that group `ids` (ids of `mode`) stands for.
std::vector<int64_t> DevicesOf(GroupMode mode, const DeviceGrid& grid,
                               DeviceId device,
                               const std::vector<int64_t>& ids) {
  std::vector<int64_t> devices;
  for (int64_t id : ids) {
    switch (mode) {
      case GroupMode::kCrossReplica:
        devices.push_back(grid.Number({id, device.partition}));
        break;
      case GroupMode::kCrossPartition:
        devices.push_back(grid.Number({device.replica, id}));
        break;
      case GroupMode::kCrossReplicaAndPartition:
        for (int64_t p = 0; p < grid.partitions; ++p) {
          devices.push_back(grid.Number({id, p}));
        }
        break;
      case GroupMode::kFlattenedId:
        devices.push_back(id);
        break;
    }
  }
  return devices;
}

}  // namespace

DeviceGrid GridOf(const EvalContext& context) {
  DeviceGrid grid;
  if (context.collectives() != nullptr) {
    grid.replicas = context.collectives()->replica_count();
    grid.partitions = context.collectives()->num_partitions();
  }
  return grid;
}

absl::StatusOr<std::optional<std::vector<int64_t>>> GroupDevices(
    const Instruction& instruction, const EvalContext& context, bool has_flag) {
  const DeviceGrid grid = GridOf(context);
  const DeviceId device = context.device();
  if (context.collectives() == nullptr) {
    // One device: every collective acts over a group of one.
    return std::optional<std::vector<int64_t>>(std::vector<int64_t>{0});
  }
  const GroupMode mode = CollectiveGroupModeOf(instruction, has_flag);
  const int64_t id_count = IdCount(mode, grid);
  const ReplicaGroups* attr =
      instruction.attrs().Get<ReplicaGroups>(attr::kReplicaGroups);
  std::vector<std::vector<int64_t>> groups;
  if (attr != nullptr) groups = attr->ExpandedGroups();
  if (groups.empty()) {
    if (mode == GroupMode::kFlattenedId) {
      return KernelError(instruction,
                         "use_global_device_ids=true needs replica_groups");
    }
    std::vector<int64_t> all(static_cast<size_t>(id_count));
    for (int64_t i = 0; i < id_count; ++i) all[i] = i;
    groups.push_back(std::move(all));
  }
  const int64_t self = SelfId(mode, grid, device);
  std::optional<std::vector<int64_t>> found;
  for (const std::vector<int64_t>& group : groups) {
    for (int64_t id : group) {
      if (id < 0 || id >= id_count) {
        return KernelError(
            instruction,
            absl::StrCat("replica group id ", id, " is out of range [0, ",
                         id_count, ") for ", grid.replicas, " replica(s) x ",
                         grid.partitions, " partition(s)"));
      }
    }
    if (!found && std::count(group.begin(), group.end(), self) > 0) {
      found = DevicesOf(mode, grid, device, group);
    }
  }
  return found;
}

PermuteDomain PermuteDomainOf(const Instruction& instruction,
                              const EvalContext& context) {
  const DeviceGrid grid = GridOf(context);
  const DeviceId device = context.device();
  const bool by_partition = instruction.attrs().Has(attr::kChannelId);
  PermuteDomain domain;
  const int64_t count = by_partition ? grid.partitions : grid.replicas;
  for (int64_t id = 0; id < count; ++id) {
    domain.devices.push_back(by_partition
                                 ? grid.Number({device.replica, id})
                                 : grid.Number({id, device.partition}));
  }
  domain.self = by_partition ? device.partition : device.replica;
  return domain;
}

}  // namespace eval
}  // namespace kiln
