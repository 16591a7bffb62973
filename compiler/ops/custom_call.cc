// custom-call: an opaque target with optional convolution-like attributes,
// layout constraints, aliasing and called computations.
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ops/control_flow_shapes.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kCustomCall = "operation_semantics.md, CustomCall";

// operand_layout_constraints= gives one shape per operand, equal to it but
// for the layout (which the constraint fixes).
absl::Status CheckLayoutConstraints(const Instruction& instruction) {
  const ShapeList* constraints =
      instruction.attrs().Get<ShapeList>(attr::kOperandLayoutConstraints);
  if (constraints == nullptr) return absl::OkStatus();
  if (static_cast<int64_t>(constraints->size()) !=
      instruction.operand_count()) {
    return RuleError(
        instruction,
        absl::StrCat("operand_layout_constraints has ", constraints->size(),
                     " shapes for ", instruction.operand_count(), " operands"),
        kCustomCall);
  }
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    const Shape& operand = instruction.operand(i)->shape();
    if (!(*constraints)[i].Compatible(operand)) {
      return RuleError(
          instruction,
          absl::StrCat("operand_layout_constraints shape ", i, " is ",
                       ShapeText((*constraints)[i]), ", but operand ", i,
                       " is ", ShapeText(operand)),
          kCustomCall);
    }
  }
  return absl::OkStatus();
}

// The target decides the result, so the declared shape is the result; the
// rule checks what relates it to the operands.
absl::StatusOr<Shape> CustomCallShape(const Instruction& instruction,
                                      ShapeForm /*form*/) {
  KILN_RULE_RETURN_IF_ERROR(CheckLayoutConstraints(instruction));
  KILN_RULE_RETURN_IF_ERROR(CheckOutputOperandAliasing(
      instruction, instruction.shape(), kCustomCall));
  return instruction.shape();
}

}  // namespace

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
  SetShapeRule(table, Opcode::kCustomCall, &CustomCallShape);
}

}  // namespace ops_internal
}  // namespace kiln
