// Literal values in XLA's HLO text form.
//
// Printing follows XLA's Literal::ToStringWithoutShapeOneline(): the
// multi-line form of DenseArrayToStringHelper squeezed onto one line, so
// rank-1 arrays print as "{1, 2}", inner rows of rank >= 2 as "{ 1, 2 }"
// (or "{1}" / "{}" for rows of at most one element), outer levels as
// "{ row, row }", ranks above 3 get XLA's "/*i0=1*/" index comments, pred
// arrays print 1/0 while a pred scalar prints true/false, and tuples print
// as "( a, b )". Floats print with AppendFloatText (float_convert.h), as
// XLA's RoundTripFpToString does: f32 tries "%.6g" then "%.9g", f64 "%.15g"
// then "%.17g", every other float type "%.<max_digits10>g"; NaNs print as
// nan/-nan with "(0x<mantissa>)" when an IEEE NaN is not the plain quiet
// NaN. All of these parse back to the same bits.
//
// Parsing reads a decimal into a double (correctly rounded) and then rounds
// it into the element type with FloatToBits. For f32 (and narrower types)
// that is a double rounding, which XLA's parser does too; the printed forms
// above are exact in every type, so round trips are unaffected.
#include "compiler/ir/literal_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/charconv.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/float_convert.h"

namespace kiln {
namespace {

// Bits of the real (part 0) or imaginary (part 1) half of a complex
// element, read and written directly so NaN payloads survive.
uint64_t GetComplexPartBits(const Literal& literal, int64_t i, int part) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  int part_bytes = info.storage_bytes / 2;
  const uint8_t* p =
      literal.data().data() + i * info.storage_bytes + part * part_bytes;
  uint64_t bits = 0;
  for (int b = part_bytes - 1; b >= 0; --b) bits = (bits << 8) | p[b];
  return bits;
}

void SetComplexPartBits(Literal* literal, int64_t i, int part, uint64_t bits) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal->element_type());
  int part_bytes = info.storage_bytes / 2;
  uint8_t* p = literal->mutable_data().data() + i * info.storage_bytes +
               part * part_bytes;
  for (int b = 0; b < part_bytes; ++b, bits >>= 8) {
    p[b] = static_cast<uint8_t>(bits);
  }
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

// One element as XLA's GetAsString prints it (pred: true/false).
void AppendElement(std::string* out, const Literal& literal, int64_t i,
                   FloatTextStyle style) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  switch (info.kind) {
    case TypeKind::kPred:
      out->append(literal.GetBits(i) ? "true" : "false");
      return;
    case TypeKind::kSigned:
      absl::StrAppend(out, literal.GetInt64(i));
      return;
    case TypeKind::kUnsigned:
      absl::StrAppend(out, literal.GetUint64(i));
      return;
    case TypeKind::kFloat:
      AppendFloatText(out, info.type, literal.GetBits(i), style);
      return;
    case TypeKind::kComplex: {
      out->push_back('(');
      AppendFloatText(out, info.component, GetComplexPartBits(literal, i, 0),
                      style);
      out->append(", ");
      AppendFloatText(out, info.component, GetComplexPartBits(literal, i, 1),
                      style);
      out->push_back(')');
      return;
    }
    default:
      return;
  }
}

// Prints a dense array of rank >= 1 in XLA's one-line form.
class ArrayPrinter {
 public:
  ArrayPrinter(const Literal& literal, FloatTextStyle style, std::string* out)
      : literal_(literal),
        style_(style),
        bounds_(literal.shape().dimensions()),
        dims_(literal.dynamic_sizes()),
        rank_(static_cast<int64_t>(dims_.size())),
        pred_(literal.element_type() == ElementType::kPred),
        out_(out) {}

  void Print() {
    int64_t next = 0;
    PrintLevel(0, &next);
  }

  // Only the valid elements of a dynamic array are printed (as XLA does),
  // so each row starts at its place in the bounded storage.
  int64_t RowStart() const {
    int64_t row = 0;
    for (int64_t d = 0; d + 1 < rank_; ++d) row = row * bounds_[d] + index_[d];
    return row * bounds_[rank_ - 1];
  }

 private:
  void PrintLevel(int64_t level, int64_t* next) {
    if (level == rank_ - 1) {
      PrintRow(next);
      return;
    }
    out_->push_back('{');
    // XLA labels every level below the outermost when rank > 3.
    if (rank_ > 3 && level > 0) {
      absl::StrAppend(out_, " /*i", level - 1, "=", index_[level - 1], "*/");
    }
    index_.push_back(0);
    for (int64_t i = 0; i < dims_[level]; ++i) {
      index_.back() = i;
      out_->append(i == 0 ? " " : ", ");
      PrintLevel(level + 1, next);
    }
    index_.pop_back();
    out_->append(" }");
  }

  void PrintRow(int64_t* next) {
    int64_t n = dims_[rank_ - 1];
    // Rank 1 has no padding; inner rows of more than one element do.
    bool pad = rank_ > 1 && n > 1;
    out_->append(pad ? "{ " : "{");
    if (literal_.has_dynamic_sizes()) *next = RowStart();
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0) out_->append(", ");
      if (pred_) {
        out_->push_back(literal_.GetBits(*next) ? '1' : '0');
      } else {
        AppendElement(out_, literal_, *next, style_);
      }
      ++*next;
    }
    out_->append(pad ? " }" : "}");
  }

  const Literal& literal_;
  FloatTextStyle style_;
  const std::vector<int64_t>& bounds_;
  std::vector<int64_t> dims_;  // the valid sizes
  int64_t rank_;
  bool pred_;
  std::string* out_;
  std::vector<int64_t> index_;
};

void AppendLiteral(std::string* out, const Literal& literal,
                   const LiteralPrintOptions& options) {
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    out->append("(");
    const std::vector<Literal>& elements = literal.tuple_elements();
    for (size_t i = 0; i < elements.size(); ++i) {
      out->append(i == 0 ? " " : ", ");
      AppendLiteral(out, elements[i], options);
    }
    out->append(" )");
    return;
  }
  if (shape.IsToken()) {
    out->append("token");
    return;
  }
  if (!shape.IsArray()) {
    out->append("{...}");  // opaque values have no text
    return;
  }
  if (options.elide_above >= 0 &&
      literal.element_count() > options.elide_above) {
    out->append("{...}");
    return;
  }
  if (shape.rank() == 0) {
    AppendElement(out, literal, 0, options.float_style);
    return;
  }
  ArrayPrinter(literal, options.float_style, out).Print();
}

}  // namespace

std::string LiteralValueToString(const Literal& literal,
                                 const LiteralPrintOptions& options) {
  std::string out;
  int64_t count = literal.element_count();
  bool elided = options.elide_above >= 0 && count > options.elide_above;
  if (literal.shape().IsArray() && !elided) {
    // A guess of the text size, capped: the string grows as needed.
    constexpr int64_t kMaxReserve = int64_t{1} << 26;
    out.reserve(static_cast<size_t>(std::min(count * 4 + 2, kMaxReserve)));
  }
  AppendLiteral(&out, literal, options);
  return out;
}

std::string DynamicSizesToString(const Literal& literal) {
  if (!literal.shape().IsArray() || literal.shape().is_static()) return "";
  return absl::StrCat("(", absl::StrJoin(literal.dynamic_sizes(), ","), ")");
}

std::string LiteralToString(const Literal& literal,
                            const LiteralPrintOptions& options) {
  return absl::StrCat(literal.shape().ToString(/*print_layout=*/false),
                      DynamicSizesToString(literal), " ",
                      LiteralValueToString(literal, options));
}

std::string FloatBitsToString(ElementType type, uint64_t bits,
                              FloatTextStyle style) {
  std::string out;
  AppendFloatText(&out, type, bits, style);
  return out;
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

namespace {

// Deeper nesting than this (tuples within tuples plus array ranks) is
// refused, so hostile shapes cannot exhaust the stack.
constexpr int kMaxNesting = 256;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '_' || c == '.';
}

// `text` starts with `word` and no letter or digit follows it.
bool StartsWithWord(absl::string_view text, absl::string_view word) {
  return text.substr(0, word.size()) == word &&
         (text.size() == word.size() || !IsWordChar(text[word.size()]));
}

int64_t TotalBytes(const Literal& literal) {
  int64_t total = static_cast<int64_t>(literal.data().size());
  for (const Literal& e : literal.tuple_elements()) total += TotalBytes(e);
  return total;
}

class LiteralParser {
 public:
  LiteralParser(absl::string_view text, int64_t max_bytes, bool allow_elided)
      : text_(text), max_bytes_(max_bytes), allow_elided_(allow_elided) {}

  absl::StatusOr<Literal> Parse(const Shape& shape) {
    return ParseValue(shape, 0);
  }

  size_t pos() const { return pos_; }
  size_t error_pos() const { return error_pos_; }

 private:
  absl::Status Error(size_t at, absl::string_view message) {
    error_pos_ = at;
    return absl::InvalidArgumentError(message);
  }

  // Skips blanks and /* ... */ comments (XLA prints "/*i0=1*/" labels).
  absl::Status SkipBlanks() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() &&
                 text_[pos_ + 1] == '*') {
        size_t end = text_.find("*/", pos_ + 2);
        if (end == absl::string_view::npos) {
          return Error(pos_, "unterminated /* comment");
        }
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return absl::OkStatus();
  }

  // Skips blanks, then consumes `c` if it is next.
  absl::StatusOr<bool> Accept(char c) {
    if (absl::Status s = SkipBlanks(); !s.ok()) return s;
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  absl::Status Expect(char c, absl::string_view context) {
    absl::StatusOr<bool> got = Accept(c);
    if (!got.ok()) return got.status();
    if (!*got) {
      return Error(pos_, absl::StrCat("expected '", std::string(1, c), "' ",
                                      context, ", found ", Found()));
    }
    return absl::OkStatus();
  }

  std::string Found() const {
    if (pos_ >= text_.size()) return "end of input";
    size_t end = pos_;
    while (end < text_.size() && end - pos_ < 16 && IsWordChar(text_[end])) {
      ++end;
    }
    if (end == pos_) end = pos_ + 1;
    return absl::StrCat("'", text_.substr(pos_, end - pos_), "'");
  }

  absl::StatusOr<Literal> ParseValue(const Shape& shape, int depth) {
    if (depth > kMaxNesting) {
      return Error(pos_, "literal nests too deeply");
    }
    if (shape.IsTuple()) {
      if (absl::Status s = SkipBlanks(); !s.ok()) return s;
      // XLA prints a tuple constant as "{...}" unless asked for large ones.
      if (text_.substr(pos_, 5) == "{...}") {
        size_t start = pos_;
        if (absl::Status s = CheckElisionAllowed(start); !s.ok()) return s;
        absl::StatusOr<Literal> zeros = Literal::Create(shape, max_bytes_);
        if (!zeros.ok()) error_pos_ = start;
        if (zeros.ok()) pos_ += 5;
        return zeros;
      }
      return ParseTuple(shape, depth);
    }
    if (shape.IsToken()) {
      if (absl::Status s = ExpectWord("token"); !s.ok()) return s;
      return Literal::Create(shape, max_bytes_);
    }
    if (!shape.IsArray()) {
      return Error(pos_, absl::StrCat("no literal text for shape ",
                                      shape.ToString(false)));
    }
    if (!shape.is_static()) return ParseDynamicArray(shape, depth);
    return ParseArray(shape, depth);
  }

  // A dynamic array: "(3,2) {...}" gives each dimension's size and then
  // only the valid elements, as XLA prints them; without the sizes every
  // dimension is at its bound. The storage spans the bounds.
  absl::StatusOr<Literal> ParseDynamicArray(const Shape& shape, int depth) {
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (shape.dimension(d) == Shape::kUnboundedSize) {
        return Error(pos_, absl::StrCat("no literal of unbounded shape ",
                                        shape.ToString(false)));
      }
    }
    std::vector<int64_t> sizes = shape.dimensions();
    absl::StatusOr<bool> open = Accept('(');
    if (!open.ok()) return open.status();
    if (*open) {
      for (int64_t d = 0; d < shape.rank(); ++d) {
        if (d > 0) {
          if (absl::Status s = Expect(',', "between dynamic sizes"); !s.ok()) {
            return s;
          }
        }
        absl::StatusOr<int64_t> size = ParseSize(shape, d);
        if (!size.ok()) return size.status();
        sizes[d] = *size;
      }
      if (absl::Status s = Expect(')', "after the dynamic sizes"); !s.ok()) {
        return s;
      }
    }
    absl::StatusOr<Literal> valid =
        ParseArray(Shape::Array(shape.element_type(), sizes), depth);
    if (!valid.ok()) return valid.status();
    absl::StatusOr<Literal> literal = Literal::Create(
        Shape::Array(shape.element_type(), shape.dimensions()), max_bytes_);
    if (!literal.ok()) return literal.status();
    CopyIntoBounds(*valid, &*literal);
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (!shape.is_dynamic_dimension(d)) continue;
      if (absl::Status s = literal->SetDynamicSize(d, sizes[d]); !s.ok()) {
        return Error(pos_, s.message());
      }
    }
    return literal;
  }

  // A dimension's size in "(...)": a decimal in [0, bound]; a static
  // dimension's size must be its bound.
  absl::StatusOr<int64_t> ParseSize(const Shape& shape, int64_t d) {
    if (absl::Status s = SkipBlanks(); !s.ok()) return s;
    const size_t start = pos_;
    const int64_t bound = shape.dimension(d);
    int64_t value = 0;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) {
      // Saturates above the bound, so a long number cannot overflow.
      value = std::min(value * 10 + (text_[pos_++] - '0'), bound + 1);
    }
    if (pos_ == start) {
      return Error(start,
                   absl::StrCat("expected the dynamic size of dimension ", d,
                                ", found ", Found()));
    }
    const std::string number(text_.substr(start, pos_ - start));
    if (value > bound) {
      return Error(start,
                   absl::StrCat("dynamic size ", number, " of dimension ", d,
                                " is outside [0, ", bound, "]"));
    }
    if (!shape.is_dynamic_dimension(d) && value != bound) {
      return Error(start, absl::StrCat("size ", number, " of static dimension ",
                                       d, " must be ", bound));
    }
    return value;
  }

  // Copies `valid` (static, no larger than `bounded`) to the leading
  // corner of `bounded`, one row of the last dimension at a time.
  static void CopyIntoBounds(const Literal& valid, Literal* bounded) {
    const std::vector<int64_t>& sizes = valid.shape().dimensions();
    const std::vector<int64_t>& bounds = bounded->shape().dimensions();
    const int64_t rank = static_cast<int64_t>(sizes.size());
    if (valid.element_count() == 0) return;
    if (rank == 0) {
      std::memcpy(bounded->mutable_data().data(), valid.data().data(),
                  valid.data().size());
      return;
    }
    const size_t bytes = valid.data().size() / valid.element_count();
    const size_t row_bytes = bytes * static_cast<size_t>(sizes[rank - 1]);
    std::vector<int64_t> index(rank, 0);
    for (int64_t row = 0;; ++row) {
      int64_t target = 0;
      for (int64_t d = 0; d < rank; ++d) target = target * bounds[d] + index[d];
      std::memcpy(bounded->mutable_data().data() + target * bytes,
                  valid.data().data() + row * row_bytes, row_bytes);
      int64_t d = rank - 2;
      while (d >= 0 && ++index[d] == sizes[d]) index[d--] = 0;
      if (d < 0) return;
    }
  }

  absl::Status ExpectWord(absl::string_view word) {
    if (absl::Status s = SkipBlanks(); !s.ok()) return s;
    if (!StartsWithWord(text_.substr(pos_), word)) {
      return Error(pos_,
                   absl::StrCat("expected '", word, "', found ", Found()));
    }
    pos_ += word.size();
    return absl::OkStatus();
  }

  absl::StatusOr<Literal> ParseTuple(const Shape& shape, int depth) {
    if (absl::Status s = Expect('(', "to open a tuple"); !s.ok()) return s;
    std::vector<Literal> elements;
    elements.reserve(shape.tuple_size());
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      if (i > 0) {
        if (absl::Status s = Expect(',', "between tuple elements"); !s.ok()) {
          return s;
        }
      }
      int64_t budget = max_bytes_;
      absl::StatusOr<Literal> element =
          ParseValue(shape.tuple_shape(i), depth + 1);
      if (!element.ok()) return element.status();
      max_bytes_ = budget - TotalBytes(*element);  // shared by all parts
      elements.push_back(*std::move(element));
    }
    if (absl::Status s = Expect(
            ')', absl::StrCat("after ", shape.tuple_size(), " tuple elements"));
        !s.ok()) {
      return s;
    }
    return Literal::Tuple(std::move(elements));
  }

  absl::StatusOr<Literal> ParseArray(const Shape& shape, int depth) {
    if (depth + shape.rank() > kMaxNesting) {
      return Error(pos_, "literal nests too deeply");
    }
    if (absl::Status s = SkipBlanks(); !s.ok()) return s;
    size_t start = pos_;
    bool elided = text_.substr(pos_, 5) == "{...}";
    if (elided) {
      if (absl::Status s = CheckElisionAllowed(start); !s.ok()) return s;
    }
    // Each element takes at least one character, so a text too short for
    // the shape is refused before anything is allocated.
    absl::StatusOr<int64_t> count = shape.ElementCount();
    if (count.ok() && !elided &&
        *count > static_cast<int64_t>(text_.size() - pos_)) {
      return Error(start, absl::StrCat("text too short for ", *count,
                                       " elements of ", shape.ToString(false)));
    }
    absl::StatusOr<Literal> literal = Literal::Create(shape, max_bytes_);
    if (!literal.ok()) {
      error_pos_ = start;
      return literal.status();
    }
    if (elided) {  // "{...}": the values were left out; they read as zero.
      pos_ += 5;
      return literal;
    }
    int64_t next = 0;
    absl::Status s = shape.rank() == 0 ? ParseElement(&*literal, 0)
                                       : ParseLevel(&*literal, 0, &next);
    if (!s.ok()) return s;
    return literal;
  }

  absl::Status ParseLevel(Literal* literal, int64_t level, int64_t* next) {
    int64_t size = literal->shape().dimension(level);
    bool innermost = level == literal->shape().rank() - 1;
    absl::StatusOr<bool> open = Accept('{');
    if (!open.ok()) return open.status();
    if (!*open) {
      return Error(pos_,
                   absl::StrCat("expected '{' to open ", Where(*literal, level),
                                ", found ", Found()));
    }
    for (int64_t i = 0; i < size; ++i) {
      if (i > 0) {
        absl::StatusOr<bool> comma = Accept(',');
        if (!comma.ok()) return comma.status();
        if (!*comma) {
          return Error(pos_,
                       absl::StrCat("expected ',': ", Where(*literal, level),
                                    " has size ", size, " but only ", i,
                                    " elements were given, then ", Found()));
        }
      }
      absl::Status s = innermost ? ParseElement(literal, (*next)++)
                                 : ParseLevel(literal, level + 1, next);
      if (!s.ok()) return s;
    }
    absl::StatusOr<bool> close = Accept('}');
    if (!close.ok()) return close.status();
    if (!*close) {
      return Error(pos_, absl::StrCat("expected '}': ", Where(*literal, level),
                                      " has size ", size, ", found ", Found()));
    }
    return absl::OkStatus();
  }

  // Names a dimension in error messages (built only on errors).
  static std::string Where(const Literal& literal, int64_t level) {
    return absl::StrCat("dimension ", level, " of ",
                        literal.shape().ToString(false));
  }

  absl::Status ParseElement(Literal* literal, int64_t index) {
    if (absl::Status s = SkipBlanks(); !s.ok()) return s;
    const ElementTypeInfo& info = GetElementTypeInfo(literal->element_type());
    switch (info.kind) {
      case TypeKind::kPred:
        return ParsePred(literal, index);
      case TypeKind::kSigned:
      case TypeKind::kUnsigned:
        return ParseInteger(literal, index, info);
      case TypeKind::kFloat: {
        absl::StatusOr<uint64_t> bits = ParseFloatBits(info.type);
        if (!bits.ok()) return bits.status();
        literal->SetBits(index, *bits);
        return absl::OkStatus();
      }
      case TypeKind::kComplex:
        return ParseComplex(literal, index, info);
      default:
        return Error(pos_, "not an array element type");
    }
  }

  absl::Status ParsePred(Literal* literal, int64_t index) {
    static constexpr struct {
      absl::string_view word;
      uint64_t value;
    } kWords[] = {{"true", 1}, {"false", 0}, {"1", 1}, {"0", 0}};
    for (const auto& w : kWords) {
      if (StartsWithWord(text_.substr(pos_), w.word)) {
        pos_ += w.word.size();
        literal->SetBits(index, w.value);
        return absl::OkStatus();
      }
    }
    return Error(pos_, absl::StrCat("expected true, false, 1 or 0 for pred, ",
                                    "found ", Found()));
  }

  absl::Status ParseInteger(Literal* literal, int64_t index,
                            const ElementTypeInfo& info) {
    size_t start = pos_;
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      negative = text_[pos_] == '-';
      ++pos_;
    }
    uint64_t magnitude = 0;
    std::from_chars_result r = std::from_chars(
        text_.data() + pos_, text_.data() + text_.size(), magnitude);
    size_t end = r.ptr - text_.data();
    if (r.ptr == text_.data() + pos_ ||
        (end < text_.size() && IsWordChar(text_[end]))) {
      pos_ = start;
      return Error(start, absl::StrCat("expected an integer for ", info.name,
                                       ", found ", Found()));
    }
    // The type's range, as a magnitude bound for each sign.
    int bits = info.bit_width;
    bool is_signed = info.kind == TypeKind::kSigned;
    uint64_t max_positive = is_signed    ? (uint64_t{1} << (bits - 1)) - 1
                            : bits >= 64 ? ~uint64_t{0}
                                         : (uint64_t{1} << bits) - 1;
    uint64_t max_negative = is_signed ? uint64_t{1} << (bits - 1) : 0;
    if (r.ec != std::errc() ||
        magnitude > (negative ? max_negative : max_positive)) {
      return Error(start,
                   absl::StrCat("value ", text_.substr(start, end - start),
                                " is out of range for ", info.name));
    }
    pos_ = end;
    literal->SetBits(index, negative ? 0 - magnitude : magnitude);
    return absl::OkStatus();
  }

  absl::Status ParseComplex(Literal* literal, int64_t index,
                            const ElementTypeInfo& info) {
    if (absl::Status s = Expect('(', "to open a complex value"); !s.ok()) {
      return s;
    }
    uint64_t parts[2];
    for (int p = 0; p < 2; ++p) {
      if (p == 1) {
        if (absl::Status s = Expect(',', "between real and imaginary parts");
            !s.ok()) {
          return s;
        }
      }
      if (absl::Status s = SkipBlanks(); !s.ok()) return s;
      absl::StatusOr<uint64_t> bits = ParseFloatBits(info.component);
      if (!bits.ok()) return bits.status();
      parts[p] = *bits;
    }
    if (absl::Status s = Expect(')', "to close a complex value"); !s.ok()) {
      return s;
    }
    SetComplexPartBits(literal, index, 0, parts[0]);
    SetComplexPartBits(literal, index, 1, parts[1]);
    return absl::OkStatus();
  }

  // [+-] ( inf | nan [ "(0x" hex ")" ] | decimal ), read into `type`.
  absl::StatusOr<uint64_t> ParseFloatBits(ElementType type) {
    size_t start = pos_;
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      negative = text_[pos_] == '-';
      ++pos_;
    }
    absl::string_view rest = text_.substr(pos_);
    if (StartsWithWord(rest, "inf")) {
      pos_ += 3;
      double inf = std::numeric_limits<double>::infinity();
      return FloatToBits(type, negative ? -inf : inf);
    }
    if (rest.substr(0, 3) == "nan") {
      pos_ += 3;
      return ParseNaN(type, negative, start);
    }
    return ParseDecimal(type, start);
  }

  absl::StatusOr<uint64_t> ParseNaN(ElementType type, bool negative,
                                    size_t start) {
    const ElementTypeInfo& info = GetElementTypeInfo(type);
    double nan = std::numeric_limits<double>::quiet_NaN();
    if (pos_ >= text_.size() || text_[pos_] != '(') {
      if (pos_ < text_.size() && IsWordChar(text_[pos_])) {
        return Error(start, absl::StrCat("malformed number for ", info.name));
      }
      return FloatToBits(type, negative ? -nan : nan);
    }
    // A payload: the whole mantissa field of an IEEE NaN.
    if (text_.substr(pos_, 3) != "(0x") {
      return Error(pos_, "expected '(0x' to start a NaN payload");
    }
    pos_ += 3;
    uint64_t payload = 0;
    std::from_chars_result r = std::from_chars(
        text_.data() + pos_, text_.data() + text_.size(), payload, 16);
    size_t end = r.ptr - text_.data();
    if (end == pos_ || end >= text_.size() || text_[end] != ')') {
      return Error(pos_, "malformed NaN payload");
    }
    uint64_t mantissa_mask = (uint64_t{1} << info.mantissa_bits) - 1;
    if (info.encoding != FloatEncoding::kIeee || r.ec != std::errc() ||
        payload == 0 || payload > mantissa_mask) {
      return Error(start,
                   absl::StrCat("NaN payload ", text_.substr(pos_, end - pos_),
                                " does not fit ", info.name));
    }
    pos_ = end + 1;
    uint64_t sign = negative ? uint64_t{1} << (info.bit_width - 1) : 0;
    uint64_t exponent = ((uint64_t{1} << info.exponent_bits) - 1)
                        << info.mantissa_bits;
    return sign | exponent | payload;
  }

  // digits [. digits] [e [+-] digits], or . digits ...; also integers.
  absl::StatusOr<uint64_t> ParseDecimal(ElementType type, size_t start) {
    size_t end = pos_;
    bool digits = false;
    while (end < text_.size() && IsDigit(text_[end])) ++end, digits = true;
    if (end < text_.size() && text_[end] == '.') {
      ++end;
      while (end < text_.size() && IsDigit(text_[end])) ++end, digits = true;
    }
    if (digits && end < text_.size() &&
        (text_[end] == 'e' || text_[end] == 'E')) {
      size_t e = end + 1;
      if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
      if (e < text_.size() && IsDigit(text_[e])) {
        while (e < text_.size() && IsDigit(text_[e])) ++e;
        end = e;
      }
    }
    if (!digits || (end < text_.size() && IsWordChar(text_[end]))) {
      pos_ = start;
      return Error(start,
                   absl::StrCat("expected a number for ", ElementTypeName(type),
                                ", found ", Found()));
    }
    absl::StatusOr<double> value =
        DecimalToDouble(text_.substr(pos_, end - pos_));
    if (!value.ok()) return Error(start, value.status().message());
    pos_ = end;
    bool negative = text_[start] == '-';
    uint64_t bits = FloatToBits(type, negative ? -*value : *value);
    // 1e400 is inf as a double: out of range too.
    if (std::isinf(*value) || IsOutOfRange(type, *value)) {
      return Error(start,
                   absl::StrCat("value ", text_.substr(start, end - start),
                                " is out of range for ", ElementTypeName(type),
                                " (largest finite "
                                "value ",
                                FloatMax(type), ")"));
    }
    return bits;
  }

  // Correctly rounded; overflow gives inf and underflow 0, as strtod does.
  static absl::StatusOr<double> DecimalToDouble(absl::string_view digits) {
    double value = 0;
    absl::from_chars_result r =
        absl::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (r.ec == std::errc() && r.ptr == digits.data() + digits.size()) {
      return value;
    }
    // Out of range (rare): let strtod pick inf, a subnormal or zero.
    std::string copy(digits);
    char* end = nullptr;
    value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed number '", digits, "'"));
    }
    return value;
  }

  // "{...}" marks values left out when the text was printed. They are
  // unknown, so reading them is an error unless the caller accepts zeros.
  absl::Status CheckElisionAllowed(size_t at) {
    if (allow_elided_) return absl::OkStatus();
    return Error(at,
                 "the values of this constant were elided (\"{...}\") when "
                 "the text was printed, so they are unknown; print the module "
                 "with full constants, or allow elided constants (read as "
                 "zeros) explicitly");
  }

  absl::string_view text_;
  int64_t max_bytes_;
  bool allow_elided_;
  size_t pos_ = 0;
  size_t error_pos_ = 0;
};

}  // namespace

absl::StatusOr<Literal> ParseLiteralValue(
    const Shape& shape, absl::string_view text, size_t* consumed,
    size_t* error_offset, int64_t max_bytes, bool allow_elided) {
  LiteralParser parser(text, max_bytes, allow_elided);
  absl::StatusOr<Literal> literal = parser.Parse(shape);
  if (!literal.ok()) {
    if (error_offset != nullptr) *error_offset = parser.error_pos();
    return literal.status();
  }
  if (consumed != nullptr) *consumed = parser.pos();
  return literal;
}

}  // namespace kiln
