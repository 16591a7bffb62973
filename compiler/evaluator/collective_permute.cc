#include "compiler/evaluator/collective_permute.h"

#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_participants.h"
#include "compiler/evaluator/collective_util.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
namespace {

// The source whose value this device receives, if a pair targets it.
absl::StatusOr<std::optional<int64_t>> SourceFor(const Instruction& instruction,
                                                 const PermuteDomain& domain,
                                                 bool check_range) {
  const auto* pairs =
      instruction.attrs().Get<Int64ListList>(attr::kSourceTargetPairs);
  if (pairs == nullptr) {
    return KernelError(instruction, "needs source_target_pairs=");
  }
  const int64_t count = static_cast<int64_t>(domain.devices.size());
  std::optional<int64_t> source;
  for (const std::vector<int64_t>& pair : *pairs) {
    if (pair.size() != 2) {
      return KernelError(instruction,
                         "source_target_pairs entries must be pairs");
    }
    for (int64_t id : pair) {
      if (check_range && (id < 0 || id >= count)) {
        return KernelError(instruction,
                           absl::StrCat("source_target_pairs id ", id,
                                        " is out of range [0, ", count, ")"));
      }
    }
    if (pair[1] == domain.self && pair[0] >= 0 && pair[0] < count) {
      source = pair[0];
    }
  }
  return source;
}

// Bounds of one ragged update, checked before it is copied.
struct RaggedUpdate {
  int64_t input_offset;
  int64_t size;
  int64_t output_offset;
};

absl::Status CheckUpdate(const Instruction& instruction, int64_t from_device,
                         const RaggedUpdate& update, int64_t input_rows,
                         int64_t output_rows) {
  const bool ok = update.size >= 0 && update.input_offset >= 0 &&
                  update.output_offset >= 0 &&
                  update.input_offset <= input_rows - update.size &&
                  update.output_offset <= output_rows - update.size;
  if (ok) return absl::OkStatus();
  return KernelError(
      instruction,
      absl::StrCat("device ", from_device, " sends rows [", update.input_offset,
                   ", +", update.size, ") of ", input_rows, " to rows [",
                   update.output_offset, ", +", update.size, ") of ",
                   output_rows, ": out of bounds"));
}

// Copies member g's updates for this device (position `self`) into `out`.
absl::Status ApplyUpdatesFrom(const Instruction& instruction, int64_t device,
                              const std::vector<Literal>& parts, size_t self,
                              size_t group_size, Literal& out) {
  const Literal& input = parts[0];
  const Literal& input_offsets = parts[1];
  const Literal& send_sizes = parts[2];
  const Literal& output_offsets = parts[3];
  const Shape& in_shape = input.shape();
  const Shape& out_shape = out.shape();
  if (in_shape.element_type() != out_shape.element_type() ||
      in_shape.rank() != out_shape.rank() || in_shape.rank() == 0 ||
      util::Product(absl::MakeSpan(in_shape.dimensions()).subspan(1)) !=
          util::Product(absl::MakeSpan(out_shape.dimensions()).subspan(1))) {
    return KernelError(
        instruction,
        absl::StrCat("device ", device, " sends ", in_shape.ToString(false),
                     " rows into an output ", out_shape.ToString(false)));
  }
  const Shape& offsets_shape = input_offsets.shape();
  if (offsets_shape.rank() < 1 ||
      offsets_shape.dimension(0) != static_cast<int64_t>(group_size)) {
    return KernelError(
        instruction, absl::StrCat("device ", device, "'s offsets are ",
                                  offsets_shape.ToString(false), ", expected ",
                                  group_size, " rows (one per group member)"));
  }
  const int64_t updates =
      offsets_shape.rank() == 2 ? offsets_shape.dimension(1) : 1;
  const int64_t row_bytes =
      util::Product(absl::MakeSpan(out_shape.dimensions()).subspan(1)) *
      GetElementTypeInfo(out_shape.element_type()).storage_bytes;
  for (int64_t u = 0; u < updates; ++u) {
    const int64_t index = static_cast<int64_t>(self) * updates + u;
    const RaggedUpdate update = {input_offsets.GetInt64(index),
                                 send_sizes.GetInt64(index),
                                 output_offsets.GetInt64(index)};
    absl::Status bounds =
        CheckUpdate(instruction, device, update, in_shape.dimension(0),
                    out_shape.dimension(0));
    if (!bounds.ok()) return bounds;
    if (update.size == 0 || row_bytes == 0) continue;
    std::memcpy(out.mutable_data().data() + update.output_offset * row_bytes,
                input.data().data() + update.input_offset * row_bytes,
                update.size * row_bytes);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> CollectivePermuteValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  // slice_sizes marks the in-place form, as in XLA.
  if (instruction.attrs().Has(attr::kSliceSizes)) {
    if (operands.size() != 4) {
      return KernelError(instruction,
                         "the in-place form (slice_sizes) takes 4 operands");
    }
    return CollectivePermuteInPlaceValue(instruction, operands, context);
  }
  if (operands.empty()) {
    return KernelError(instruction, "collective-permute takes an operand");
  }
  // The result: one array, or the tuple of the combined form's arrays (the
  // start's element 1).
  const Shape& result_shape =
      instruction.opcode() == Opcode::kCollectivePermuteStart &&
              instruction.shape().IsTuple() &&
              instruction.shape().tuple_shapes().size() > 1
          ? instruction.shape().tuple_shape(1)
          : instruction.shape();
  const bool combined = operands.size() > 1;
  if (combined && (!result_shape.IsTuple() ||
                   result_shape.tuple_shapes().size() != operands.size())) {
    return KernelError(instruction, absl::StrCat("the combined form's result ",
                                                 result_shape.ToString(false),
                                                 " is not a tuple of ",
                                                 operands.size(), " arrays"));
  }
  const PermuteDomain domain = PermuteDomainOf(instruction, context);
  const bool simulated = context.collectives() != nullptr;
  absl::StatusOr<std::optional<int64_t>> source =
      SourceFor(instruction, domain, /*check_range=*/simulated);
  if (!source.ok()) return source.status();
  absl::StatusOr<Contributions> values =
      ExchangeWithGroup(instruction, context, domain.devices, Pack(operands));
  if (!values.ok()) return values.status();
  std::vector<Literal> results;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!source->has_value()) {
      // The spec: a device no pair targets gets zeros.
      absl::StatusOr<Literal> zeros = context.NewLiteral(
          instruction, combined ? result_shape.tuple_shape(i) : result_shape);
      if (!zeros.ok()) return zeros.status();
      results.push_back(*std::move(zeros));
      continue;
    }
    const Literal& received = (**values)[**source].tuple_elements()[i];
    if (!received.shape().Compatible(operands[i]->shape())) {
      return KernelError(
          instruction,
          absl::StrCat("device ", domain.devices[**source], " sends ",
                       received.shape().ToString(false), " but this device ",
                       "expects ", operands[i]->shape().ToString(false)));
    }
    results.push_back(received);
  }
  if (!combined) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

absl::StatusOr<Literal> RaggedAllToAllValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<std::optional<std::vector<int64_t>>> group =
      GroupDevices(instruction, context, /*has_flag=*/false);
  if (!group.ok()) return group.status();
  if (!group->has_value()) {
    return KernelError(instruction, "this device is in no replica group");
  }
  const std::vector<int64_t>& devices = **group;
  const size_t self = PositionOf(context, devices);
  // input, input_offsets, send_sizes, output_offsets
  const Literal* sent[] = {operands[0], operands[2], operands[3], operands[4]};
  absl::StatusOr<Contributions> values =
      ExchangeWithGroup(instruction, context, devices, Pack(sent));
  if (!values.ok()) return values.status();
  Literal out = *operands[1];
  for (size_t g = 0; g < devices.size(); ++g) {
    absl::Status status = ApplyUpdatesFrom(instruction, devices[g],
                                           (**values)[g].tuple_elements(), self,
                                           devices.size(), out);
    if (!status.ok()) return status;
  }
  return out;
}

}  // namespace eval
}  // namespace kiln
