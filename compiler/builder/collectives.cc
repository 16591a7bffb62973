#include "compiler/builder/collectives.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln {
namespace {

constexpr absl::string_view kAllGatherSection =
    "operation_semantics.md, AllGather";
constexpr absl::string_view kReduceScatterSection =
    "operation_semantics.md, ReduceScatter";
constexpr absl::string_view kAllToAllSection =
    "operation_semantics.md, AllToAll";

// channel_id (when given), replica_groups (always: XLA prints
// replica_groups={} for an empty list), use_global_device_ids (when true).
AttributeMap CollectiveAttrs(ReplicaGroupList replica_groups,
                             const std::optional<ChannelHandle>& channel_id,
                             std::optional<bool> use_global_device_ids) {
  AttributeMap attrs;
  if (channel_id.has_value()) attrs.Set(attr::kChannelId, channel_id->handle);
  ReplicaGroups groups;
  groups.groups.assign(replica_groups.begin(), replica_groups.end());
  attrs.Set(attr::kReplicaGroups, std::move(groups));
  if (use_global_device_ids.value_or(false)) {
    attrs.Set(attr::kUseGlobalDeviceIds, true);
  }
  return attrs;
}

// The builder of `operands`, after checking them; null when there is none
// or they are invalid (the error is then recorded).
XlaBuilder* CheckedBuilder(absl::Span<const XlaOp> operands,
                           absl::string_view what) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return nullptr;
  if (!builder->CheckOperands(operands, what).ok()) return nullptr;
  return builder;
}

// shard_count is the size of each replica group (spec, AllGather). The IR
// derives the group size from replica_groups, so the two must agree; an
// empty list means every replica, which is one under the builder's default
// config.
absl::Status CheckShardCount(absl::string_view op, int64_t shard_count,
                             ReplicaGroupList replica_groups,
                             absl::string_view section) {
  if (shard_count < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": shard_count=", shard_count, " must be >= 1 (", section, ")"));
  }
  if (replica_groups.empty()) {
    if (shard_count == 1) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": shard_count=", shard_count,
        " with empty replica_groups (all replicas) needs replica_count ",
        shard_count,
        ", but the builder's module has replica_count 1; name the groups "
        "explicitly (",
        section, ", shard_count is the size of each replica group)"));
  }
  for (size_t g = 0; g < replica_groups.size(); ++g) {
    const int64_t size = static_cast<int64_t>(replica_groups[g].size());
    if (size == shard_count) continue;
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": shard_count=", shard_count, " but replica group ",
                     g, " has ", size, " ids (", section,
                     ", shard_count is the size of each replica group)"));
  }
  return absl::OkStatus();
}

// The scalar (T, T) -> T reducer that sums (ors, for pred).
absl::StatusOr<XlaComputation> SumComputation(XlaBuilder* builder,
                                              ElementType type) {
  std::unique_ptr<XlaBuilder> sum = builder->CreateSubBuilder("sum");
  XlaOp lhs = Parameter(sum.get(), 0, Shape::Scalar(type), "lhs");
  XlaOp rhs = Parameter(sum.get(), 1, Shape::Scalar(type), "rhs");
  sum->AddInstruction(type == ElementType::kPred ? Opcode::kOr : Opcode::kAdd,
                      {lhs, rhs}, {});
  return sum->Build();
}

// The arrays of `operand`: its elements when it is a tuple (read with
// get-tuple-element), else itself.
std::vector<XlaOp> ArraysOf(XlaBuilder* builder, XlaOp operand,
                            const Shape& shape) {
  if (!shape.IsTuple()) return {operand};
  std::vector<XlaOp> elements;
  for (int64_t i = 0; i < shape.tuple_size(); ++i) {
    AttributeMap attrs;
    attrs.Set(attr::kIndex, i);
    elements.push_back(builder->AddInstruction(Opcode::kGetTupleElement,
                                               {operand}, std::move(attrs)));
  }
  return elements;
}

// all-to-all's checks of split_dimension, concat_dimension and split_count
// that the instruction itself does not carry.
absl::Status CheckAllToAllArgs(const Shape& shape, int64_t split_dimension,
                               int64_t concat_dimension, int64_t split_count,
                               ReplicaGroupList replica_groups) {
  auto error = [](const std::string& what) {
    return absl::InvalidArgumentError(
        absl::StrCat("all-to-all: ", what, " (", kAllToAllSection, ")"));
  };
  if (!shape.IsArray()) {
    return error(absl::StrCat("operand is ", shape.ToString(false),
                              ", expected an array"));
  }
  for (int64_t dim : {split_dimension, concat_dimension}) {
    if (dim < 0 || dim >= shape.rank()) {
      return error(absl::StrCat("dimension ", dim, " is out of range [0, ",
                                shape.rank(), ")"));
    }
  }
  if (split_count < 1 || shape.dimension(split_dimension) % split_count != 0) {
    return error(absl::StrCat("split dimension ", split_dimension, " (size ",
                              shape.dimension(split_dimension),
                              ") must be divisible by split_count ",
                              split_count));
  }
  for (size_t g = 0; g < replica_groups.size(); ++g) {
    if (static_cast<int64_t>(replica_groups[g].size()) != split_count) {
      return error(absl::StrCat("replica group ", g, " has ",
                                replica_groups[g].size(),
                                " ids, expected split_count ", split_count));
    }
  }
  return absl::OkStatus();
}

// Moves the split_count blocks of `exchanged` (received along
// split_dimension) to concat_dimension: reshape to expose the block dim,
// transpose it before concat_dimension, reshape to merge the two.
XlaOp MoveBlocksToConcatDimension(XlaBuilder* builder, XlaOp exchanged,
                                  const Shape& shape, int64_t split_dimension,
                                  int64_t concat_dimension,
                                  int64_t split_count) {
  std::vector<int64_t> blocked;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i == split_dimension) {
      blocked.push_back(split_count);
      blocked.push_back(shape.dimension(i) / split_count);
    } else {
      blocked.push_back(shape.dimension(i));
    }
  }
  XlaOp reshaped =
      builder->AddInstruction(Opcode::kReshape, {exchanged}, {},
                              Shape::Array(shape.element_type(), blocked));
  std::vector<int64_t> permutation;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i == concat_dimension) permutation.push_back(split_dimension);
    permutation.push_back(i >= split_dimension ? i + 1 : i);
  }
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, std::move(permutation));
  XlaOp transposed =
      builder->AddInstruction(Opcode::kTranspose, {reshaped}, std::move(attrs));
  std::vector<int64_t> result = shape.dimensions();
  result[split_dimension] /= split_count;
  result[concat_dimension] *= split_count;
  return builder->AddInstruction(Opcode::kReshape, {transposed}, {},
                                 Shape::Array(shape.element_type(), result));
}

// The arguments all-gather and reduce-scatter share.
struct ShardedArgs {
  int64_t dimension;
  int64_t shard_count;
  ReplicaGroupList replica_groups;
  const std::optional<ChannelHandle>& channel_id;
  const std::optional<Layout>& layout;
  std::optional<bool> use_global_device_ids;
};

// The result of all-gather (dimension * shard_count) or reduce-scatter
// (dimension / shard_count) with `layout`, to declare when the caller fixes
// the layout; nullopt when the dimension does not allow it, so that the
// op's rule reports why.
std::optional<Shape> LaidOutResult(Opcode opcode, const Shape& operand,
                                   const ShardedArgs& args) {
  const int64_t d = args.dimension;
  if (!operand.IsArray() || d < 0 || d >= operand.rank()) return std::nullopt;
  std::vector<int64_t> dims = operand.dimensions();
  if (opcode == Opcode::kAllGather) {
    dims[d] *= args.shard_count;
  } else if (dims[d] % args.shard_count == 0) {
    dims[d] /= args.shard_count;
  } else {
    return std::nullopt;
  }
  Shape result = Shape::Array(operand.element_type(), std::move(dims));
  result.set_layout(*args.layout);
  return result;
}

// all-gather / reduce-scatter: one dimension, a shard count, maybe a
// reducer, maybe a fixed layout (constrain_layout=true).
XlaOp ShardedCollective(Opcode opcode, XlaOp operand,
                        const XlaComputation* computation,
                        const ShardedArgs& args, absl::string_view section) {
  const std::string name(OpcodeName(opcode));
  XlaBuilder* builder = CheckedBuilder({operand}, name);
  if (builder == nullptr) return XlaOp();
  absl::Status ok =
      CheckShardCount(name, args.shard_count, args.replica_groups, section);
  if (!ok.ok()) return builder->ReportError(ok);
  AttributeMap attrs = CollectiveAttrs(args.replica_groups, args.channel_id,
                                       args.use_global_device_ids);
  attrs.Set(attr::kDimensions, Int64List{args.dimension});
  std::optional<Shape> declared;
  if (args.layout.has_value()) {
    attrs.Set(attr::kConstrainLayout, true);
    declared = LaidOutResult(opcode, *builder->GetShape(operand), args);
  }
  if (computation != nullptr) {
    Computation* reducer = builder->Import(*computation);
    if (reducer == nullptr) return XlaOp();
    attrs.Set(attr::kToApply, reducer);
  }
  return builder->AddInstruction(opcode, {operand}, std::move(attrs),
                                 std::move(declared));
}

}  // namespace

XlaOp AllReduce(XlaOp operand, const XlaComputation& computation,
                ReplicaGroupList replica_groups,
                const std::optional<ChannelHandle>& channel_id,
                const std::optional<Shape>& shape_with_layout,
                std::optional<bool> use_global_device_ids) {
  XlaBuilder* builder = CheckedBuilder({operand}, "all-reduce");
  if (builder == nullptr) return XlaOp();
  const Shape shape = *builder->GetShape(operand);
  std::vector<XlaOp> arrays = ArraysOf(builder, operand, shape);
  Computation* reducer = builder->Import(computation);
  if (reducer == nullptr) return XlaOp();
  AttributeMap attrs =
      CollectiveAttrs(replica_groups, channel_id, use_global_device_ids);
  attrs.Set(attr::kToApply, reducer);
  if (shape_with_layout.has_value()) attrs.Set(attr::kConstrainLayout, true);
  // A one-element tuple reduces its element; re-wrap it to keep the
  // operand's tuple shape (the instruction of one operand is an array).
  const bool rewrap = shape.IsTuple() && arrays.size() == 1;
  std::optional<Shape> declared = shape_with_layout;
  if (rewrap && declared.has_value() && declared->IsTuple() &&
      declared->tuple_size() == 1) {
    declared = declared->tuple_shape(0);
  }
  XlaOp reduced = builder->AddInstruction(Opcode::kAllReduce, arrays,
                                          std::move(attrs), declared);
  if (!rewrap) return reduced;
  return builder->AddInstruction(Opcode::kTuple, {reduced}, {});
}

XlaOp AllReduceTuple(absl::Span<const XlaOp> operands,
                     const XlaComputation& computation,
                     ReplicaGroupList replica_groups,
                     const std::optional<ChannelHandle>& channel_id,
                     std::optional<bool> use_global_device_ids) {
  XlaBuilder* builder = CheckedBuilder(operands, "all-reduce");
  if (builder == nullptr) return XlaOp();
  Computation* reducer = builder->Import(computation);
  if (reducer == nullptr) return XlaOp();
  AttributeMap attrs =
      CollectiveAttrs(replica_groups, channel_id, use_global_device_ids);
  attrs.Set(attr::kToApply, reducer);
  return builder->AddInstruction(Opcode::kAllReduce, operands,
                                 std::move(attrs));
}

XlaOp CrossReplicaSum(XlaOp operand, ReplicaGroupList replica_groups) {
  XlaBuilder* builder = CheckedBuilder({operand}, "all-reduce");
  if (builder == nullptr) return XlaOp();
  const Shape shape = *builder->GetShape(operand);
  const Shape& first =
      shape.IsTuple() && shape.tuple_size() > 0 ? shape.tuple_shape(0) : shape;
  absl::StatusOr<XlaComputation> sum =
      SumComputation(builder, first.element_type());
  if (!sum.ok()) return builder->ReportError(sum.status());
  return AllReduce(operand, *sum, replica_groups);
}

XlaOp AllGather(XlaOp operand, int64_t all_gather_dimension,
                int64_t shard_count, ReplicaGroupList replica_groups,
                const std::optional<ChannelHandle>& channel_id,
                const std::optional<Layout>& layout,
                std::optional<bool> use_global_device_ids) {
  const ShardedArgs args{
      all_gather_dimension, shard_count, replica_groups,
      channel_id,           layout,      use_global_device_ids};
  return ShardedCollective(Opcode::kAllGather, operand, nullptr, args,
                           kAllGatherSection);
}

XlaOp ReduceScatter(XlaOp operand, const XlaComputation& computation,
                    int64_t scatter_dimension, int64_t shard_count,
                    ReplicaGroupList replica_groups,
                    const std::optional<ChannelHandle>& channel_id,
                    const std::optional<Layout>& layout,
                    std::optional<bool> use_global_device_ids) {
  const ShardedArgs args{scatter_dimension, shard_count, replica_groups,
                         channel_id,        layout,      use_global_device_ids};
  return ShardedCollective(Opcode::kReduceScatter, operand, &computation, args,
                           kReduceScatterSection);
}

XlaOp AllToAll(XlaOp operand, int64_t split_dimension, int64_t concat_dimension,
               int64_t split_count, ReplicaGroupList replica_groups,
               const std::optional<ChannelHandle>& channel_id) {
  XlaBuilder* builder = CheckedBuilder({operand}, "all-to-all");
  if (builder == nullptr) return XlaOp();
  const Shape shape = *builder->GetShape(operand);
  absl::Status ok = CheckAllToAllArgs(shape, split_dimension, concat_dimension,
                                      split_count, replica_groups);
  if (!ok.ok()) return builder->ReportError(ok);
  AttributeMap attrs = CollectiveAttrs(replica_groups, channel_id, {});
  attrs.Set(attr::kDimensions, Int64List{split_dimension});
  XlaOp exchanged =
      builder->AddInstruction(Opcode::kAllToAll, {operand}, std::move(attrs));
  if (split_dimension == concat_dimension || !exchanged.valid()) {
    return exchanged;
  }
  return MoveBlocksToConcatDimension(builder, exchanged, shape, split_dimension,
                                     concat_dimension, split_count);
}

XlaOp AllToAllTuple(absl::Span<const XlaOp> operands,
                    ReplicaGroupList replica_groups,
                    const std::optional<ChannelHandle>& channel_id) {
  XlaBuilder* builder = CheckedBuilder(operands, "all-to-all");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(
      Opcode::kAllToAll, operands,
      CollectiveAttrs(replica_groups, channel_id, {}));
}

XlaOp RaggedAllToAll(XlaOp input, XlaOp input_offsets, XlaOp send_sizes,
                     XlaOp output, XlaOp output_offsets, XlaOp recv_sizes,
                     ReplicaGroupList replica_groups,
                     const std::optional<ChannelHandle>& channel_id) {
  const XlaOp operands[] = {input,      output,         input_offsets,
                            send_sizes, output_offsets, recv_sizes};
  XlaBuilder* builder = CheckedBuilder(operands, "ragged-all-to-all");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(
      Opcode::kRaggedAllToAll, operands,
      CollectiveAttrs(replica_groups, channel_id, {}));
}

XlaOp CollectivePermute(
    XlaOp operand,
    absl::Span<const std::pair<int64_t, int64_t>> source_target_pairs,
    const std::optional<ChannelHandle>& channel_id) {
  XlaBuilder* builder = CheckedBuilder({operand}, "collective-permute");
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  if (channel_id.has_value()) attrs.Set(attr::kChannelId, channel_id->handle);
  Int64ListList pairs;
  for (const auto& [source, target] : source_target_pairs) {
    pairs.push_back({source, target});
  }
  attrs.Set(attr::kSourceTargetPairs, std::move(pairs));
  return builder->AddInstruction(Opcode::kCollectivePermute, {operand},
                                 std::move(attrs));
}

XlaOp CollectiveBroadcast(XlaOp operand, ReplicaGroupList replica_groups,
                          const std::optional<ChannelHandle>& channel_id) {
  XlaBuilder* builder = CheckedBuilder({operand}, "collective-broadcast");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(
      Opcode::kCollectiveBroadcast, {operand},
      CollectiveAttrs(replica_groups, channel_id, {}));
}

XlaOp ReplicaId(XlaBuilder* builder) {
  return builder->AddInstruction(Opcode::kReplicaId, {}, {});
}

XlaOp PartitionId(XlaBuilder* builder) {
  return builder->AddInstruction(Opcode::kPartitionId, {}, {});
}

}  // namespace kiln
