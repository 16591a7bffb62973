// Cross-replica and cross-partition ops. Attribute order follows XLA's
// HloChannelInstruction / HloCollectiveInstruction printers: channel_id,
// replica_groups, constrain_layout, then the op's own attributes, then the
// called computation. The shape rules check replica groups
// (collective_groups.h) and the called reducer.
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/collective_groups.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/shape_rule_util.h"

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
  // slice_sizes marks the four-operand in-place form (as in XLA).
  return {Optional("channel_id", AttrKind::kInt64),
          Required("source_target_pairs", AttrKind::kInt64ListList),
          Optional("slice_sizes", AttrKind::kInt64ListList)};
}

constexpr absl::string_view kAllReduce = "operation_semantics.md, AllReduce";
constexpr absl::string_view kAllGather = "operation_semantics.md, AllGather";
constexpr absl::string_view kAllToAll = "operation_semantics.md, AllToAll";
constexpr absl::string_view kRaggedAllToAll =
    "operation_semantics.md, RaggedAllToAll";
constexpr absl::string_view kReduceScatter =
    "operation_semantics.md, ReduceScatter";
constexpr absl::string_view kCollectiveBroadcast =
    "operation_semantics.md, CollectiveBroadcast";
constexpr absl::string_view kCollectivePermute =
    "operation_semantics.md, CollectivePermute";
constexpr absl::string_view kAsyncDone = "async_ops.md, Async collectives";

// Every operand, each an array.
absl::StatusOr<std::vector<const Shape*>> ArrayOperands(
    const Instruction& instruction, absl::string_view section) {
  std::vector<const Shape*> shapes;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, section);
    if (!shape.ok()) return shape.status();
    shapes.push_back(*shape);
  }
  return shapes;
}

std::vector<Shape> Copies(const std::vector<const Shape*>& shapes) {
  std::vector<Shape> copies;
  for (const Shape* shape : shapes) {
    copies.push_back(ArrayResult(shape->element_type(), shape->dimensions(),
                                 shape->dynamic_dimensions()));
  }
  return copies;
}

// to_apply: (T, T) -> T with T the operands' (common) element type.
absl::Status CheckBinaryReducer(const Instruction& instruction,
                                const std::vector<const Shape*>& operands,
                                absl::string_view section) {
  std::vector<int64_t> all(operands.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  KILN_RULE_RETURN_IF_ERROR(CheckSameElementType(instruction, all, section));
  absl::StatusOr<const Computation*> reducer =
      RequiredComputationAttr(instruction, attr::kToApply, section);
  if (!reducer.ok()) return reducer.status();
  const Shape scalar = Shape::Scalar(operands[0]->element_type());
  return CheckSignature(instruction, "to_apply", **reducer, {scalar, scalar},
                        scalar, section);
}

// The single dimensions={d} of all-gather / reduce-scatter, in range of
// every operand.
absl::StatusOr<int64_t> CollectiveDimension(
    const Instruction& instruction, const std::vector<const Shape*>& operands,
    absl::string_view section) {
  std::vector<int64_t> ranks;
  for (const Shape* operand : operands) ranks.push_back(operand->rank());
  return SingleDimensionAttr(instruction, ranks, section);
}

absl::StatusOr<Shape> AllReduceShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      ArrayOperands(instruction, kAllReduce);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<int64_t> group_size = CheckReplicaGroups(
      instruction, {/*has_global_device_ids=*/true, /*uniform=*/false},
      kAllReduce);
  if (!group_size.ok()) return group_size.status();
  KILN_RULE_RETURN_IF_ERROR(
      CheckBinaryReducer(instruction, *operands, kAllReduce));
  return SingleOrTuple(Copies(*operands));
}

// The all-gather results: dimension d of each operand times the group size.
absl::StatusOr<std::vector<Shape>> GatheredShapes(
    const Instruction& instruction) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      ArrayOperands(instruction, kAllGather);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<int64_t> dim =
      CollectiveDimension(instruction, *operands, kAllGather);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<int64_t> group_size = CheckReplicaGroups(
      instruction, {/*has_global_device_ids=*/true, /*uniform=*/true},
      kAllGather);
  if (!group_size.ok()) return group_size.status();
  std::vector<Shape> results = Copies(*operands);
  for (Shape& result : results) {
    std::vector<int64_t> dims = result.dimensions();
    if (result.is_unbounded_dimension(*dim)) continue;
    absl::StatusOr<int64_t> size =
        CheckedMul(instruction, dims[*dim], *group_size, kAllGather);
    if (!size.ok()) return size.status();
    dims[*dim] = *size;
    result = ArrayResult(result.element_type(), std::move(dims),
                         result.dynamic_dimensions());
  }
  return results;
}

absl::StatusOr<Shape> AllGatherShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  absl::StatusOr<std::vector<Shape>> results = GatheredShapes(instruction);
  if (!results.ok()) return results.status();
  return SingleOrTuple(*std::move(results));
}

// XLA: (operand, result) for one operand, ((operands...), (results...))
// for several.
absl::StatusOr<Shape> AllGatherStartShape(const Instruction& instruction,
                                          ShapeForm /*form*/) {
  absl::StatusOr<std::vector<Shape>> results = GatheredShapes(instruction);
  if (!results.ok()) return results.status();
  std::vector<Shape> inputs;
  for (const Instruction* operand : instruction.operands()) {
    inputs.push_back(ArrayResult(operand->shape().element_type(),
                                 operand->shape().dimensions(),
                                 operand->shape().dynamic_dimensions()));
  }
  return Shape::Tuple(
      {SingleOrTuple(std::move(inputs)), SingleOrTuple(*std::move(results))});
}

absl::StatusOr<Shape> ReduceScatterShape(const Instruction& instruction,
                                         ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      ArrayOperands(instruction, kReduceScatter);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<int64_t> dim =
      CollectiveDimension(instruction, *operands, kReduceScatter);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<int64_t> group_size = CheckReplicaGroups(
      instruction, {/*has_global_device_ids=*/true, /*uniform=*/true},
      kReduceScatter);
  if (!group_size.ok()) return group_size.status();
  KILN_RULE_RETURN_IF_ERROR(
      CheckBinaryReducer(instruction, *operands, kReduceScatter));
  std::vector<Shape> results = Copies(*operands);
  for (size_t i = 0; i < results.size(); ++i) {
    std::vector<int64_t> dims = results[i].dimensions();
    if (results[i].is_unbounded_dimension(*dim)) continue;
    if (dims[*dim] % *group_size != 0) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " dimension ", *dim, " (size ",
                       dims[*dim], ") is not divisible by the group size ",
                       *group_size),
          kReduceScatter);
    }
    dims[*dim] /= *group_size;
    results[i] = ArrayResult(results[i].element_type(), std::move(dims),
                             results[i].dynamic_dimensions());
  }
  return SingleOrTuple(std::move(results));
}

// Array form (dimensions={d}): each operand keeps its shape, dimension d
// divisible by the group size. Tuple form: one operand per participant, all
// of one shape.
absl::StatusOr<Shape> AllToAllShape(const Instruction& instruction,
                                    ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      ArrayOperands(instruction, kAllToAll);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<int64_t> group_size = CheckReplicaGroups(
      instruction, {/*has_global_device_ids=*/false, /*uniform=*/true},
      kAllToAll);
  if (!group_size.ok()) return group_size.status();
  const std::vector<int64_t>* dims =
      Int64ListAttr(instruction, attr::kDimensions);
  if (dims != nullptr) {
    absl::StatusOr<int64_t> dim =
        CollectiveDimension(instruction, *operands, kAllToAll);
    if (!dim.ok()) return dim.status();
    for (size_t i = 0; i < operands->size(); ++i) {
      const int64_t size = (*operands)[i]->dimension(*dim);
      if (size % *group_size != 0) {
        return RuleError(
            instruction,
            absl::StrCat("operand ", i, " split dimension ", *dim, " (size ",
                         size, ") is not divisible by the group size ",
                         *group_size),
            kAllToAll);
      }
    }
    return SingleOrTuple(Copies(*operands));
  }
  if (static_cast<int64_t>(operands->size()) != *group_size) {
    return RuleError(instruction,
                     absl::StrCat("tuple form takes one operand per group "
                                  "member (",
                                  *group_size, "), got ", operands->size()),
                     kAllToAll);
  }
  for (size_t i = 1; i < operands->size(); ++i) {
    if (!(*operands)[i]->SameDimensionsAndType(*(*operands)[0])) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " is ", ShapeText(*(*operands)[i]),
                       ", expected operand 0's shape ",
                       ShapeText(*(*operands)[0])),
          kAllToAll);
    }
  }
  return Shape::Tuple(Copies(*operands));
}

// Operands: input, output, input_offsets, send_sizes, output_offsets,
// recv_sizes. The result is the output buffer.
absl::StatusOr<Shape> RaggedAllToAllShape(const Instruction& instruction,
                                          ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      ArrayOperands(instruction, kRaggedAllToAll);
  if (!operands.ok()) return operands.status();
  if (operands->size() != 6) {
    return RuleError(instruction,
                     absl::StrCat("takes 6 operands, got ", operands->size()),
                     kRaggedAllToAll);
  }
  const Shape& input = *(*operands)[0];
  const Shape& output = *(*operands)[1];
  if (input.element_type() != output.element_type() ||
      input.rank() != output.rank() || input.rank() == 0) {
    return RuleError(instruction,
                     absl::StrCat("input ", ShapeText(input), " and output ",
                                  ShapeText(output),
                                  " must be arrays of one type and rank >= 1"),
                     kRaggedAllToAll);
  }
  const Shape& offsets = *(*operands)[2];
  for (int64_t i = 2; i < 6; ++i) {
    const Shape& shape = *(*operands)[i];
    const ElementType type = shape.element_type();
    if ((type != ElementType::kS32 && type != ElementType::kS64) ||
        !shape.SameDimensionsAndType(offsets)) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " is ", ShapeText(shape),
                       ", expected s32 or s64 offsets/sizes shaped like "
                       "input_offsets ",
                       ShapeText(offsets)),
          kRaggedAllToAll);
    }
  }
  // The spec's two forms: [num_devices] or [num_devices, num_updates].
  if (offsets.rank() != 1 && offsets.rank() != 2) {
    return RuleError(instruction,
                     absl::StrCat("offsets and sizes are ", ShapeText(offsets),
                                  ", expected rank 1 ([num_devices]) or 2 "
                                  "([num_devices, num_updates])"),
                     kRaggedAllToAll);
  }
  absl::StatusOr<int64_t> group_size = CheckReplicaGroups(
      instruction, {/*has_global_device_ids=*/false, /*uniform=*/true},
      kRaggedAllToAll);
  if (!group_size.ok()) return group_size.status();
  return Copies({&output})[0];
}

absl::StatusOr<Shape> CollectiveBroadcastShape(const Instruction& instruction,
                                               ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> operand =
      ArrayOperand(instruction, 0, kCollectiveBroadcast);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<int64_t> group_size =
      CheckReplicaGroups(instruction,
                         {/*has_global_device_ids=*/false, /*uniform=*/false,
                          /*cover_all=*/false},
                         kCollectiveBroadcast);
  if (!group_size.ok()) return group_size.status();
  return Copies({*operand})[0];
}

// Each pair names a source and a target among the replicas (partitions
// with a channel_id); no source and no target twice.
absl::Status CheckSourceTargetPairs(const Instruction& instruction) {
  const auto* pairs =
      instruction.attrs().Get<Int64ListList>(attr::kSourceTargetPairs);
  if (pairs == nullptr) {
    return RuleError(instruction, "needs source_target_pairs",
                     kCollectivePermute);
  }
  const DeviceCounts counts = DeviceCountsOf(instruction);
  const int64_t limit = instruction.attrs().Has(attr::kChannelId)
                            ? counts.partitions
                            : counts.replicas;
  std::set<int64_t> sources;
  std::set<int64_t> targets;
  for (const std::vector<int64_t>& pair : *pairs) {
    if (pair.size() != 2) {
      return RuleError(
          instruction,
          absl::StrCat("source_target_pairs entry ", DimsToString(pair),
                       " is not a {source,target} pair"),
          kCollectivePermute);
    }
    for (int64_t id : pair) {
      // An unset replica_count / num_partitions (1) leaves the ids open.
      if (id < 0 || (limit > 1 && id >= limit)) {
        return RuleError(instruction,
                         absl::StrCat("source_target_pairs id ", id,
                                      " is out of range [0, ", limit, ")"),
                         kCollectivePermute);
      }
    }
    if (!sources.insert(pair[0]).second) {
      return RuleError(instruction,
                       absl::StrCat("source ", pair[0],
                                    " appears twice in "
                                    "source_target_pairs"),
                       kCollectivePermute);
    }
    if (!targets.insert(pair[1]).second) {
      return RuleError(instruction,
                       absl::StrCat("target ", pair[1],
                                    " appears twice in "
                                    "source_target_pairs"),
                       kCollectivePermute);
    }
  }
  return absl::OkStatus();
}

// The in-place form's input and output buffers: each an array, or both
// tuples of arrays with as many elements (several read/write pairs), each
// pair of one element type and rank.
absl::Status CheckInPlaceBuffers(const Instruction& instruction) {
  const Shape& input = instruction.operand(0)->shape();
  const Shape& output = instruction.operand(1)->shape();
  std::vector<std::pair<const Shape*, const Shape*>> buffers;
  if (input.IsTuple() && output.IsTuple() &&
      input.tuple_shapes().size() == output.tuple_shapes().size()) {
    for (size_t i = 0; i < input.tuple_shapes().size(); ++i) {
      buffers.emplace_back(&input.tuple_shape(i), &output.tuple_shape(i));
    }
  } else {
    buffers.emplace_back(&input, &output);
  }
  for (const auto& [in, out] : buffers) {
    if (!in->IsArray() || !out->IsArray()) {
      return RuleError(
          instruction,
          absl::StrCat("input ", ShapeText(input), " and output buffer ",
                       ShapeText(output),
                       " must be arrays, or tuples of arrays with as many "
                       "elements"),
          kCollectivePermute);
    }
    if (in->element_type() != out->element_type()) {
      return RuleError(
          instruction,
          absl::StrCat("element types must be equal: input ", ShapeText(*in),
                       ", output buffer ", ShapeText(*out)),
          kCollectivePermute);
    }
    if (in->rank() != out->rank()) {
      return RuleError(
          instruction,
          absl::StrCat("output buffer ", ShapeText(*out),
                       " must have the rank of the input ", ShapeText(*in)),
          kCollectivePermute);
    }
  }
  return absl::OkStatus();
}

bool IsInPlacePermute(const Instruction& instruction) {
  return instruction.attrs().Has(attr::kSliceSizes);
}

// XLA's forms. Without slice_sizes, each operand an array: one operand
// gives its shape, several (the combined form) the tuple of their shapes.
// With slice_sizes, in place: (input, output buffer, input start indices,
// output start indices), giving the output buffer's shape.
absl::StatusOr<Shape> CollectivePermuteShape(const Instruction& instruction,
                                             ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckSourceTargetPairs(instruction));
  const int64_t count = instruction.operand_count();
  if (!IsInPlacePermute(instruction)) {
    absl::StatusOr<std::vector<const Shape*>> operands =
        ArrayOperands(instruction, kCollectivePermute);
    if (!operands.ok()) return operands.status();
    std::vector<Shape> results = Copies(*operands);
    if (count == 1) return results[0];
    return Shape::Tuple(std::move(results));
  }
  if (count != 4) {
    return RuleError(instruction,
                     absl::StrCat("the in-place form (slice_sizes) takes 4 "
                                  "operands, got ",
                                  count),
                     kCollectivePermute);
  }
  KILN_RULE_RETURN_IF_ERROR(CheckInPlaceBuffers(instruction));
  Shape output = instruction.operand(1)->shape();
  output.clear_layout();
  output.SetDefaultLayoutIfMissing();
  return output;
}

// XLA: (operands, result, u32[], u32[]), the last two the context; the
// in-place form's first element is its input.
absl::StatusOr<Shape> CollectivePermuteStartShape(
    const Instruction& instruction, ShapeForm form) {
  absl::StatusOr<Shape> output = CollectivePermuteShape(instruction, form);
  if (!output.ok()) return output.status();
  Shape first = *output;
  if (IsInPlacePermute(instruction)) {
    first = instruction.operand(0)->shape();
    first.clear_layout();
    first.SetDefaultLayoutIfMissing();
  }
  std::vector<Shape> elements;
  elements.push_back(std::move(first));
  elements.push_back(*std::move(output));
  elements.push_back(Shape::Scalar(ElementType::kU32));
  elements.push_back(Shape::Scalar(ElementType::kU32));
  return Shape::Tuple(std::move(elements));
}

// all-gather-done and collective-permute-done: element 1 of the start's
// tuple, the result buffer.
absl::StatusOr<Shape> AsyncCollectiveDoneShape(const Instruction& instruction,
                                               ShapeForm /*form*/) {
  const Shape& start = instruction.operand(0)->shape();
  if (!start.IsTuple() || start.tuple_shapes().size() < 2) {
    return RuleError(instruction,
                     absl::StrCat("operand is ", ShapeText(start),
                                  ", expected the tuple of a -start op"),
                     kAsyncDone);
  }
  Shape result = start.tuple_shape(1);
  result.clear_layout();
  result.SetDefaultLayoutIfMissing();
  return result;
}

// all-reduce-done: the shape of all-reduce-start, which is the result.
absl::StatusOr<Shape> AllReduceDoneShape(const Instruction& instruction,
                                         ShapeForm /*form*/) {
  const Instruction& start = *instruction.operand(0);
  if (start.opcode() != Opcode::kAllReduceStart) {
    return RuleError(instruction,
                     absl::StrCat("operand is ", OpcodeName(start.opcode()),
                                  ", expected all-reduce-start"),
                     kAsyncDone);
  }
  Shape result = start.shape();
  result.clear_layout();
  result.SetDefaultLayoutIfMissing();
  return result;
}

absl::StatusOr<Shape> ReplicaIdShape(const Instruction& /*instruction*/,
                                     ShapeForm /*form*/) {
  return Shape::Scalar(ElementType::kU32);
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
  // Several operands in the combined form (one per permuted array).
  Define(table, Opcode::kCollectivePermute, 1, -1, CollectivePermuteAttrs());
  Define(table, Opcode::kCollectivePermuteStart, 1, -1,
         CollectivePermuteAttrs());
  Define(table, Opcode::kCollectivePermuteDone, 1, 1);
  Define(table, Opcode::kReplicaId, 0, 0);
  Define(table, Opcode::kPartitionId, 0, 0);

  SetShapeRule(table, Opcode::kAllReduce, AllReduceShape);
  SetShapeRule(table, Opcode::kAllReduceStart, AllReduceShape);
  SetShapeRule(table, Opcode::kAllReduceDone, AllReduceDoneShape);
  SetShapeRule(table, Opcode::kAllGather, AllGatherShape);
  SetShapeRule(table, Opcode::kAllGatherStart, AllGatherStartShape);
  SetShapeRule(table, Opcode::kAllGatherDone, AsyncCollectiveDoneShape);
  SetShapeRule(table, Opcode::kReduceScatter, ReduceScatterShape);
  SetShapeRule(table, Opcode::kAllToAll, AllToAllShape);
  SetShapeRule(table, Opcode::kRaggedAllToAll, RaggedAllToAllShape);
  SetShapeRule(table, Opcode::kCollectiveBroadcast, CollectiveBroadcastShape);
  SetShapeRule(table, Opcode::kCollectivePermute, CollectivePermuteShape);
  SetShapeRule(table, Opcode::kCollectivePermuteStart,
               CollectivePermuteStartShape);
  SetShapeRule(table, Opcode::kCollectivePermuteDone, AsyncCollectiveDoneShape);
  SetShapeRule(table, Opcode::kReplicaId, ReplicaIdShape);
  SetShapeRule(table, Opcode::kPartitionId, ReplicaIdShape);
}

}  // namespace ops_internal
}  // namespace kiln
