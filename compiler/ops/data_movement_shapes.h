// Shape rules of the data-movement family (data_movement_shapes.cc and
// data_movement_declared_shapes.cc), installed by RegisterDataMovementSchemas.
#ifndef KILN_COMPILER_OPS_DATA_MOVEMENT_SHAPES_H_
#define KILN_COMPILER_OPS_DATA_MOVEMENT_SHAPES_H_

#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

// broadcast, transpose, reverse, slice, concatenate, pad, iota.
void SetDataMovementShapeRules(SchemaTable* table);
// constant, parameter, reshape, dynamic-reshape, bitcast, tuple,
// get-tuple-element, copy-start/done, get/set-dimension-size.
void SetDataMovementDeclaredShapeRules(SchemaTable* table);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_DATA_MOVEMENT_SHAPES_H_
