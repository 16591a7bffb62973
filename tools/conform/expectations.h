// The expectations file of a backend (spec_tests/expectations/<backend>.txt):
// the cases known to fail and the cases, ops and element types the backend
// does not support, each with a reason. A run fails only on results this
// file does not predict, including unexpected passes.
//
//   # comment
//   xfail CASE: reason                 the case is known to fail
//   unsupported CASE: reason           not run
//   unsupported op=NAME: reason        no case exercising op NAME is run
//   unsupported type=TYPE: reason      no case exercising TYPE is run
#ifndef KILN_TOOLS_CONFORM_EXPECTATIONS_H_
#define KILN_TOOLS_CONFORM_EXPECTATIONS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

namespace kiln::conform {

enum class ExpectationKind { kXfail, kUnsupported };

struct Expectation {
  ExpectationKind kind = ExpectationKind::kXfail;
  // A case name, or "op=NAME" / "type=TYPE" (unsupported only).
  std::string target;
  std::string reason;
  int line = 0;
};

// The verdict of a case once expectations are applied.
enum class Status {
  kPassed,
  kFailed,
  kUnexpectedPass,
  kExpectedFailure,
  kUnsupported,
};

absl::string_view StatusName(Status status);
// Whether the status makes the run fail.
bool IsUnexpected(Status status);

class Expectations {
 public:
  static absl::StatusOr<Expectations> Parse(absl::string_view text,
                                            const std::string& filename);
  // A missing file is an empty set of expectations.
  static absl::StatusOr<Expectations> Load(const std::string& path);

  // The entry that applies to a case: its own first, then op=/type=.
  const Expectation* Find(const Case& c, const CaseTraits& traits) const;
  // Whether the case is listed unsupported, so is not run.
  bool SkipsCase(const Case& c, const CaseTraits& traits) const;
  // Applies the entry for the case to its raw result.
  Status Classify(const Case& c, const CaseTraits& traits,
                  const CaseResult& result) const;

  // Case entries naming no case of `cases` (stale entries).
  std::vector<const Expectation*> Stale(const std::vector<Case>& cases) const;

  // The file after a run: entries for the cases that ran reflect their
  // results (failures become xfail, backend-unsupported cases unsupported,
  // passes are dropped, reasons kept when still true); op=/type= entries
  // and entries of cases that did not run are kept. Sorted, one per line.
  std::string Updated(const std::vector<const Case*>& ran,
                      const std::vector<CaseResult>& results,
                      const std::vector<Case>& all_cases,
                      const std::string& backend) const;

  const std::vector<Expectation>& entries() const { return entries_; }

 private:
  std::vector<Expectation> entries_;
  std::map<std::string, size_t> by_case_;
};

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_EXPECTATIONS_H_
