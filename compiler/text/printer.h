// Printer of XLA's HLO text. Output is canonical and deterministic:
// print(parse(print(m))) == print(m) byte for byte.
#ifndef KILN_COMPILER_TEXT_PRINTER_H_
#define KILN_COMPILER_TEXT_PRINTER_H_

#include <string>

#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"

namespace kiln {

struct PrintOptions {
  // Print operands as "f32[2]{0} %x" (XLA's default) rather than "%x".
  bool print_operand_shapes = true;
  // Print metadata={...}.
  bool print_metadata = true;
  // Replace constants with more than this many elements by "{...}".
  // Negative: never elide (the default; elided text cannot be parsed back).
  int64_t elide_literals_above = -1;
  // Print "%" before names.
  bool print_percent = true;
};

std::string PrintModule(const Module& module, const PrintOptions& options = {});
std::string PrintComputation(const Computation& computation,
                             const PrintOptions& options = {});
std::string PrintInstruction(const Instruction& instruction,
                             const PrintOptions& options = {});

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_PRINTER_H_
