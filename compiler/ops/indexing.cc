// Indexed access: gather, scatter, dynamic-slice, dynamic-update-slice.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

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
}

}  // namespace ops_internal
}  // namespace kiln
