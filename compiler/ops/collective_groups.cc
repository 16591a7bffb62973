#include "compiler/ops/collective_groups.h"

#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/ops/collective_group_mode.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

using GroupMode = CollectiveGroupMode;

absl::StatusOr<GroupMode> ModeOf(const Instruction& instruction,
                                 const GroupOptions& options,
                                 absl::string_view section) {
  const bool has_channel = instruction.attrs().Has(attr::kChannelId);
  const bool* global = instruction.attrs().Get<bool>(attr::kUseGlobalDeviceIds);
  const bool use_global = global != nullptr && *global;
  if (!has_channel && use_global) {
    return RuleError(instruction,
                     "use_global_device_ids=true requires a channel_id",
                     section);
  }
  return CollectiveGroupModeOf(instruction, options.has_global_device_ids);
}

// How many ids the groups may name in `mode`, overflow-checked.
absl::StatusOr<int64_t> IdCount(const Instruction& instruction, GroupMode mode,
                                DeviceCounts counts,
                                absl::string_view section) {
  switch (mode) {
    case GroupMode::kCrossReplica:
    case GroupMode::kCrossReplicaAndPartition:
      return counts.replicas;
    case GroupMode::kCrossPartition:
      return counts.partitions;
    case GroupMode::kFlattenedId:
      break;
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(counts.replicas, counts.partitions, &total)) {
    return RuleError(instruction, "replica_count * num_partitions overflows",
                     section);
  }
  return total;
}

// Each id is named once and lies in [0, n), n the id count of the mode;
// when the module leaves that at its default 1 (replica_count /
// num_partitions unset), n is the number of ids named, as in XLA's verifier.
// With `cover_all`, every id of [0, n) is named: the spec's AllGather,
// AllReduce and ReduceScatter sections want non-empty groups to "contain the
// same number of elements as the number of replicas", and XLA's verifier
// asks the same of every grouped collective.
absl::Status CheckIds(const Instruction& instruction,
                      const std::vector<std::vector<int64_t>>& groups,
                      int64_t id_count, const GroupOptions& options,
                      absl::string_view section) {
  std::set<int64_t> seen;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) {
      return RuleError(instruction,
                       absl::StrCat("replica group ", g, " is empty"), section);
    }
    if (options.uniform && groups[g].size() != groups[0].size()) {
      return RuleError(
          instruction,
          absl::StrCat("replica group ", g, " has ", groups[g].size(),
                       " ids, expected ", groups[0].size(),
                       " like group 0 (all groups of equal size)"),
          section);
    }
    for (int64_t id : groups[g]) {
      if (!seen.insert(id).second) {
        return RuleError(
            instruction,
            absl::StrCat("replica group id ", id, " appears more than once"),
            section);
      }
    }
  }
  const int64_t named = static_cast<int64_t>(seen.size());
  if (named == 0) return absl::OkStatus();
  const int64_t limit = id_count == 1 ? named : id_count;
  if (*seen.begin() < 0 || *seen.rbegin() >= limit) {
    const int64_t bad = *seen.begin() < 0 ? *seen.begin() : *seen.rbegin();
    return RuleError(instruction,
                     absl::StrCat("replica group id ", bad,
                                  " is out of range [0, ", limit, ")"),
                     section);
  }
  if (options.cover_all && named != limit) {
    return RuleError(instruction,
                     absl::StrCat("replica_groups name ", named,
                                  " ids, expected all ", limit),
                     section);
  }
  return absl::OkStatus();
}

}  // namespace

DeviceCounts DeviceCountsOf(const Instruction& instruction) {
  DeviceCounts counts;
  if (instruction.parent() == nullptr ||
      instruction.parent()->parent() == nullptr) {
    return counts;
  }
  const ModuleConfig& config = instruction.parent()->parent()->config();
  counts.replicas = config.replica_count;
  counts.partitions = config.num_partitions;
  return counts;
}

absl::StatusOr<int64_t> CheckReplicaGroups(const Instruction& instruction,
                                           const GroupOptions& options,
                                           absl::string_view spec_section) {
  absl::StatusOr<GroupMode> mode = ModeOf(instruction, options, spec_section);
  if (!mode.ok()) return mode.status();
  const DeviceCounts counts = DeviceCountsOf(instruction);
  if (counts.replicas < 1 || counts.partitions < 1) {
    return RuleError(instruction,
                     "replica_count and num_partitions must be positive",
                     spec_section);
  }
  absl::StatusOr<int64_t> id_count =
      IdCount(instruction, *mode, counts, spec_section);
  if (!id_count.ok()) return id_count.status();
  const ReplicaGroups* attr =
      instruction.attrs().Get<ReplicaGroups>(attr::kReplicaGroups);
  std::vector<std::vector<int64_t>> groups;
  if (attr != nullptr) groups = attr->ExpandedGroups();
  if (attr != nullptr && attr->is_iota && groups.empty()) {
    return RuleError(instruction, "replica_groups iota form is malformed",
                     spec_section);
  }
  KILN_RULE_RETURN_IF_ERROR(
      CheckIds(instruction, groups, *id_count, options, spec_section));
  if (groups.empty()) {
    if (*mode == GroupMode::kFlattenedId) {
      return RuleError(instruction,
                       "use_global_device_ids=true requires non-empty "
                       "replica_groups",
                       spec_section);
    }
    return *id_count;
  }
  const int64_t size = static_cast<int64_t>(groups[0].size());
  if (*mode != GroupMode::kCrossReplicaAndPartition) return size;
  // Replicas of every partition take part (XLA's subgroup size).
  int64_t total = 0;
  if (__builtin_mul_overflow(size, counts.partitions, &total)) {
    return RuleError(instruction, "group size * num_partitions overflows",
                     spec_section);
  }
  return total;
}

}  // namespace ops_internal
}  // namespace kiln
