// Ops that call computations or order execution: call, conditional, while,
// fusion, the async wrappers, and the scheduling helpers.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {
namespace {

std::vector<AttrSpec> AsyncAttrs(bool is_start) {
  // async_execution_thread is printed (quoted) only when not "main". XLA
  // prints calls= on async-start only; the later halves may repeat it.
  // output_to_operand_aliasing appears on async-start of in-place ops.
  return {
      Optional("async_execution_thread", AttrKind::kString),
      Optional("output_to_operand_aliasing", AttrKind::kOutputOperandAliasing),
      AttrSpec{"calls", AttrKind::kComputation, is_start, {}}};
}

}  // namespace

void RegisterControlFlowSchemas(SchemaTable* table) {
  // is_composite marks composite calls (their name/version live in
  // frontend_attributes).
  Define(table, Opcode::kCall, 0, kVariadic,
         {Required("to_apply", AttrKind::kComputation),
          Optional("is_composite", AttrKind::kBool)});
  // A pred selector prints true/false_computation; an s32 index prints
  // branch_computations. Exactly one of the two forms is present.
  Define(table, Opcode::kConditional, 1, kVariadic,
         {Optional("true_computation", AttrKind::kComputation),
          Optional("false_computation", AttrKind::kComputation),
          Optional("branch_computations", AttrKind::kComputationList)});
  Define(table, Opcode::kWhile, 1, 1,
         {Required("condition", AttrKind::kComputation),
          Required("body", AttrKind::kComputation)});
  Define(
      table, Opcode::kFusion, 0, kVariadic,
      {Enum("kind", {"kLoop", "kInput", "kOutput", "kCustom"},
            /*required=*/true),
       Optional("output_to_operand_aliasing", AttrKind::kOutputOperandAliasing),
       Required("calls", AttrKind::kComputation)});
  // Late binding (async_ops.md): async-update and async-done may bind
  // further operands after the previous async value.
  Define(table, Opcode::kAsyncStart, 0, kVariadic, AsyncAttrs(true));
  Define(table, Opcode::kAsyncUpdate, 1, kVariadic, AsyncAttrs(false));
  Define(table, Opcode::kAsyncDone, 1, kVariadic, AsyncAttrs(false));
  Define(table, Opcode::kAfterAll, 0, kVariadic);
  Define(table, Opcode::kAddDependency, 2, 2);
  Define(table, Opcode::kOptimizationBarrier, 1, 1);
  // domain={kind="sharding", entry={...}, exit={...}}, kept verbatim.
  Define(table, Opcode::kDomain, 1, 1,
         {Optional("domain", AttrKind::kRawText)});
}

}  // namespace ops_internal
}  // namespace kiln
