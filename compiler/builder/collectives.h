// Builder functions for the cross-replica and cross-partition ops
// (all-reduce, all-gather, all-to-all, reduce-scatter, collective-permute,
// collective-broadcast, ragged-all-to-all, replica-id, partition-id), in
// the style of XLA's XlaBuilder.
//
//   XlaOp sum = AllReduce(x, add, {{0, 1}, {2, 3}});
//   XlaOp all = AllGather(x, /*all_gather_dimension=*/0, /*shard_count=*/2,
//                         {{0, 1}, {2, 3}});
//
// Replica groups are explicit lists of ids; empty means one group of all
// replicas. The builder's module has the default config (replica_count and
// num_partitions 1), under which the ids a list names must be 0..n-1 for n
// the number of ids named, and an empty list is a group of one.
#ifndef KILN_COMPILER_BUILDER_COLLECTIVES_H_
#define KILN_COMPILER_BUILDER_COLLECTIVES_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "compiler/builder/builder.h"
#include "compiler/ir/layout.h"
#include "compiler/ir/shape.h"

namespace kiln {

// XLA's ChannelHandle: the channel id shared by communicating ops, and
// whether a send/recv talks to the host.
struct ChannelHandle {
  enum class Type { kDeviceToDevice, kDeviceToHost, kHostToDevice };
  int64_t handle = 0;
  Type type = Type::kDeviceToDevice;
};

// One replica group per entry: the ids of its participants, in order.
using ReplicaGroupList = absl::Span<const std::vector<int64_t>>;

// all-reduce of `operand` (an array, or a tuple whose elements are reduced
// each) with the scalar reducer `computation`. `shape_with_layout` fixes
// the result layout (constrain_layout=true).
XlaOp AllReduce(XlaOp operand, const XlaComputation& computation,
                ReplicaGroupList replica_groups = {},
                const std::optional<ChannelHandle>& channel_id = std::nullopt,
                const std::optional<Shape>& shape_with_layout = std::nullopt,
                std::optional<bool> use_global_device_ids = std::nullopt);

// The variadic form: one all-reduce of several arrays, a tuple result.
XlaOp AllReduceTuple(
    absl::Span<const XlaOp> operands, const XlaComputation& computation,
    ReplicaGroupList replica_groups = {},
    const std::optional<ChannelHandle>& channel_id = std::nullopt,
    std::optional<bool> use_global_device_ids = std::nullopt);

// all-reduce with a sum (logical or for pred).
XlaOp CrossReplicaSum(XlaOp operand, ReplicaGroupList replica_groups = {});

// all-gather along `all_gather_dimension`. `shard_count` is the size of
// each replica group; it must match the groups, and an empty group list
// (all replicas) requires shard_count 1 under the builder's default config.
// `layout` fixes the result's layout (constrain_layout=true).
XlaOp AllGather(XlaOp operand, int64_t all_gather_dimension,
                int64_t shard_count, ReplicaGroupList replica_groups = {},
                const std::optional<ChannelHandle>& channel_id = std::nullopt,
                const std::optional<Layout>& layout = std::nullopt,
                std::optional<bool> use_global_device_ids = std::nullopt);

// reduce-scatter along `scatter_dimension`; shard_count as in AllGather.
XlaOp ReduceScatter(
    XlaOp operand, const XlaComputation& computation, int64_t scatter_dimension,
    int64_t shard_count, ReplicaGroupList replica_groups = {},
    const std::optional<ChannelHandle>& channel_id = std::nullopt,
    const std::optional<Layout>& layout = std::nullopt,
    std::optional<bool> use_global_device_ids = std::nullopt);

// all-to-all splitting `split_dimension` into `split_count` blocks and
// concatenating the received blocks along `concat_dimension`. The
// instruction is the array form (dimensions={split_dimension}); when the
// two dims differ, a reshape, transpose and reshape move the blocks to
// `concat_dimension`, as XLA's builder does.
XlaOp AllToAll(XlaOp operand, int64_t split_dimension, int64_t concat_dimension,
               int64_t split_count, ReplicaGroupList replica_groups = {},
               const std::optional<ChannelHandle>& channel_id = std::nullopt);

// The tuple form: operand i goes to the i-th member of the group; one
// operand per group member, all of one shape.
XlaOp AllToAllTuple(
    absl::Span<const XlaOp> operands, ReplicaGroupList replica_groups = {},
    const std::optional<ChannelHandle>& channel_id = std::nullopt);

// ragged-all-to-all. The spec's argument order; the instruction's operands
// are input, output, input_offsets, send_sizes, output_offsets, recv_sizes.
XlaOp RaggedAllToAll(
    XlaOp input, XlaOp input_offsets, XlaOp send_sizes, XlaOp output,
    XlaOp output_offsets, XlaOp recv_sizes,
    ReplicaGroupList replica_groups = {},
    const std::optional<ChannelHandle>& channel_id = std::nullopt);

XlaOp CollectivePermute(
    XlaOp operand,
    absl::Span<const std::pair<int64_t, int64_t>> source_target_pairs,
    const std::optional<ChannelHandle>& channel_id = std::nullopt);

XlaOp CollectiveBroadcast(
    XlaOp operand, ReplicaGroupList replica_groups,
    const std::optional<ChannelHandle>& channel_id = std::nullopt);

// u32[] ids of the running replica / partition.
XlaOp ReplicaId(XlaBuilder* builder);
XlaOp PartitionId(XlaBuilder* builder);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_COLLECTIVES_H_
