// Test helpers of the algebraic simplifier's tests: argument sets full of
// special values (signed zeros, NaN, infinities, integer extremes), and a
// runner that checks verification, round trip, a fixed point and the
// evaluator's results before and after the pass.
#ifndef KILN_PASSES_ALGEBRAIC_SIMPLIFIER_TEST_UTIL_H_
#define KILN_PASSES_ALGEBRAIC_SIMPLIFIER_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace kiln {
namespace algsimp_test {

inline constexpr char kPass[] = "algebraic-simplifier";
inline constexpr char kFastMath[] = "algebraic-simplifier-fast-math";

// One argument set per special value: every element position of every
// entry parameter sees every value once across the sets.
std::vector<std::vector<Literal>> SpecialArguments(const Module& module);

struct Outcome {
  bool changed = false;
  std::string text;
  // OK when the evaluator gives identical results before and after on the
  // special argument sets.
  absl::Status semantics;
};

// Runs `pass` on `hlo`; expects a module that verifies, round-trips and
// that a second run leaves unchanged.
Outcome RunOn(const std::string& hlo, absl::string_view pass = kPass);

// The line of `text` holding the entry's ROOT.
std::string EntryRoot(const std::string& text);

// Expects the pass to fire, keep every value, and leave an entry ROOT line
// containing `root`.
void ExpectSimplified(const std::vector<std::string>& params,
                      const std::string& body, const std::string& root,
                      absl::string_view pass = kPass);

// Expects the pass not to fire (and the text to be unchanged).
void ExpectUnchanged(const std::vector<std::string>& params,
                     const std::string& body, absl::string_view pass = kPass);

}  // namespace algsimp_test
}  // namespace kiln

#endif  // KILN_PASSES_ALGEBRAIC_SIMPLIFIER_TEST_UTIL_H_
