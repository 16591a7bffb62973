// Shape text: element type, dimensions (static, <=bound, ?), an optional
// layout with XLA's extras, tuples, token[] and opaque[].
#include "compiler/text/shape_text.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/layout.h"
#include "compiler/text/attr_scanner.h"
#include "compiler/text/attr_text_internal.h"

namespace kiln {
namespace text_internal {
namespace {

// A parenthesized integer, e.g. the (4) of E(4).
absl::StatusOr<int64_t> ParseParenInt(AttrScanner* s, absl::string_view what) {
  if (!s->Consume('(')) return s->Expected(absl::StrCat("'(' after ", what));
  absl::StatusOr<int64_t> value = s->ParseInt(what);
  if (!value.ok()) return value.status();
  if (!s->SkipAndConsume(')'))
    return s->Expected(absl::StrCat("')' in ", what));
  return value;
}

// A parenthesized element type, e.g. the (s32) of #(s32).
absl::StatusOr<ElementType> ParseParenType(AttrScanner* s,
                                           absl::string_view what) {
  if (!s->Consume('(')) return s->Expected(absl::StrCat("'(' after ", what));
  const size_t start = s->pos();
  std::optional<ElementType> type = ElementTypeFromName(s->ParseIdentifier());
  if (!type.has_value()) return s->ErrorAt(start, "unknown element type");
  if (!s->SkipAndConsume(')'))
    return s->Expected(absl::StrCat("')' in ", what));
  return *type;
}

absl::Status ParseDimLevelTypes(AttrScanner* s, Layout* layout) {
  if (!s->Consume('(')) return s->Expected("'(' after D");
  if (s->SkipAndConsume(')')) return absl::OkStatus();
  do {
    s->SkipSpace();
    const char c = s->Peek();
    DimLevelType level;
    if (c == 'D') {
      level = DimLevelType::kDense;
    } else if (c == 'C') {
      level = DimLevelType::kCompressed;
    } else if (c == 'S') {
      level = DimLevelType::kSingleton;
    } else if (c == 'H') {
      level = DimLevelType::kLooseCompressed;
    } else {
      return s->Expected("a dimension level type D, C, S or H");
    }
    s->Advance();
    if (s->Peek() == '+' || s->Peek() == '~') {
      return s->Error("non-unique/unordered dimension levels are unsupported");
    }
    layout->dim_level_types.push_back(level);
  } while (s->SkipAndConsume(','));
  if (!s->SkipAndConsume(')')) return s->Expected("',' or ')' in D(...)");
  return absl::OkStatus();
}

absl::Status ParseTiles(AttrScanner* s, Layout* layout) {
  if (s->Peek() != '(') return s->Expected("'(' after T");
  while (s->Consume('(')) {
    Tile tile;
    if (!s->SkipAndConsume(')')) {
      do {
        if (s->SkipAndConsume('*')) {
          tile.dimensions.push_back(Tile::kCombineDimension);
          continue;
        }
        absl::StatusOr<int64_t> dim = s->ParseInt("a tile dimension");
        if (!dim.ok()) return dim.status();
        tile.dimensions.push_back(*dim);
      } while (s->SkipAndConsume(','));
      if (!s->SkipAndConsume(')')) return s->Expected("',' or ')' in a tile");
    }
    layout->tiles.push_back(std::move(tile));
  }
  return absl::OkStatus();
}

absl::Status ParseSplitConfig(AttrScanner* s, Layout* layout) {
  if (!s->Consume('(')) return s->Expected("'(' after SC");
  SplitConfig config;
  absl::StatusOr<int64_t> dim = s->ParseInt("a split dimension");
  if (!dim.ok()) return dim.status();
  config.dimension = *dim;
  if (!s->SkipAndConsume(':')) return s->Expected("':' in SC(...)");
  do {
    absl::StatusOr<int64_t> index = s->ParseInt("a split index");
    if (!index.ok()) return index.status();
    config.split_indices.push_back(*index);
  } while (s->SkipAndConsume(','));
  if (!s->SkipAndConsume(')')) return s->Expected("',' or ')' in SC(...)");
  layout->split_configs.push_back(std::move(config));
  return absl::OkStatus();
}

absl::Status ParsePhysicalShape(AttrScanner* s, Layout* layout) {
  if (!s->Consume('(')) return s->Expected("'(' after P");
  absl::StatusOr<Shape> physical = ParseShape(s);
  if (!physical.ok()) return physical.status();
  if (!s->SkipAndConsume(')')) return s->Expected("')' after P(shape");
  layout->physical_shape = std::make_shared<const Shape>(*std::move(physical));
  return absl::OkStatus();
}

// One item after the ':' of a layout, chosen by its leading letter.
absl::Status ParseLayoutItem(AttrScanner* s, Layout* layout) {
  s->SkipSpace();
  const char c = s->Peek();
  const char next = s->PeekAt(1);
  if (c == 'S' && next == 'C') {
    s->Advance(2);
    return ParseSplitConfig(s, layout);
  }
  s->Advance();
  absl::StatusOr<int64_t> number;
  switch (c) {
    case 'D':
      return ParseDimLevelTypes(s, layout);
    case 'T':
      return ParseTiles(s, layout);
    case 'P':
      return ParsePhysicalShape(s, layout);
    case '#':
    case '*': {
      absl::StatusOr<ElementType> type = ParseParenType(s, "a layout type");
      if (!type.ok()) return type.status();
      (c == '#' ? layout->index_primitive_type
                : layout->pointer_primitive_type) = *type;
      return absl::OkStatus();
    }
    case 'L':
    case 'E':
    case 'S':
    case 'M':
      number = ParseParenInt(s, "a layout value");
      if (!number.ok()) return number.status();
      if (c == 'L') layout->tail_padding_alignment_in_elements = *number;
      if (c == 'E') layout->element_size_in_bits = *number;
      if (c == 'S') layout->memory_space = *number;
      if (c == 'M') layout->dynamic_shape_metadata_prefix_bytes = *number;
      return absl::OkStatus();
    default:
      s->set_pos(s->pos() - 1);
      return s->Expected("a layout item (D, T, L, #, *, E, S, SC, P, M)");
  }
}

absl::Status CheckMinorToMajor(AttrScanner* s, size_t start,
                               const std::vector<int64_t>& minor_to_major,
                               int64_t rank) {
  if (static_cast<int64_t>(minor_to_major.size()) != rank) {
    return s->ErrorAt(
        start, absl::StrCat("layout has ", minor_to_major.size(),
                            " dimensions but the shape has rank ", rank));
  }
  std::vector<bool> seen(rank, false);
  for (int64_t dim : minor_to_major) {
    if (dim < 0 || dim >= rank || seen[dim]) {
      return s->ErrorAt(start, "layout is not a permutation of the dimensions");
    }
    seen[dim] = true;
  }
  return absl::OkStatus();
}

absl::Status ParseLayout(AttrScanner* s, int64_t rank, Layout* layout) {
  const size_t start = s->pos();
  s->Advance();  // '{'
  std::vector<int64_t>& minor_to_major = *layout->mutable_minor_to_major();
  minor_to_major.reserve(rank);
  s->SkipSpace();
  if (IsDigit(s->Peek())) {
    do {
      absl::StatusOr<int64_t> dim = s->ParseInt("a layout dimension");
      if (!dim.ok()) return dim.status();
      minor_to_major.push_back(*dim);
    } while (s->SkipAndConsume(','));
  }
  absl::Status status = CheckMinorToMajor(s, start, minor_to_major, rank);
  if (!status.ok()) return status;
  if (s->SkipAndConsume(':')) {
    while (!s->SkipAndConsume('}')) {
      if (s->AtEnd()) return s->Expected("'}' to close the layout");
      status = ParseLayoutItem(s, layout);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }
  if (!s->SkipAndConsume('}')) return s->Expected("',', ':' or '}' in layout");
  return absl::OkStatus();
}

// Number of comma-separated entries before the closing `close` at the
// current nesting level, for reserving vectors (0 if none found).
size_t CountEntries(absl::string_view text, size_t pos, char close) {
  size_t count = 1;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c == close) return count;
    if (c == ',') ++count;
  }
  return 0;
}

absl::Status ParseDimensions(AttrScanner* s, std::vector<int64_t>* dims,
                             std::vector<bool>* dynamic) {
  if (!s->Consume('[')) return s->Expected("'[' after the element type");
  if (s->SkipAndConsume(']')) return absl::OkStatus();
  const size_t expected = CountEntries(s->text(), s->pos(), ']');
  dims->reserve(expected);
  dynamic->reserve(expected);
  do {
    s->SkipSpace();
    bool is_dynamic = false;
    int64_t size = 0;
    if (s->Consume('?')) {
      is_dynamic = true;
      size = Shape::kUnboundedSize;
    } else {
      is_dynamic = s->Consume('<');
      if (is_dynamic && !s->Consume('=')) return s->Expected("'=' after '<'");
      const size_t start = s->pos();
      absl::StatusOr<int64_t> value = s->ParseInt("a dimension size");
      if (!value.ok()) return value.status();
      if (*value < 0) return s->ErrorAt(start, "negative dimension size");
      size = *value;
    }
    dims->push_back(size);
    dynamic->push_back(is_dynamic);
  } while (s->SkipAndConsume(','));
  if (!s->SkipAndConsume(']')) return s->Expected("',' or ']' in dimensions");
  return absl::OkStatus();
}

absl::StatusOr<Shape> ParseTuple(AttrScanner* s) {
  s->Advance();  // '('
  std::vector<Shape> elements;
  if (!s->SkipAndConsume(')')) {
    do {
      absl::StatusOr<Shape> element = ParseShape(s);
      if (!element.ok()) return element.status();
      elements.push_back(*std::move(element));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume(')')) return s->Expected("',' or ')' in tuple");
  }
  return Shape::Tuple(std::move(elements));
}

absl::StatusOr<Shape> ParseNonTuple(AttrScanner* s) {
  const size_t start = s->pos();
  absl::string_view name = s->ParseIdentifier();
  std::optional<ElementType> type = ElementTypeFromName(name);
  if (name.empty() || !type.has_value()) {
    return s->ErrorAt(start, name.empty() ? "expected a shape"
                                          : absl::StrCat("unknown element "
                                                         "type '",
                                                         name, "'"));
  }
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  absl::Status status = ParseDimensions(s, &dims, &dynamic);
  if (!status.ok()) return status;
  if (*type == ElementType::kToken || *type == ElementType::kOpaque) {
    if (!dims.empty()) return s->ErrorAt(start, "token/opaque take no dims");
    return *type == ElementType::kToken ? Shape::Token() : Shape::Opaque();
  }
  const int64_t rank = static_cast<int64_t>(dims.size());
  Shape shape = Shape::DynamicArray(*type, std::move(dims), std::move(dynamic));
  if (s->Peek() == '{') {  // Only directly after ']'.
    Layout layout;
    status = ParseLayout(s, rank, &layout);
    if (!status.ok()) return status;
    shape.set_layout(std::move(layout));
  }
  return shape;
}

}  // namespace

absl::StatusOr<Shape> ParseShape(AttrScanner* s) {
  absl::Status status = s->Enter();
  if (!status.ok()) return status;
  s->SkipSpace();
  absl::StatusOr<Shape> shape =
      s->Peek() == '(' ? ParseTuple(s) : ParseNonTuple(s);
  s->Leave();
  return shape;
}

}  // namespace text_internal

absl::StatusOr<Shape> ParseShapeText(absl::string_view text, size_t* consumed,
                                     size_t* error_offset) {
  text_internal::AttrScanner scanner(text, "shape",
                                     /*is_attribute=*/false);
  absl::StatusOr<Shape> shape = text_internal::ParseShape(&scanner);
  if (!shape.ok()) {
    if (error_offset != nullptr) *error_offset = scanner.error_offset();
    return shape.status();
  }
  if (consumed != nullptr) *consumed = scanner.pos();
  return shape;
}

}  // namespace kiln
