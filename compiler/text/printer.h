// Printer of XLA's HLO text. Output is canonical and deterministic:
// print(parse(print(m))) == print(m) byte for byte.
#ifndef KILN_COMPILER_TEXT_PRINTER_H_
#define KILN_COMPILER_TEXT_PRINTER_H_

#include <string>

#include "compiler/ir/computation.h"
#include "compiler/ir/float_convert.h"
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
  // Print "(p0: f32[2]) -> f32[2]" in computation headers, as XLA's default
  // form does; its short-parsable form omits it.
  bool print_computation_signatures = true;
  // Put "/*index=N*/" before every Nth operand (XLA: 5); 0: never, as in
  // XLA's short-parsable form.
  int64_t operand_index_interval = 5;
  // Float constants: shortest round-trip text (canonical), or XLA's digit
  // counts (to compare with XLA's dumps byte for byte).
  FloatTextStyle float_style = FloatTextStyle::kShortest;
};

// XLA's short-parsable form (what JAX's as_text(dialect='hlo') writes): no
// '%', no operand shapes, no computation signatures, no operand index
// comments.
PrintOptions ShortParsablePrintOptions();

std::string PrintModule(const Module& module, const PrintOptions& options = {});
std::string PrintComputation(const Computation& computation,
                             const PrintOptions& options = {});
std::string PrintInstruction(const Instruction& instruction,
                             const PrintOptions& options = {});

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_PRINTER_H_
