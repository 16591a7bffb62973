// Collectives (replica groups, channel handles), the async start/done
// pairs of collectives (the start computes, the done passes the result
// on), send/recv, infeed/outfeed, replica-id and partition-id.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/module.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

constexpr int64_t kDeviceToDevice = 1;

int64_t GroupSize(const Instruction& i);

// replica_groups, channel_handle and use_global_device_ids. With
// `explicit_groups`, absent groups are written as the one group of every
// participant (all_to_all's verifier needs a group size).
std::string CollectiveAttrs(const Instruction& i, bool groups = true,
                            bool explicit_groups = false) {
  std::vector<std::string> attrs;
  if (groups) {
    const ReplicaGroups* given =
        i.attrs().Get<ReplicaGroups>(attr::kReplicaGroups);
    ReplicaGroups all;
    if (explicit_groups &&
        (given == nullptr || given->ExpandedGroups().empty())) {
      all.groups.emplace_back();
      for (int64_t k = 0; k < GroupSize(i); ++k) all.groups[0].push_back(k);
      given = &all;
    }
    attrs.push_back(
        absl::StrCat("replica_groups = ",
                     ReplicaGroupsAttr(given ? *given : ReplicaGroups())));
  }
  if (const int64_t* channel = i.attrs().Get<int64_t>(attr::kChannelId)) {
    attrs.push_back(absl::StrCat("channel_handle = ",
                                 ChannelHandle(*channel, kDeviceToDevice)));
  }
  const bool* global = i.attrs().Get<bool>(attr::kUseGlobalDeviceIds);
  if (global != nullptr && *global) attrs.push_back("use_global_device_ids");
  return absl::StrJoin(attrs, ", ");
}

absl::StatusOr<std::string> Reducer(FunctionEmitter& e, const Instruction& i) {
  Computation* const* c = i.attrs().Get<Computation*>(attr::kToApply);
  if (c == nullptr) return NoForm("no to_apply computation");
  return e.Region(**c);
}

// The one dimension of all-gather, reduce-scatter and array all-to-all.
absl::StatusOr<int64_t> OneDimension(const Instruction& i) {
  const Int64List* dims = i.attrs().Get<Int64List>(attr::kDimensions);
  if (dims == nullptr || dims->size() != 1) {
    return NoForm("needs exactly one dimension");
  }
  return (*dims)[0];
}

// The collective of an instruction or of its -start form.
absl::StatusOr<Value> AllReduceOf(FunctionEmitter& e, const Instruction& i,
                                  const Shape& shape) {
  absl::StatusOr<std::string> region = Reducer(e, i);
  if (!region.ok()) return region.status();
  absl::StatusOr<std::vector<Value>> operands = e.OperandLeaves(i);
  if (!operands.ok()) return operands.status();
  Op op{"stablehlo.all_reduce",
        *std::move(operands),
        CollectiveAttrs(i),
        {*std::move(region)},
        LeafShapes(shape)};
  return e.EmitAs(op, shape, i.name());
}

absl::StatusOr<Value> AllGatherOf(FunctionEmitter& e, const Instruction& i,
                                  const Shape& shape) {
  absl::StatusOr<int64_t> dim = OneDimension(i);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<std::vector<Value>> operands = e.OperandLeaves(i);
  if (!operands.ok()) return operands.status();
  Op op{"stablehlo.all_gather",
        *std::move(operands),
        absl::StrCat("all_gather_dim = ", *dim, " : i64, ", CollectiveAttrs(i)),
        {},
        LeafShapes(shape)};
  return e.EmitAs(op, shape, i.name());
}

absl::StatusOr<Value> EmitAllReduce(FunctionEmitter& e, const Instruction& i) {
  return AllReduceOf(e, i, i.shape());
}

absl::StatusOr<Value> EmitAllGather(FunctionEmitter& e, const Instruction& i) {
  return AllGatherOf(e, i, i.shape());
}

// all-gather-start's value is (operands, results) when its shape is a
// tuple of the two, else the results; the done takes element 1.
absl::StatusOr<Value> EmitAllGatherStart(FunctionEmitter& e,
                                         const Instruction& i) {
  const Shape& shape = i.shape();
  if (!shape.IsTuple() || shape.tuple_size() != 2) {
    return NoForm("all-gather-start of an unexpected shape");
  }
  absl::StatusOr<Value> result = AllGatherOf(e, i, shape.tuple_shape(1));
  if (!result.ok()) return result.status();
  Value inputs = e.Operand(i, 0);
  if (i.operand_count() > 1) {
    std::vector<Value> all;
    for (int64_t k = 0; k < i.operand_count(); ++k) {
      all.push_back(e.Operand(i, k));
    }
    inputs = KnownTuple(std::move(all));
  }
  return KnownTuple({inputs, *std::move(result)});
}

absl::StatusOr<Value> EmitAllGatherDone(FunctionEmitter& e,
                                        const Instruction& i) {
  return Element(e, e.Operand(i, 0), 1);
}

absl::StatusOr<Value> EmitForward(FunctionEmitter& e, const Instruction& i) {
  return e.Operand(i, 0);
}

// reduce-scatter; several operands reduce independently, so each gets
// its own stablehlo.reduce_scatter (which takes one).
absl::StatusOr<Value> EmitReduceScatter(FunctionEmitter& e,
                                        const Instruction& i) {
  absl::StatusOr<int64_t> dim = OneDimension(i);
  if (!dim.ok()) return dim.status();
  std::vector<Shape> shapes = LeafShapes(i.shape());
  if (static_cast<int64_t>(shapes.size()) != i.operand_count()) {
    return NoForm("reduce-scatter with a result unlike its operands");
  }
  std::vector<Value> results;
  for (int64_t k = 0; k < i.operand_count(); ++k) {
    absl::StatusOr<std::string> region = Reducer(e, i);
    if (!region.ok()) return region.status();
    Op op{"stablehlo.reduce_scatter",
          {e.Operand(i, k)},
          absl::StrCat("scatter_dimension = ", *dim, " : i64, ",
                       CollectiveAttrs(i)),
          {*std::move(region)},
          {shapes[k]}};
    absl::StatusOr<std::vector<Value>> got = e.Emit(op, i.name());
    if (!got.ok()) return got.status();
    results.push_back((*got)[0]);
  }
  size_t next = 0;
  return FunctionEmitter::Pack(i.shape(), results, &next);
}

// The participants per group: the groups' size, else every replica (or
// partition, with a channel) of the module.
int64_t GroupSize(const Instruction& i) {
  const ReplicaGroups* groups =
      i.attrs().Get<ReplicaGroups>(attr::kReplicaGroups);
  if (groups != nullptr) {
    std::vector<std::vector<int64_t>> expanded = groups->ExpandedGroups();
    if (!expanded.empty()) return expanded[0].size();
  }
  const Module* module = i.parent() ? i.parent()->parent() : nullptr;
  if (module == nullptr) return 1;
  return i.attrs().Has(attr::kChannelId) ? module->config().num_partitions
                                         : module->config().replica_count;
}

// The tuple form of all-to-all (no dimension): operand j goes to
// participant j. Stacked along a new major dimension it is the array form
// splitting and concatenating that dimension; the result is unstacked.
absl::StatusOr<Value> EmitTupleAllToAll(FunctionEmitter& e,
                                        const Instruction& i) {
  int64_t n = i.operand_count();
  const Shape& piece = i.operand(0)->shape();
  for (int64_t k = 0; k < n; ++k) {
    if (!i.operand(k)->shape().SameDimensionsAndType(piece)) {
      return NoForm(
          "a tuple all-to-all of unlike operands has no StableHLO "
          "form");
    }
  }
  if (GroupSize(i) != n || !piece.is_static()) {
    return NoForm(
        "a tuple all-to-all whose operand count is not the group "
        "size has no StableHLO form");
  }
  std::vector<int64_t> one = piece.dimensions();
  one.insert(one.begin(), 1);
  std::vector<int64_t> all = piece.dimensions();
  all.insert(all.begin(), n);
  Shape one_shape = Shape::Array(piece.element_type(), one);
  Shape all_shape = Shape::Array(piece.element_type(), all);
  std::vector<Value> rows;
  for (int64_t k = 0; k < n; ++k) {
    absl::StatusOr<std::vector<Value>> row =
        e.Emit(Op{"stablehlo.reshape", {e.Operand(i, k)}, "", {}, {one_shape}},
               i.name());
    if (!row.ok()) return row.status();
    rows.push_back((*row)[0]);
  }
  absl::StatusOr<std::vector<Value>> stacked = e.Emit(
      Op{"stablehlo.concatenate", rows, "dimension = 0 : i64", {}, {all_shape}},
      i.name());
  if (!stacked.ok()) return stacked.status();
  absl::StatusOr<std::vector<Value>> exchanged = e.Emit(
      Op{"stablehlo.all_to_all",
         *stacked,
         absl::StrCat("split_dimension = 0 : i64, concat_dimension = 0 : i64, "
                      "split_count = ",
                      n, " : i64, ", CollectiveAttrs(i, true, true)),
         {},
         {all_shape}},
      i.name());
  if (!exchanged.ok()) return exchanged.status();
  std::vector<Value> elements;
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int64_t> start(all.size(), 0), limit = all,
                                               strides(all.size(), 1);
    start[0] = k;
    limit[0] = k + 1;
    absl::StatusOr<std::vector<Value>> row =
        e.Emit(Op{"stablehlo.slice",
                  *exchanged,
                  absl::StrCat("start_indices = ", I64Array(start),
                               ", limit_indices = ", I64Array(limit),
                               ", strides = ", I64Array(strides)),
                  {},
                  {one_shape}},
               i.name());
    if (!row.ok()) return row.status();
    absl::StatusOr<std::vector<Value>> element =
        e.Emit(Op{"stablehlo.reshape", *row, "", {}, {piece}}, i.name());
    if (!element.ok()) return element.status();
    elements.push_back((*element)[0]);
  }
  return KnownTuple(std::move(elements));
}

absl::StatusOr<Value> EmitAllToAll(FunctionEmitter& e, const Instruction& i) {
  if (!i.attrs().Has(attr::kDimensions)) return EmitTupleAllToAll(e, i);
  absl::StatusOr<int64_t> dim = OneDimension(i);
  if (!dim.ok()) return dim.status();
  return EmitSimple(e, i, "stablehlo.all_to_all",
                    absl::StrCat("split_dimension = ", *dim,
                                 " : i64, concat_dimension = ", *dim,
                                 " : i64, split_count = ", GroupSize(i),
                                 " : i64, ", CollectiveAttrs(i, true, true)));
}

absl::StatusOr<Value> CollectivePermuteOf(FunctionEmitter& e,
                                          const Instruction& i,
                                          const Shape& shape) {
  const Int64ListList* pairs =
      i.attrs().Get<Int64ListList>(attr::kSourceTargetPairs);
  if (pairs == nullptr) return NoForm("no source_target_pairs");
  if (i.operand_count() != 1 || i.attrs().Has(attr::kSliceSizes)) {
    return NoForm(
        "the combined or in-place collective-permute has no "
        "StableHLO form");
  }
  std::string attrs = absl::StrCat(
      "source_target_pairs = ",
      pairs->empty() ? "dense<> : tensor<0x2xi64>" : DenseI64Matrix(*pairs));
  std::string rest = CollectiveAttrs(i, false);
  if (!rest.empty()) absl::StrAppend(&attrs, ", ", rest);
  Op op{"stablehlo.collective_permute", {e.Operand(i, 0)}, attrs, {}, {shape}};
  return e.EmitAs(op, shape, i.name());
}

absl::StatusOr<Value> EmitCollectivePermute(FunctionEmitter& e,
                                            const Instruction& i) {
  return CollectivePermuteOf(e, i, i.shape());
}

// collective-permute-start: (operand, result, contexts...).
absl::StatusOr<Value> EmitCollectivePermuteStart(FunctionEmitter& e,
                                                 const Instruction& i) {
  const Shape& shape = i.shape();
  if (!shape.IsTuple() || shape.tuple_size() < 2) {
    return NoForm("collective-permute-start of an unexpected shape");
  }
  absl::StatusOr<Value> result =
      CollectivePermuteOf(e, i, shape.tuple_shape(1));
  if (!result.ok()) return result.status();
  std::vector<Value> elements = {e.Operand(i, 0), *std::move(result)};
  for (int64_t k = 2; k < shape.tuple_size(); ++k) {
    absl::StatusOr<Value> context = EmitZero(e, shape.tuple_shape(k));
    if (!context.ok()) return context.status();
    elements.push_back(*std::move(context));
  }
  return KnownTuple(std::move(elements));
}

absl::StatusOr<Value> EmitCollectiveBroadcast(FunctionEmitter& e,
                                              const Instruction& i) {
  if (i.operand_count() != 1) {
    return NoForm("a dynamic root has no StableHLO form");
  }
  return EmitSimple(e, i, "stablehlo.collective_broadcast", CollectiveAttrs(i));
}

absl::StatusOr<Value> EmitId(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i,
                    i.opcode() == Opcode::kReplicaId
                        ? "stablehlo.replica_id"
                        : "stablehlo.partition_id");
}

}  // namespace

void AddIoHandlers(HandlerTable* table);

void AddCollectiveHandlers(HandlerTable* table) {
  (*table)[Opcode::kAllReduce] = &EmitAllReduce;
  (*table)[Opcode::kAllReduceStart] = &EmitAllReduce;
  (*table)[Opcode::kAllReduceDone] = &EmitForward;
  (*table)[Opcode::kAllGather] = &EmitAllGather;
  (*table)[Opcode::kAllGatherStart] = &EmitAllGatherStart;
  (*table)[Opcode::kAllGatherDone] = &EmitAllGatherDone;
  (*table)[Opcode::kReduceScatter] = &EmitReduceScatter;
  (*table)[Opcode::kAllToAll] = &EmitAllToAll;
  (*table)[Opcode::kCollectivePermute] = &EmitCollectivePermute;
  (*table)[Opcode::kCollectivePermuteStart] = &EmitCollectivePermuteStart;
  (*table)[Opcode::kCollectivePermuteDone] = &EmitAllGatherDone;
  (*table)[Opcode::kCollectiveBroadcast] = &EmitCollectiveBroadcast;
  (*table)[Opcode::kReplicaId] = &EmitId;
  (*table)[Opcode::kPartitionId] = &EmitId;
  AddIoHandlers(table);
}

}  // namespace kiln::stablehlo
