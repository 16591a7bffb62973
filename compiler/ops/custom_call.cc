// custom-call: an opaque target with optional convolution-like attributes,
// layout constraints, aliasing and called computations.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {

void RegisterCustomCallSchemas(SchemaTable* table) {
  std::vector<AttrSpec> attrs = {
      Optional("window", AttrKind::kWindow),
      Optional("dim_labels", AttrKind::kConvDimLabels),
      Optional("feature_group_count", AttrKind::kInt64),
      Optional("batch_group_count", AttrKind::kInt64)};
  attrs = Concat(std::move(attrs), PrecisionConfigAttrs());
  attrs = Concat(
      std::move(attrs),
      {Enum("padding_type",
            {"PADDING_INVALID", "PADDING_VALID", "PADDING_SAME"}),
       Required("custom_call_target", AttrKind::kString),
       Optional("operand_layout_constraints", AttrKind::kShapeList),
       Optional("custom_call_has_side_effect", AttrKind::kBool),
       // literal=s32[] 0: a shape and a value, kept verbatim.
       Optional("literal", AttrKind::kRawText),
       Optional("output_to_operand_aliasing", AttrKind::kOutputOperandAliasing),
       Enum("schedule",
            {"SCHEDULE_NONE", "SCHEDULE_LATEST", "SCHEDULE_EARLIEST"}),
       Enum("api_version",
            {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
             "API_VERSION_STATUS_RETURNING",
             "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}),
       // XLA prints called_computations={...}; its parser also accepts a
       // single to_apply=.
       Optional("to_apply", AttrKind::kComputation),
       Optional("called_computations", AttrKind::kComputationList)});
  Define(table, Opcode::kCustomCall, 0, kVariadic, std::move(attrs));
}

}  // namespace ops_internal
}  // namespace kiln
