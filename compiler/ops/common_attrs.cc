// Attribute groups shared by several op families, spelled as XLA prints
// them.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

const std::vector<std::string>& PrecisionSpellings() {
  // XLA prints PrecisionConfig::Precision names in lower case.
  static const std::vector<std::string>* const spellings =
      new std::vector<std::string>{"default", "high", "highest",
                                   "packed_nibble"};
  return *spellings;
}

namespace {

// PrecisionConfig::Algorithm names, lower case without the "alg_" prefix,
// which is how XLA prints and parses `algorithm=`.
const std::vector<std::string>& DotAlgorithmSpellings() {
  static const std::vector<std::string>* const spellings =
      new std::vector<std::string>{
          "unset",
          "dot_any_f8_any_f8_f32",
          "dot_any_f8_any_f8_f32_fast_accum",
          "dot_f16_f16_f16",
          "dot_f16_f16_f32",
          "dot_bf16_bf16_bf16",
          "dot_bf16_bf16_f32",
          "dot_bf16_bf16_f32_x3",
          "dot_bf16_bf16_f32_x6",
          "dot_bf16_bf16_f32_x9",
          "dot_tf32_tf32_f32",
          "dot_tf32_tf32_f32_x3",
          "dot_f32_f32_f32",
          "dot_f64_f64_f64",
          "dot_any_f8_any_f8_any",
      };
  return *spellings;
}

}  // namespace

std::vector<AttrSpec> PrecisionConfigAttrs() {
  AttrSpec precision{"operand_precision", AttrKind::kEnumList, false,
                     PrecisionSpellings()};
  return {precision, Enum("algorithm", DotAlgorithmSpellings())};
}

std::vector<AttrSpec> DotDimensionAttrs() {
  // XLA prints each list only when it is non-empty, in this order.
  return {
      Optional("lhs_batch_dims", AttrKind::kInt64List),
      Optional("lhs_contracting_dims", AttrKind::kInt64List),
      Optional("rhs_batch_dims", AttrKind::kInt64List),
      Optional("rhs_contracting_dims", AttrKind::kInt64List),
  };
}

std::vector<AttrSpec> CollectiveAttrs() {
  return {
      Optional("channel_id", AttrKind::kInt64),
      Optional("replica_groups", AttrKind::kReplicaGroups),
      Optional("constrain_layout", AttrKind::kBool),
  };
}

}  // namespace ops_internal
}  // namespace kiln
