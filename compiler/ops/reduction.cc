// Reductions and ops that apply a computation over windows or sequences:
// reduce, reduce-window, select-and-scatter, sort, topk, scan.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void RegisterReductionSchemas(SchemaTable* table) {
  // Operands: inputs then init values (an even count).
  Define(table, Opcode::kReduce, 2, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Required("to_apply", AttrKind::kComputation)});
  Define(table, Opcode::kReduceWindow, 2, kVariadic,
         {Optional("window", AttrKind::kWindow),
          Required("to_apply", AttrKind::kComputation)});
  Define(table, Opcode::kSelectAndScatter, 3, 3,
         {Optional("window", AttrKind::kWindow),
          Required("select", AttrKind::kComputation),
          Required("scatter", AttrKind::kComputation)});
  Define(table, Opcode::kSort, 1, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Optional("is_stable", AttrKind::kBool),
          Required("to_apply", AttrKind::kComputation)});
  // Newer XLA gives topk an optional comparator computation.
  Define(table, Opcode::kTopK, 1, 1,
         {Required("k", AttrKind::kInt64), Optional("largest", AttrKind::kBool),
          Optional("is_stable", AttrKind::kBool),
          Optional("to_apply", AttrKind::kComputation)});
  // XLA prints scan(inputs..., inits...), dimensions={d}, num_carries=k,
  // is_reverse=, is_associative=, to_apply=. The spec's scan_dimension is
  // XLA's dimensions={d}.
  Define(table, Opcode::kScan, 1, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Optional("num_carries", AttrKind::kInt64),
          Optional("is_reverse", AttrKind::kBool),
          Optional("is_associative", AttrKind::kBool),
          Required("to_apply", AttrKind::kComputation)});
}

}  // namespace ops_internal
}  // namespace kiln
