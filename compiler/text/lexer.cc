#include "compiler/text/lexer.h"

#include <cstring>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace kiln {

absl::Status Lexer::ErrorAt(size_t offset, absl::string_view message) {
  error_offset_ = offset;
  return absl::InvalidArgumentError(message);
}

absl::Status Lexer::SkipTriviaSlow() {
  const size_t size = text_.size();
  while (pos_ < size) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos_;
      continue;
    }
    if (c != '/' || pos_ + 1 >= size) break;
    const char next = text_[pos_ + 1];
    if (next == '/') {
      const void* newline = std::memchr(text_.data() + pos_, '\n', size - pos_);
      pos_ = newline == nullptr
                 ? size
                 : static_cast<const char*>(newline) - text_.data() + 1;
      continue;
    }
    if (next != '*') break;
    const size_t end = text_.find("*/", pos_ + 2);
    if (end == absl::string_view::npos) {
      return ErrorAt(pos_, "unterminated /* comment");
    }
    pos_ = end + 2;
  }
  return absl::OkStatus();
}

bool Lexer::TryConsume(char c) {
  if (Peek() != c) return false;
  ++pos_;
  return true;
}

bool Lexer::TryConsume(absl::string_view s) {
  if (text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

bool Lexer::AtKeyword(absl::string_view word) const {
  return text_.substr(pos_, word.size()) == word &&
         !IsIdentifierChar(PeekAt(word.size()));
}

absl::string_view Lexer::LexIdentifier() {
  if (!IsIdentifierStart(Peek())) return absl::string_view();
  const size_t start = pos_;
  ++pos_;
  while (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

absl::string_view Lexer::LexName() {
  const size_t start = pos_;
  const bool percent = TryConsume('%');
  absl::string_view name = LexIdentifier();
  if (name.empty() && percent) pos_ = start;
  return name;
}

absl::string_view Lexer::LexAttributeName() {
  if (!IsIdentifierStart(Peek())) return absl::string_view();
  const size_t start = pos_;
  ++pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '-') {
      break;
    }
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

absl::StatusOr<int64_t> Lexer::LexInt64() {
  const size_t start = pos_;
  size_t p = pos_;
  const bool negative = p < text_.size() && text_[p] == '-';
  if (negative) ++p;
  if (p >= text_.size() ||
      !absl::ascii_isdigit(static_cast<unsigned char>(text_[p]))) {
    return ErrorAt(start, "expected an integer");
  }
  // Accumulate as a negative number so INT64_MIN is representable.
  int64_t value = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  while (p < text_.size() &&
         absl::ascii_isdigit(static_cast<unsigned char>(text_[p]))) {
    const int digit = text_[p] - '0';
    if (value < (kMin + digit) / 10) {
      return ErrorAt(start, "integer out of range");
    }
    value = value * 10 - digit;
    ++p;
  }
  if (!negative) {
    if (value == kMin) return ErrorAt(start, "integer out of range");
    value = -value;
  }
  pos_ = p;
  return value;
}

size_t Lexer::ScanString(size_t start) const {
  size_t p = start + 1;
  while (p < text_.size()) {
    const char c = text_[p];
    if (c == '\\') {
      p += 2;
      continue;
    }
    if (c == '"') return p + 1;
    ++p;
  }
  return absl::string_view::npos;
}

absl::StatusOr<absl::string_view> Lexer::LexQuotedString() {
  if (Peek() != '"') return ErrorAt(pos_, "expected a quoted string");
  const size_t end = ScanString(pos_);
  if (end == absl::string_view::npos) {
    return ErrorAt(pos_, "unterminated string");
  }
  absl::string_view result = text_.substr(pos_, end - pos_);
  pos_ = end;
  return result;
}

absl::StatusOr<absl::string_view> Lexer::LexRawValue(int max_depth) {
  const size_t start = pos_;
  if (Peek() == '"') return LexQuotedString();
  if (Peek() != '{') {
    size_t p = pos_;
    while (p < text_.size()) {
      const char c = text_[p];
      if (c == ',' || c == ')' || c == '}' || c == ' ' || c == '\n' ||
          c == '\t' || c == '\r') {
        break;
      }
      ++p;
    }
    if (p == start) return ErrorAt(start, "expected a value");
    pos_ = p;
    return text_.substr(start, p - start);
  }
  int depth = 0;
  size_t p = pos_;
  while (p < text_.size()) {
    const char c = text_[p];
    if (c == '\\') {
      // An escaped character outside a string, as in XLA's frontend
      // attribute dictionaries ({mesh = #sdy.mesh<[\"x\"=2]>}).
      p += 2;
      continue;
    }
    if (c == '"') {
      const size_t end = ScanString(p);
      if (end == absl::string_view::npos) {
        return ErrorAt(p, "unterminated string");
      }
      p = end;
      continue;
    }
    if (c == '{') {
      if (++depth > max_depth) {
        return ErrorAt(p, absl::StrCat("nesting deeper than ", max_depth));
      }
    } else if (c == '}') {
      if (--depth == 0) {
        pos_ = p + 1;
        return text_.substr(start, pos_ - start);
      }
    }
    ++p;
  }
  return ErrorAt(start, "unbalanced '{': no matching '}'");
}

LineColumn Lexer::Position(size_t offset) {
  if (offset > text_.size()) offset = text_.size();
  if (offset < cached_offset_) {
    cached_offset_ = 0;
    cached_line_start_ = 0;
    cached_line_ = 1;
  }
  const char* data = text_.data();
  size_t p = cached_offset_;
  while (p < offset) {
    const void* newline = std::memchr(data + p, '\n', offset - p);
    if (newline == nullptr) break;
    p = static_cast<const char*>(newline) - data + 1;
    ++cached_line_;
    cached_line_start_ = p;
  }
  cached_offset_ = offset;
  LineColumn result;
  result.line = cached_line_;
  result.column = static_cast<int>(offset - cached_line_start_) + 1;
  return result;
}

}  // namespace kiln
