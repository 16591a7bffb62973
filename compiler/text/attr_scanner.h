// A cursor over attribute-value text, shared by the attribute codec and the
// shape parser. It skips whitespace and comments between tokens, reads
// integers with overflow checks, and remembers where the first error was so
// that callers can report an offset. No allocation per character.
#ifndef KILN_COMPILER_TEXT_ATTR_SCANNER_H_
#define KILN_COMPILER_TEXT_ATTR_SCANNER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln {
namespace text_internal {

// Deepest nesting of tuples / braces the recursive parsers accept.
inline constexpr int kMaxNestingDepth = 256;

class AttrScanner {
 public:
  // `subject` names what is parsed in error messages: an attribute name
  // (messages say "attribute 'window': ...") or, with is_attribute=false, a
  // noun such as "shape". Not copied: it must outlive the scanner.
  AttrScanner(absl::string_view text, absl::string_view subject,
              bool is_attribute = true)
      : text_(text), subject_(subject), is_attribute_(is_attribute) {}

  size_t pos() const { return pos_; }
  void set_pos(size_t pos) { pos_ = pos; }
  absl::string_view text() const { return text_; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  // The current character, or '\0' at the end.
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  char PeekAt(size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void Advance(size_t n = 1) { pos_ += n; }

  // Skips spaces, tabs, newlines, /*...*/ and //... comments. Inline fast
  // path: most tokens are not preceded by space.
  void SkipSpace() {
    if (pos_ < text_.size() && !MayStartSpace(text_[pos_])) return;
    SkipSpaceSlow();
  }
  // Consumes `c` at the current position (no skipping) if present.
  bool Consume(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // Skips space, then consumes `c` if present.
  bool SkipAndConsume(char c) {
    SkipSpace();
    return Consume(c);
  }
  // Skips space, then consumes `word` if it is next and not followed by an
  // identifier character.
  bool SkipAndConsumeWord(absl::string_view word);
  // Skips space, then requires `c`.
  absl::Status Expect(char c, absl::string_view what);

  // Skips space, then reads an optionally negative decimal integer.
  absl::StatusOr<int64_t> ParseInt(absl::string_view what);
  // Skips space, then reads true / false.
  absl::StatusOr<bool> ParseBool();
  // Skips space, then reads [A-Za-z0-9_.$-]* (may be empty).
  absl::string_view ParseIdentifier();
  // Skips space, then reads a "..." string with C escapes, unescaped.
  absl::StatusOr<std::string> ParseQuotedString();

  // An InvalidArgument error at the current position ("<subject>: expected
  // <what>"), also recorded as error_offset().
  absl::Status Error(absl::string_view message);
  absl::Status ErrorAt(size_t pos, absl::string_view message);
  absl::Status Expected(absl::string_view what);
  size_t error_offset() const { return error_offset_; }

  // Depth guard for recursive parsers.
  absl::Status Enter();
  void Leave() { --depth_; }

  // Returns the end of the quoted string starting at `start` (which must be
  // '"'), just past the closing quote, or npos if unterminated.
  static size_t FindStringEnd(absl::string_view text, size_t start);

 private:
  static bool MayStartSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/';
  }
  void SkipSpaceSlow();

  absl::string_view text_;
  absl::string_view subject_;
  bool is_attribute_;
  size_t pos_ = 0;
  size_t error_offset_ = 0;
  int depth_ = 0;
};

inline bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' || c == '$';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace text_internal
}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_ATTR_SCANNER_H_
