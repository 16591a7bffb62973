// Table-driven invalid cases for the constraint tests: each case names the
// constraint it breaks, holds a module whose instruction breaks it, and
// says what the error must contain.
#ifndef KILN_COMPILER_OPS_TESTING_RULE_CASES_H_
#define KILN_COMPILER_OPS_TESTING_RULE_CASES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace kiln {
namespace shape_test {

// What an invalid case's error must say: `what` (the broken constraint
// with its values), and, when `section` is set, the rule's name
// "(operation_semantics.md, <section>)" after the instruction's name. An
// empty section marks an error the parser gives before any shape rule.
struct Expected {
  std::string what;
  std::string section;
};

inline Expected Rule(absl::string_view what, absl::string_view section) {
  return {std::string(what), std::string(section)};
}

// An invalid case: the constraint it breaks (shown when it fails), the
// module, and the error it must give.
struct RuleCase {
  const char* constraint;
  std::string hlo;
  Expected error;
};

// Infers each case's ROOT (InferError) and checks its error; the ROOT is
// named `instruction` in every module.
void ExpectRuleErrors(const std::vector<RuleCase>& cases,
                      absl::string_view instruction = "r");

}  // namespace shape_test
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_TESTING_RULE_CASES_H_
