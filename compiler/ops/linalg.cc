// Linear algebra and normalization: triangular-solve, cholesky, batch norm.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

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
}

}  // namespace ops_internal
}  // namespace kiln
