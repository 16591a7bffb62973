// collective-permute's four-operand in-place form, as XLA writes it:
//
//   collective-permute(input, output, input_start_indices,
//                      output_start_indices), source_target_pairs={...},
//                      slice_sizes={...}
//
// For each pair (s, t), a slice of `slice_size` elements of s's input,
// starting at s's input start indices, is written into t's output buffer
// at t's output start indices. The result is t's output buffer after the
// writes (docs/evaluator_random_collectives.md gives the choices).
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/collective_participants.h"
#include "compiler/evaluator/collective_permute.h"
#include "compiler/evaluator/collective_util.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln {
namespace eval {
namespace {

// One integer scalar literal as an index, or an error.
absl::StatusOr<int64_t> ScalarIndex(const Instruction& instruction,
                                    const Literal& value) {
  if (!value.shape().IsArray() || !value.shape().IsScalar() ||
      !IsIntegralType(value.element_type())) {
    return KernelError(
        instruction,
        absl::StrCat("a start index is ", value.shape().ToString(false),
                     "; start indices are integer scalars"));
  }
  return value.GetInt64(0);
}

// Pair k's start indices from a start-indices operand: a tuple of `rank`
// integer scalars (every pair uses it) or a tuple with one such tuple per
// pair.
absl::StatusOr<std::vector<int64_t>> StartIndices(
    const Instruction& instruction, const Literal& operand, size_t pair,
    size_t pair_count, int64_t rank) {
  const std::vector<Literal>& elements = operand.tuple_elements();
  const Literal* indices = &operand;
  if (!elements.empty() && elements[0].shape().IsTuple()) {
    if (elements.size() != pair_count) {
      return KernelError(
          instruction,
          absl::StrCat("start indices hold ", elements.size(),
                       " tuples; a tuple per pair needs ", pair_count));
    }
    indices = &elements[pair];
  }
  if (!indices->shape().IsTuple() ||
      static_cast<int64_t>(indices->tuple_elements().size()) != rank) {
    return KernelError(
        instruction,
        absl::StrCat("start indices ", indices->shape().ToString(false),
                     " must be a tuple of ", rank,
                     " integer scalars (or one "
                     "such tuple per pair)"));
  }
  std::vector<int64_t> starts;
  for (const Literal& element : indices->tuple_elements()) {
    absl::StatusOr<int64_t> start = ScalarIndex(instruction, element);
    if (!start.ok()) return start.status();
    starts.push_back(*start);
  }
  return starts;
}

// Pair k's slice sizes: slice_sizes has one entry for every pair or one
// for all of them.
absl::StatusOr<std::vector<int64_t>> SliceSizes(const Instruction& instruction,
                                                size_t pair, size_t pair_count,
                                                int64_t rank) {
  const auto* sizes = instruction.attrs().Get<Int64ListList>(attr::kSliceSizes);
  if (sizes == nullptr || sizes->empty()) {
    return KernelError(instruction,
                       "the four-operand form needs slice_sizes={{...}}");
  }
  if (sizes->size() != 1 && sizes->size() != pair_count) {
    return KernelError(instruction,
                       absl::StrCat("slice_sizes has ", sizes->size(),
                                    " entries; expected 1 or one per pair (",
                                    pair_count, ")"));
  }
  const std::vector<int64_t>& size = (*sizes)[sizes->size() == 1 ? 0 : pair];
  if (static_cast<int64_t>(size.size()) != rank) {
    return KernelError(instruction,
                       absl::StrCat("slice_sizes entry has ", size.size(),
                                    " sizes for rank ", rank));
  }
  return size;
}

// start[d] + size[d] <= dims[d] and both non-negative, for every d.
bool Fits(const std::vector<int64_t>& start, const std::vector<int64_t>& size,
          const std::vector<int64_t>& dims) {
  for (size_t d = 0; d < dims.size(); ++d) {
    if (start[d] < 0 || size[d] < 0 || start[d] > dims[d] - size[d]) {
      return false;
    }
  }
  return true;
}

int64_t Offset(const std::vector<int64_t>& index, const DimVector& strides) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return offset;
}

}  // namespace

absl::StatusOr<Literal> CollectivePermuteInPlaceValue(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  const auto* pairs =
      instruction.attrs().Get<Int64ListList>(attr::kSourceTargetPairs);
  if (pairs == nullptr) {
    return KernelError(instruction, "needs source_target_pairs=");
  }
  const Literal& input = *operands[0];
  const Literal& output = *operands[1];
  if (!input.shape().IsArray() || !output.shape().IsArray() ||
      input.shape().rank() != output.shape().rank() ||
      input.element_type() != output.element_type()) {
    return KernelError(instruction,
                       "input and output must be arrays of one rank and type");
  }
  const PermuteDomain domain = PermuteDomainOf(instruction, context);
  const int64_t count = static_cast<int64_t>(domain.devices.size());
  const bool simulated = context.collectives() != nullptr;
  for (const std::vector<int64_t>& pair : *pairs) {
    if (pair.size() != 2) {
      return KernelError(instruction,
                         "source_target_pairs entries must be pairs");
    }
    for (int64_t id : pair) {
      if (simulated && (id < 0 || id >= count)) {
        return KernelError(instruction,
                           absl::StrCat("source_target_pairs id ", id,
                                        " is out of range [0, ", count, ")"));
      }
    }
  }
  // Every device sends its input and its input start indices.
  const Literal* sent[] = {operands[0], operands[2]};
  absl::StatusOr<Contributions> values =
      ExchangeWithGroup(instruction, context, domain.devices, Pack(sent));
  if (!values.ok()) return values.status();
  Literal out = output;
  const int64_t rank = output.shape().rank();
  const std::vector<int64_t>& out_dims = output.shape().dimensions();
  const DimVector out_strides = Strides(out_dims);
  // Pairs that target this device write in their order: a later pair's
  // slice overwrites an earlier one where they overlap.
  for (size_t k = 0; k < pairs->size(); ++k) {
    const int64_t source = (*pairs)[k][0];
    if ((*pairs)[k][1] != domain.self || source < 0 || source >= count) {
      continue;
    }
    const std::vector<Literal>& from = (**values)[source].tuple_elements();
    const Literal& source_input = from[0];
    if (source_input.shape().dimensions() != input.shape().dimensions() ||
        source_input.element_type() != input.element_type()) {
      return KernelError(
          instruction,
          absl::StrCat("device ", domain.devices[source], " sends ",
                       source_input.shape().ToString(false),
                       " but this device's input is ",
                       input.shape().ToString(false)));
    }
    absl::StatusOr<std::vector<int64_t>> size =
        SliceSizes(instruction, k, pairs->size(), rank);
    if (!size.ok()) return size.status();
    absl::StatusOr<std::vector<int64_t>> in_start =
        StartIndices(instruction, from[1], k, pairs->size(), rank);
    if (!in_start.ok()) return in_start.status();
    absl::StatusOr<std::vector<int64_t>> out_start =
        StartIndices(instruction, *operands[3], k, pairs->size(), rank);
    if (!out_start.ok()) return out_start.status();
    const std::vector<int64_t>& in_dims = source_input.shape().dimensions();
    if (!Fits(*in_start, *size, in_dims) ||
        !Fits(*out_start, *size, out_dims)) {
      return KernelError(
          instruction,
          absl::StrCat("pair {", source, ",", domain.self, "}: a slice of ",
                       absl::StrJoin(*size, "x"), " from [",
                       absl::StrJoin(*in_start, ","), "] of the input or to [",
                       absl::StrJoin(*out_start, ","),
                       "] of the output is out of bounds"));
    }
    const DimVector in_strides = Strides(in_dims);
    StridedCopy(*size, out_strides, in_strides,
                ElementBytes(input.element_type()))
        .Run(out.mutable_data().data(), Offset(*out_start, out_strides),
             source_input.data().data(), Offset(*in_start, in_strides));
  }
  return out;
}

}  // namespace eval
}  // namespace kiln
