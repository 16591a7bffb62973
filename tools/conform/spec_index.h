// The spec (operation_semantics.md) as sections and sentences, so that a
// case's `spec: SECTION :: FRAGMENT` can be checked (the fragment must occur
// verbatim in the named section) and coverage can list the sentences no
// case cites.
#ifndef KILN_TOOLS_CONFORM_SPEC_INDEX_H_
#define KILN_TOOLS_CONFORM_SPEC_INDEX_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/conform/case_file.h"

namespace kiln::conform {

// Text as it is compared: whitespace runs collapsed to one blank.
std::string CollapseWhitespace(absl::string_view text);
// Also without Markdown markup: backticks, '*', and [text](link) -> text.
std::string StripMarkup(absl::string_view text);

struct SpecSentence {
  std::string text;      // Collapsed, as written.
  std::string stripped;  // StripMarkup(text).
};

struct SpecSection {
  std::string title;  // Heading text without the '#'s.
  int level = 0;      // Number of '#'s.
  int line = 0;
  // The section's own text and its text with its subsections, collapsed.
  std::string own_text;
  std::string full_text;
  std::string full_stripped;
  std::vector<SpecSentence> sentences;  // Own text only, code excluded.
  int parent = -1;                      // Index of the enclosing section.
};

class SpecIndex {
 public:
  static SpecIndex Parse(absl::string_view markdown);
  static absl::StatusOr<SpecIndex> Load(const std::string& path);

  const std::vector<SpecSection>& sections() const { return sections_; }
  // Indices of the sections titled `title`.
  std::vector<int> Find(absl::string_view title) const;
  // OK when the fragment occurs in a section of that title (with its
  // subsections); else NotFound saying which part is wrong.
  absl::Status Check(const SpecReference& reference) const;
  // Whether sentence `sentence` of section `section` is cited by
  // `reference` (the fragment lies in the sentence or the sentence in the
  // fragment, and the reference names the section or an ancestor).
  bool Cites(const SpecReference& reference, int section,
             const SpecSentence& sentence) const;

 private:
  std::vector<SpecSection> sections_;
};

// Checks every case's spec: lines; the first bad one as
// "FILE:LINE: error: ...".
absl::Status CheckSpecReferences(const std::vector<Case>& cases,
                                 const SpecIndex& spec);

}  // namespace kiln::conform

#endif  // KILN_TOOLS_CONFORM_SPEC_INDEX_H_
