// `kiln conform --coverage`: every op of the spec with its number of cases
// and the element types they cover, and the spec sentences no case cites.
#ifndef KILN_TOOLS_CONFORM_COVERAGE_H_
#define KILN_TOOLS_CONFORM_COVERAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"
#include "tools/conform/spec_index.h"

namespace kiln::conform {

// The opcodes (HLO spellings) a spec section describes; empty for sections
// that are not an op ("General Semantics", examples, ...).
std::vector<std::string> OpcodesOfSection(absl::string_view title);

struct OpCoverage {
  std::string op;       // HLO opcode spelling.
  std::string section;  // Spec section title; empty: none in the spec.
  int64_t cases = 0;
  std::vector<std::string> types;  // Element types covered.
};

struct UncitedSentence {
  std::string section;
  std::string text;
};

struct Coverage {
  std::vector<OpCoverage> ops;  // Every opcode, in the opcode table's order.
  std::vector<UncitedSentence> uncited;
  int64_t sentences = 0;
  int64_t spec_ops = 0;  // Opcodes with a spec section.
  int64_t spec_ops_without_cases = 0;
};

// `traits[i]` are the traits of `cases[i]`.
Coverage ComputeCoverage(const std::vector<Case>& cases,
                         const std::vector<CaseTraits>& traits,
                         const SpecIndex& spec);

std::string CoverageText(const Coverage& coverage);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_COVERAGE_H_
