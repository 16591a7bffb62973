#include "compiler/ir/literal.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/float_convert.h"

namespace kiln {
namespace {

// Mask of the low `bits` bits (bits in 1..64).
uint64_t LowBits(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// Reads `bytes` (<= 8) little-endian bytes.
uint64_t LoadLittleEndian(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

void StoreLittleEndian(uint8_t* p, int bytes, uint64_t v) {
  for (int b = 0; b < bytes; ++b) {
    p[b] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

// Float to integer as XLA's convert does: truncate toward zero, NaN -> 0,
// saturate to the type's range.
uint64_t SaturatingFloatToIntBits(const ElementTypeInfo& info, double v) {
  if (std::isnan(v)) return 0;
  int bits = info.bit_width;
  if (info.kind == TypeKind::kSigned) {
    double max = std::ldexp(1.0, bits - 1);  // exclusive
    if (v >= max) return LowBits(bits) >> 1;
    if (v <= -max) return (uint64_t{1} << (bits - 1));
    return static_cast<uint64_t>(static_cast<int64_t>(v)) & LowBits(bits);
  }
  double max = std::ldexp(1.0, bits);  // exclusive
  if (v >= max) return LowBits(bits);
  if (v <= 0) return 0;
  return static_cast<uint64_t>(v);
}

absl::Status CheckStatic(const Shape& shape) {
  if (!shape.is_static()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a literal needs a static shape, got ", shape.ToString(false)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> Literal::Create(const Shape& shape, int64_t max_bytes) {
  return CreateImpl(shape, max_bytes, /*zeroed=*/true);
}

absl::StatusOr<Literal> Literal::CreateForOverwrite(const Shape& shape,
                                                    int64_t max_bytes) {
  return CreateImpl(shape, max_bytes, /*zeroed=*/false);
}

absl::StatusOr<Literal> Literal::CreateImpl(const Shape& shape,
                                            int64_t max_bytes, bool zeroed) {
  absl::StatusOr<int64_t> bytes = shape.ByteSize();
  if (!bytes.ok()) return bytes.status();
  if (*bytes > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("literal of shape ", shape.ToString(false), " needs ",
                     *bytes, " bytes, more than the limit of ", max_bytes));
  }
  Literal literal;
  literal.shape_ = shape;
  if (shape.IsTuple()) {
    literal.tuple_.reserve(shape.tuple_size());
    for (const Shape& element : shape.tuple_shapes()) {
      // The whole tuple already fits in max_bytes, so each element does.
      absl::StatusOr<Literal> child = CreateImpl(element, max_bytes, zeroed);
      if (!child.ok()) return child.status();
      literal.tuple_.push_back(*std::move(child));
    }
    return literal;
  }
  if (!shape.IsArray()) return literal;  // token, opaque: no data
  if (absl::Status s = CheckStatic(shape); !s.ok()) return s;
  absl::StatusOr<int64_t> count = shape.ElementCount();
  if (!count.ok()) return count.status();
  literal.element_count_ = *count;
  if (zeroed) {
    literal.data_.assign(static_cast<size_t>(*bytes), 0);
  } else {
    literal.data_.resize(static_cast<size_t>(*bytes));
  }
  return literal;
}

Literal Literal::Tuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const Literal& e : elements) shapes.push_back(e.shape());
  Literal literal;
  literal.shape_ = Shape::Tuple(std::move(shapes));
  literal.tuple_ = std::move(elements);
  return literal;
}

namespace {

// A small array literal; the shapes used here always fit.
Literal MakeArray(ElementType type, std::vector<int64_t> dims) {
  absl::StatusOr<Literal> literal =
      Literal::Create(Shape::Array(type, std::move(dims)));
  return literal.ok() ? *std::move(literal) : Literal();
}

}  // namespace

Literal Literal::ScalarF32(float v) {
  Literal literal = MakeArray(ElementType::kF32, {});
  literal.SetDouble(0, v);
  return literal;
}

Literal Literal::ScalarS32(int32_t v) {
  Literal literal = MakeArray(ElementType::kS32, {});
  literal.SetInt64(0, v);
  return literal;
}

Literal Literal::ScalarPred(bool v) {
  Literal literal = MakeArray(ElementType::kPred, {});
  literal.SetInt64(0, v ? 1 : 0);
  return literal;
}

Literal Literal::VectorF32(absl::Span<const float> v) {
  Literal literal =
      MakeArray(ElementType::kF32, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) literal.SetDouble(i, v[i]);
  return literal;
}

Literal Literal::VectorS32(absl::Span<const int32_t> v) {
  Literal literal =
      MakeArray(ElementType::kS32, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) literal.SetInt64(i, v[i]);
  return literal;
}

uint64_t Literal::GetBits(int64_t i) const {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  int bytes = info.storage_bytes < 8 ? info.storage_bytes : 8;
  if (i < 0 || i >= element_count_ || bytes == 0) return 0;
  return LoadLittleEndian(&data_[i * info.storage_bytes], bytes) &
         LowBits(info.bit_width);
}

void Literal::SetBits(int64_t i, uint64_t bits) {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  int bytes = info.storage_bytes < 8 ? info.storage_bytes : 8;
  if (i < 0 || i >= element_count_ || bytes == 0) return;
  StoreLittleEndian(&data_[i * info.storage_bytes], bytes,
                    bits & LowBits(info.bit_width));
}

double Literal::GetDouble(int64_t i) const {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  switch (info.kind) {
    case TypeKind::kFloat:
      return BitsToFloat(info.type, GetBits(i));
    case TypeKind::kComplex:
      return GetComplex(i).real();
    case TypeKind::kSigned:
      return static_cast<double>(GetInt64(i));
    default:
      return static_cast<double>(GetUint64(i));
  }
}

void Literal::SetDouble(int64_t i, double v) {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  switch (info.kind) {
    case TypeKind::kFloat:
      SetBits(i, FloatToBits(info.type, v));
      return;
    case TypeKind::kComplex:
      SetComplex(i, {v, 0.0});
      return;
    case TypeKind::kPred:
      SetBits(i, v != 0 ? 1 : 0);  // NaN is true, as a C++ bool cast
      return;
    case TypeKind::kSigned:
    case TypeKind::kUnsigned:
      SetBits(i, SaturatingFloatToIntBits(info, v));
      return;
    default:
      return;
  }
}

int64_t Literal::GetInt64(int64_t i) const {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  if (info.kind == TypeKind::kFloat || info.kind == TypeKind::kComplex) {
    const ElementTypeInfo& s64 = GetElementTypeInfo(ElementType::kS64);
    return static_cast<int64_t>(SaturatingFloatToIntBits(s64, GetDouble(i)));
  }
  uint64_t bits = GetBits(i);
  if (info.kind == TypeKind::kSigned && info.bit_width < 64) {
    // Sign-extend from the type's width.
    uint64_t sign = uint64_t{1} << (info.bit_width - 1);
    bits = (bits ^ sign) - sign;
  }
  return static_cast<int64_t>(bits);
}

void Literal::SetInt64(int64_t i, int64_t v) {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  switch (info.kind) {
    case TypeKind::kFloat:
    case TypeKind::kComplex:
      SetDouble(i, static_cast<double>(v));
      return;
    case TypeKind::kPred:
      SetBits(i, v != 0 ? 1 : 0);
      return;
    default:
      SetBits(i, static_cast<uint64_t>(v));  // wraps to the width
  }
}

uint64_t Literal::GetUint64(int64_t i) const {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  if (info.kind == TypeKind::kSigned || info.kind == TypeKind::kFloat ||
      info.kind == TypeKind::kComplex) {
    return static_cast<uint64_t>(GetInt64(i));
  }
  return GetBits(i);
}

void Literal::SetUint64(int64_t i, uint64_t v) {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  switch (info.kind) {
    case TypeKind::kFloat:
    case TypeKind::kComplex:
      SetDouble(i, static_cast<double>(v));
      return;
    case TypeKind::kPred:
      SetBits(i, v != 0 ? 1 : 0);
      return;
    default:
      SetBits(i, v);
  }
}

std::complex<double> Literal::GetComplex(int64_t i) const {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  if (info.kind != TypeKind::kComplex) return {GetDouble(i), 0.0};
  if (i < 0 || i >= element_count_) return {};
  int part_bytes = info.storage_bytes / 2;
  const uint8_t* p = &data_[i * info.storage_bytes];
  return {BitsToFloat(info.component, LoadLittleEndian(p, part_bytes)),
          BitsToFloat(info.component,
                      LoadLittleEndian(p + part_bytes, part_bytes))};
}

void Literal::SetComplex(int64_t i, std::complex<double> v) {
  const ElementTypeInfo& info = GetElementTypeInfo(element_type());
  if (info.kind != TypeKind::kComplex) {
    SetDouble(i, v.real());
    return;
  }
  if (i < 0 || i >= element_count_) return;
  int part_bytes = info.storage_bytes / 2;
  uint8_t* p = &data_[i * info.storage_bytes];
  StoreLittleEndian(p, part_bytes, FloatToBits(info.component, v.real()));
  StoreLittleEndian(p + part_bytes, part_bytes,
                    FloatToBits(info.component, v.imag()));
}

int64_t Literal::LinearIndex(absl::Span<const int64_t> index) const {
  if (static_cast<int64_t>(index.size()) != shape_.rank()) return -1;
  int64_t linear = 0;
  for (int64_t d = 0; d < shape_.rank(); ++d) {
    int64_t size = shape_.dimension(d);
    if (index[d] < 0 || index[d] >= size) return -1;
    // Cannot overflow: the product of the sizes is element_count_.
    linear = linear * size + index[d];
  }
  return linear;
}

int64_t Literal::dynamic_size(int64_t dimension) const {
  if (!dynamic_sizes_.empty()) return dynamic_sizes_[dimension];
  return shape_.dimension(dimension);
}

std::vector<int64_t> Literal::dynamic_sizes() const {
  if (!dynamic_sizes_.empty()) return dynamic_sizes_;
  return shape_.IsArray() ? shape_.dimensions() : std::vector<int64_t>{};
}

absl::Status Literal::SetDynamicSize(int64_t dimension, int64_t size) {
  if (!shape_.IsArray() || dimension < 0 || dimension >= shape_.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("dimension ", dimension,
                                                   " is not a dimension of ",
                                                   shape_.ToString(false)));
  }
  const int64_t bound = shape_.dimension(dimension);
  if (size < 0 || size > bound) {
    return absl::InvalidArgumentError(
        absl::StrCat("dynamic size ", size, " of dimension ", dimension,
                     " is outside [0, ", bound, "]"));
  }
  if (dynamic_sizes_.empty()) dynamic_sizes_ = shape_.dimensions();
  dynamic_sizes_[dimension] = size;
  shape_.set_dynamic_dimension(dimension, true);
  return absl::OkStatus();
}

int64_t Literal::valid_element_count() const {
  if (dynamic_sizes_.empty()) return element_count_;
  int64_t count = 1;
  for (int64_t size : dynamic_sizes_) count *= size;  // <= element_count_
  return count;
}

namespace {

// Compares the valid elements of two arrays with equal bounds and sizes:
// whole rows of the last dimension at a time.
bool ValidElementsEqual(const Literal& a, const Literal& b) {
  const std::vector<int64_t> sizes = a.dynamic_sizes();
  const std::vector<int64_t>& bounds = a.shape().dimensions();
  const int64_t rank = static_cast<int64_t>(sizes.size());
  if (rank == 0) return a.data() == b.data();
  for (int64_t size : sizes) {
    if (size == 0) return true;
  }
  const size_t element_bytes = a.data().size() / a.element_count();
  const size_t row_bytes = static_cast<size_t>(sizes[rank - 1]) * element_bytes;
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t row = 0;
    for (int64_t d = 0; d < rank; ++d) row = row * bounds[d] + index[d];
    const size_t offset = static_cast<size_t>(row) * element_bytes;
    if (std::memcmp(a.data().data() + offset, b.data().data() + offset,
                    row_bytes) != 0) {
      return false;
    }
    int64_t d = rank - 2;
    while (d >= 0 && ++index[d] == sizes[d]) index[d--] = 0;
    if (d < 0) return true;
  }
}

}  // namespace

bool Literal::operator==(const Literal& other) const {
  if (!shape_.Compatible(other.shape_)) return false;
  if (tuple_ != other.tuple_) return false;
  if (dynamic_sizes_.empty() && other.dynamic_sizes_.empty()) {
    return data_ == other.data_;
  }
  if (dynamic_sizes() != other.dynamic_sizes()) return false;
  if (element_count_ == 0) return true;
  return ValidElementsEqual(*this, other);
}

}  // namespace kiln
