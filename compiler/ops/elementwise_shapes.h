// Shape rules of the elementwise family (elementwise_shapes.cc), installed
// by RegisterElementwiseSchemas.
#ifndef KILN_COMPILER_OPS_ELEMENTWISE_SHAPES_H_
#define KILN_COMPILER_OPS_ELEMENTWISE_SHAPES_H_

#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void SetElementwiseShapeRules(SchemaTable* table);
// Compare, select, clamp, the conversions, reduce-precision and map
// (elementwise_special_shapes.cc); called by SetElementwiseShapeRules.
void SetElementwiseSpecialShapeRules(SchemaTable* table);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_ELEMENTWISE_SHAPES_H_
