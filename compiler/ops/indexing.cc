// Indexed access: gather, scatter, dynamic-slice, dynamic-update-slice.
// Schemas, and the dynamic-slice shape rules; gather and scatter share
// their dimension-number rules in gather_scatter_shapes.cc.
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/gather_scatter_shapes.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

namespace {

constexpr absl::string_view kDynamicSlice =
    "operation_semantics.md, DynamicSlice";
constexpr absl::string_view kDynamicUpdateSlice =
    "operation_semantics.md, DynamicUpdateSlice";

// Operands first_index.. are the start indices: one integer scalar per
// dimension of `operand` (all of one type), or one integer vector of size
// rank (XLA's old form).
absl::Status CheckStartIndices(const Instruction& instruction,
                               int64_t first_index, const Shape& operand,
                               absl::string_view section) {
  const int64_t count = instruction.operand_count() - first_index;
  const Shape& first = instruction.operand(first_index)->shape();
  if (count == 1 && first.IsArray() && first.rank() == 1 &&
      first.dimension(0) == operand.rank() &&
      IsIntegralType(first.element_type())) {
    return absl::OkStatus();
  }
  if (count != operand.rank()) {
    return RuleError(instruction,
                     absl::StrCat("takes one start index per operand "
                                  "dimension (",
                                  operand.rank(), "), got ", count),
                     section);
  }
  for (int64_t i = first_index; i < instruction.operand_count(); ++i) {
    const Shape& index = instruction.operand(i)->shape();
    if (!index.IsScalar() || !IsIntegralType(index.element_type()) ||
        index.element_type() != first.element_type()) {
      return RuleError(
          instruction,
          absl::StrCat("start index operand ", i, " is ", ShapeText(index),
                       ", expected an integer scalar of the "
                       "first index's type"),
          section);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> DynamicSliceShape(const Instruction& instruction,
                                        ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> operand =
      ArrayOperand(instruction, 0, kDynamicSlice);
  if (!operand.ok()) return operand.status();
  absl::Status ok = CheckStartIndices(instruction, 1, **operand, kDynamicSlice);
  if (!ok.ok()) return ok;
  absl::StatusOr<const std::vector<int64_t>*> sizes = RequiredInt64ListAttr(
      instruction, attr::kDynamicSliceSizes, kDynamicSlice);
  if (!sizes.ok()) return sizes.status();
  if (static_cast<int64_t>((*sizes)->size()) != (*operand)->rank()) {
    return RuleError(instruction,
                     absl::StrCat("dynamic_slice_sizes has ", (*sizes)->size(),
                                  " entries, expected the operand rank ",
                                  (*operand)->rank()),
                     kDynamicSlice);
  }
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    const int64_t size = (**sizes)[i];
    const int64_t bound = (*operand)->dimension(i);
    // The spec: "Each value must be strictly greater than zero" and at most
    // the dimension size.
    if (size <= 0 || (bound >= 0 && size > bound)) {
      return RuleError(instruction,
                       absl::StrCat("dynamic_slice_sizes[", i, "]=", size,
                                    " must be in [1, ", bound, "]"),
                       kDynamicSlice);
    }
  }
  // A dynamic dimension taken whole stays dynamic (XLA's dynamic dimension
  // inference, HandleDynamicSlice); a partial one is static.
  std::vector<bool> dynamic;
  for (int64_t i = 0; i < (*operand)->rank(); ++i) {
    dynamic.push_back((*operand)->is_dynamic_dimension(i) &&
                      (**sizes)[i] == (*operand)->dimension(i));
  }
  return ArrayResult((*operand)->element_type(), **sizes, std::move(dynamic));
}

absl::StatusOr<Shape> DynamicUpdateSliceShape(const Instruction& instruction,
                                              ShapeForm /*form*/) {
  const absl::string_view s = kDynamicUpdateSlice;
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, s);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const Shape*> update = ArrayOperand(instruction, 1, s);
  if (!update.ok()) return update.status();
  const Shape& op = **operand;
  const Shape& up = **update;
  if (up.rank() != op.rank() || up.element_type() != op.element_type()) {
    return RuleError(instruction,
                     absl::StrCat("update ", ShapeText(up),
                                  " must have the rank and element type of "
                                  "operand ",
                                  ShapeText(op)),
                     s);
  }
  for (int64_t i = 0; i < op.rank(); ++i) {
    // The spec: "Each dimension of update shape must be strictly greater
    // than zero".
    if (up.dimension(i) == 0) {
      return RuleError(instruction,
                       absl::StrCat("update ", ShapeText(up),
                                    " has size 0 in "
                                    "dimension ",
                                    i, "; update dimensions must be positive"),
                       s);
    }
    if (op.dimension(i) >= 0 && up.dimension(i) > op.dimension(i)) {
      return RuleError(
          instruction,
          absl::StrCat("update dimension ", i, " has size ", up.dimension(i),
                       ", more than the "
                       "operand's ",
                       op.dimension(i)),
          s);
    }
  }
  absl::Status ok = CheckStartIndices(instruction, 2, op, s);
  if (!ok.ok()) return ok;
  return ArrayResult(op.element_type(), op.dimensions(),
                     op.dynamic_dimensions());
}

}  // namespace

void RegisterIndexingSchemas(SchemaTable* table) {
  // The batching lists are printed only when non-empty.
  Define(table, Opcode::kGather, 2, 2,
         {Required("offset_dims", AttrKind::kInt64List),
          Required("collapsed_slice_dims", AttrKind::kInt64List),
          Required("start_index_map", AttrKind::kInt64List),
          Optional("operand_batching_dims", AttrKind::kInt64List),
          Optional("start_indices_batching_dims", AttrKind::kInt64List),
          Required("index_vector_dim", AttrKind::kInt64),
          Required("slice_sizes", AttrKind::kInt64List),
          Optional("indices_are_sorted", AttrKind::kBool)});
  // Operands: N inputs, the indices, N updates.
  Define(table, Opcode::kScatter, 3, kVariadic,
         {Required("update_window_dims", AttrKind::kInt64List),
          Required("inserted_window_dims", AttrKind::kInt64List),
          Required("scatter_dims_to_operand_dims", AttrKind::kInt64List),
          Optional("input_batching_dims", AttrKind::kInt64List),
          Optional("scatter_indices_batching_dims", AttrKind::kInt64List),
          Required("index_vector_dim", AttrKind::kInt64),
          Optional("indices_are_sorted", AttrKind::kBool),
          Optional("unique_indices", AttrKind::kBool),
          Required("to_apply", AttrKind::kComputation)});
  // Operand then one scalar index per dimension (or one index vector in the
  // old form).
  Define(table, Opcode::kDynamicSlice, 2, kVariadic,
         {Required("dynamic_slice_sizes", AttrKind::kInt64List)});
  Define(table, Opcode::kDynamicUpdateSlice, 3, kVariadic);
  SetShapeRule(table, Opcode::kGather, GatherShape);
  SetShapeRule(table, Opcode::kScatter, ScatterShape);
  SetShapeRule(table, Opcode::kDynamicSlice, DynamicSliceShape);
  SetShapeRule(table, Opcode::kDynamicUpdateSlice, DynamicUpdateSliceShape);
}

}  // namespace ops_internal
}  // namespace kiln
