// Random number generation: rng, rng-bit-generator,
// rng-get-and-update-state.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void RegisterRandomSchemas(SchemaTable* table) {
  // XLA prints RandomDistribution / RandomAlgorithm names in lower case.
  Define(table, Opcode::kRng, 2, 2,
         {Enum("distribution", {"rng_uniform", "rng_normal"},
               /*required=*/true)});
  Define(table, Opcode::kRngBitGenerator, 1, 1,
         {Enum("algorithm", {"rng_default", "rng_three_fry", "rng_philox"},
               /*required=*/true)});
  Define(table, Opcode::kRngGetAndUpdateState, 0, 0,
         {Required("delta", AttrKind::kInt64)});
}

}  // namespace ops_internal
}  // namespace kiln
