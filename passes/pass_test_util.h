// Helpers for pass tests: parse HLO text, run a pass looked up by its
// registered name, and check printed IR for an ordered list of substrings
// (a small stand-in for FileCheck's CHECK lines).
#ifndef KILN_PASSES_PASS_TEST_UTIL_H_
#define KILN_PASSES_PASS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/pass/pass.h"
#include "gtest/gtest.h"

namespace kiln {
namespace pass_test {

// Parses `hlo` with the parser's (client-form) shape checks.
absl::StatusOr<std::unique_ptr<Module>> Parse(absl::string_view hlo);

// The module in XLA's short-parsable form (no '%', no operand shapes).
std::string Print(const Module& module);

// Runs the registered pass `pass_name` on `module`; an error when no such
// pass is registered.
absl::StatusOr<bool> RunPass(absl::string_view pass_name, Module& module);

// Success when every string of `expected` occurs in `text`, each after the
// end of the previous one; the failure names the first one missing.
::testing::AssertionResult ContainsInOrder(
    absl::string_view text, const std::vector<std::string>& expected);

// Success when printing `module`, parsing the text and printing again gives
// the same text (the module is valid text, operands defined before use).
::testing::AssertionResult RoundTrips(const Module& module);

// Parses `hlo`, evaluates it on `arguments` (HLO literal texts), runs the
// registered pass `pass_name` (or `pass` when not null), and checks that it
// reports `expect_change` (and leaves the text alone when it does not),
// that the module verifies in `form`, round-trips through text and
// computes the same value bit for bit. Returns the printed module ("" when
// a step could not run; the failure is already recorded).
std::string RunAndCheckValues(absl::string_view pass_name,
                              const std::string& hlo,
                              const std::vector<std::string>& arguments,
                              bool expect_change, Pass* pass = nullptr,
                              ShapeForm form = ShapeForm::kClient);

}  // namespace pass_test
}  // namespace kiln

#endif  // KILN_PASSES_PASS_TEST_UTIL_H_
