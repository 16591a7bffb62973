#include "tools/conform/case_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/text/parser.h"

namespace kiln::conform {
namespace {

constexpr const char* kSources[] = {"spec-example", "hand",      "numpy",
                                    "mpmath",       "ml_dtypes", "jax"};

bool IsIndented(absl::string_view line) {
  return absl::StartsWith(line, "  ") || absl::StartsWith(line, "\t");
}

bool IsBlank(absl::string_view line) {
  return absl::StripAsciiWhitespace(line).empty();
}

bool IsComment(absl::string_view line) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "#");
}

// Drops a trailing " # comment" from a one-line value.
absl::string_view StripTrailingComment(absl::string_view value) {
  for (size_t i = 0; i + 1 < value.size(); ++i) {
    if ((value[i] == ' ' || value[i] == '\t') && value[i + 1] == '#') {
      return absl::StripAsciiWhitespace(value.substr(0, i));
    }
  }
  return absl::StripAsciiWhitespace(value);
}

bool IsValidCaseName(absl::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(c) || c == '_' || c == '.' || c == '+' ||
           c == '-';
  });
}

// A `key:` line, split.
struct KeyLine {
  std::string key;
  int64_t device = -1;  // `arg[d]` / `expect[d]`.
  std::string value;    // Empty: a multi-line value follows.
};

class FileParser {
 public:
  FileParser(absl::string_view text, std::string filename)
      : lines_(absl::StrSplit(text, '\n')), filename_(std::move(filename)) {
    for (std::string& line : lines_) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
    }
  }

  absl::StatusOr<std::vector<Case>> Parse();

 private:
  absl::Status Error(int line, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(filename_, ":", line, ": error: ", what));
  }
  absl::StatusOr<KeyLine> SplitKey(int line_number, absl::string_view line);
  // Reads the indented block after line `*index` (0-based); on return
  // `*index` is the block's last line.
  std::string ReadBlock(size_t* index, absl::string_view joiner);
  absl::Status ApplyHeaderKey(int line, const KeyLine& key);
  absl::Status ApplyCaseKey(int line, const KeyLine& key, Case* c);
  absl::Status ApplyValueKey(int line, const KeyLine& key, Case* c);
  absl::Status FinishCase(Case* c);

  std::vector<std::string> lines_;
  std::string filename_;
  std::string suite_;
  std::vector<std::string> file_ops_;
  std::vector<Case> cases_;
};

absl::StatusOr<KeyLine> FileParser::SplitKey(int line_number,
                                             absl::string_view line) {
  const size_t colon = line.find(':');
  if (colon == absl::string_view::npos) {
    return Error(
        line_number,
        absl::StrCat("expected 'key: value' or 'case NAME', got '", line, "'"));
  }
  KeyLine key;
  absl::string_view name = absl::StripAsciiWhitespace(line.substr(0, colon));
  key.value = std::string(StripTrailingComment(line.substr(colon + 1)));
  const size_t bracket = name.find('[');
  if (bracket != absl::string_view::npos && absl::EndsWith(name, "]")) {
    absl::string_view index =
        name.substr(bracket + 1, name.size() - bracket - 2);
    if (!absl::SimpleAtoi(index, &key.device) || key.device < 0) {
      return Error(line_number,
                   absl::StrCat("bad device index '", index, "' in '", name,
                                "': expected a non-negative integer"));
    }
    name = name.substr(0, bracket);
    if (name != "arg" && name != "expect") {
      return Error(line_number,
                   absl::StrCat("only arg and expect take a device index, "
                                "not '",
                                name, "'"));
    }
  }
  key.key = std::string(name);
  return key;
}

std::string FileParser::ReadBlock(size_t* index, absl::string_view joiner) {
  std::vector<std::string> block;
  size_t i = *index + 1;
  for (; i < lines_.size(); ++i) {
    if (!IsBlank(lines_[i]) && !IsIndented(lines_[i])) break;
    block.push_back(lines_[i]);
  }
  while (!block.empty() && IsBlank(block.back())) block.pop_back();
  *index = *index + block.size();
  size_t common = std::string::npos;
  for (const std::string& line : block) {
    if (IsBlank(line)) continue;
    common = std::min(common, line.find_first_not_of(" \t"));
  }
  for (std::string& line : block) {
    line = IsBlank(line) ? "" : line.substr(common);
  }
  return absl::StrJoin(block, joiner);
}

std::vector<std::string> SplitList(absl::string_view value) {
  return absl::StrSplit(value, absl::ByAnyChar(", \t"), absl::SkipEmpty());
}

absl::Status FileParser::ApplyHeaderKey(int line, const KeyLine& key) {
  if (key.key == "suite") {
    suite_ = key.value;
    return absl::OkStatus();
  }
  if (key.key == "op") {
    file_ops_ = SplitList(key.value);
    return absl::OkStatus();
  }
  return Error(line, absl::StrCat("unknown file header key '", key.key,
                                  "' (before the first case only suite: and "
                                  "op: are allowed)"));
}

absl::Status FileParser::ApplyValueKey(int line, const KeyLine& key, Case* c) {
  absl::StatusOr<Literal> literal = ParseCaseLiteral(key.value);
  if (!literal.ok()) {
    return Error(line, absl::StrCat("bad ", key.key,
                                    " literal: ", literal.status().message()));
  }
  CaseValue value{key.device, *std::move(literal), line};
  (key.key == "arg" ? c->args : c->expects).push_back(std::move(value));
  if (key.key == "expect") c->kind = CaseKind::kRun;
  return absl::OkStatus();
}

absl::Status SetKind(CaseKind kind, Case* c, bool* kind_set) {
  if (*kind_set && c->kind != kind) {
    return absl::InvalidArgumentError(
        "a case has exactly one of expect:, reject: and "
        "implementation-defined:");
  }
  c->kind = kind;
  *kind_set = true;
  return absl::OkStatus();
}

absl::Status FileParser::ApplyCaseKey(int line, const KeyLine& key, Case* c) {
  const std::string& k = key.key;
  const std::string& v = key.value;
  if (k == "arg" || k == "expect") return ApplyValueKey(line, key, c);
  if (k == "op") {
    c->ops = SplitList(v);
  } else if (k == "spec") {
    const size_t sep = v.find("::");
    if (sep == std::string::npos) {
      return Error(line, "spec: needs '<section title> :: <fragment>'");
    }
    SpecReference ref{
        std::string(absl::StripAsciiWhitespace(v.substr(0, sep))),
        std::string(absl::StripAsciiWhitespace(v.substr(sep + 2))), line};
    if (ref.section.empty() || ref.fragment.empty()) {
      return Error(line, "spec: needs a section title and a fragment");
    }
    c->spec.push_back(std::move(ref));
  } else if (k == "source") {
    if (std::find(std::begin(kSources), std::end(kSources), v) ==
        std::end(kSources)) {
      return Error(line, absl::StrCat("unknown source '", v, "': expected ",
                                      absl::StrJoin(kSources, ", ")));
    }
    c->source = v;
  } else if (k == "types") {
    for (const std::string& name : SplitList(v)) {
      std::optional<ElementType> type = ElementTypeFromName(name);
      if (!type.has_value() || !IsArrayType(*type)) {
        return Error(line, absl::StrCat("unknown element type '", name, "'"));
      }
      c->types.push_back(*type);
    }
  } else if (k == "tolerance") {
    absl::StatusOr<Tolerance> tolerance = ParseTolerance(v);
    if (!tolerance.ok()) return Error(line, tolerance.status().message());
    c->tolerance = *tolerance;
  } else if (k == "replicas" || k == "partitions") {
    int64_t n;
    if (!absl::SimpleAtoi(v, &n) || n < 1) {
      return Error(line, absl::StrCat(k, ": expected a positive integer, got '",
                                      v, "'"));
    }
    (k == "replicas" ? c->replicas : c->partitions) = n;
  } else if (k == "note") {
    c->note = v;
  } else {
    return Error(line, absl::StrCat("unknown key '", k, "'"));
  }
  return absl::OkStatus();
}

absl::Status CheckDeviceValues(const Case& c) {
  for (const std::vector<CaseValue>* values : {&c.args, &c.expects}) {
    for (const CaseValue& value : *values) {
      if (value.device >= c.device_count()) {
        return absl::InvalidArgumentError(absl::StrCat(
            ":", value.line, ": error: case ", c.name, ": device ",
            value.device, " out of range: the case has ", c.device_count(),
            " device(s) (replicas x partitions)"));
      }
    }
  }
  if (c.kind != CaseKind::kRun) return absl::OkStatus();
  for (int64_t d = 0; d < c.device_count(); ++d) {
    int count = 0;
    for (const CaseValue& value : c.expects) {
      count += value.device == -1 || value.device == d;
    }
    if (count != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          ":", c.line, ": error: case ", c.name, ": device ", d, " has ", count,
          " expected values; write one expect: (a tuple literal for several "
          "results), or one expect[d]: per device"));
    }
  }
  return absl::OkStatus();
}

absl::Status FileParser::FinishCase(Case* c) {
  if (c->module_text.empty()) {
    return Error(c->line, absl::StrCat("case ", c->name, " has no module:"));
  }
  if (c->spec.empty()) {
    return Error(c->line,
                 absl::StrCat("case ", c->name,
                              " has no spec: line (every case names the spec "
                              "section and sentence it derives from)"));
  }
  if (c->kind == CaseKind::kRun && c->expects.empty()) {
    return Error(c->line, absl::StrCat("case ", c->name,
                                       " needs one of expect:, reject: or "
                                       "implementation-defined:"));
  }
  if (c->kind == CaseKind::kRun && c->source.empty()) {
    return Error(c->line, absl::StrCat("case ", c->name,
                                       " has no source: (where its expected "
                                       "values come from)"));
  }
  if (c->kind != CaseKind::kRun && !c->expects.empty()) {
    return Error(c->line, absl::StrCat("case ", c->name,
                                       ": expect: cannot go with reject: or "
                                       "implementation-defined:"));
  }
  if (c->kind == CaseKind::kReject && !c->args.empty()) {
    return Error(c->line,
                 absl::StrCat("case ", c->name, ": a reject case has no arg:"));
  }
  if (absl::Status s = CheckDeviceValues(*c); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(filename_, s.message()));
  }
  if (c->ops.empty()) c->ops = file_ops_;
  c->suite = suite_;
  return absl::OkStatus();
}

absl::Status ParseReject(const std::string& value, Case* c) {
  std::pair<std::string, std::string> parts =
      absl::StrSplit(value, absl::MaxSplits(' ', 1));
  if (parts.first == "parse") {
    c->reject_stage = RejectStage::kParse;
  } else if (parts.first == "verify") {
    c->reject_stage = RejectStage::kVerify;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "reject: stage must be parse or verify, got '", parts.first, "'"));
  }
  c->reject_rule = std::string(absl::StripAsciiWhitespace(parts.second));
  if (c->reject_rule.empty()) {
    return absl::InvalidArgumentError(
        "reject: needs 'STAGE RULE': the text the error must contain");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Case>> FileParser::Parse() {
  std::optional<Case> current;
  bool kind_set = false;
  for (size_t i = 0; i < lines_.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    const std::string& text = lines_[i];
    if (IsBlank(text) || IsComment(text)) continue;
    if (IsIndented(text)) {
      return Error(line,
                   "unexpected indented line (a multi-line value must "
                   "follow a 'key:' with nothing after the colon)");
    }
    if (absl::StartsWith(text, "case ") || absl::StartsWith(text, "case\t") ||
        text == "case") {
      if (current.has_value()) {
        if (absl::Status s = FinishCase(&*current); !s.ok()) return s;
        cases_.push_back(*std::move(current));
      }
      std::string name(StripTrailingComment(absl::string_view(text).substr(4)));
      if (!IsValidCaseName(name)) {
        return Error(line, absl::StrCat("bad case name '", name,
                                        "': use [A-Za-z0-9_.+-]+"));
      }
      current.emplace();
      current->name = name;
      current->file = filename_;
      current->line = line;
      kind_set = false;
      continue;
    }
    absl::StatusOr<KeyLine> key = SplitKey(line, text);
    if (!key.ok()) return key.status();
    if (key->value.empty()) {
      const bool code = key->key == "module";
      key->value = ReadBlock(
          &i, code || key->key == "arg" || key->key == "expect" ? "\n" : " ");
      if (code && current.has_value()) current->module_line = line + 1;
      if (key->value.empty()) {
        return Error(line, absl::StrCat(key->key, ": has no value"));
      }
    } else if (key->key == "module") {
      return Error(line,
                   "module: is multi-line: put the HLO text on the "
                   "following lines, indented");
    }
    if (!current.has_value()) {
      if (absl::Status s = ApplyHeaderKey(line, *key); !s.ok()) return s;
      continue;
    }
    absl::Status status;
    if (key->key == "module") {
      current->module_text = key->value;
    } else if (key->key == "reject") {
      status = SetKind(CaseKind::kReject, &*current, &kind_set);
      if (status.ok()) status = ParseReject(key->value, &*current);
    } else if (key->key == "implementation-defined") {
      status = SetKind(CaseKind::kImplementationDefined, &*current, &kind_set);
      current->implementation_defined_reason = key->value;
    } else {
      if (key->key == "expect") {
        status = SetKind(CaseKind::kRun, &*current, &kind_set);
      }
      if (status.ok()) status = ApplyCaseKey(line, *key, &*current);
    }
    if (!status.ok()) {
      if (absl::StartsWith(status.message(), filename_)) return status;
      return Error(line, status.message());
    }
  }
  if (current.has_value()) {
    if (absl::Status s = FinishCase(&*current); !s.ok()) return s;
    cases_.push_back(*std::move(current));
  }
  return std::move(cases_);
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

absl::StatusOr<Literal> ParseCaseLiteral(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  if (literal.ok() || !absl::StartsWith(text, "(") ||
      !absl::EndsWith(text, ")")) {
    return literal;
  }
  // A tuple written element by element: "(f32[2] {1, 2}, s32[] 3)".
  std::vector<Literal> elements;
  absl::string_view inner = text.substr(1, text.size() - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != ',' || depth != 0) continue;
    absl::string_view item =
        absl::StripAsciiWhitespace(inner.substr(start, i - start));
    start = i + 1;
    if (item.empty() && i == inner.size() && elements.empty()) break;
    absl::StatusOr<Literal> element = ParseCaseLiteral(item);
    if (!element.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("tuple element ", elements.size(), " '", item,
                       "': ", element.status().message()));
    }
    elements.push_back(*std::move(element));
  }
  return Literal::Tuple(std::move(elements));
}

absl::string_view CaseKindName(CaseKind kind) {
  switch (kind) {
    case CaseKind::kRun:
      return "run";
    case CaseKind::kReject:
      return "reject";
    case CaseKind::kImplementationDefined:
      return "implementation-defined";
  }
  return "?";
}

std::vector<const Literal*> Case::ArgumentsFor(int64_t device) const {
  std::vector<const Literal*> result;
  for (const CaseValue& value : args) {
    if (value.device == -1 || value.device == device) {
      result.push_back(&value.literal);
    }
  }
  return result;
}

const Literal* Case::ExpectedFor(int64_t device) const {
  for (const CaseValue& value : expects) {
    if (value.device == -1 || value.device == device) return &value.literal;
  }
  return nullptr;
}

std::string Case::Location() const { return absl::StrCat(file, ":", line); }

absl::StatusOr<std::vector<Case>> ParseCaseFile(absl::string_view text,
                                                const std::string& filename) {
  return FileParser(text, filename).Parse();
}

absl::StatusOr<std::vector<std::string>> FindCaseFiles(
    const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      for (auto it = std::filesystem::recursive_directory_iterator(path, error);
           !error && it != std::filesystem::recursive_directory_iterator();
           it.increment(error)) {
        if (it->is_regular_file() && it->path().extension() == ".hlotest") {
          files.push_back(it->path().string());
        }
      }
      if (error) {
        return absl::UnavailableError(
            absl::StrCat(path, ": cannot list: ", error.message()));
      }
    } else if (std::filesystem::exists(path, error)) {
      files.push_back(path);
    } else {
      return absl::NotFoundError(absl::StrCat(path,
                                              ": no such file or "
                                              "directory"));
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

absl::StatusOr<std::vector<Case>> LoadCases(
    const std::vector<std::string>& files) {
  std::vector<Case> all;
  std::map<std::string, std::string> seen;  // name -> location
  for (const std::string& file : files) {
    absl::StatusOr<std::string> text = ReadFile(file);
    if (!text.ok()) return text.status();
    absl::StatusOr<std::vector<Case>> cases = ParseCaseFile(*text, file);
    if (!cases.ok()) return cases.status();
    for (Case& c : *cases) {
      auto [it, inserted] = seen.emplace(c.name, c.Location());
      if (!inserted) {
        return absl::InvalidArgumentError(
            absl::StrCat(c.Location(), ": error: duplicate case name '", c.name,
                         "' (first defined at ", it->second, ")"));
      }
      all.push_back(std::move(c));
    }
  }
  return all;
}

}  // namespace kiln::conform
