// Shape rules of the ops that rearrange an array's dimensions: broadcast,
// transpose, reverse, slice, concatenate, pad and iota
// (operation_semantics.md).
#include "compiler/ops/data_movement_shapes.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

std::string Section(absl::string_view heading) {
  return absl::StrCat("operation_semantics.md, ", heading);
}

// The declared result shape, for ops whose output sizes are not derivable
// from operands and attributes alone (broadcast's new dims, iota).
absl::StatusOr<const Shape*> DeclaredArray(const Instruction& instruction,
                                           absl::string_view section) {
  const Shape& shape = instruction.shape();
  if (!shape.IsArray()) {
    return RuleError(instruction,
                     absl::StrCat("the result sizes come from the declared "
                                  "shape, which is ",
                                  ShapeText(shape), "; expected an array"),
                     section);
  }
  return &shape;
}

// HLO broadcast maps operand dim i to result dim dimensions[i]; the sizes
// must match (client form, like XlaBuilder's BroadcastInDim, also lets a
// size-1 operand dimension expand).
absl::StatusOr<Shape> BroadcastShape(const Instruction& instruction,
                                     ShapeForm form) {
  const std::string section = Section("Broadcast");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const Shape*> declared = DeclaredArray(instruction, section);
  if (!declared.ok()) return declared.status();
  absl::StatusOr<const std::vector<int64_t>*> dims =
      RequiredInt64ListAttr(instruction, attr::kDimensions, section);
  if (!dims.ok()) return dims.status();
  const Shape& in = **operand;
  const Shape& out = **declared;
  if (static_cast<int64_t>((*dims)->size()) != in.rank()) {
    return RuleError(instruction,
                     absl::StrCat("dimensions=", DimsToString(**dims), " has ",
                                  (*dims)->size(), " entries but operand ",
                                  ShapeText(in), " has rank ", in.rank()),
                     section);
  }
  KILN_RULE_RETURN_IF_ERROR(CheckDimsStrictlyIncreasing(
      instruction, attr::kDimensions, **dims, out.rank(), section));
  for (int64_t i = 0; i < in.rank(); ++i) {
    const int64_t target = (**dims)[i];
    const bool degenerate = form == ShapeForm::kClient && in.dimension(i) == 1;
    if (in.dimension(i) != out.dimension(target) && !degenerate) {
      return RuleError(
          instruction,
          absl::StrCat("operand dim ", i, " (size ", in.dimension(i),
                       ") maps to result dim ", target, " (size ",
                       out.dimension(target), "); sizes must match"),
          section);
    }
  }
  return WithElementType(out, in.element_type());
}

absl::StatusOr<Shape> TransposeShape(const Instruction& instruction,
                                     ShapeForm) {
  const std::string section = Section("Transpose");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const std::vector<int64_t>*> perm =
      RequiredInt64ListAttr(instruction, attr::kDimensions, section);
  if (!perm.ok()) return perm.status();
  const Shape& in = **operand;
  KILN_RULE_RETURN_IF_ERROR(CheckDimsPermutation(instruction, attr::kDimensions,
                                                 **perm, in.rank(), section));
  std::vector<int64_t> sizes;
  std::vector<bool> dynamic;
  for (int64_t source : **perm) {
    sizes.push_back(in.dimension(source));
    dynamic.push_back(in.is_dynamic_dimension(source));
  }
  return Shape::DynamicArray(in.element_type(), std::move(sizes),
                             std::move(dynamic));
}

absl::StatusOr<Shape> ReverseShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Rev (reverse)");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const std::vector<int64_t>*> dims =
      RequiredInt64ListAttr(instruction, attr::kDimensions, section);
  if (!dims.ok()) return dims.status();
  KILN_RULE_RETURN_IF_ERROR(CheckDimsUnique(
      instruction, attr::kDimensions, **dims, (*operand)->rank(), section));
  return WithElementType(**operand, (*operand)->element_type());
}

absl::Status CheckSliceRange(const Instruction& instruction, int64_t dim,
                             const SliceRange& range, int64_t size,
                             absl::string_view section) {
  std::string problem;
  if (range.stride < 1) {
    problem = "stride must be positive";
  } else if (range.start < 0 || range.start > range.limit) {
    problem = "needs 0 <= start <= limit";
  } else if (size != Shape::kUnboundedSize && range.limit > size) {
    problem = absl::StrCat("limit exceeds the dimension size ", size);
  }
  if (problem.empty()) return absl::OkStatus();
  return RuleError(instruction,
                   absl::StrCat("slice dim ", dim, " [", range.start, ":",
                                range.limit, ":", range.stride, "]: ", problem),
                   section);
}

absl::StatusOr<Shape> SliceShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Slice");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  const SliceRanges* slice = instruction.attrs().Get<SliceRanges>(attr::kSlice);
  if (slice == nullptr) {
    return RuleError(instruction, "missing required attribute slice={...}",
                     section);
  }
  const Shape& in = **operand;
  if (static_cast<int64_t>(slice->ranges.size()) != in.rank()) {
    return RuleError(
        instruction,
        absl::StrCat("slice has ", slice->ranges.size(), " ranges but operand ",
                     ShapeText(in), " has rank ", in.rank()),
        section);
  }
  std::vector<int64_t> sizes;
  std::vector<bool> dynamic;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const SliceRange& range = slice->ranges[d];
    KILN_RULE_RETURN_IF_ERROR(
        CheckSliceRange(instruction, d, range, in.dimension(d), section));
    const int64_t span = range.limit - range.start;  // Both in [0, size].
    sizes.push_back(span / range.stride + (span % range.stride != 0));
    // A dynamic dimension taken whole stays dynamic (XLA's dynamic
    // dimension inference, HandleSlice); a partial slice is static.
    dynamic.push_back(in.is_dynamic_dimension(d) && range.start == 0 &&
                      range.stride == 1 && range.limit == in.dimension(d));
  }
  return Shape::DynamicArray(in.element_type(), std::move(sizes),
                             std::move(dynamic));
}

absl::StatusOr<Shape> ConcatenateShape(const Instruction& instruction,
                                       ShapeForm) {
  const std::string section = Section("ConcatInDim (Concatenate)");
  absl::StatusOr<const std::vector<int64_t>*> dims =
      RequiredInt64ListAttr(instruction, attr::kDimensions, section);
  if (!dims.ok()) return dims.status();
  absl::StatusOr<const Shape*> first = ArrayOperand(instruction, 0, section);
  if (!first.ok()) return first.status();
  if ((*dims)->size() != 1) {
    return RuleError(instruction,
                     absl::StrCat("dimensions=", DimsToString(**dims),
                                  " must name exactly one dimension"),
                     section);
  }
  if ((*first)->rank() == 0) {
    return RuleError(
        instruction,
        absl::StrCat("operand 0 is the scalar ", ShapeText(**first),
                     "; 0-dimensional values cannot be "
                     "concatenated"),
        section);
  }
  KILN_RULE_RETURN_IF_ERROR(CheckDimsInRange(
      instruction, attr::kDimensions, **dims, (*first)->rank(), section));
  const int64_t axis = (**dims)[0];
  Shape result = WithElementType(**first, (*first)->element_type());
  for (int64_t i = 1; i < instruction.operand_count(); ++i) {
    absl::StatusOr<const Shape*> next = ArrayOperand(instruction, i, section);
    if (!next.ok()) return next.status();
    const Shape& shape = **next;
    if (shape.rank() != result.rank()) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " ", ShapeText(shape), " has rank ",
                       shape.rank(), " but operand 0 ", ShapeText(**first),
                       " has rank ", result.rank(),
                       "; concatenated arrays need one rank"),
          section);
    }
    bool compatible = shape.element_type() == result.element_type();
    for (int64_t d = 0; compatible && d < shape.rank(); ++d) {
      compatible = d == axis || shape.dimension(d) == result.dimension(d);
    }
    if (!compatible) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " ", ShapeText(shape),
                       " does not match operand 0 ", ShapeText(**first),
                       " in element type and every dimension but ", axis),
          section);
    }
    int64_t sum;
    if (shape.dimension(axis) == Shape::kUnboundedSize ||
        result.dimension(axis) == Shape::kUnboundedSize) {
      sum = Shape::kUnboundedSize;
    } else if (__builtin_add_overflow(result.dimension(axis),
                                      shape.dimension(axis), &sum)) {
      return RuleError(instruction, "concatenated size overflows int64",
                       section);
    }
    result.set_dimension(axis, sum,
                         result.is_dynamic_dimension(axis) ||
                             shape.is_dynamic_dimension(axis) ||
                             sum == Shape::kUnboundedSize);
  }
  return result;
}

// dim + low + high + interior * (dim - 1), overflow-checked.
absl::StatusOr<int64_t> PaddedSize(int64_t size, const PaddingDimension& pad) {
  int64_t gaps = size > 0 ? size - 1 : 0;
  int64_t total;
  if (__builtin_mul_overflow(gaps, pad.interior, &total) ||
      __builtin_add_overflow(total, size, &total) ||
      __builtin_add_overflow(total, pad.low, &total) ||
      __builtin_add_overflow(total, pad.high, &total)) {
    return absl::OutOfRangeError("padded size overflows int64");
  }
  return total;
}

absl::StatusOr<Shape> PadShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Pad");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const Shape*> value = ArrayOperand(instruction, 1, section);
  if (!value.ok()) return value.status();
  const Shape& in = **operand;
  if (!(*value)->IsScalar() || (*value)->element_type() != in.element_type()) {
    return RuleError(instruction,
                     absl::StrCat("padding value ", ShapeText(**value),
                                  " must be a scalar of the operand's type ",
                                  ElementTypeName(in.element_type())),
                     section);
  }
  const PaddingConfig* config =
      instruction.attrs().Get<PaddingConfig>(attr::kPadding);
  if (config == nullptr ||
      static_cast<int64_t>(config->dimensions.size()) != in.rank()) {
    return RuleError(instruction,
                     absl::StrCat("padding must give low_high_interior for "
                                  "each of the ",
                                  in.rank(), " operand dimensions"),
                     section);
  }
  Shape result = WithElementType(in, in.element_type());
  for (int64_t d = 0; d < in.rank(); ++d) {
    const PaddingDimension& pad = config->dimensions[d];
    if (in.dimension(d) == Shape::kUnboundedSize) continue;
    absl::StatusOr<int64_t> size = PaddedSize(in.dimension(d), pad);
    if (pad.interior < 0 || !size.ok() || *size < 0) {
      return RuleError(
          instruction,
          absl::StrCat("padding ", pad.low, "_", pad.high, "_", pad.interior,
                       " of dim ", d, " (size ", in.dimension(d),
                       ") needs interior >= 0 and a result size in [0, "
                       "2^63)"),
          section);
    }
    result.set_dimension(d, *size, in.is_dynamic_dimension(d));
  }
  return result;
}

absl::StatusOr<Shape> IotaShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Iota");
  absl::StatusOr<const Shape*> declared = DeclaredArray(instruction, section);
  if (!declared.ok()) return declared.status();
  absl::StatusOr<int64_t> dim =
      RequiredInt64Attr(instruction, attr::kIotaDimension, section);
  if (!dim.ok()) return dim.status();
  const Shape& shape = **declared;
  if (*dim < 0 || *dim >= shape.rank()) {
    return RuleError(instruction,
                     absl::StrCat("iota_dimension=", *dim,
                                  " is out of range for ", ShapeText(shape)),
                     section);
  }
  if (shape.element_type() == ElementType::kPred) {
    return RuleError(instruction, "iota cannot count in pred", section);
  }
  return WithElementType(shape, shape.element_type());
}

}  // namespace

void SetDataMovementShapeRules(SchemaTable* table) {
  SetShapeRule(table, Opcode::kBroadcast, &BroadcastShape);
  SetShapeRule(table, Opcode::kTranspose, &TransposeShape);
  SetShapeRule(table, Opcode::kReverse, &ReverseShape);
  SetShapeRule(table, Opcode::kSlice, &SliceShape);
  SetShapeRule(table, Opcode::kConcatenate, &ConcatenateShape);
  SetShapeRule(table, Opcode::kPad, &PadShape);
  SetShapeRule(table, Opcode::kIota, &IotaShape);
  SetDataMovementDeclaredShapeRules(table);
}

}  // namespace ops_internal
}  // namespace kiln
