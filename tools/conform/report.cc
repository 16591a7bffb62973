#include "tools/conform/report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace kiln::conform {
namespace {

std::vector<std::string> TypeNames(const CaseTraits& traits) {
  std::vector<std::string> names;
  for (ElementType t : traits.types) names.emplace_back(ElementTypeName(t));
  if (names.empty()) names.push_back("-");
  return names;
}

std::vector<std::string> OpNames(const CaseTraits& traits) {
  return traits.ops.empty() ? std::vector<std::string>{"-"} : traits.ops;
}

nlohmann::json CountsJson(const Counts& c) {
  return {{"passed", c.passed},
          {"failed", c.failed},
          {"unexpected_passes", c.unexpected_passes},
          {"expected_failures", c.expected_failures},
          {"unsupported", c.unsupported},
          {"total", c.total()}};
}

nlohmann::json EntryJson(const ReportEntry& e) {
  nlohmann::json spec = nlohmann::json::array();
  for (const SpecReference& ref : e.c->spec) {
    spec.push_back({{"section", ref.section}, {"fragment", ref.fragment}});
  }
  return {{"name", e.c->name},
          {"file", e.c->file},
          {"line", e.c->line},
          {"kind", std::string(CaseKindName(e.c->kind))},
          {"ops", e.traits.ops},
          {"types", TypeNames(e.traits)},
          {"status", std::string(StatusName(e.status))},
          {"outcome", std::string(OutcomeName(e.result.outcome))},
          {"message", e.result.message},
          {"expectation", e.expectation_reason},
          {"seconds", e.result.seconds},
          {"source", e.c->source},
          {"spec", spec}};
}

std::string HtmlEscape(absl::string_view text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

std::string CellText(const Cell& cell) {
  const Counts& c = cell.counts;
  const std::string state = cell.State();
  if (state == "fail") return absl::StrCat("FAIL ", c.failed, "/", c.total());
  if (state == "xfail") {
    return absl::StrCat("xfail ", c.expected_failures, "/", c.total());
  }
  if (state == "unsupported") return "unsupported";
  return absl::StrCat("pass ", c.passed, "/", c.total());
}

bool IsFailure(const ReportEntry& e) {
  return e.status == Status::kFailed || e.status == Status::kUnexpectedPass ||
         e.status == Status::kExpectedFailure;
}

std::string FailureHeading(const ReportEntry& e) {
  return absl::StrCat(e.c->name, " (", StatusName(e.status), ", ",
                      e.c->Location(), ")");
}

std::string FailureText(const ReportEntry& e) {
  std::string text = e.result.message;
  if (e.status == Status::kUnexpectedPass) {
    text = absl::StrCat(
        "passed, but the expectations file lists it as "
        "failing: ",
        e.expectation_reason);
  }
  return text;
}

constexpr const char* kHtmlStyle = R"(<style>
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: center; }
td.op { text-align: left; font-family: monospace; }
.pass { background: #c8f0c8; } .fail { background: #f4a6a6; }
.xfail { background: #f7e08c; } .unsupported { background: #ddd; }
pre { background: #f6f6f6; padding: 6px; overflow-x: auto; }
</style>
)";

// Hides rows whose op does not contain the text typed and rows without a
// cell of a ticked state.
constexpr const char* kHtmlScript = R"(<script>
function applyFilter() {
  const text = document.getElementById('filter').value.toLowerCase();
  const states = Array.from(document.querySelectorAll('input.state:checked'))
      .map(box => box.value);
  document.querySelectorAll('#matrix tbody tr').forEach(row => {
    const op = row.dataset.op.toLowerCase();
    const cells = Array.from(row.querySelectorAll('td[data-state]'));
    const shown = cells.some(cell => states.includes(cell.dataset.state));
    row.style.display = op.includes(text) && shown ? '' : 'none';
  });
}
</script>
)";

}  // namespace

void Counts::Add(Status status) {
  switch (status) {
    case Status::kPassed:
      ++passed;
      break;
    case Status::kUnexpectedPass:
      ++unexpected_passes;
      ++failed;
      break;
    case Status::kFailed:
      ++failed;
      break;
    case Status::kExpectedFailure:
      ++expected_failures;
      break;
    case Status::kUnsupported:
      ++unsupported;
      break;
  }
}

std::string Cell::State() const {
  if (counts.failed > 0) return "fail";
  if (counts.expected_failures > 0) return "xfail";
  if (counts.passed > 0) return "pass";
  return "unsupported";
}

Counts RunSummary::Totals() const {
  Counts counts;
  for (const ReportEntry& e : entries) counts.Add(e.status);
  return counts;
}

std::map<std::string, std::map<std::string, Cell>> RunSummary::Matrix() const {
  std::map<std::string, std::map<std::string, Cell>> matrix;
  for (const ReportEntry& e : entries) {
    for (const std::string& op : OpNames(e.traits)) {
      for (const std::string& type : TypeNames(e.traits)) {
        matrix[op][type].counts.Add(e.status);
      }
    }
  }
  return matrix;
}

std::vector<std::string> RunSummary::Columns() const {
  std::set<std::string> used;
  for (const ReportEntry& e : entries) {
    for (const std::string& t : TypeNames(e.traits)) used.insert(t);
  }
  std::vector<std::string> columns;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (used.count(info.name) != 0) columns.push_back(info.name);
  }
  if (used.count("-") != 0) columns.push_back("-");
  return columns;
}

std::string SummaryLine(const Counts& counts) {
  return absl::StrCat(counts.passed, " passed, ", counts.failed, " failed, ",
                      counts.expected_failures, " expected-failure, ",
                      counts.unsupported, " unsupported");
}

std::string ReportJson(const RunSummary& summary) {
  nlohmann::json matrix = nlohmann::json::object();
  for (const auto& [op, row] : summary.Matrix()) {
    for (const auto& [type, cell] : row) {
      nlohmann::json json = CountsJson(cell.counts);
      json["state"] = cell.State();
      matrix[op][type] = json;
    }
  }
  nlohmann::json cases = nlohmann::json::array();
  for (const ReportEntry& e : summary.entries) cases.push_back(EntryJson(e));
  nlohmann::json report = {{"backend", summary.backend},
                           {"seconds", summary.seconds},
                           {"summary", CountsJson(summary.Totals())},
                           {"columns", summary.Columns()},
                           {"matrix", matrix},
                           {"cases", cases}};
  return report.dump(1) + "\n";
}

std::string ReportMarkdown(const RunSummary& summary) {
  const std::vector<std::string> columns = summary.Columns();
  std::string md =
      absl::StrCat("# Conformance report: ", summary.backend, "\n\n",
                   SummaryLine(summary.Totals()), " (", summary.entries.size(),
                   " cases, ", absl::StrFormat("%.1f", summary.seconds),
                   " s)\n\n", "## Op x element type\n\n| op | ",
                   absl::StrJoin(columns, " | "), " |\n|---|");
  for (size_t i = 0; i < columns.size(); ++i) md += "---|";
  md += "\n";
  for (const auto& [op, row] : summary.Matrix()) {
    absl::StrAppend(&md, "| ", op, " |");
    for (const std::string& column : columns) {
      auto cell = row.find(column);
      absl::StrAppend(&md, " ", cell == row.end() ? "" : CellText(cell->second),
                      " |");
    }
    md += "\n";
  }
  md += "\n## Failures\n\n";
  bool any = false;
  for (const ReportEntry& e : summary.entries) {
    if (!IsFailure(e)) continue;
    any = true;
    absl::StrAppend(&md, "### ", FailureHeading(e), "\n\n```\n", FailureText(e),
                    "\n```\n\n");
  }
  if (!any) md += "None.\n";
  return md;
}

std::string ReportHtml(const RunSummary& summary) {
  const std::vector<std::string> columns = summary.Columns();
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
      "<title>Kiln conformance: ",
      HtmlEscape(summary.backend), "</title>\n", kHtmlStyle, kHtmlScript,
      "</head><body>\n<h1>Conformance report: ", HtmlEscape(summary.backend),
      "</h1>\n<p id=\"summary\">", SummaryLine(summary.Totals()), "</p>\n",
      "<p>Op filter: <input id=\"filter\" oninput=\"applyFilter()\"> ");
  for (const char* state : {"pass", "fail", "xfail", "unsupported"}) {
    absl::StrAppend(&html,
                    "<label><input type=\"checkbox\" class=\"state\" "
                    "value=\"",
                    state, "\" checked onchange=\"applyFilter()\">", state,
                    "</label> ");
  }
  html += "</p>\n<table id=\"matrix\"><thead><tr><th>op</th>";
  for (const std::string& c : columns) {
    absl::StrAppend(&html, "<th>", HtmlEscape(c), "</th>");
  }
  html += "</tr></thead><tbody>\n";
  for (const auto& [op, row] : summary.Matrix()) {
    absl::StrAppend(&html, "<tr data-op=\"", HtmlEscape(op),
                    "\"><td class=\"op\">", HtmlEscape(op), "</td>");
    for (const std::string& column : columns) {
      auto cell = row.find(column);
      if (cell == row.end()) {
        html += "<td></td>";
        continue;
      }
      const std::string state = cell->second.State();
      absl::StrAppend(&html, "<td class=\"", state, "\" data-state=\"", state,
                      "\">", HtmlEscape(CellText(cell->second)), "</td>");
    }
    html += "</tr>\n";
  }
  html += "</tbody></table>\n<h2>Failures</h2>\n";
  for (const ReportEntry& e : summary.entries) {
    if (!IsFailure(e)) continue;
    absl::StrAppend(&html, "<details><summary>", HtmlEscape(FailureHeading(e)),
                    "</summary><pre>", HtmlEscape(FailureText(e)),
                    "</pre></details>\n");
  }
  html += "</body></html>\n";
  return html;
}

absl::Status WriteReports(const RunSummary& summary,
                          const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    return absl::UnavailableError(absl::StrCat(
        directory, ": cannot create the directory: ", error.message()));
  }
  const std::pair<const char*, std::string> files[] = {
      {"report.json", ReportJson(summary)},
      {"summary.md", ReportMarkdown(summary)},
      {"report.html", ReportHtml(summary)}};
  for (const auto& [name, text] : files) {
    const std::string path = absl::StrCat(directory, "/", name);
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out)
      return absl::UnavailableError(absl::StrCat(path, ": cannot write"));
  }
  return absl::OkStatus();
}

}  // namespace kiln::conform
