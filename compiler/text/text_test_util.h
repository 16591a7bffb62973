// Test helpers for the text tests: structural module equality.
#ifndef KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_
#define KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_

#include <string>

#include "compiler/ir/module.h"

namespace kiln {

// Empty if `a` and `b` are equal: same config, computations (matched by name),
// entry, and per computation the same instructions in order with
// identical opcode/shape/attributes/verbatim fields, operands and control
// predecessors (by name), parameters and root. Otherwise the first
// difference found.
std::string ModuleDifference(const Module& a, const Module& b);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_
