// The schema table: built once from every family file, then indexed by
// opcode so that GetOpSchema is a single array access.
#include "compiler/ops/op_schema.h"

#include <array>
#include <utility>

#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {
namespace {

SchemaTable BuildTable() {
  SchemaTable table;
  for (Opcode opcode : AllOpcodes()) {
    // Unregistered opcodes keep a permissive placeholder; the schema test
    // fails if any remains.
    OpSchema& schema = table.schemas[static_cast<int>(opcode)];
    schema.opcode = opcode;
    schema.min_operands = 0;
    schema.max_operands = kVariadic;
    schema.traits = GetOpTraits(opcode);
  }
  RegisterElementwiseSchemas(&table);
  RegisterDataMovementSchemas(&table);
  RegisterReductionSchemas(&table);
  RegisterIndexingSchemas(&table);
  RegisterConvolutionDotSchemas(&table);
  RegisterLinalgSchemas(&table);
  RegisterCollectiveSchemas(&table);
  RegisterControlFlowSchemas(&table);
  RegisterRandomSchemas(&table);
  RegisterIoSchemas(&table);
  RegisterCustomCallSchemas(&table);
  return table;
}

const SchemaTable& Table() {
  static const SchemaTable* const table = new SchemaTable(BuildTable());
  return *table;
}

}  // namespace

void Define(SchemaTable* table, Opcode opcode, int min_operands,
            int max_operands, std::vector<AttrSpec> attrs) {
  const int index = static_cast<int>(opcode);
  OpSchema& schema = table->schemas[index];
  schema.opcode = opcode;
  schema.min_operands = min_operands;
  schema.max_operands = max_operands;
  schema.attrs = std::move(attrs);
  table->registered[index] = true;
}

void SetShapeRule(SchemaTable* table, Opcode opcode, ShapeRule rule) {
  table->schemas[static_cast<int>(opcode)].shape_rule = rule;
}

bool IsRegistered(Opcode opcode) {
  return Table().registered[static_cast<int>(opcode)];
}

std::vector<AttrSpec> Concat(std::vector<AttrSpec> attrs,
                             const std::vector<AttrSpec>& more) {
  attrs.insert(attrs.end(), more.begin(), more.end());
  return attrs;
}

}  // namespace ops_internal

const OpSchema& GetOpSchema(Opcode opcode) {
  return ops_internal::Table().schemas[static_cast<int>(opcode)];
}

namespace {

// Attributes any instruction may carry; kept verbatim outside the schema.
// "statistics" is how XLA's text spells statistics_viz; both are accepted.
constexpr absl::string_view kGenericAttributes[] = {
    "metadata",       "sharding",        "frontend_attributes",
    "backend_config", "result_accuracy", "statistics_viz",
    "statistics",     "origin",          "control-predecessors",
};

constexpr absl::string_view kAttrKindNames[] = {
    "kBool",        "kInt64",           "kFloat",
    "kString",      "kInt64List",       "kInt64ListList",
    "kBoolList",    "kWindow",          "kConvDimLabels",
    "kPadding",     "kSlice",           "kReplicaGroups",
    "kEnum",        "kEnumList",        "kOutputOperandAliasing",
    "kRawText",     "kShape",           "kShapeList",
    "kComputation", "kComputationList",
};
static_assert(sizeof(kAttrKindNames) / sizeof(kAttrKindNames[0]) ==
                  static_cast<int>(AttrKind::kComputationList) + 1,
              "kAttrKindNames must list every AttrKind");

}  // namespace

bool IsGenericAttributeName(absl::string_view name) {
  for (absl::string_view generic : kGenericAttributes) {
    if (name == generic) return true;
  }
  return false;
}

bool IsGenericAttribute(const std::string& name) {
  return IsGenericAttributeName(name);
}

const AttrSpec* FindAttrSpec(const OpSchema& schema, absl::string_view name) {
  for (const AttrSpec& spec : schema.attrs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

absl::string_view AttrKindName(AttrKind kind) {
  return kAttrKindNames[static_cast<int>(kind)];
}

}  // namespace kiln
