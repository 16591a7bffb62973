#include "passes/opcode_classes.h"

#include "compiler/ops/op_schema.h"

namespace kiln {

bool IsElementwiseOpcode(Opcode opcode) {
  // The op definitions own the family; copy is a data-movement op to the
  // passes that ask (see the header).
  return opcode != Opcode::kCopy && IsElementwiseFamilyOpcode(opcode);
}

}  // namespace kiln
