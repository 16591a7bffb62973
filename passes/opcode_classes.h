// Classes of opcodes that several passes ask about.
#ifndef KILN_PASSES_OPCODE_CLASSES_H_
#define KILN_PASSES_OPCODE_CLASSES_H_

#include "compiler/ir/opcode.h"

namespace kiln {

// The elementwise ops of the spec: each output element depends only on the
// operand elements at the same index. Unary, binary and ternary ops,
// conversions, map and stochastic-convert; copy is not in the list (passes
// that treat it as elementwise say so).
bool IsElementwiseOpcode(Opcode opcode);

}  // namespace kiln

#endif  // KILN_PASSES_OPCODE_CLASSES_H_
