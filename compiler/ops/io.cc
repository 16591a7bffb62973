// Host and device transfers: infeed, outfeed, send/recv and their -done
// halves.
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {
namespace {

std::vector<AttrSpec> SendRecvAttrs() {
  return {Optional("channel_id", AttrKind::kInt64),
          Optional("is_host_transfer", AttrKind::kBool)};
}

}  // namespace

void RegisterIoSchemas(SchemaTable* table) {
  // Operand: the token.
  Define(table, Opcode::kInfeed, 1, 1,
         {Optional("infeed_config", AttrKind::kString)});
  // Operands: the data and the token.
  Define(table, Opcode::kOutfeed, 2, 2,
         {Optional("outfeed_shape", AttrKind::kShape),
          Optional("outfeed_config", AttrKind::kString)});
  Define(table, Opcode::kSend, 2, 2, SendRecvAttrs());
  Define(table, Opcode::kSendDone, 1, 1, SendRecvAttrs());
  Define(table, Opcode::kRecv, 1, 1, SendRecvAttrs());
  Define(table, Opcode::kRecvDone, 1, 1, SendRecvAttrs());
}

}  // namespace ops_internal
}  // namespace kiln
