#include "tools/cli/npy.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/shape.h"
#include "tools/cli/io.h"

namespace kiln::cli {
namespace {

constexpr absl::string_view kMagic = "\x93NUMPY";
// Magic, two version bytes, and the smallest header-length field.
constexpr size_t kPreambleV1 = 6 + 2 + 2;
constexpr size_t kPreambleV2 = 6 + 2 + 4;
// NumPy pads the header so that the data starts at a multiple of this.
constexpr size_t kHeaderAlignment = 64;

// The NumPy type character and item size of the element types NumPy knows.
struct NativeType {
  ElementType type;
  char kind;
  int size;
};
constexpr NativeType kNativeTypes[] = {
    {ElementType::kPred, 'b', 1}, {ElementType::kS8, 'i', 1},
    {ElementType::kS16, 'i', 2},  {ElementType::kS32, 'i', 4},
    {ElementType::kS64, 'i', 8},  {ElementType::kU8, 'u', 1},
    {ElementType::kU16, 'u', 2},  {ElementType::kU32, 'u', 4},
    {ElementType::kU64, 'u', 8},  {ElementType::kF16, 'f', 2},
    {ElementType::kF32, 'f', 4},  {ElementType::kF64, 'f', 8},
    {ElementType::kC64, 'c', 8},  {ElementType::kC128, 'c', 16},
};

const NativeType* FindNative(ElementType type) {
  for (const NativeType& native : kNativeTypes) {
    if (native.type == type) return &native;
  }
  return nullptr;
}

const NativeType* FindNative(char kind, int size) {
  for (const NativeType& native : kNativeTypes) {
    if (native.kind == kind && native.size == size) return &native;
  }
  return nullptr;
}

// The descr Kiln writes for `type`.
std::string DescrFor(ElementType type) {
  const int size = GetElementTypeInfo(type).storage_bytes;
  if (const NativeType* native = FindNative(type)) {
    return absl::StrCat(size == 1 ? "|" : "<", std::string(1, native->kind),
                        size);
  }
  // Raw bytes, spelled as ml_dtypes writes its types ('<V2' for bfloat16).
  return absl::StrCat("<V", size);
}

// The parsed header dictionary.
struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

// A reader of the Python literal NumPy writes as the header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
class HeaderReader {
 public:
  explicit HeaderReader(absl::string_view text) : text_(text) {}

  absl::StatusOr<Header> Read() {
    Header header;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    if (!Consume('{')) return Error("the header is not a dictionary");
    while (!Consume('}')) {
      std::optional<std::string> key = QuotedString();
      if (!key || !Consume(':')) return Error("malformed header dictionary");
      if (*key == "descr") {
        std::optional<std::string> descr = QuotedString();
        if (!descr) {
          return Error("structured dtypes (a list as descr) are not supported");
        }
        header.descr = *descr;
        seen_descr = true;
      } else if (*key == "fortran_order") {
        std::optional<bool> order = Boolean();
        if (!order) return Error("fortran_order is not True or False");
        header.fortran_order = *order;
        seen_order = true;
      } else if (*key == "shape") {
        std::optional<std::vector<int64_t>> shape = IntTuple();
        if (!shape) return Error("shape is not a tuple of sizes");
        header.shape = *std::move(shape);
        seen_shape = true;
      } else {
        return Error(absl::StrCat("unexpected header key '", *key, "'"));
      }
      if (!Consume(',') && !Peek('}')) {
        return Error("malformed header dictionary");
      }
    }
    if (!seen_descr || !seen_order || !seen_shape) {
      return Error("the header lacks descr, fortran_order or shape");
    }
    return header;
  }

 private:
  static absl::Status Error(absl::string_view message) {
    return absl::InvalidArgumentError(absl::StrCat("bad .npy file: ", message));
  }
  void SkipBlanks() {
    while (pos_ < text_.size() && absl::ascii_isspace(text_[pos_])) ++pos_;
  }
  bool Peek(char c) {
    SkipBlanks();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool Consume(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  bool ConsumeWord(absl::string_view word) {
    SkipBlanks();
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  std::optional<std::string> QuotedString() {
    SkipBlanks();
    if (pos_ >= text_.size()) return std::nullopt;
    const char quote = text_[pos_];
    if (quote != '\'' && quote != '"') return std::nullopt;
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == absl::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return value;
  }
  std::optional<bool> Boolean() {
    if (ConsumeWord("True")) return true;
    if (ConsumeWord("False")) return false;
    return std::nullopt;
  }
  std::optional<std::vector<int64_t>> IntTuple() {
    std::vector<int64_t> values;
    if (!Consume('(')) return std::nullopt;
    while (!Consume(')')) {
      SkipBlanks();
      size_t end = pos_;
      while (end < text_.size() && absl::ascii_isdigit(text_[end])) ++end;
      int64_t value;
      // Python 2 era files write longs as "3L".
      if (end == pos_ ||
          !absl::SimpleAtoi(text_.substr(pos_, end - pos_), &value)) {
        return std::nullopt;
      }
      pos_ = end;
      ConsumeWord("L");
      values.push_back(value);
      if (!Consume(',') && !Peek(')')) return std::nullopt;
    }
    return values;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

// The element type `descr` stands for ("<f4" -> f32), given the type raw
// dtypes are read as.
absl::StatusOr<ElementType> DescrType(absl::string_view descr,
                                      ElementType raw_type) {
  int size = 0;
  if (descr.size() < 3 || !absl::SimpleAtoi(descr.substr(2), &size) ||
      absl::string_view("<>|=").find(descr[0]) == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported dtype '", descr, "'"));
  }
  const char kind = descr[1];
  if (kind == 'V') {
    if (raw_type == ElementType::kInvalid || FindNative(raw_type) != nullptr ||
        !IsArrayType(raw_type) ||
        GetElementTypeInfo(raw_type).storage_bytes != size) {
      return absl::InvalidArgumentError(absl::StrCat(
          "raw dtype '", descr,
          "' (as ml_dtypes saves bfloat16, float8 and "
          "int4 arrays) cannot be read as ",
          raw_type == ElementType::kInvalid ? "an unknown type"
                                            : ElementTypeName(raw_type)));
    }
    return raw_type;
  }
  if (const NativeType* native = FindNative(kind, size)) return native->type;
  return absl::InvalidArgumentError(absl::StrCat(
      "unsupported dtype '", descr,
      "' (supported: bool, int8..int64, uint8..uint64, float16/32/64, "
      "complex64/128, and raw V1/V2 for ml_dtypes types)"));
}

// Reverses the bytes of each `component`-byte unit of `data`.
void SwapBytes(absl::Span<uint8_t> data, int component) {
  for (size_t i = 0; i + component <= data.size(); i += component) {
    std::reverse(data.begin() + i, data.begin() + i + component);
  }
}

// Row-major copy of column-major (Fortran order) `source`.
void FortranToRowMajor(absl::string_view source, const Shape& shape,
                       int item_size, absl::Span<uint8_t> target) {
  const int64_t rank = shape.rank();
  std::vector<int64_t> column_strides(rank, 1);
  for (int64_t d = 1; d < rank; ++d) {
    column_strides[d] = column_strides[d - 1] * shape.dimension(d - 1);
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t count = static_cast<int64_t>(target.size()) / item_size;
  for (int64_t row_major = 0; row_major < count; ++row_major) {
    int64_t column_major = 0;
    for (int64_t d = 0; d < rank; ++d) {
      column_major += index[d] * column_strides[d];
    }
    std::memcpy(target.data() + row_major * item_size,
                source.data() + column_major * item_size, item_size);
    for (int64_t d = rank - 1; d >= 0; --d) {  // next row-major index
      if (++index[d] < shape.dimension(d)) break;
      index[d] = 0;
    }
  }
}

// Splits `bytes` into the header text and the data.
absl::Status SplitFile(absl::string_view bytes, absl::string_view* header,
                       absl::string_view* data) {
  if (bytes.size() < kPreambleV1 || bytes.substr(0, kMagic.size()) != kMagic) {
    return absl::InvalidArgumentError("not a .npy file (no \\x93NUMPY magic)");
  }
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  const int major = byte(6);
  size_t length = 0, preamble = 0;
  if (major == 1) {
    length = byte(8) | (size_t{byte(9)} << 8);
    preamble = kPreambleV1;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < kPreambleV2) {
      return absl::InvalidArgumentError("bad .npy file: truncated header");
    }
    length = byte(8) | (size_t{byte(9)} << 8) | (size_t{byte(10)} << 16) |
             (size_t{byte(11)} << 24);
    preamble = kPreambleV2;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported .npy format version ", major, ".", byte(7)));
  }
  if (length > bytes.size() - preamble) {
    return absl::InvalidArgumentError("bad .npy file: truncated header");
  }
  *header = bytes.substr(preamble, length);
  *data = bytes.substr(preamble + length);
  return absl::OkStatus();
}

absl::StatusOr<Shape> ArrayShape(ElementType type,
                                 const std::vector<int64_t>& dimensions) {
  Shape shape = Shape::Array(type, dimensions);
  if (absl::Status status = shape.Validate(); !status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad .npy file: invalid shape: ", status.message()));
  }
  return shape;
}

std::string ShapeTuple(const std::vector<int64_t>& dimensions) {
  if (dimensions.size() == 1) return absl::StrCat("(", dimensions[0], ",)");
  return absl::StrCat("(", absl::StrJoin(dimensions, ", "), ")");
}

}  // namespace

absl::StatusOr<Literal> ParseNpy(absl::string_view bytes,
                                 const NpyReadOptions& options) {
  absl::string_view header_text, data;
  if (absl::Status status = SplitFile(bytes, &header_text, &data);
      !status.ok()) {
    return status;
  }
  absl::StatusOr<Header> header = HeaderReader(header_text).Read();
  if (!header.ok()) return header.status();
  absl::StatusOr<ElementType> type = DescrType(header->descr, options.raw_type);
  if (!type.ok()) return type.status();
  absl::StatusOr<Shape> shape = ArrayShape(*type, header->shape);
  if (!shape.ok()) return shape.status();
  absl::StatusOr<Literal> literal = Literal::Create(*shape, options.max_bytes);
  if (!literal.ok()) return literal.status();

  absl::Span<uint8_t> target = literal->mutable_data();
  if (data.size() != target.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad .npy file: ", data.size(),
                     " bytes of data for shape ", ShapeTuple(header->shape),
                     " of ", header->descr, ", expected ", target.size()));
  }
  const int item_size = GetElementTypeInfo(*type).storage_bytes;
  if (header->fortran_order) {
    FortranToRowMajor(data, *shape, item_size, target);
  } else if (!target.empty()) {
    std::memcpy(target.data(), data.data(), target.size());
  }
  if (header->descr[0] == '>' && header->descr[1] != 'V') {
    SwapBytes(target, IsComplexType(*type) ? item_size / 2 : item_size);
  }
  if (*type == ElementType::kPred) {
    // NumPy writes 0/1; anything else is true, stored as Kiln's 1.
    for (uint8_t& value : target) value = value != 0;
  }
  return literal;
}

absl::StatusOr<std::string> SerializeNpy(const Literal& literal) {
  const Shape& shape = literal.shape();
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a .npy file holds an array, not ", shape.ToString(false)));
  }
  std::string header = absl::StrCat(
      "{'descr': '", DescrFor(shape.element_type()),
      "', 'fortran_order': False, 'shape': ", ShapeTuple(shape.dimensions()),
      ", }");
  // Pad with blanks and end with a newline so the data is aligned.
  size_t preamble = kPreambleV1;
  if (header.size() + 1 + kPreambleV1 > 0xffff) preamble = kPreambleV2;
  const size_t unpadded = preamble + header.size() + 1;
  header.append(
      (kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
  header.push_back('\n');

  std::string file(kMagic);
  file.push_back(preamble == kPreambleV1 ? 1 : 2);
  file.push_back(0);
  for (size_t i = 0; i < preamble - kMagic.size() - 2; ++i) {
    file.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
  }
  file.append(header);
  absl::Span<const uint8_t> data = literal.data();
  file.append(reinterpret_cast<const char*>(data.data()), data.size());
  return file;
}

absl::StatusOr<Literal> ReadNpyFile(const std::string& path,
                                    const NpyReadOptions& options) {
  absl::StatusOr<std::string> bytes = ReadInput(path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<Literal> literal = ParseNpy(*bytes, options);
  if (!literal.ok()) {
    return absl::Status(literal.status().code(),
                        absl::StrCat(path, ": ", literal.status().message()));
  }
  return literal;
}

absl::Status WriteNpyFile(const std::string& path, const Literal& literal) {
  absl::StatusOr<std::string> bytes = SerializeNpy(literal);
  if (!bytes.ok()) {
    return absl::Status(bytes.status().code(),
                        absl::StrCat(path, ": ", bytes.status().message()));
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return absl::UnavailableError(
        absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
  }
  const bool written =
      std::fwrite(bytes->data(), 1, bytes->size(), file) == bytes->size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    return absl::UnavailableError(
        absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace kiln::cli
