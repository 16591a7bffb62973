// Linear algebra and normalization: triangular-solve, cholesky, batch norm.
// Schemas and shape rules.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

namespace {

constexpr absl::string_view kCholesky = "operation_semantics.md, Cholesky";
constexpr absl::string_view kTriangularSolve =
    "operation_semantics.md, TriangularSolve";

bool IsFloatOrComplex(ElementType type) {
  return IsFloatType(type) || IsComplexType(type);
}

Shape SameShape(const Shape& shape) {
  return ArrayResult(shape.element_type(), shape.dimensions(),
                     shape.dynamic_dimensions());
}

// A batch of matrices: rank >= 2 of a floating-point or complex type.
absl::StatusOr<const Shape*> MatrixOperand(const Instruction& instruction,
                                           int64_t index,
                                           absl::string_view name,
                                           absl::string_view section) {
  absl::StatusOr<const Shape*> shape =
      ArrayOperand(instruction, index, section);
  if (!shape.ok()) return shape.status();
  if ((*shape)->rank() < 2 || !IsFloatOrComplex((*shape)->element_type())) {
    return RuleError(instruction,
                     absl::StrCat(name, " is ", ShapeText(**shape),
                                  ", expected a floating-point or complex "
                                  "array of rank >= 2"),
                     section);
  }
  return *shape;
}

absl::Status CheckSquare(const Instruction& instruction, absl::string_view name,
                         const Shape& shape, absl::string_view section) {
  const int64_t rank = shape.rank();
  if (shape.dimension(rank - 1) == shape.dimension(rank - 2)) {
    return absl::OkStatus();
  }
  return RuleError(instruction,
                   absl::StrCat(name, " is ", ShapeText(shape),
                                ", expected square minor dimensions [..., M, "
                                "M]"),
                   section);
}

absl::StatusOr<Shape> CholeskyShape(const Instruction& instruction,
                                    ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> a =
      MatrixOperand(instruction, 0, "a", kCholesky);
  if (!a.ok()) return a.status();
  absl::Status ok = CheckSquare(instruction, "a", **a, kCholesky);
  if (!ok.ok()) return ok;
  return SameShape(**a);
}

absl::StatusOr<Shape> TriangularSolveShape(const Instruction& instruction,
                                           ShapeForm /*form*/) {
  const absl::string_view s = kTriangularSolve;
  absl::StatusOr<const Shape*> a_or = MatrixOperand(instruction, 0, "a", s);
  if (!a_or.ok()) return a_or.status();
  absl::StatusOr<const Shape*> b_or = MatrixOperand(instruction, 1, "b", s);
  if (!b_or.ok()) return b_or.status();
  const Shape& a = **a_or;
  const Shape& b = **b_or;
  absl::Status ok = CheckSquare(instruction, "a", a, s);
  if (!ok.ok()) return ok;
  if (a.rank() != b.rank() || a.element_type() != b.element_type()) {
    return RuleError(instruction,
                     absl::StrCat("a ", ShapeText(a), " and b ", ShapeText(b),
                                  " must have the same rank and element "
                                  "type"),
                     s);
  }
  const int64_t rank = a.rank();
  for (int64_t d = 0; d + 2 < rank; ++d) {
    if (a.dimension(d) != b.dimension(d)) {
      return RuleError(
          instruction,
          absl::StrCat("batch dimension ", d, " of a is ", a.dimension(d),
                       " but of b is ", b.dimension(d)),
          s);
    }
  }
  const bool* left_attr = instruction.attrs().Get<bool>(attr::kLeftSide);
  const bool left = left_attr != nullptr && *left_attr;
  const int64_t b_dim = left ? rank - 2 : rank - 1;
  if (b.dimension(b_dim) != a.dimension(rank - 1)) {
    return RuleError(
        instruction,
        absl::StrCat("b dimension ", b_dim, " is ", b.dimension(b_dim),
                     ", expected a's size M=", a.dimension(rank - 1),
                     left ? " (left_side=true: b is [..., M, K])"
                          : " (left_side=false: b is [..., K, M])"),
        s);
  }
  const EnumValue* transpose =
      instruction.attrs().Get<EnumValue>(attr::kTransposeA);
  if (transpose != nullptr && transpose->spelling == "TRANSPOSE_INVALID") {
    return RuleError(instruction,
                     "transpose_a=TRANSPOSE_INVALID is not a valid choice; "
                     "use NO_TRANSPOSE, TRANSPOSE or ADJOINT",
                     s);
  }
  return SameShape(b);
}

// Which batch-norm op: its spec section and operand roles. Operands named in
// `features` are [F] vectors; the one in `like_operand` matches operand 0.
struct BatchNormKind {
  absl::string_view section;
  std::vector<absl::string_view> roles;  // operand names, index order
  bool returns_tuple;
};

const BatchNormKind& KindOf(Opcode opcode) {
  static const BatchNormKind* const kTraining =
      new BatchNormKind{"operation_semantics.md, BatchNormTraining",
                        {"operand", "scale", "offset"},
                        true};
  static const BatchNormKind* const kInference =
      new BatchNormKind{"operation_semantics.md, BatchNormInference",
                        {"operand", "scale", "offset", "mean", "variance"},
                        false};
  static const BatchNormKind* const kGrad = new BatchNormKind{
      "operation_semantics.md, BatchNormGrad",
      {"operand", "scale", "batch_mean", "batch_var", "grad_output"},
      true};
  if (opcode == Opcode::kBatchNormTraining) return *kTraining;
  if (opcode == Opcode::kBatchNormInference) return *kInference;
  return *kGrad;
}

absl::StatusOr<Shape> BatchNormShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  const BatchNormKind& kind = KindOf(instruction.opcode());
  const absl::string_view s = kind.section;
  absl::StatusOr<const Shape*> operand_or = ArrayOperand(instruction, 0, s);
  if (!operand_or.ok()) return operand_or.status();
  const Shape& operand = **operand_or;
  if (!IsFloatType(operand.element_type()) || operand.rank() < 1) {
    return RuleError(instruction,
                     absl::StrCat("operand is ", ShapeText(operand),
                                  ", expected a floating-point array of rank "
                                  ">= 1"),
                     s);
  }
  absl::StatusOr<int64_t> feature =
      RequiredInt64Attr(instruction, attr::kFeatureIndex, s);
  if (!feature.ok()) return feature.status();
  if (*feature < 0 || *feature >= operand.rank()) {
    return RuleError(
        instruction,
        absl::StrCat("feature_index=", *feature,
                     " must be in [0, operand rank ", operand.rank(), ")"),
        s);
  }
  const Shape vector =
      Shape::Array(operand.element_type(), {operand.dimension(*feature)});
  for (size_t i = 1; i < kind.roles.size(); ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, s);
    if (!shape.ok()) return shape.status();
    const bool like_operand = kind.roles[i] == "grad_output";
    const Shape& expected = like_operand ? operand : vector;
    if (!(*shape)->Compatible(expected)) {
      return RuleError(
          instruction,
          absl::StrCat(kind.roles[i], " is ", ShapeText(**shape), ", expected ",
                       ShapeText(expected),
                       like_operand ? " (the operand's shape)"
                                    : " (the size of feature dimension " +
                                          std::to_string(*feature) + ")"),
          s);
    }
  }
  if (!kind.returns_tuple) return SameShape(operand);
  return Shape::Tuple(
      {SameShape(operand), SameShape(vector), SameShape(vector)});
}

}  // namespace

void RegisterLinalgSchemas(SchemaTable* table) {
  // XLA prints the TriangularSolveOptions fields that differ from their
  // proto defaults, in field order.
  Define(table, Opcode::kTriangularSolve, 2, 2,
         {Optional("left_side", AttrKind::kBool),
          Optional("lower", AttrKind::kBool),
          Optional("unit_diagonal", AttrKind::kBool),
          Enum("transpose_a",
               {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"})});
  Define(table, Opcode::kCholesky, 1, 1, {Optional("lower", AttrKind::kBool)});
  const std::vector<AttrSpec> batch_norm = {
      Required("epsilon", AttrKind::kFloat),
      Required("feature_index", AttrKind::kInt64)};
  // Operands: operand, scale, offset[, mean, variance] / [mean, var, grad].
  Define(table, Opcode::kBatchNormTraining, 3, 3, batch_norm);
  Define(table, Opcode::kBatchNormInference, 5, 5, batch_norm);
  Define(table, Opcode::kBatchNormGrad, 5, 5, batch_norm);
  SetShapeRule(table, Opcode::kTriangularSolve, TriangularSolveShape);
  SetShapeRule(table, Opcode::kCholesky, CholeskyShape);
  SetShapeRule(table, Opcode::kBatchNormTraining, BatchNormShape);
  SetShapeRule(table, Opcode::kBatchNormInference, BatchNormShape);
  SetShapeRule(table, Opcode::kBatchNormGrad, BatchNormShape);
}

}  // namespace ops_internal
}  // namespace kiln
