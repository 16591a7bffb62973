#include "tools/conform/expectations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace kiln::conform {
namespace {

std::string FirstLine(absl::string_view text) {
  absl::string_view line = text.substr(0, text.find('\n'));
  line = absl::StripAsciiWhitespace(line);
  return std::string(line.substr(0, 200));
}

bool HasOp(const CaseTraits& traits, absl::string_view op) {
  return std::find(traits.ops.begin(), traits.ops.end(), op) !=
         traits.ops.end();
}

bool HasType(const CaseTraits& traits, absl::string_view type) {
  for (ElementType t : traits.types) {
    if (ElementTypeName(t) == type) return true;
  }
  return false;
}

std::string EntryLine(const Expectation& e) {
  return absl::StrCat(
      e.kind == ExpectationKind::kXfail ? "xfail " : "unsupported ", e.target,
      ": ", e.reason);
}

}  // namespace

absl::string_view StatusName(Status status) {
  switch (status) {
    case Status::kPassed:
      return "passed";
    case Status::kFailed:
      return "failed";
    case Status::kUnexpectedPass:
      return "unexpected-pass";
    case Status::kExpectedFailure:
      return "expected-failure";
    case Status::kUnsupported:
      return "unsupported";
  }
  return "?";
}

bool IsUnexpected(Status status) {
  return status == Status::kFailed || status == Status::kUnexpectedPass;
}

absl::StatusOr<Expectations> Expectations::Parse(absl::string_view text,
                                                 const std::string& filename) {
  Expectations result;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    auto error = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat(filename, ":", line_number, ": error: ", what));
    };
    Expectation e;
    e.line = line_number;
    absl::string_view rest;
    if (absl::ConsumePrefix(&line, "xfail ")) {
      e.kind = ExpectationKind::kXfail;
    } else if (absl::ConsumePrefix(&line, "unsupported ")) {
      e.kind = ExpectationKind::kUnsupported;
    } else {
      return error(
          "expected 'xfail CASE: reason' or 'unsupported "
          "CASE|op=NAME|type=TYPE: reason'");
    }
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) {
      return error("every entry needs a reason: 'TARGET: reason'");
    }
    e.target = std::string(absl::StripAsciiWhitespace(line.substr(0, colon)));
    e.reason = std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    if (e.target.empty() || e.reason.empty()) {
      return error("an entry needs a target and a reason");
    }
    const bool pattern = absl::StartsWith(e.target, "op=") ||
                         absl::StartsWith(e.target, "type=");
    if (pattern && e.kind == ExpectationKind::kXfail) {
      return error("xfail names one case; op= and type= go with unsupported");
    }
    if (!pattern) {
      auto [it, inserted] =
          result.by_case_.emplace(e.target, result.entries_.size());
      if (!inserted) {
        return error(absl::StrCat("case '", e.target, "' is listed twice"));
      }
    }
    result.entries_.push_back(std::move(e));
  }
  return result;
}

absl::StatusOr<Expectations> Expectations::Load(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return Expectations();
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return Parse(buffer.str(), path);
}

const Expectation* Expectations::Find(const Case& c,
                                      const CaseTraits& traits) const {
  auto it = by_case_.find(c.name);
  if (it != by_case_.end()) return &entries_[it->second];
  for (const Expectation& e : entries_) {
    absl::string_view target = e.target;
    if (absl::ConsumePrefix(&target, "op=") && HasOp(traits, target)) return &e;
    if (absl::ConsumePrefix(&target, "type=") && HasType(traits, target)) {
      return &e;
    }
  }
  return nullptr;
}

bool Expectations::SkipsCase(const Case& c, const CaseTraits& traits) const {
  const Expectation* e = Find(c, traits);
  return e != nullptr && e->kind == ExpectationKind::kUnsupported;
}

Status Expectations::Classify(const Case& c, const CaseTraits& traits,
                              const CaseResult& result) const {
  const Expectation* e = Find(c, traits);
  const bool xfail = e != nullptr && e->kind == ExpectationKind::kXfail;
  switch (result.outcome) {
    case Outcome::kPass:
      return xfail ? Status::kUnexpectedPass : Status::kPassed;
    case Outcome::kFail:
      return xfail ? Status::kExpectedFailure : Status::kFailed;
    case Outcome::kUnsupported:
      return Status::kUnsupported;
  }
  return Status::kFailed;
}

std::vector<const Expectation*> Expectations::Stale(
    const std::vector<Case>& cases) const {
  std::set<std::string> names;
  for (const Case& c : cases) names.insert(c.name);
  std::vector<const Expectation*> stale;
  for (const auto& [name, index] : by_case_) {
    if (names.count(name) == 0) stale.push_back(&entries_[index]);
  }
  return stale;
}

std::string Expectations::Updated(const std::vector<const Case*>& ran,
                                  const std::vector<CaseResult>& results,
                                  const std::vector<Case>& all_cases,
                                  const std::string& backend) const {
  std::set<std::string> existing;
  for (const Case& c : all_cases) existing.insert(c.name);
  std::map<std::string, Expectation> cases;  // Sorted by name.
  std::vector<const Expectation*> patterns;
  for (const Expectation& e : entries_) {
    if (by_case_.count(e.target) == 0) {
      patterns.push_back(&e);
    } else if (existing.count(e.target) != 0) {
      cases[e.target] = e;
    }
  }
  for (size_t i = 0; i < ran.size(); ++i) {
    const std::string& name = ran[i]->name;
    const CaseResult& result = results[i];
    auto old = cases.find(name);
    if (result.outcome == Outcome::kPass) {
      if (old != cases.end()) cases.erase(old);
      continue;
    }
    const ExpectationKind kind = result.outcome == Outcome::kFail
                                     ? ExpectationKind::kXfail
                                     : ExpectationKind::kUnsupported;
    if (old != cases.end() && old->second.kind == kind) continue;
    std::string reason = FirstLine(result.message);
    if (reason.empty()) reason = "fails";
    cases[name] = Expectation{kind, name, reason, 0};
  }
  std::string text = absl::StrCat(
      "# Expectations of the ", backend,
      " backend for `kiln conform` (docs/conformance.md, Expectations).\n"
      "# xfail CASE: reason | unsupported CASE|op=NAME|type=TYPE: reason\n");
  for (const Expectation* e : patterns)
    absl::StrAppend(&text, EntryLine(*e), "\n");
  for (const auto& [name, e] : cases)
    absl::StrAppend(&text, EntryLine(e), "\n");
  return text;
}

}  // namespace kiln::conform
