#include "tools/conform/spec_index.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace kiln::conform {
namespace {

int HeadingLevel(absl::string_view line) {
  int level = 0;
  while (level < static_cast<int>(line.size()) && line[level] == '#') ++level;
  if (level == 0 || level > 6 || level >= static_cast<int>(line.size()) ||
      line[level] != ' ') {
    return 0;
  }
  return level;
}

bool IsTableSeparator(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (!absl::StartsWith(line, "|")) return false;
  return line.find_first_not_of("|-: ") == absl::string_view::npos;
}

bool StartsListItem(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  if (absl::StartsWith(line, "* ") || absl::StartsWith(line, "- ")) return true;
  size_t digits = 0;
  while (digits < line.size() && absl::ascii_isdigit(line[digits])) ++digits;
  return digits > 0 && absl::StartsWith(line.substr(digits), ". ");
}

// Splits a paragraph after '.', '!' or '?' followed by a blank and a
// character that is not a lower-case letter ("e.g. the" stays whole).
std::vector<std::string> SplitSentences(const std::string& paragraph) {
  std::vector<std::string> sentences;
  size_t start = 0;
  for (size_t i = 0; i + 2 < paragraph.size(); ++i) {
    const char c = paragraph[i];
    if ((c == '.' || c == '!' || c == '?') && paragraph[i + 1] == ' ' &&
        !absl::ascii_islower(paragraph[i + 2])) {
      sentences.push_back(paragraph.substr(start, i + 1 - start));
      start = i + 2;
    }
  }
  if (start < paragraph.size()) sentences.push_back(paragraph.substr(start));
  return sentences;
}

// Whether a sentence states something a case could check: not a pointer
// elsewhere ("See also ...", "For StableHLO information see ...") and not
// a bare signature line ("Add(lhs, rhs)").
bool IsStatement(absl::string_view stripped) {
  if (stripped.size() < 3) return false;
  if (absl::StartsWith(stripped, "See ") ||
      absl::StartsWith(stripped, "For StableHLO")) {
    return false;
  }
  const size_t paren = stripped.find('(');
  const bool signature =
      absl::EndsWith(stripped, ")") && paren != absl::string_view::npos &&
      stripped.substr(0, paren).find(' ') == absl::string_view::npos;
  return !signature;
}

void AddParagraph(std::vector<std::string>* paragraph, SpecSection* section) {
  if (paragraph->empty()) return;
  const std::string text = CollapseWhitespace(absl::StrJoin(*paragraph, " "));
  paragraph->clear();
  for (std::string& sentence : SplitSentences(text)) {
    sentence = std::string(absl::StripAsciiWhitespace(sentence));
    // Table rows keep their pipes; drop them so a cell's text can be cited.
    std::string stripped = StripMarkup(sentence);
    if (!IsStatement(stripped)) continue;
    section->sentences.push_back({sentence, stripped});
  }
}

// Fills `section`'s sentences from its own lines: paragraphs, list items
// and table rows; fenced code is skipped.
void SplitSection(const std::vector<absl::string_view>& lines,
                  SpecSection* section) {
  std::vector<std::string> paragraph;
  bool in_code = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = lines[i];
    if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "```")) {
      AddParagraph(&paragraph, section);
      in_code = !in_code;
      continue;
    }
    if (in_code) continue;
    if (absl::StripAsciiWhitespace(line).empty()) {
      AddParagraph(&paragraph, section);
      continue;
    }
    if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(line), "|")) {
      AddParagraph(&paragraph, section);
      const bool header =
          i + 1 < lines.size() && IsTableSeparator(lines[i + 1]);
      if (IsTableSeparator(line) || header) continue;
      // A row continues on lines of the form ": : : more text :".
      std::string row(line);
      while (i + 1 < lines.size() &&
             absl::StartsWith(absl::StripLeadingAsciiWhitespace(lines[i + 1]),
                              ":")) {
        absl::StrAppend(&row, " ",
                        absl::StrReplaceAll(lines[++i], {{":", " "}}));
      }
      paragraph.push_back(row);
      AddParagraph(&paragraph, section);
      continue;
    }
    if (StartsListItem(line)) AddParagraph(&paragraph, section);
    paragraph.emplace_back(line);
  }
  AddParagraph(&paragraph, section);
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return !needle.empty() && haystack.find(needle) != std::string::npos;
}

}  // namespace

std::string CollapseWhitespace(absl::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (absl::ascii_isspace(c)) {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

std::string StripMarkup(absl::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`' || c == '*' || c == '|') continue;
    if (c == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      const size_t close = text.find(')', i);
      if (close != absl::string_view::npos) {
        i = close;
        continue;
      }
    }
    if (c == '[') continue;
    out += c;
  }
  return CollapseWhitespace(out);
}

SpecIndex SpecIndex::Parse(absl::string_view markdown) {
  SpecIndex index;
  std::vector<absl::string_view> lines = absl::StrSplit(markdown, '\n');
  std::vector<std::vector<absl::string_view>> own;
  bool in_code = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = absl::StripSuffix(lines[i], "\r");
    if (absl::StartsWith(line, "```")) in_code = !in_code;
    const int level = in_code ? 0 : HeadingLevel(line);
    if (level > 0) {
      SpecSection section;
      section.title =
          std::string(absl::StripAsciiWhitespace(line.substr(level)));
      section.level = level;
      section.line = static_cast<int>(i) + 1;
      for (int p = static_cast<int>(index.sections_.size()) - 1; p >= 0; --p) {
        if (index.sections_[p].level < level) {
          section.parent = p;
          break;
        }
      }
      index.sections_.push_back(std::move(section));
      own.emplace_back();
    } else if (!own.empty()) {
      own.back().push_back(line);
    }
  }
  for (size_t s = 0; s < index.sections_.size(); ++s) {
    SpecSection& section = index.sections_[s];
    section.own_text = CollapseWhitespace(absl::StrJoin(own[s], "\n"));
    SplitSection(own[s], &section);
  }
  // A section's full text: its own, then each descendant's, in order.
  for (size_t s = 0; s < index.sections_.size(); ++s) {
    std::string full = index.sections_[s].own_text;
    for (size_t d = s + 1; d < index.sections_.size() &&
                           index.sections_[d].level > index.sections_[s].level;
         ++d) {
      absl::StrAppend(&full, " ", index.sections_[d].title, " ",
                      index.sections_[d].own_text);
    }
    index.sections_[s].full_text = full;
    index.sections_[s].full_stripped = StripMarkup(full);
  }
  return index;
}

absl::StatusOr<SpecIndex> SpecIndex::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return Parse(buffer.str());
}

std::vector<int> SpecIndex::Find(absl::string_view title) const {
  std::vector<int> found;
  for (size_t s = 0; s < sections_.size(); ++s) {
    if (sections_[s].title == title) found.push_back(static_cast<int>(s));
  }
  return found;
}

absl::Status SpecIndex::Check(const SpecReference& reference) const {
  const std::vector<int> found = Find(reference.section);
  if (found.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "spec: no section titled '", reference.section,
        "' in the spec (write the heading's text without the #s)"));
  }
  const std::string raw = CollapseWhitespace(reference.fragment);
  const std::string stripped = StripMarkup(reference.fragment);
  for (int s : found) {
    if (Contains(sections_[s].full_text, raw) ||
        Contains(sections_[s].full_stripped, stripped)) {
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError(absl::StrCat(
      "spec: the fragment '", reference.fragment,
      "' does not occur verbatim in section '", reference.section, "'"));
}

bool SpecIndex::Cites(const SpecReference& reference, int section,
                      const SpecSentence& sentence) const {
  bool named = false;
  for (int s = section; s >= 0 && !named; s = sections_[s].parent) {
    named = sections_[s].title == reference.section;
  }
  if (!named) return false;
  const std::string raw = CollapseWhitespace(reference.fragment);
  const std::string stripped = StripMarkup(reference.fragment);
  return Contains(sentence.text, raw) ||
         Contains(sentence.stripped, stripped) ||
         Contains(raw, sentence.text) || Contains(stripped, sentence.stripped);
}

absl::Status CheckSpecReferences(const std::vector<Case>& cases,
                                 const SpecIndex& spec) {
  for (const Case& c : cases) {
    for (const SpecReference& reference : c.spec) {
      absl::Status status = spec.Check(reference);
      if (!status.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(c.file, ":", reference.line, ": error: case ", c.name,
                         ": ", status.message()));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace kiln::conform
