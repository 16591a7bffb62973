// Running passes under instrumentation: the verifier after each pass,
// per-pass wall time and change counts, dumps of the module after each
// matching pass (text and unified diff), and semantic checking against the
// reference evaluator. `kiln opt` exposes each as a flag (docs/passes.md).
#ifndef KILN_COMPILER_PASS_INSTRUMENTATION_H_
#define KILN_COMPILER_PASS_INSTRUMENTATION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/verifier/verifier.h"
#include "re2/re2.h"

namespace kiln {

struct PipelineOptions {
  // Run VerifyModule on the input and after every pass; the first failure
  // is an error naming the pass. Tests should always set it.
  bool verify_each = false;
  VerifyOptions verify_options;
  // When not empty, after every pass whose name matches `dump_pass_re`
  // (RE2, partial match; empty matches every pass) write
  // <dump_dir>/NNN-<pass>.hlo (the module text) and NNN-<pass>.diff (the
  // unified diff from the text before the pass; empty when unchanged). NNN
  // numbers every pass run in order from 000, dumped or not.
  std::string dump_dir;
  std::string dump_pass_re;
  // When not empty, the entry is evaluated on every argument set (one
  // literal per entry parameter) before the pipeline and after every pass
  // that changed the module; the first pass that changes a result is an
  // error (SemanticChecker). "Changed" is judged by the printed module,
  // not by what the pass reports: a pass whose printed module is the one
  // last evaluated is not evaluated again (its results are those), one
  // that changed the text while reporting no change still is.
  std::vector<std::vector<Literal>> semantic_check_arguments;
  EvalOptions eval_options;
};

// Semantic checking over a pipeline run: evaluations of the module on one
// argument set (the input's included), and leaf passes whose module was
// not evaluated again because its printed text had not changed.
struct SemanticCheckStatistics {
  int64_t evaluations = 0;
  int64_t unchanged_passes = 0;
};

// One leaf pass's totals over a pipeline run.
struct PassStatistics {
  std::string name;
  int64_t runs = 0;
  int64_t changed = 0;
  absl::Duration time;
};

class Instrumentation {
 public:
  // Checks the options (the regex compiles, the dump directory can be
  // made), verifies `module` when verify_each is set and computes the
  // reference results for semantic checking. `options` must outlive the
  // instrumentation (it is kept by reference).
  static absl::StatusOr<std::unique_ptr<Instrumentation>> Create(
      const PipelineOptions& options, const Module& module);

  // Runs one leaf pass with every check the options ask for. Errors name
  // the pass.
  absl::StatusOr<bool> RunPass(Pass& pass, Module& module);

  // Per pass name, in order of first run.
  const std::vector<PassStatistics>& statistics() const { return stats_; }
  SemanticCheckStatistics semantic_statistics() const;

 private:
  explicit Instrumentation(const PipelineOptions& options);
  absl::Status Dump(absl::string_view pass_name, const std::string& before,
                    const Module& module) const;
  void Record(absl::string_view pass_name, bool changed, absl::Duration time);

  const PipelineOptions& options_;
  std::unique_ptr<RE2> dump_re_;
  std::optional<SemanticChecker> semantic_checker_;
  // The printed module the semantic checker last evaluated.
  std::string checked_text_;
  int64_t unchanged_passes_ = 0;
  std::vector<PassStatistics> stats_;
  int64_t pass_runs_ = 0;
};

// Runs `pass` (a leaf pass, pipeline or FixedPoint) on `module` under
// instrumentation set up from `options`. When `statistics` is not null it
// receives the per-pass statistics, also when a pass fails; likewise
// `semantic_statistics`.
absl::StatusOr<bool> RunPipeline(
    Pass& pass, Module& module, const PipelineOptions& options,
    std::vector<PassStatistics>* statistics = nullptr,
    SemanticCheckStatistics* semantic_statistics = nullptr);

// "check-semantics: N evaluations (S argument sets), P unchanged passes
// not evaluated\n".
std::string FormatSemanticCheckStatistics(const SemanticCheckStatistics& stats,
                                          int64_t argument_sets);

// A table of the statistics: one line per pass with runs, changed count,
// total and percentage of wall time, then a total line.
std::string FormatPassStatistics(const std::vector<PassStatistics>& stats);

}  // namespace kiln

#endif  // KILN_COMPILER_PASS_INSTRUMENTATION_H_
