// Cross-replica and cross-partition ops. Attribute order follows XLA's
// HloChannelInstruction / HloCollectiveInstruction printers: channel_id,
// replica_groups, constrain_layout, then the op's own attributes, then the
// called computation.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {
namespace {

std::vector<AttrSpec> AllReduceAttrs() {
  return Concat(CollectiveAttrs(),
                {Optional("use_global_device_ids", AttrKind::kBool),
                 Required("to_apply", AttrKind::kComputation)});
}

std::vector<AttrSpec> AllGatherAttrs() {
  return Concat(CollectiveAttrs(),
                {Required("dimensions", AttrKind::kInt64List),
                 Optional("use_global_device_ids", AttrKind::kBool)});
}

std::vector<AttrSpec> CollectivePermuteAttrs() {
  // slice_sizes appears on the four-operand in-place form only.
  return {Optional("channel_id", AttrKind::kInt64),
          Required("source_target_pairs", AttrKind::kInt64ListList),
          Optional("slice_sizes", AttrKind::kInt64ListList)};
}

}  // namespace

void RegisterCollectiveSchemas(SchemaTable* table) {
  Define(table, Opcode::kAllReduce, 1, kVariadic, AllReduceAttrs());
  Define(table, Opcode::kAllReduceStart, 1, kVariadic, AllReduceAttrs());
  Define(table, Opcode::kAllReduceDone, 1, 1);
  Define(table, Opcode::kAllGather, 1, kVariadic, AllGatherAttrs());
  Define(table, Opcode::kAllGatherStart, 1, kVariadic, AllGatherAttrs());
  Define(table, Opcode::kAllGatherDone, 1, 1);
  Define(table, Opcode::kReduceScatter, 1, kVariadic,
         Concat(CollectiveAttrs(),
                {Optional("use_global_device_ids", AttrKind::kBool),
                 Required("dimensions", AttrKind::kInt64List),
                 Required("to_apply", AttrKind::kComputation)}));
  // dimensions={d} is the split dimension of the array form.
  Define(table, Opcode::kAllToAll, 1, kVariadic,
         Concat(CollectiveAttrs(),
                {Optional("dimensions", AttrKind::kInt64List)}));
  // Operands: input, output, input_offsets, send_sizes, output_offsets,
  // recv_sizes.
  Define(table, Opcode::kRaggedAllToAll, 6, 6, CollectiveAttrs());
  // An optional second operand holds a dynamic root when
  // has_dynamic_root=true.
  Define(table, Opcode::kCollectiveBroadcast, 1, 2,
         Concat(CollectiveAttrs(),
                {Optional("has_dynamic_root", AttrKind::kBool)}));
  Define(table, Opcode::kCollectivePermute, 1, 4, CollectivePermuteAttrs());
  Define(table, Opcode::kCollectivePermuteStart, 1, 4,
         CollectivePermuteAttrs());
  Define(table, Opcode::kCollectivePermuteDone, 1, 1);
  Define(table, Opcode::kReplicaId, 0, 0);
  Define(table, Opcode::kPartitionId, 0, 0);
}

}  // namespace ops_internal
}  // namespace kiln
