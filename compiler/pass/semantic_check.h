// Semantic checking of passes: the entry computation is evaluated on fixed
// argument sets before the pipeline and after every pass that changed the
// module (the instrumentation decides which, instrumentation.h); the first
// pass whose results differ bitwise (any NaN equals any NaN) is named.
#ifndef KILN_COMPILER_PASS_SEMANTIC_CHECK_H_
#define KILN_COMPILER_PASS_SEMANTIC_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"

namespace kiln {

// Where two results first differ, e.g. "output {1} element 3 (index [1, 0]):
// expected 1.5, actual -0.5", or nullopt when they are equal bitwise (NaNs of
// any payload count as equal).
std::optional<std::string> DescribeDifference(const Literal& expected,
                                              const Literal& actual);

class SemanticChecker {
 public:
  // Evaluates `module` on every argument set (one literal per entry
  // parameter) to get the reference results. An argument set the module
  // cannot be evaluated on is an error: there is nothing to compare with.
  static absl::StatusOr<SemanticChecker> Create(
      const Module& module, std::vector<std::vector<Literal>> argument_sets,
      EvalOptions options = {});

  // Evaluates `module` (just transformed by `pass_name`) on every argument
  // set; an error naming the pass, the argument set and the first differing
  // output if any result differs from the reference or cannot be computed.
  // Since every checked module must give the reference results, they are
  // also the previous pass's results: nothing is evaluated again for them.
  absl::Status Check(absl::string_view pass_name, const Module& module);

  // Evaluations of a module on one argument set so far (Create's included).
  int64_t evaluations() const { return evaluations_; }

 private:
  SemanticChecker() = default;
  std::vector<std::vector<Literal>> argument_sets_;
  std::vector<Literal> expected_;
  EvalOptions options_;
  int64_t evaluations_ = 0;
};

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_SEMANTIC_CHECK_H_
