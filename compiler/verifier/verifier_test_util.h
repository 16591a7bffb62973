// Helpers shared by the verifier's tests: parse without the parser's own
// shape checks (the verifier is under test) and collect error texts.
#ifndef KILN_COMPILER_VERIFIER_VERIFIER_TEST_UTIL_H_
#define KILN_COMPILER_VERIFIER_VERIFIER_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/module.h"
#include "compiler/verifier/verifier.h"

namespace kiln::verifier_test {

// Parses `text` as "test.hlo" with check_shapes off; nullptr (and a test
// failure) if it does not parse.
std::unique_ptr<Module> ParseForVerifier(const std::string& text);

// The message of every error VerifyModuleReport finds.
std::vector<std::string> VerifierErrors(const Module& module,
                                        VerifyOptions options = {});

// The errors whose text names `rule` as "(<rule>)".
std::vector<std::string> ErrorsOfRule(const Module& module,
                                      const std::string& rule,
                                      VerifyOptions options = {});

}  // namespace kiln::verifier_test

#endif  // KILN_COMPILER_VERIFIER_VERIFIER_TEST_UTIL_H_
