#include "passes/algebraic_simplifier_test_util.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace algsimp_test {
namespace {

using ::kiln::eval_test::EntryModule;
using ::kiln::pass_test::Parse;
using ::kiln::pass_test::Print;
using ::kiln::pass_test::RoundTrips;
using ::kiln::pass_test::RunPass;
using ::testing::HasSubstr;

// Values every element position of every parameter sees across the
// argument sets: signed zeros, NaN, infinities, extremes.
const double kFloatSpecials[] = {-0.0,
                                 0.0,
                                 std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 1.0,
                                 -1.0,
                                 2.5,
                                 -3.75,
                                 1e-30,
                                 3.0e38};
const int64_t kIntSpecials[] = {0,   1,  -1,          2,          -2,  7,
                                100, 42, -0x80000000, 0x7fffffff, -128};
constexpr int64_t kSpecialCount = 11;

// One literal of `shape` for argument set `set` of parameter `param`.
Literal SpecialLiteral(const Shape& shape, int64_t set, int64_t param) {
  Shape bounds = shape;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    bounds.set_dynamic_dimension(d, false);
  }
  Literal literal = *Literal::Create(bounds);
  for (int64_t d = 0; d < shape.rank(); ++d) {
    // Dynamic dimensions hold one element less than their bound.
    if (shape.is_dynamic_dimension(d) && shape.dimension(d) > 0) {
      EXPECT_TRUE(literal.SetDynamicSize(d, shape.dimension(d) - 1).ok());
    }
  }
  const ElementType type = shape.element_type();
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    const int64_t k = (i + set * (param + 1) + param) % kSpecialCount;
    if (IsFloatType(type)) {
      literal.SetDouble(i, kFloatSpecials[k]);
    } else if (IsComplexType(type)) {
      literal.SetComplex(
          i, {kFloatSpecials[k], kFloatSpecials[(k + 3) % kSpecialCount]});
    } else if (type == ElementType::kPred) {
      literal.SetInt64(i, (k % 2) == 0 ? 1 : 0);
    } else {
      literal.SetInt64(i, kIntSpecials[k]);
    }
  }
  return literal;
}

}  // namespace

std::vector<std::vector<Literal>> SpecialArguments(const Module& module) {
  std::vector<std::vector<Literal>> sets;
  for (int64_t set = 0; set < kSpecialCount; ++set) {
    std::vector<Literal> arguments;
    for (const Instruction* parameter : module.entry()->parameters()) {
      arguments.push_back(SpecialLiteral(parameter->shape(), set,
                                         parameter->parameter_number()));
    }
    sets.push_back(std::move(arguments));
  }
  return sets;
}

// Runs `pass` on `hlo`; expects a module that verifies and round-trips.
Outcome RunOn(const std::string& hlo, absl::string_view pass) {
  Outcome outcome;
  absl::StatusOr<std::unique_ptr<Module>> module = Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << hlo;
  if (!module.ok()) return outcome;
  absl::StatusOr<SemanticChecker> checker =
      SemanticChecker::Create(**module, SpecialArguments(**module));
  EXPECT_TRUE(checker.ok()) << checker.status();
  absl::StatusOr<bool> changed = RunPass(pass, **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  outcome.changed = changed.ok() && *changed;
  outcome.text = Print(**module);
  absl::Status verified = VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << outcome.text;
  EXPECT_TRUE(RoundTrips(**module));
  if (checker.ok()) outcome.semantics = checker->Check(pass, **module);
  // Running again changes nothing: the rewrites reached a fixed point.
  absl::StatusOr<bool> again = RunPass(pass, **module);
  EXPECT_TRUE(again.ok() && !*again) << "second run changed:\n"
                                     << Print(**module);
  return outcome;
}

// The line of `text` holding the entry's ROOT.
std::string EntryRoot(const std::string& text) {
  const size_t entry = text.find("ENTRY");
  const std::string tail = text.substr(entry == std::string::npos ? 0 : entry);
  for (absl::string_view line : absl::StrSplit(tail, '\n')) {
    if (absl::StrContains(line, "ROOT ")) {
      return std::string(absl::StripAsciiWhitespace(line));
    }
  }
  return "";
}

// Expects the pass to fire, keep every value, and leave a ROOT line
// containing `root`.
void ExpectSimplified(const std::vector<std::string>& params,
                      const std::string& body, const std::string& root,
                      absl::string_view pass) {
  const Outcome outcome = RunOn(EntryModule(params, body), pass);
  EXPECT_TRUE(outcome.changed) << outcome.text;
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics;
  EXPECT_THAT(EntryRoot(outcome.text), HasSubstr(root)) << outcome.text;
}

// Expects the pass not to fire.
void ExpectUnchanged(const std::vector<std::string>& params,
                     const std::string& body, absl::string_view pass) {
  const std::string hlo = EntryModule(params, body);
  const Outcome outcome = RunOn(hlo, pass);
  EXPECT_FALSE(outcome.changed) << outcome.text;
  absl::StatusOr<std::unique_ptr<Module>> original = Parse(hlo);
  if (original.ok()) {
    EXPECT_EQ(outcome.text, Print(**original));
  }
}

}  // namespace algsimp_test
}  // namespace kiln
