// Reports of a conformance run: JSON (report.json), a Markdown summary
// (summary.md) and a self-contained HTML page (report.html), each with the
// op x element type matrix of pass / fail / expected-failure / unsupported
// and the failures with their diffs.
#ifndef KILN_TOOLS_CONFORM_REPORT_H_
#define KILN_TOOLS_CONFORM_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tools/conform/case_file.h"
#include "tools/conform/expectations.h"
#include "tools/conform/runner.h"

namespace kiln::conform {

struct ReportEntry {
  const Case* c = nullptr;
  CaseTraits traits;
  CaseResult result;
  Status status = Status::kPassed;
  std::string expectation_reason;  // From the expectations file, if any.
};

// How many cases of each status.
struct Counts {
  int64_t passed = 0;
  int64_t failed = 0;  // Unexpected failures, unexpected passes included.
  int64_t unexpected_passes = 0;
  int64_t expected_failures = 0;
  int64_t unsupported = 0;
  int64_t total() const {
    return passed + failed + expected_failures + unsupported;
  }
  void Add(Status status);
};

// One cell of the matrix: the cases of one op and one element type.
struct Cell {
  Counts counts;
  // "fail" if any unexpected result, else "xfail", else "pass", else
  // "unsupported" when nothing of the cell was supported.
  std::string State() const;
};

struct RunSummary {
  std::string backend;
  std::vector<ReportEntry> entries;
  double seconds = 0;

  Counts Totals() const;
  // op -> element type name ("-" for cases with no type) -> cell.
  std::map<std::string, std::map<std::string, Cell>> Matrix() const;
  // Every element type column of the matrix, in element-type order.
  std::vector<std::string> Columns() const;
};

// "N passed, N failed, N expected-failure, N unsupported".
std::string SummaryLine(const Counts& counts);

std::string ReportJson(const RunSummary& summary);
std::string ReportMarkdown(const RunSummary& summary);
std::string ReportHtml(const RunSummary& summary);

// Writes report.json, summary.md and report.html into `directory`
// (created if needed).
absl::Status WriteReports(const RunSummary& summary,
                          const std::string& directory);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_REPORT_H_
