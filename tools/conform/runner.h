// Runs conformance cases on a backend: reject cases through Kiln's parser
// and verifier (or the exec command), run and implementation-defined cases
// through the backend, in parallel, each with a time limit.
#ifndef KILN_TOOLS_CONFORM_RUNNER_H_
#define KILN_TOOLS_CONFORM_RUNNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/backend.h"
#include "compiler/ir/element_type.h"
#include "tools/conform/case_file.h"
#include "tools/conform/compare.h"
#include "tools/conform/exec_backend.h"

namespace kiln::conform {

// What a case's run produced, before expectations are applied.
enum class Outcome { kPass, kFail, kUnsupported };

absl::string_view OutcomeName(Outcome outcome);

// The ops and element types a case exercises (the rows and columns of the
// report's matrix): `op:`/`types:` when written, else read from the module.
struct CaseTraits {
  std::vector<std::string> ops;
  std::vector<ElementType> types;
};

CaseTraits ComputeTraits(const Case& c);

struct CaseResult {
  Outcome outcome = Outcome::kPass;
  // Why it failed or is unsupported; for failed comparisons the report of
  // CompareLiterals (expected, actual, first difference, histogram).
  std::string message;
  double seconds = 0;
};

// The backend a run uses: made once per case (backends need not be
// thread-safe), by name through BackendRegistry or as an exec: backend.
class BackendSpec {
 public:
  // "reference", "cpu", ..., or "exec:COMMAND".
  static absl::StatusOr<BackendSpec> Parse(const std::string& spec,
                                           double time_limit_seconds,
                                           bool keep_exec_files);
  absl::StatusOr<std::unique_ptr<Backend>> Create() const;
  bool is_exec() const { return exec_.has_value(); }
  const ExecOptions& exec() const { return *exec_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;  // "reference", or "exec" for exec: backends.
  std::string spec_;
  std::optional<ExecOptions> exec_;
};

// Runs one case in the calling thread.
CaseResult RunCase(const Case& c, const BackendSpec& backend);

struct RunOptions {
  // Worker threads; <= 0: one per core.
  int jobs = 0;
  // Per case; <= 0: none. A case past it is a failure ("timed out"); its
  // thread is abandoned (an in-process backend cannot be interrupted) and
  // exec: commands are killed.
  double time_limit_seconds = 60;
  // Called after each case (from the worker threads, serialized).
  std::function<void(int64_t done, int64_t total, int64_t failures)> progress;
};

struct SuiteRun {
  std::vector<CaseResult> results;  // One per case, in case order.
  // Some case threads ran past the time limit and still run: the caller
  // must end the process with _exit rather than return from main.
  bool abandoned_threads = false;
};

SuiteRun RunCases(const std::vector<Case>& cases, const BackendSpec& backend,
                  const RunOptions& options);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_RUNNER_H_
