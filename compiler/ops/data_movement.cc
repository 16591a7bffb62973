// Ops that move or reinterpret data without arithmetic: shapes, tuples,
// constants, parameters, copies, and the dynamic-shape helpers.
#include "compiler/ops/data_movement_shapes.h"
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void RegisterDataMovementSchemas(SchemaTable* table) {
  // constant's literal sits in the operand position; the parser reads it.
  Define(table, Opcode::kConstant, 0, 0);
  // parameter's number sits in the operand position, likewise.
  Define(table, Opcode::kParameter, 0, 0,
         {Optional("parameter_replication", AttrKind::kBoolList)});
  Define(table, Opcode::kIota, 0, 0,
         {Required("iota_dimension", AttrKind::kInt64)});
  Define(table, Opcode::kBroadcast, 1, 1,
         {Required("dimensions", AttrKind::kInt64List)});
  Define(table, Opcode::kTranspose, 1, 1,
         {Required("dimensions", AttrKind::kInt64List)});
  Define(table, Opcode::kReverse, 1, 1,
         {Required("dimensions", AttrKind::kInt64List)});
  Define(table, Opcode::kConcatenate, 1, kVariadic,
         {Required("dimensions", AttrKind::kInt64List)});
  Define(table, Opcode::kSlice, 1, 1, {Required("slice", AttrKind::kSlice)});
  Define(table, Opcode::kPad, 2, 2, {Required("padding", AttrKind::kPadding)});
  Define(table, Opcode::kReshape, 1, 1,
         {Optional("inferred_dimension", AttrKind::kInt64)});
  Define(table, Opcode::kDynamicReshape, 1, kVariadic);
  Define(table, Opcode::kBitcast, 1, 1);
  Define(table, Opcode::kTuple, 0, kVariadic);
  Define(table, Opcode::kGetTupleElement, 1, 1,
         {Required("index", AttrKind::kInt64)});
  Define(table, Opcode::kCopyStart, 1, 1,
         {Optional("cross_program_prefetch_index", AttrKind::kInt64)});
  Define(table, Opcode::kCopyDone, 1, 1);
  // XLA prints the single dimension as a list: dimensions={1}.
  Define(table, Opcode::kGetDimensionSize, 1, 1,
         {Required("dimensions", AttrKind::kInt64List)});
  Define(table, Opcode::kSetDimensionSize, 2, 2,
         {Required("dimensions", AttrKind::kInt64List)});
  SetDataMovementShapeRules(table);
}

}  // namespace ops_internal
}  // namespace kiln
