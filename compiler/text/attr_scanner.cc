#include "compiler/text/attr_scanner.h"

#include <limits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace kiln {
namespace text_internal {

void AttrScanner::SkipSpaceSlow() {
  while (!AtEnd()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && PeekAt(1) == '*') {
      const size_t end = text_.find("*/", pos_ + 2);
      // An unterminated comment swallows the rest; the caller then reports
      // a missing value at the end.
      pos_ = end == absl::string_view::npos ? text_.size() : end + 2;
    } else if (c == '/' && PeekAt(1) == '/') {
      const size_t end = text_.find('\n', pos_);
      pos_ = end == absl::string_view::npos ? text_.size() : end + 1;
    } else {
      return;
    }
  }
}

bool AttrScanner::SkipAndConsumeWord(absl::string_view word) {
  SkipSpace();
  if (text_.substr(pos_, word.size()) != word) return false;
  if (IsIdentifierChar(PeekAt(word.size()))) return false;
  pos_ += word.size();
  return true;
}

absl::Status AttrScanner::Expect(char c, absl::string_view what) {
  if (SkipAndConsume(c)) return absl::OkStatus();
  return Expected(what);
}

absl::StatusOr<int64_t> AttrScanner::ParseInt(absl::string_view what) {
  SkipSpace();
  const size_t start = pos_;
  const bool negative = Consume('-');
  if (!IsDigit(Peek())) {
    pos_ = start;
    return Expected(what);
  }
  // Accumulate as a negative number so that INT64_MIN is representable.
  int64_t value = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  while (IsDigit(Peek())) {
    const int digit = Peek() - '0';
    if (value < (kMin + digit) / 10) {
      return ErrorAt(start,
                     absl::StrCat("integer out of int64 range in ", what));
    }
    value = value * 10 - digit;
    ++pos_;
  }
  if (!negative) {
    if (value == kMin) {
      return ErrorAt(start,
                     absl::StrCat("integer out of int64 range in ", what));
    }
    value = -value;
  }
  return value;
}

absl::StatusOr<bool> AttrScanner::ParseBool() {
  if (SkipAndConsumeWord("true")) return true;
  if (SkipAndConsumeWord("false")) return false;
  return Expected("true or false");
}

absl::string_view AttrScanner::ParseIdentifier() {
  SkipSpace();
  const size_t start = pos_;
  while (IsIdentifierChar(Peek()) && !AtEnd()) ++pos_;
  return text_.substr(start, pos_ - start);
}

size_t AttrScanner::FindStringEnd(absl::string_view text, size_t start) {
  size_t i = start + 1;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\\') {
      i += 2;
    } else if (c == '"') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return absl::string_view::npos;
}

absl::StatusOr<std::string> AttrScanner::ParseQuotedString() {
  SkipSpace();
  if (Peek() != '"' || AtEnd()) return Expected("a quoted string");
  const size_t start = pos_;
  const size_t end = FindStringEnd(text_, start);
  if (end == absl::string_view::npos) {
    return ErrorAt(start, "unterminated string");
  }
  std::string value;
  std::string error;
  if (!absl::CUnescape(text_.substr(start + 1, end - start - 2), &value,
                       &error)) {
    return ErrorAt(start, absl::StrCat("bad escape in string: ", error));
  }
  pos_ = end;
  return value;
}

absl::Status AttrScanner::Error(absl::string_view message) {
  return ErrorAt(pos_, message);
}

absl::Status AttrScanner::ErrorAt(size_t pos, absl::string_view message) {
  error_offset_ = pos;
  if (is_attribute_) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute '", subject_, "': ", message));
  }
  return absl::InvalidArgumentError(absl::StrCat(subject_, ": ", message));
}

absl::Status AttrScanner::Expected(absl::string_view what) {
  SkipSpace();
  absl::string_view found =
      AtEnd() ? absl::string_view("end of input") : text_.substr(pos_, 1);
  return Error(absl::StrCat("expected ", what, ", found '", found, "'"));
}

absl::Status AttrScanner::Enter() {
  if (++depth_ > kMaxNestingDepth) {
    --depth_;
    return Error(absl::StrCat("nesting deeper than ", kMaxNestingDepth));
  }
  return absl::OkStatus();
}

}  // namespace text_internal
}  // namespace kiln
