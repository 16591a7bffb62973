// Shape rules of the data-movement ops whose result is (mostly) declared:
// constant, parameter, reshape, dynamic-reshape, bitcast, and the ops that
// build, take apart or annotate shapes: tuple, get-tuple-element,
// copy-start/copy-done, get-dimension-size, set-dimension-size.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/data_movement_shapes.h"
#include "compiler/ops/reshape_dynamic.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

std::string Section(absl::string_view heading) {
  return absl::StrCat("operation_semantics.md, ", heading);
}

absl::StatusOr<Shape> ConstantShape(const Instruction& instruction, ShapeForm) {
  if (!instruction.has_literal()) {
    return RuleError(instruction, "constant has no literal value",
                     Section("Constant"));
  }
  return instruction.literal().shape();
}

absl::StatusOr<Shape> ParameterShape(const Instruction& instruction,
                                     ShapeForm) {
  const Shape& shape = instruction.shape();
  if (shape.element_type() == ElementType::kInvalid) {
    return RuleError(instruction, "a parameter's shape must be declared",
                     Section("Parameter"));
  }
  return shape;
}

bool HasUnboundedDimension(const Shape& shape) {
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (shape.is_unbounded_dimension(d)) return true;
  }
  return false;
}

// Reshape keeps the element type and the element count (bounded dynamic
// dimensions count at their bound; unbounded ones are checked at run time).
absl::StatusOr<Shape> ReshapeShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Reshape");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  const Shape& in = **operand;
  const Shape& out = instruction.shape();
  if (!out.IsArray() || out.element_type() != in.element_type()) {
    return RuleError(instruction,
                     absl::StrCat("declared result ", ShapeText(out),
                                  " must be an array of the operand's type ",
                                  ElementTypeName(in.element_type())),
                     section);
  }
  if (!HasUnboundedDimension(in) && !HasUnboundedDimension(out)) {
    absl::StatusOr<int64_t> in_count = in.ElementCount();
    absl::StatusOr<int64_t> out_count = out.ElementCount();
    if (!in_count.ok() || !out_count.ok() || *in_count != *out_count) {
      return RuleError(
          instruction,
          absl::StrCat("reshape from ", ShapeText(in), " to ", ShapeText(out),
                       " changes the element count"),
          section);
    }
  }
  if (!ReshapeDynamicSizesDecided(in, out)) {
    return RuleError(instruction,
                     absl::StrCat(kReshapeDynamicRefusal, ": ", ShapeText(in),
                                  " to ", ShapeText(out)),
                     section);
  }
  const int64_t* inferred =
      instruction.attrs().Get<int64_t>(attr::kInferredDimension);
  if (inferred != nullptr && (*inferred < 0 || *inferred >= out.rank())) {
    return RuleError(instruction,
                     absl::StrCat("inferred_dimension=", *inferred,
                                  " is out of range for ", ShapeText(out)),
                     section);
  }
  return WithElementType(out, out.element_type());
}

// dynamic-reshape(operand, size_0, ..., size_{n-1}): one s32 scalar per
// result dimension.
absl::StatusOr<Shape> DynamicReshapeShape(const Instruction& instruction,
                                          ShapeForm) {
  const std::string section = Section("DynamicReshape");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  const Shape& out = instruction.shape();
  if (!out.IsArray() || out.element_type() != (*operand)->element_type()) {
    return RuleError(instruction,
                     absl::StrCat("declared result ", ShapeText(out),
                                  " must be an array of the operand's type ",
                                  ElementTypeName((*operand)->element_type())),
                     section);
  }
  if (out.rank() != instruction.operand_count() - 1) {
    return RuleError(instruction,
                     absl::StrCat("declared result ", ShapeText(out),
                                  " needs one size operand per dimension (",
                                  instruction.operand_count() - 1, " given)"),
                     section);
  }
  for (int64_t i = 1; i < instruction.operand_count(); ++i) {
    const Shape& size = instruction.operand(i)->shape();
    if (!size.IsScalar() || size.element_type() != ElementType::kS32) {
      return RuleError(instruction,
                       absl::StrCat("size operand ", i, " is ", ShapeText(size),
                                    ", expected s32[]"),
                       section);
    }
  }
  return WithElementType(out, out.element_type());
}

// The bytes `shape` takes in memory: its byte size, or under a tiled layout
// (tiled_layout.md) the size of its tiled buffer, partial tiles padded. A
// tile that cannot apply leaves the plain byte size (the evaluator reports
// the bad tile).
absl::StatusOr<int64_t> MemoryBytes(const Shape& shape) {
  absl::StatusOr<int64_t> bytes = shape.ByteSize();
  absl::StatusOr<int64_t> count = shape.ElementCount();
  if (!bytes.ok() || !count.ok() || *count == 0 || !shape.has_layout() ||
      shape.layout().tiles.empty()) {
    return bytes;
  }
  std::vector<int64_t> dims;
  const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
  if (static_cast<int64_t>(m2m.size()) != shape.rank()) return bytes;
  for (auto it = m2m.rbegin(); it != m2m.rend(); ++it) {
    if (*it < 0 || *it >= shape.rank()) return bytes;
    dims.push_back(shape.dimension(*it));
  }
  for (const Tile& tile : shape.layout().tiles) {
    const std::vector<int64_t>& t = tile.dimensions;
    if (t.empty() || t.size() > dims.size()) return bytes;
    const size_t prefix = dims.size() - t.size();
    std::vector<int64_t> tiled(dims.begin(), dims.begin() + prefix);
    std::vector<int64_t> sizes;
    int64_t merged = 1;
    for (size_t k = 0; k < t.size(); ++k) {
      const int64_t dim = merged * dims[prefix + k];
      if (t[k] == Tile::kCombineDimension || t[k] == -1) {
        merged = dim;
        continue;
      }
      if (t[k] < 1 || t[k] > (int64_t{1} << 31)) return bytes;
      merged = 1;
      tiled.push_back((dim + t[k] - 1) / t[k]);
      sizes.push_back(t[k]);
    }
    if (merged != 1) return bytes;
    tiled.insert(tiled.end(), sizes.begin(), sizes.end());
    dims = std::move(tiled);
  }
  int64_t slots = 1;
  for (int64_t dim : dims) {
    if (__builtin_mul_overflow(slots, dim, &slots)) return bytes;
  }
  int64_t total = 0;
  if (__builtin_mul_overflow(slots, *bytes / *count, &total)) {
    return bytes;
  }
  return total;
}

// A bitcast reinterprets the same bytes: the declared shape must take the
// operand's bytes in memory (tiled layouts count their padding).
absl::StatusOr<Shape> BitcastShape(const Instruction& instruction, ShapeForm) {
  const std::string section = Section("Bitcast");
  const Shape& in = instruction.operand(0)->shape();
  const Shape& out = instruction.shape();
  if (!in.IsArray() || !out.IsArray()) {
    return RuleError(instruction,
                     absl::StrCat("bitcast of ", ShapeText(in), " to ",
                                  ShapeText(out), " needs arrays"),
                     section);
  }
  absl::StatusOr<int64_t> in_bytes = MemoryBytes(in);
  absl::StatusOr<int64_t> out_bytes = MemoryBytes(out);
  if (!in_bytes.ok() || !out_bytes.ok() || *in_bytes != *out_bytes) {
    return RuleError(instruction,
                     absl::StrCat("bitcast from ", ShapeText(in), " to ",
                                  ShapeText(out), " changes the byte size"),
                     section);
  }
  return WithElementType(out, out.element_type());
}

absl::StatusOr<Shape> TupleShape(const Instruction& instruction, ShapeForm) {
  std::vector<Shape> elements;
  for (const Instruction* operand : instruction.operands()) {
    elements.push_back(operand->shape());
  }
  return Shape::Tuple(std::move(elements));
}

absl::StatusOr<Shape> GetTupleElementShape(const Instruction& instruction,
                                           ShapeForm) {
  const std::string section = Section("GetTupleElement");
  const Shape& tuple = instruction.operand(0)->shape();
  absl::StatusOr<int64_t> index =
      RequiredInt64Attr(instruction, attr::kIndex, section);
  if (!index.ok()) return index.status();
  if (!tuple.IsTuple() || *index < 0 || *index >= tuple.tuple_size()) {
    return RuleError(instruction,
                     absl::StrCat("index=", *index, " is not an element of ",
                                  ShapeText(tuple)),
                     section);
  }
  return tuple.tuple_shape(*index);
}

// copy-start yields (destination, source, u32[] context); copy-done takes
// that tuple and yields the destination.
absl::StatusOr<Shape> CopyStartShape(const Instruction& instruction,
                                     ShapeForm) {
  const Shape& operand = instruction.operand(0)->shape();
  return Shape::Tuple({operand, operand, Shape::Scalar(ElementType::kU32)});
}

absl::StatusOr<Shape> CopyDoneShape(const Instruction& instruction, ShapeForm) {
  const Shape& operand = instruction.operand(0)->shape();
  if (!operand.IsTuple() || operand.tuple_size() < 2 ||
      !operand.tuple_shape(0).Compatible(operand.tuple_shape(1))) {
    return RuleError(instruction,
                     absl::StrCat("copy-done takes copy-start's (destination,"
                                  " source, context) tuple, got ",
                                  ShapeText(operand)),
                     "operation_semantics.md, Copy");
  }
  return operand.tuple_shape(0);
}

absl::StatusOr<int64_t> SingleDimension(const Instruction& instruction,
                                        const Shape& operand,
                                        absl::string_view section) {
  return SingleDimensionAttr(instruction, {operand.rank()}, section);
}

absl::StatusOr<Shape> GetDimensionSizeShape(const Instruction& instruction,
                                            ShapeForm) {
  const std::string section = Section("GetDimensionSize");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<int64_t> dim =
      SingleDimension(instruction, **operand, section);
  if (!dim.ok()) return dim.status();
  return Shape::Scalar(ElementType::kS32);
}

// The dimension becomes dynamic, bounded by its static size.
absl::StatusOr<Shape> SetDimensionSizeShape(const Instruction& instruction,
                                            ShapeForm) {
  const std::string section = Section("SetDimensionSize");
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, section);
  if (!operand.ok()) return operand.status();
  const Shape& size = instruction.operand(1)->shape();
  if (!size.IsScalar() || size.element_type() != ElementType::kS32) {
    return RuleError(
        instruction,
        absl::StrCat("size operand is ", ShapeText(size), ", expected s32[]"),
        section);
  }
  absl::StatusOr<int64_t> dim =
      SingleDimension(instruction, **operand, section);
  if (!dim.ok()) return dim.status();
  Shape result = WithElementType(**operand, (*operand)->element_type());
  if ((*operand)->is_unbounded_dimension(*dim)) {
    return RuleError(instruction,
                     absl::StrCat("dimension ", *dim,
                                  " is unbounded; set-dimension-size needs a "
                                  "bound"),
                     section);
  }
  result.set_dimension(*dim, (*operand)->dimension(*dim), /*dynamic=*/true);
  return result;
}

}  // namespace

void SetDataMovementDeclaredShapeRules(SchemaTable* table) {
  SetShapeRule(table, Opcode::kConstant, &ConstantShape);
  SetShapeRule(table, Opcode::kParameter, &ParameterShape);
  SetShapeRule(table, Opcode::kReshape, &ReshapeShape);
  SetShapeRule(table, Opcode::kDynamicReshape, &DynamicReshapeShape);
  SetShapeRule(table, Opcode::kBitcast, &BitcastShape);
  SetShapeRule(table, Opcode::kTuple, &TupleShape);
  SetShapeRule(table, Opcode::kGetTupleElement, &GetTupleElementShape);
  SetShapeRule(table, Opcode::kCopyStart, &CopyStartShape);
  SetShapeRule(table, Opcode::kCopyDone, &CopyDoneShape);
  SetShapeRule(table, Opcode::kGetDimensionSize, &GetDimensionSizeShape);
  SetShapeRule(table, Opcode::kSetDimensionSize, &SetDimensionSizeShape);
}

}  // namespace ops_internal
}  // namespace kiln
