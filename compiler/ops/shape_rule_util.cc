#include "compiler/ops/shape_rule_util.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace ops_internal {

absl::Status RuleError(const Instruction& instruction,
                       absl::string_view message,
                       absl::string_view spec_section) {
  return absl::InvalidArgumentError(
      absl::StrCat(instruction.name(), ": ", message, " (", spec_section, ")"));
}

std::string DimsToString(absl::Span<const int64_t> dims) {
  return absl::StrCat("{", absl::StrJoin(dims, ","), "}");
}

std::string ShapeText(const Shape& shape) {
  return shape.ToString(/*print_layout=*/false);
}

Shape WithElementType(const Shape& shape, ElementType type) {
  return Shape::DynamicArray(type, shape.dimensions(),
                             shape.dynamic_dimensions());
}

absl::Status CheckSameElementType(const Instruction& instruction,
                                  absl::Span<const int64_t> operands,
                                  absl::string_view spec_section) {
  if (operands.empty()) return absl::OkStatus();
  const Shape& first = instruction.operand(operands[0])->shape();
  for (int64_t index : operands) {
    const Shape& shape = instruction.operand(index)->shape();
    if (shape.element_type() != first.element_type()) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", index, " is ", ShapeText(shape),
                       " but operand ", operands[0], " is ", ShapeText(first),
                       "; element types must be equal"),
          spec_section);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const Shape*> ArrayOperand(const Instruction& instruction,
                                          int64_t index,
                                          absl::string_view spec_section) {
  if (index < 0 || index >= instruction.operand_count()) {
    return RuleError(instruction, absl::StrCat("missing operand ", index),
                     spec_section);
  }
  const Shape& shape = instruction.operand(index)->shape();
  if (!shape.IsArray()) {
    return RuleError(instruction,
                     absl::StrCat("operand ", index, " is ", ShapeText(shape),
                                  ", expected an array"),
                     spec_section);
  }
  return &shape;
}

absl::Status CheckDimsInRange(const Instruction& instruction,
                              absl::string_view attr_name,
                              absl::Span<const int64_t> dims, int64_t rank,
                              absl::string_view spec_section) {
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank) {
      return RuleError(
          instruction,
          absl::StrCat(attr_name, " ", DimsToString(dims), " has dimension ",
                       dim, " out of range [0, ", rank, ")"),
          spec_section);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDimsUnique(const Instruction& instruction,
                             absl::string_view attr_name,
                             absl::Span<const int64_t> dims, int64_t rank,
                             absl::string_view spec_section) {
  absl::Status in_range =
      CheckDimsInRange(instruction, attr_name, dims, rank, spec_section);
  if (!in_range.ok()) return in_range;
  // Dims are in [0, rank) and rank is bounded by the operand's real rank,
  // so a bitmap of that size is a bounded allocation.
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t dim : dims) {
    if (seen[dim]) {
      return RuleError(instruction,
                       absl::StrCat(attr_name, " ", DimsToString(dims),
                                    " repeats dimension ", dim),
                       spec_section);
    }
    seen[dim] = true;
  }
  return absl::OkStatus();
}

absl::Status CheckDimsPermutation(const Instruction& instruction,
                                  absl::string_view attr_name,
                                  absl::Span<const int64_t> dims, int64_t rank,
                                  absl::string_view spec_section) {
  if (static_cast<int64_t>(dims.size()) != rank) {
    return RuleError(
        instruction,
        absl::StrCat(attr_name, " ", DimsToString(dims), " has ", dims.size(),
                     " entries, expected a "
                     "permutation of the ",
                     rank, " dimensions"),
        spec_section);
  }
  return CheckDimsUnique(instruction, attr_name, dims, rank, spec_section);
}

absl::Status CheckDimsStrictlyIncreasing(const Instruction& instruction,
                                         absl::string_view attr_name,
                                         absl::Span<const int64_t> dims,
                                         int64_t rank,
                                         absl::string_view spec_section) {
  absl::Status in_range =
      CheckDimsInRange(instruction, attr_name, dims, rank, spec_section);
  if (!in_range.ok()) return in_range;
  for (size_t i = 1; i < dims.size(); ++i) {
    if (dims[i] <= dims[i - 1]) {
      return RuleError(instruction,
                       absl::StrCat(attr_name, " ", DimsToString(dims),
                                    " must be strictly increasing"),
                       spec_section);
    }
  }
  return absl::OkStatus();
}

const std::vector<int64_t>* Int64ListAttr(const Instruction& instruction,
                                          absl::string_view name) {
  return instruction.attrs().Get<Int64List>(name);
}

absl::StatusOr<const std::vector<int64_t>*> RequiredInt64ListAttr(
    const Instruction& instruction, absl::string_view name,
    absl::string_view spec_section) {
  const std::vector<int64_t>* list = Int64ListAttr(instruction, name);
  if (list == nullptr) {
    return RuleError(
        instruction,
        absl::StrCat("missing required attribute ", name, "={...}"),
        spec_section);
  }
  return list;
}

absl::StatusOr<int64_t> SingleDimensionAttr(const Instruction& instruction,
                                            absl::Span<const int64_t> ranks,
                                            absl::string_view spec_section) {
  absl::StatusOr<const std::vector<int64_t>*> dims =
      RequiredInt64ListAttr(instruction, attr::kDimensions, spec_section);
  if (!dims.ok()) return dims.status();
  if ((*dims)->size() != 1) {
    return RuleError(instruction,
                     absl::StrCat("dimensions=", DimsToString(**dims),
                                  " must name exactly one dimension"),
                     spec_section);
  }
  for (int64_t rank : ranks) {
    absl::Status in_range = CheckDimsInRange(instruction, attr::kDimensions,
                                             **dims, rank, spec_section);
    if (!in_range.ok()) return in_range;
  }
  return (**dims)[0];
}

absl::StatusOr<int64_t> RequiredInt64Attr(const Instruction& instruction,
                                          absl::string_view name,
                                          absl::string_view spec_section) {
  const int64_t* value = instruction.attrs().Get<int64_t>(name);
  if (value == nullptr) {
    return RuleError(instruction,
                     absl::StrCat("missing required attribute ", name, "=N"),
                     spec_section);
  }
  return *value;
}

}  // namespace ops_internal
}  // namespace kiln
