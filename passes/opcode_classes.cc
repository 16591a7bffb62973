#include "passes/opcode_classes.h"

#include "compiler/ir/op_traits.h"

namespace kiln {

bool IsElementwiseOpcode(Opcode opcode) {
  // The elementwise trait; copy is a data-movement op to the passes that
  // ask (see the header).
  return opcode != Opcode::kCopy && GetOpTraits(opcode).elementwise;
}

}  // namespace kiln
