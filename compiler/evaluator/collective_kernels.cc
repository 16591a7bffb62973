// Kernels of the collective ops. Each device contributes its operands to
// its group through the CollectiveHub (collective_hub.h) and computes its
// own result from the group's contributions, in group order. Groups follow
// XLA's CollectiveOpGroupMode (collective_participants.h). Without a hub
// (plain Evaluate) the device is replica 0, partition 0 and every group is
// that device alone. The choices the spec leaves open are in
// docs/evaluator_random_collectives.md.
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/evaluator/collective_participants.h"
#include "compiler/evaluator/collective_permute.h"
#include "compiler/evaluator/collective_util.h"
#include "compiler/evaluator/dynamic_kernels.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {
namespace eval {
namespace {

// The group's contributions (tuples of each device's operands).
struct Gathered {
  Contributions values;
  std::vector<int64_t> devices;
  size_t self = 0;
  const Literal& Operand(size_t device, size_t j) const {
    return (*values)[device].tuple_elements()[j];
  }
};

absl::StatusOr<Gathered> GatherOperands(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context, bool has_flag) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  absl::StatusOr<std::optional<std::vector<int64_t>>> group =
      GroupDevices(instruction, context, has_flag);
  if (!group.ok()) return group.status();
  if (!group->has_value()) {
    return KernelError(
        instruction, absl::StrCat("device (replica ", context.device().replica,
                                  ", partition ", context.device().partition,
                                  ") is in no replica group"));
  }
  Gathered gathered;
  gathered.devices = std::move(**group);
  gathered.self = PositionOf(context, gathered.devices);
  absl::StatusOr<Contributions> values =
      ExchangeWithGroup(instruction, context, gathered.devices, Pack(operands));
  if (!values.ok()) return values.status();
  gathered.values = *std::move(values);
  if (absl::Status same = CheckSameShapes(instruction, *gathered.values,
                                          gathered.devices, gathered.self);
      !same.ok()) {
    return same;
  }
  return gathered;
}

absl::StatusOr<int64_t> SingleDimension(const Instruction& instruction) {
  const auto* dims = instruction.attrs().Get<Int64List>(attr::kDimensions);
  if (dims == nullptr || dims->size() != 1) {
    return KernelError(instruction, "needs dimensions={d}");
  }
  return (*dims)[0];
}

// The declared shape of result j of `count` (a single array or a tuple).
const Shape& DeclaredElement(const Shape& declared, size_t j, size_t count) {
  return count == 1 ? declared : declared.tuple_shape(j);
}

Shape WithDimension(const Shape& shape, int64_t dim, int64_t size) {
  std::vector<int64_t> dims = shape.dimensions();
  dims[dim] = size;
  return Shape::Array(shape.element_type(), std::move(dims));
}

// A result whose shape is not the declared one means the group has another
// size than the module was written for (typically plain Evaluate, one
// device, on a module for several): say so rather than fail in the driver.
absl::Status CheckDeclared(const Instruction& instruction,
                           const Shape& declared, const Literal& result,
                           size_t group_size) {
  if (!declared.is_static() || result.shape().Compatible(declared)) {
    return absl::OkStatus();
  }
  return KernelError(
      instruction,
      absl::StrCat("a group of ", group_size, " device(s) gives ",
                   result.shape().ToString(false), ", not the declared ",
                   declared.ToString(false),
                   " (plain Evaluate simulates one device; run modules for "
                   "several with EvaluateReplicated)"));
}

// Folds operand j of every member with to_apply, in group order.
absl::StatusOr<std::vector<Literal>> ReduceAcrossGroup(
    const Instruction& instruction, const Gathered& gathered,
    size_t operand_count, EvalContext& context) {
  Computation* const* to_apply =
      instruction.attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr) {
    return KernelError(instruction, "needs to_apply=");
  }
  std::vector<Literal> results;
  for (size_t j = 0; j < operand_count; ++j) {
    Literal accumulator = gathered.Operand(0, j);
    for (size_t g = 1; g < gathered.devices.size(); ++g) {
      absl::Status status = CombineInto(instruction, context, **to_apply,
                                        gathered.Operand(g, j), accumulator);
      if (!status.ok()) return status;
    }
    results.push_back(std::move(accumulator));
  }
  return results;
}

absl::StatusOr<Literal> AllReduceKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Gathered> gathered =
      GatherOperands(instruction, operands, context, /*has_flag=*/true);
  if (!gathered.ok()) return gathered.status();
  absl::StatusOr<std::vector<Literal>> results =
      ReduceAcrossGroup(instruction, *gathered, operands.size(), context);
  if (!results.ok()) return results.status();
  return SingleOrTuple(*std::move(results));
}

// all-gather's results: each operand's blocks from every member,
// concatenated along dimensions={d} in group order.
absl::StatusOr<std::vector<Literal>> AllGatherResults(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    const Shape& declared, EvalContext& context) {
  absl::StatusOr<Gathered> gathered =
      GatherOperands(instruction, operands, context, /*has_flag=*/true);
  if (!gathered.ok()) return gathered.status();
  absl::StatusOr<int64_t> dim = SingleDimension(instruction);
  if (!dim.ok()) return dim.status();
  const int64_t group_size = static_cast<int64_t>(gathered->devices.size());
  std::vector<Literal> results;
  for (size_t j = 0; j < operands.size(); ++j) {
    const Shape& shape = operands[j]->shape();
    absl::StatusOr<Literal> out = context.NewLiteral(
        instruction,
        WithDimension(shape, *dim, shape.dimension(*dim) * group_size));
    if (!out.ok()) return out.status();
    std::vector<const Literal*> parts;
    for (size_t g = 0; g < gathered->devices.size(); ++g) {
      parts.push_back(&gathered->Operand(g, j));
    }
    ConcatAlongDim(parts, *dim, *out);
    absl::Status fits = CheckDeclared(
        instruction, DeclaredElement(declared, j, operands.size()), *out,
        parts.size());
    if (!fits.ok()) return fits;
    results.push_back(*std::move(out));
  }
  return results;
}

absl::StatusOr<Literal> AllGatherKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<std::vector<Literal>> results =
      AllGatherResults(instruction, operands, instruction.shape(), context);
  if (!results.ok()) return results.status();
  return SingleOrTuple(*std::move(results));
}

// XLA's all-gather-start value: (operands, results), each a single array
// or a tuple.
absl::StatusOr<Literal> AllGatherStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (!instruction.shape().IsTuple() ||
      instruction.shape().tuple_shapes().size() != 2) {
    return KernelError(instruction,
                       "declared shape is not (operands, results)");
  }
  absl::StatusOr<std::vector<Literal>> results = AllGatherResults(
      instruction, operands, instruction.shape().tuple_shape(1), context);
  if (!results.ok()) return results.status();
  std::vector<Literal> inputs;
  for (const Literal* operand : operands) inputs.push_back(*operand);
  return Literal::Tuple(
      {SingleOrTuple(std::move(inputs)), SingleOrTuple(*std::move(results))});
}

absl::StatusOr<Literal> ReduceScatterKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Gathered> gathered =
      GatherOperands(instruction, operands, context, /*has_flag=*/true);
  if (!gathered.ok()) return gathered.status();
  absl::StatusOr<int64_t> dim = SingleDimension(instruction);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<std::vector<Literal>> reduced =
      ReduceAcrossGroup(instruction, *gathered, operands.size(), context);
  if (!reduced.ok()) return reduced.status();
  const int64_t group_size = static_cast<int64_t>(gathered->devices.size());
  std::vector<Literal> results;
  for (const Literal& full : *reduced) {
    const int64_t size = full.shape().dimension(*dim);
    if (size % group_size != 0) {
      return KernelError(
          instruction,
          absl::StrCat("dimension ", *dim, " (size ", size,
                       ") does not split among ", group_size, " devices"));
    }
    const int64_t block = size / group_size;
    absl::StatusOr<Literal> out = context.NewLiteral(
        instruction, WithDimension(full.shape(), *dim, block));
    if (!out.ok()) return out.status();
    SliceAlongDim(full, *dim, static_cast<int64_t>(gathered->self) * block,
                  *out);
    absl::Status fits = CheckDeclared(
        instruction,
        DeclaredElement(instruction.shape(), results.size(), reduced->size()),
        *out, gathered->devices.size());
    if (!fits.ok()) return fits;
    results.push_back(*std::move(out));
  }
  return SingleOrTuple(std::move(results));
}

// Array form (dimensions={d}): block k of member g's operand (split along
// d) goes to member k, which concatenates the blocks it receives along d
// in group order. Tuple form: operand k of member g becomes element g of
// member k's result.
absl::StatusOr<Literal> AllToAllKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Gathered> gathered =
      GatherOperands(instruction, operands, context, /*has_flag=*/false);
  if (!gathered.ok()) return gathered.status();
  const size_t group_size = gathered->devices.size();
  const size_t self = gathered->self;
  if (!instruction.attrs().Has(attr::kDimensions)) {
    if (operands.size() != group_size) {
      return KernelError(instruction,
                         absl::StrCat("tuple form takes one operand per "
                                      "group member (",
                                      group_size, "), got ", operands.size()));
    }
    std::vector<Literal> elements;
    for (size_t g = 0; g < group_size; ++g) {
      elements.push_back(gathered->Operand(g, self));
    }
    return Literal::Tuple(std::move(elements));
  }
  absl::StatusOr<int64_t> dim = SingleDimension(instruction);
  if (!dim.ok()) return dim.status();
  std::vector<Literal> results;
  for (size_t j = 0; j < operands.size(); ++j) {
    const Shape& shape = operands[j]->shape();
    const int64_t size = shape.dimension(*dim);
    if (size % static_cast<int64_t>(group_size) != 0) {
      return KernelError(
          instruction,
          absl::StrCat("split dimension ", *dim, " (size ", size,
                       ") does not split among ", group_size, " devices"));
    }
    const int64_t block = size / static_cast<int64_t>(group_size);
    std::vector<Literal> pieces;
    for (size_t g = 0; g < group_size; ++g) {
      absl::StatusOr<Literal> piece =
          context.NewLiteral(instruction, WithDimension(shape, *dim, block));
      if (!piece.ok()) return piece.status();
      SliceAlongDim(gathered->Operand(g, j), *dim,
                    static_cast<int64_t>(self) * block, *piece);
      pieces.push_back(*std::move(piece));
    }
    absl::StatusOr<Literal> out = context.NewLiteral(instruction, shape);
    if (!out.ok()) return out.status();
    std::vector<const Literal*> parts;
    for (const Literal& piece : pieces) parts.push_back(&piece);
    ConcatAlongDim(parts, *dim, *out);
    results.push_back(*std::move(out));
  }
  return SingleOrTuple(std::move(results));
}

// The root rank of a dynamic-root collective-broadcast: element 0 of each
// member's second operand (an integer array), which every member of the
// group must give alike, in [0, group size).
absl::StatusOr<int64_t> DynamicRoot(const Instruction& instruction,
                                    const Gathered& gathered) {
  const int64_t members = gathered.devices.size();
  std::optional<int64_t> root;
  for (int64_t m = 0; m < members; ++m) {
    const Literal& value = gathered.Operand(m, 1);
    if (!value.shape().IsArray() || !IsIntegralType(value.element_type()) ||
        value.element_count() < 1) {
      return KernelError(
          instruction,
          absl::StrCat("the root operand is ", value.shape().ToString(false),
                       "; it must be an integer array holding "
                       "the root's rank in its group"));
    }
    const int64_t rank = value.GetInt64(0);
    if (root.has_value() && *root != rank) {
      return KernelError(
          instruction,
          absl::StrCat("the members of a group give different roots: ", *root,
                       " and ", rank, " (device ", gathered.devices[m], ")"));
    }
    root = rank;
  }
  if (*root < 0 || *root >= members) {
    return KernelError(instruction, absl::StrCat("root rank ", *root,
                                                 " is outside the "
                                                 "group of ",
                                                 members, " devices"));
  }
  return *root;
}

absl::StatusOr<Literal> CollectiveBroadcastKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  const bool* dynamic_root =
      instruction.attrs().Get<bool>(attr::kHasDynamicRoot);
  const bool has_root_operand = dynamic_root != nullptr && *dynamic_root;
  if (operands.size() != (has_root_operand ? 2u : 1u)) {
    return KernelError(instruction,
                       has_root_operand
                           ? "has_dynamic_root=true needs a second operand "
                             "holding the root's rank in its group"
                           : "a second operand needs has_dynamic_root=true");
  }
  absl::StatusOr<std::optional<std::vector<int64_t>>> group =
      GroupDevices(instruction, context, /*has_flag=*/false);
  if (!group.ok()) return group.status();
  // The spec: a device in no group gets zeros.
  if (!group->has_value()) return context.NewResult(instruction);
  absl::StatusOr<Gathered> gathered =
      GatherOperands(instruction, operands, context, /*has_flag=*/false);
  if (!gathered.ok()) return gathered.status();
  // The spec: the first member of the group is the source. The dynamic-root
  // form (XLA's GPU backend) reads the source's rank in the group from
  // element 0 of the second operand.
  int64_t root = 0;
  if (has_root_operand) {
    absl::StatusOr<int64_t> rank = DynamicRoot(instruction, *gathered);
    if (!rank.ok()) return rank.status();
    root = *rank;
  }
  return gathered->Operand(root, 0);
}

absl::StatusOr<Literal> CollectivePermuteKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  return CollectivePermuteValue(instruction, operands, context);
}

absl::StatusOr<Literal> RaggedAllToAllKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  return RaggedAllToAllValue(instruction, operands, context);
}

// XLA's collective-permute-start value: (input, output, u32[], u32[]).
absl::StatusOr<Literal> CollectivePermuteStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  if (absl::Status rule = context.RuleShape(instruction).status(); !rule.ok())
    return rule;
  absl::StatusOr<Literal> output =
      CollectivePermuteValue(instruction, operands, context);
  if (!output.ok()) return output;
  absl::StatusOr<Literal> context_word =
      context.NewLiteral(instruction, Shape::Scalar(ElementType::kU32));
  if (!context_word.ok()) return context_word;
  // The first element is the input: the operand, or the combined form's
  // operands as a tuple.
  Literal input;
  if (operands.size() > 1 && !instruction.attrs().Has(attr::kSliceSizes)) {
    std::vector<Literal> elements;
    for (const Literal* operand : operands) elements.push_back(*operand);
    input = Literal::Tuple(std::move(elements));
  } else {
    input = *operands[0];
  }
  return Literal::Tuple(
      {std::move(input), *std::move(output), *context_word, *context_word});
}

absl::StatusOr<Literal> PassThroughDoneKernel(
    const Instruction&, absl::Span<const Literal* const> operands,
    EvalContext&) {
  return *operands[0];
}

// all-gather-done, collective-permute-done: element 1 of the start's tuple.
absl::StatusOr<Literal> ResultOfStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext&) {
  const std::vector<Literal>& elements = operands[0]->tuple_elements();
  if (elements.size() < 2) {
    return KernelError(
        instruction,
        absl::StrCat("operand is ", operands[0]->shape().ToString(false),
                     ", expected the tuple of a -start op"));
  }
  return elements[1];
}

absl::StatusOr<Literal> IdKernel(const Instruction& instruction,
                                 EvalContext& context, int64_t id) {
  absl::StatusOr<Literal> result =
      context.NewLiteral(instruction, Shape::Scalar(ElementType::kU32));
  if (!result.ok()) return result;
  result->SetBits(0, static_cast<uint64_t>(id));
  return result;
}

absl::StatusOr<Literal> ReplicaIdKernel(const Instruction& instruction,
                                        absl::Span<const Literal* const>,
                                        EvalContext& context) {
  return IdKernel(instruction, context, context.device().replica);
}

absl::StatusOr<Literal> PartitionIdKernel(const Instruction& instruction,
                                          absl::Span<const Literal* const>,
                                          EvalContext& context) {
  return IdKernel(instruction, context, context.device().partition);
}

}  // namespace

void RegisterCollectiveKernels(KernelTable* table) {
  table->Set(Opcode::kAllReduce,
             &WithDynamicSizes<AllReduceKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kAllReduceStart,
             &WithDynamicSizes<AllReduceKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kAllReduceDone, &PassThroughDoneKernel);
  table->Set(Opcode::kAllGather,
             &WithDynamicSizes<AllGatherKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kAllGatherStart, &AllGatherStartKernel);
  table->Set(Opcode::kAllGatherDone, &ResultOfStartKernel);
  table->Set(Opcode::kReduceScatter,
             &WithDynamicSizes<ReduceScatterKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kAllToAll,
             &WithDynamicSizes<AllToAllKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kRaggedAllToAll, &RaggedAllToAllKernel);
  table->Set(
      Opcode::kCollectiveBroadcast,
      &WithDynamicSizes<CollectiveBroadcastKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kCollectivePermute,
             &WithDynamicSizes<CollectivePermuteKernel, RunCollectiveDynamic>);
  table->Set(Opcode::kCollectivePermuteStart, &CollectivePermuteStartKernel);
  table->Set(Opcode::kCollectivePermuteDone, &ResultOfStartKernel);
  table->Set(Opcode::kReplicaId, &ReplicaIdKernel);
  table->Set(Opcode::kPartitionId, &PartitionIdKernel);
}

}  // namespace eval
}  // namespace kiln
