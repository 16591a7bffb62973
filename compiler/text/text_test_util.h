// Test helpers for the text tests: structural module equality, and reading
// HLO files from a test's runfiles.
#ifndef KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_
#define KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_

#include <string>
#include <vector>

#include "compiler/ir/module.h"

namespace kiln {

// Empty if `a` and `b` are equal: same config, computations (matched by name),
// entry, and per computation the same instructions in order with
// identical opcode/shape/attributes/verbatim fields, operands and control
// predecessors (by name), parameters and root. Otherwise the first
// difference found.
std::string ModuleDifference(const Module& a, const Module& b);

// The runfiles directory of `package` ("compiler/text/testdata"), or the
// workspace-relative path when not run by `bazel test`.
std::string RunfilesDir(const std::string& package);

// The *.hlo files in `dir`, sorted, as full paths.
std::vector<std::string> HloFilesIn(const std::string& dir);

// The whole file; empty if it cannot be read.
std::string ReadWholeFile(const std::string& path);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_TEXT_TEST_UTIL_H_
