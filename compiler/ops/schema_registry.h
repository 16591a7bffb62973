// Internal to compiler/ops: the table every op family fills in, and the
// small vocabulary the family files use to describe attributes. Only the
// files under compiler/ops/ (and their tests) include this.
#ifndef KILN_COMPILER_OPS_SCHEMA_REGISTRY_H_
#define KILN_COMPILER_OPS_SCHEMA_REGISTRY_H_

#include <array>
#include <string>
#include <vector>

#include "compiler/ir/opcode.h"
#include "compiler/ops/op_schema.h"

namespace kiln {
namespace ops_internal {

inline constexpr int kVariadic = -1;

struct SchemaTable {
  std::array<OpSchema, kOpcodeCount> schemas;
  std::array<bool, kOpcodeCount> registered{};
};

// Registers `opcode` with its operand arity and attributes (XLA's printing
// order). Registering an opcode twice is a programming error that the
// schema test catches through IsRegistered.
void Define(SchemaTable* table, Opcode opcode, int min_operands,
            int max_operands, std::vector<AttrSpec> attrs = {});

// Gives `opcode` its shape rule (shape_inference.h). Family files call it
// from their Register*Schemas function, after Define.
void SetShapeRule(SchemaTable* table, Opcode opcode, ShapeRule rule);

// True once `opcode` has been given a schema by some family file.
bool IsRegistered(Opcode opcode);

inline AttrSpec Required(std::string name, AttrKind kind) {
  return AttrSpec{std::move(name), kind, /*required=*/true, {}};
}
inline AttrSpec Optional(std::string name, AttrKind kind) {
  return AttrSpec{std::move(name), kind, /*required=*/false, {}};
}
inline AttrSpec Enum(std::string name, std::vector<std::string> spellings,
                     bool required = false) {
  return AttrSpec{std::move(name), AttrKind::kEnum, required,
                  std::move(spellings)};
}

// Appends `more` to `attrs`; lets families compose shared attribute groups.
std::vector<AttrSpec> Concat(std::vector<AttrSpec> attrs,
                             const std::vector<AttrSpec>& more);

// Attribute groups several families share (common_attrs.cc).
// operand_precision={high,default}, algorithm=dot_bf16_bf16_f32.
std::vector<AttrSpec> PrecisionConfigAttrs();
// lhs_batch_dims, lhs_contracting_dims, rhs_batch_dims, rhs_contracting_dims.
std::vector<AttrSpec> DotDimensionAttrs();
// channel_id, replica_groups, constrain_layout (HloCollectiveInstruction).
std::vector<AttrSpec> CollectiveAttrs();
const std::vector<std::string>& PrecisionSpellings();

// One registration function per family file.
void RegisterElementwiseSchemas(SchemaTable* table);
void RegisterDataMovementSchemas(SchemaTable* table);
void RegisterReductionSchemas(SchemaTable* table);
void RegisterIndexingSchemas(SchemaTable* table);
void RegisterConvolutionDotSchemas(SchemaTable* table);
void RegisterLinalgSchemas(SchemaTable* table);
void RegisterCollectiveSchemas(SchemaTable* table);
void RegisterControlFlowSchemas(SchemaTable* table);
void RegisterRandomSchemas(SchemaTable* table);
void RegisterIoSchemas(SchemaTable* table);
void RegisterCustomCallSchemas(SchemaTable* table);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_SCHEMA_REGISTRY_H_
