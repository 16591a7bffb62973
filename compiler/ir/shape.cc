#include "compiler/ir/shape.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace {

// a * b into *out; false on int64 overflow (operands are non-negative).
bool CheckedMultiply(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

void AppendDimensions(const Shape& shape, std::string* out) {
  out->push_back('[');
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i != 0) out->push_back(',');
    if (shape.is_unbounded_dimension(i)) {
      out->push_back('?');
    } else if (shape.is_dynamic_dimension(i)) {
      absl::StrAppend(out, "<=", shape.dimension(i));
    } else {
      absl::StrAppend(out, shape.dimension(i));
    }
  }
  out->push_back(']');
}

void AppendShape(const Shape& shape, bool print_layout, std::string* out) {
  if (shape.IsTuple()) {
    out->push_back('(');
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      if (i != 0) out->append(", ");
      // Like XLA, every fifth element is numbered to help readers of long
      // tuples.
      if (i != 0 && i % 5 == 0) absl::StrAppend(out, "/*index=", i, "*/");
      AppendShape(shape.tuple_shape(i), print_layout, out);
    }
    out->push_back(')');
    return;
  }
  absl::StrAppend(out, ElementTypeName(shape.element_type()));
  AppendDimensions(shape, out);
  if (!print_layout || !shape.IsArray() || !shape.has_layout()) return;
  std::string layout = shape.layout().ToString();
  // Like XLA, a scalar's empty layout "{}" is not printed.
  if (shape.IsScalar() && layout.empty()) return;
  absl::StrAppend(out, "{", layout, "}");
}

absl::Status LayoutError(const Shape& shape, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid layout in shape ", shape.ToString(), ": ", what));
}

absl::Status ValidateTiles(const Shape& shape, const Layout& layout) {
  for (const Tile& tile : layout.tiles) {
    if (tile.dimensions.empty()) return LayoutError(shape, "empty tile");
    for (int64_t dim : tile.dimensions) {
      if (dim != Tile::kCombineDimension && dim <= 0) {
        return LayoutError(shape, absl::StrCat("tile dimension ", dim,
                                               " is not positive or '*'"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateSplitConfigs(const Shape& shape, const Layout& layout) {
  for (const SplitConfig& config : layout.split_configs) {
    if (config.dimension < 0 || config.dimension >= shape.rank()) {
      return LayoutError(
          shape, absl::StrCat("split config dimension ", config.dimension,
                              " out of range"));
    }
    int64_t previous = 0;
    for (int64_t index : config.split_indices) {
      if (index <= previous) {
        return LayoutError(shape,
                           "split indices must be positive and "
                           "strictly increasing");
      }
      previous = index;
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateScalarFields(const Shape& shape, const Layout& layout) {
  if (layout.tail_padding_alignment_in_elements < 1) {
    return LayoutError(shape, "tail padding alignment L(n) must be >= 1");
  }
  if (layout.element_size_in_bits < 0) {
    return LayoutError(shape, "element size E(n) must be >= 0");
  }
  if (layout.memory_space < 0) {
    return LayoutError(shape, "memory space S(n) must be >= 0");
  }
  if (layout.dynamic_shape_metadata_prefix_bytes < 0) {
    return LayoutError(shape, "metadata prefix M(n) must be >= 0");
  }
  for (ElementType type :
       {layout.index_primitive_type, layout.pointer_primitive_type}) {
    if (type != ElementType::kInvalid && !IsIntegralType(type)) {
      return LayoutError(shape, "index and pointer types must be integers");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateLayoutForShape(const Shape& shape, const Layout& layout) {
  if (!util::IsPermutation(layout.minor_to_major(), shape.rank())) {
    return LayoutError(shape,
                       "minor_to_major is not a permutation of the "
                       "dimension numbers");
  }
  if (!layout.dim_level_types.empty() &&
      static_cast<int64_t>(layout.dim_level_types.size()) != shape.rank()) {
    return LayoutError(shape, "D(...) needs one level type per dimension");
  }
  if (absl::Status s = ValidateTiles(shape, layout); !s.ok()) return s;
  if (absl::Status s = ValidateSplitConfigs(shape, layout); !s.ok()) return s;
  if (absl::Status s = ValidateScalarFields(shape, layout); !s.ok()) return s;
  if (layout.physical_shape != nullptr) {
    return layout.physical_shape->Validate();
  }
  return absl::OkStatus();
}

absl::Status ValidateArrayDimensions(const Shape& shape) {
  if (shape.dynamic_dimensions().size() != shape.dimensions().size()) {
    return absl::InvalidArgumentError(
        "shape has mismatched dimension and dynamism counts");
  }
  for (int64_t i = 0; i < shape.rank(); ++i) {
    int64_t size = shape.dimension(i);
    if (size == Shape::kUnboundedSize) {
      if (!shape.is_dynamic_dimension(i)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "dimension ", i, " is unbounded but not marked dynamic"));
      }
    } else if (size < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", shape.ToString(false), " has negative dimension ", i));
    }
  }
  return absl::OkStatus();
}

// Deep equality; layouts compared only when `with_layout`.
bool ShapesEqual(const Shape& a, const Shape& b, bool with_layout) {
  if (a.element_type() != b.element_type()) return false;
  if (a.IsTuple()) {
    if (a.tuple_size() != b.tuple_size()) return false;
    for (int64_t i = 0; i < a.tuple_size(); ++i) {
      if (!ShapesEqual(a.tuple_shape(i), b.tuple_shape(i), with_layout)) {
        return false;
      }
    }
    return true;
  }
  // Both static (the common case): the dynamism vectors are all false and
  // of equal length once the dimensions match, so they are not read.
  if (a.is_static() != b.is_static() || a.dimensions() != b.dimensions()) {
    return false;
  }
  if (!a.is_static() && a.dynamic_dimensions() != b.dynamic_dimensions()) {
    return false;
  }
  if (!with_layout || !a.IsArray()) return true;
  // A scalar prints the same with no layout and with the empty layout.
  static const Layout kEmpty;
  const Layout* la = a.has_layout() ? &a.layout() : nullptr;
  const Layout* lb = b.has_layout() ? &b.layout() : nullptr;
  if (a.IsScalar()) {
    if (la == nullptr) la = &kEmpty;
    if (lb == nullptr) lb = &kEmpty;
  }
  if (la == nullptr || lb == nullptr) return la == lb;
  return *la == *lb;
}

}  // namespace

Shape Shape::Array(ElementType type, std::vector<int64_t> dimensions) {
  std::vector<bool> dynamic(dimensions.size(), false);
  return DynamicArray(type, std::move(dimensions), std::move(dynamic));
}

Shape Shape::DynamicArray(ElementType type, std::vector<int64_t> dimensions,
                          std::vector<bool> dynamic) {
  Shape shape;
  shape.element_type_ = type;
  shape.dimensions_ = std::move(dimensions);
  shape.dynamic_ = std::move(dynamic);
  shape.dynamic_.resize(shape.dimensions_.size(), false);
  for (bool is_dynamic : shape.dynamic_) {
    shape.dynamic_dimension_count_ += is_dynamic ? 1 : 0;
  }
  return shape;
}

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape shape;
  shape.element_type_ = ElementType::kTuple;
  shape.tuple_shapes_ = std::move(elements);
  return shape;
}

Shape Shape::Token() {
  Shape shape;
  shape.element_type_ = ElementType::kToken;
  return shape;
}

Shape Shape::Opaque() {
  Shape shape;
  shape.element_type_ = ElementType::kOpaque;
  return shape;
}

bool Shape::is_static() const {
  if (dynamic_dimension_count_ != 0) return false;
  for (const Shape& element : tuple_shapes_) {
    if (!element.is_static()) return false;
  }
  return true;
}

void Shape::set_dimension(int64_t i, int64_t size, bool dynamic) {
  dimensions_[i] = size;
  set_dynamic_dimension(i, dynamic || size == kUnboundedSize);
}

void Shape::set_dynamic_dimension(int64_t i, bool dynamic) {
  if (dynamic_[i] == dynamic) return;
  dynamic_[i] = dynamic;
  dynamic_dimension_count_ += dynamic ? 1 : -1;
}

void Shape::clear_layout() {
  layout_.reset();
  for (Shape& element : tuple_shapes_) element.clear_layout();
}

void Shape::SetDefaultLayoutIfMissing() {
  if (IsTuple()) {
    for (Shape& element : tuple_shapes_) element.SetDefaultLayoutIfMissing();
    return;
  }
  if (IsArray() && !layout_.has_value()) layout_ = Layout::Default(rank());
}

absl::StatusOr<int64_t> Shape::ElementCount() const {
  if (IsToken() || IsOpaque()) return 0;
  if (!IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("element count of non-array shape ", ToString(false)));
  }
  int64_t count = 1;
  for (int64_t i = 0; i < rank(); ++i) {
    if (is_unbounded_dimension(i)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", ToString(false), " has an unbounded dimension ", i,
          " and no element count"));
    }
    if (dimensions_[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", ToString(false), " has negative dimension ", i));
    }
    if (!CheckedMultiply(count, dimensions_[i], &count)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "element count of shape ", ToString(false), " overflows int64"));
    }
  }
  return count;
}

absl::StatusOr<int64_t> Shape::ByteSize() const {
  if (IsToken() || IsOpaque()) return 0;
  if (IsTuple()) {
    int64_t total = 0;
    for (const Shape& element : tuple_shapes_) {
      absl::StatusOr<int64_t> size = element.ByteSize();
      if (!size.ok()) return size.status();
      if (__builtin_add_overflow(total, *size, &total)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "byte size of shape ", ToString(false), " overflows int64"));
      }
    }
    return total;
  }
  absl::StatusOr<int64_t> count = ElementCount();
  if (!count.ok()) return count.status();
  int64_t bytes = 0;
  if (!CheckedMultiply(*count, GetElementTypeInfo(element_type_).storage_bytes,
                       &bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "byte size of shape ", ToString(false), " overflows int64"));
  }
  return bytes;
}

absl::Status Shape::Validate() const {
  switch (element_type_) {
    case ElementType::kInvalid:
      return absl::InvalidArgumentError("shape has an invalid element type");
    case ElementType::kTuple:
      if (layout_.has_value() || !dimensions_.empty()) {
        return absl::InvalidArgumentError(
            "a tuple shape has no dimensions or layout of its own");
      }
      for (const Shape& element : tuple_shapes_) {
        if (absl::Status s = element.Validate(); !s.ok()) return s;
      }
      return absl::OkStatus();
    case ElementType::kToken:
    case ElementType::kOpaque:
      if (!dimensions_.empty() || layout_.has_value() ||
          !tuple_shapes_.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            ToString(false), " shape has no dimensions, layout or elements"));
      }
      return absl::OkStatus();
    default:
      break;
  }
  if (!tuple_shapes_.empty()) {
    return absl::InvalidArgumentError("an array shape has no tuple elements");
  }
  if (absl::Status s = ValidateArrayDimensions(*this); !s.ok()) return s;
  if (layout_.has_value()) return ValidateLayoutForShape(*this, *layout_);
  return absl::OkStatus();
}

std::string Shape::ToString(bool print_layout) const {
  std::string out;
  AppendShape(*this, print_layout, &out);
  return out;
}

bool Shape::operator==(const Shape& other) const {
  return ShapesEqual(*this, other, /*with_layout=*/true);
}

bool Shape::Compatible(const Shape& other) const {
  return ShapesEqual(*this, other, /*with_layout=*/false);
}

bool Shape::SameDimensionsAndType(const Shape& other) const {
  return ShapesEqual(*this, other, /*with_layout=*/false);
}

const Shape* Shape::Subshape(absl::Span<const int64_t> index) const {
  const Shape* current = this;
  for (int64_t i : index) {
    if (!current->IsTuple() || i < 0 || i >= current->tuple_size()) {
      return nullptr;
    }
    current = &current->tuple_shape(i);
  }
  return current;
}

}  // namespace kiln
