#include "compiler/text/module_header_text.h"

#include <array>

namespace kiln {

bool IsKnownExtraModuleAttribute(absl::string_view name) {
  for (absl::string_view known : KnownExtraModuleAttributes()) {
    if (known == name) return true;
  }
  return false;
}

absl::Span<const absl::string_view> KnownExtraModuleAttributes() {
  // Header attributes XLA writes or reads that Kiln keeps verbatim.
  static constexpr std::array<absl::string_view, 16> kNames = {
      "alias_passthrough_params",
      "allow_spmd_sharding_propagation_to_parameters",
      "allow_spmd_sharding_propagation_to_output",
      "spmd_output_sharding",
      "spmd_parameters_shardings",
      "use_auto_spmd_partitioning",
      "auto_spmd_partitioning_mesh_shape",
      "auto_spmd_partitioning_mesh_ids",
      "exec_time_optimization_effort",
      "memory_fitting_effort",
      "optimization_level",
      "memory_fitting_level",
      "deduplicate_hlo",
      "launch_id",
      // Newer XLA: original-value recovery and debug callbacks, each a
      // balanced {...} group (the table holds quoted recovery modules).
      "origin_recovery_table",
      "debug_attributes",
  };
  return kNames;
}

}  // namespace kiln
