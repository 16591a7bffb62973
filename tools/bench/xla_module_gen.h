// Deterministic generator of large XLA-style HLO text, for benchmarks and
// load tests of the parser and printer.
#ifndef KILN_TOOLS_BENCH_XLA_MODULE_GEN_H_
#define KILN_TOOLS_BENCH_XLA_MODULE_GEN_H_

#include <cstdint>
#include <string>

namespace kiln::bench {

// Text of a module whose entry computation has exactly `instruction_count`
// instructions (at least 16), written as XLA dumps it: long operand form,
// layouts on every array shape, metadata on some instructions. The mix is
// that of a dense model: parameters, elementwise ops, broadcasts with
// dimensions, dots with dimension numbers, reduces with to_apply, scalar and
// vector constants, compare/select, tuple/get-tuple-element and converts.
// The same count always gives the same text.
std::string GenerateXlaModuleText(int64_t instruction_count);

}  // namespace kiln::bench

#endif  // KILN_TOOLS_BENCH_XLA_MODULE_GEN_H_
