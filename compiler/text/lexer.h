// A hand-written cursor over HLO text. The parser moves it token by token
// and hands the raw text at the cursor to the shape, literal and attribute
// codecs, which report how much they consumed. Nothing here copies the
// input: names and raw values are slices of the original text.
#ifndef KILN_COMPILER_TEXT_LEXER_H_
#define KILN_COMPILER_TEXT_LEXER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln {

// 1-based line and column of a byte offset.
struct LineColumn {
  int line = 1;
  int column = 1;
};

namespace lexer_internal {

// Bits of the character class table below.
inline constexpr uint8_t kIdentifierStart = 1;  // [A-Za-z_]
inline constexpr uint8_t kIdentifierChar = 2;   // [A-Za-z0-9_.-]
inline constexpr uint8_t kTriviaStart = 4;      // whitespace or '/'

constexpr std::array<uint8_t, 256> MakeCharClasses() {
  std::array<uint8_t, 256> classes{};
  for (int c = 0; c < 256; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    if (alpha || c == '_') classes[c] |= kIdentifierStart;
    if (alpha || digit || c == '_' || c == '.' || c == '-') {
      classes[c] |= kIdentifierChar;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v' || c == '/') {
      classes[c] |= kTriviaStart;
    }
  }
  return classes;
}

// Character classes, indexed by unsigned char: table lookups keep the
// per-character loops of the lexer branch-light.
inline constexpr std::array<uint8_t, 256> kCharClasses = MakeCharClasses();

}  // namespace lexer_internal

class Lexer {
 public:
  explicit Lexer(absl::string_view text) : text_(text) {}

  absl::string_view text() const { return text_; }
  size_t pos() const { return pos_; }
  void set_pos(size_t pos) { pos_ = pos < text_.size() ? pos : text_.size(); }
  bool AtEnd() const { return pos_ >= text_.size(); }
  // The unread text.
  absl::string_view Rest() const { return text_.substr(pos_); }

  // Offset of the last error reported by a method below.
  size_t error_offset() const { return error_offset_; }

  // Skips whitespace, "// ..." line comments and "/* ... */" block
  // comments. An unterminated block comment is an error at its start.
  // Inline fast path: the parser calls this before most tokens, and most of
  // the time the cursor is already at one.
  absl::Status SkipTrivia() {
    if (AtEnd() || !MayStartTrivia(text_[pos_])) return absl::OkStatus();
    // A single space between tokens is the next most common case.
    if (text_[pos_] == ' ' && !MayStartTrivia(PeekAt(1))) {
      ++pos_;
      return absl::OkStatus();
    }
    return SkipTriviaSlow();
  }

  // Current character, or '\0' at the end.
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  char PeekAt(size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  // Consumes `c` / `s` at the cursor if present (no trivia skipped).
  bool TryConsume(char c);
  bool TryConsume(absl::string_view s);
  // True if the cursor is at `word` not followed by an identifier char.
  bool AtKeyword(absl::string_view word) const;

  // An identifier [A-Za-z_][A-Za-z0-9_.-]*; empty if none at the cursor.
  absl::string_view LexIdentifier();
  // A name: an identifier with an optional leading '%' (not returned).
  // Empty if none at the cursor.
  absl::string_view LexName();
  // An attribute name [A-Za-z_][A-Za-z0-9_-]*; empty if none.
  absl::string_view LexAttributeName();
  // A decimal integer with optional '-', overflow-checked.
  absl::StatusOr<int64_t> LexInt64();
  // A "..." string with C escapes. Returns the text including the quotes.
  absl::StatusOr<absl::string_view> LexQuotedString();
  // A raw attribute value kept verbatim: a quoted string, a balanced
  // {...} group (strings and backslash escapes inside respected), or a run
  // of characters up to
  // ',', whitespace, ')' or '}' at nesting depth zero. Nesting deeper than
  // `max_depth` is an error.
  absl::StatusOr<absl::string_view> LexRawValue(int max_depth);

  // Line and column of `offset`. Amortized O(distance) for offsets that
  // move forward, as the parser's do; any offset is accepted.
  LineColumn Position(size_t offset);

  static bool IsIdentifierStart(char c) {
    return CharClasses()[static_cast<unsigned char>(c)] &
           lexer_internal::kIdentifierStart;
  }
  static bool IsIdentifierChar(char c) {
    return CharClasses()[static_cast<unsigned char>(c)] &
           lexer_internal::kIdentifierChar;
  }

 private:
  static const uint8_t* CharClasses() {
    return lexer_internal::kCharClasses.data();
  }
  static bool MayStartTrivia(char c) {
    return CharClasses()[static_cast<unsigned char>(c)] &
           lexer_internal::kTriviaStart;
  }
  absl::Status SkipTriviaSlow();

  absl::Status ErrorAt(size_t offset, absl::string_view message);
  // Scans a string starting at `start` (a '"'); returns the offset just
  // past the closing quote, or npos when unterminated.
  size_t ScanString(size_t start) const;

  absl::string_view text_;
  size_t pos_ = 0;
  size_t error_offset_ = 0;
  // Position cache: line number and line start of `cached_offset_`.
  size_t cached_offset_ = 0;
  size_t cached_line_start_ = 0;
  int cached_line_ = 1;
};

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_LEXER_H_
