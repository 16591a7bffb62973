#include "compiler/stablehlo/types.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace kiln::stablehlo {
namespace {

// MLIR's names of the float types whose spelling differs from HLO's only
// in case.
const char* FloatTypeName(ElementType type) {
  switch (type) {
    case ElementType::kF16:
      return "f16";
    case ElementType::kBF16:
      return "bf16";
    case ElementType::kF32:
      return "f32";
    case ElementType::kF64:
      return "f64";
    case ElementType::kF8E5M2:
      return "f8E5M2";
    case ElementType::kF8E4M3:
      return "f8E4M3";
    case ElementType::kF8E4M3FN:
      return "f8E4M3FN";
    case ElementType::kF8E4M3B11FNUZ:
      return "f8E4M3B11FNUZ";
    case ElementType::kF8E3M4:
      return "f8E3M4";
    case ElementType::kF8E5M2FNUZ:
      return "f8E5M2FNUZ";
    case ElementType::kF8E4M3FNUZ:
      return "f8E4M3FNUZ";
    case ElementType::kF4E2M1FN:
      return "f4E2M1FN";
    case ElementType::kF8E8M0FNU:
      return "f8E8M0FNU";
    case ElementType::kF6E3M2FN:
      return "f6E3M2FN";
    case ElementType::kF6E2M3FN:
      return "f6E2M3FN";
    default:
      return nullptr;
  }
}

std::string Dimension(const Shape& shape, int64_t i) {
  if (shape.is_dynamic_dimension(i)) return "?";
  return absl::StrCat(shape.dimension(i));
}

// "#stablehlo.bounds<4, ?>" when some dimension is bounded-dynamic.
std::string Bounds(const Shape& shape) {
  bool any = false;
  std::vector<std::string> bounds;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    bool bounded =
        shape.is_dynamic_dimension(i) && !shape.is_unbounded_dimension(i);
    any |= bounded;
    bounds.push_back(bounded ? absl::StrCat(shape.dimension(i)) : "?");
  }
  if (!any) return "";
  return absl::StrCat(", #stablehlo.bounds<", absl::StrJoin(bounds, ", "), ">");
}

}  // namespace

absl::StatusOr<std::string> ElementTypeString(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  switch (info.kind) {
    case TypeKind::kPred:
      return std::string("i1");
    case TypeKind::kSigned:
    case TypeKind::kUnsigned:
      if (info.bit_width == 1) break;
      return absl::StrCat(info.kind == TypeKind::kSigned ? "i" : "ui",
                          info.bit_width);
    case TypeKind::kFloat:
      if (const char* name = FloatTypeName(type)) return std::string(name);
      break;
    case TypeKind::kComplex:
      return type == ElementType::kC64 ? std::string("complex<f32>")
                                       : std::string("complex<f64>");
    default:
      break;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("element type ", ElementTypeName(type),
                   " has no StableHLO form (StableHLO's 1-bit integer is "
                   "i1, which is pred)"));
}

absl::StatusOr<std::string> TypeString(const Shape& shape) {
  if (shape.IsToken()) return std::string("!stablehlo.token");
  if (shape.IsTuple()) {
    std::vector<std::string> parts;
    for (const Shape& element : shape.tuple_shapes()) {
      absl::StatusOr<std::string> part = TypeString(element);
      if (!part.ok()) return part.status();
      parts.push_back(*std::move(part));
    }
    return absl::StrCat("tuple<", absl::StrJoin(parts, ", "), ">");
  }
  if (!shape.IsArray()) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape ", shape.ToString(false),
                     " has no StableHLO form (no opaque type)"));
  }
  absl::StatusOr<std::string> element = ElementTypeString(shape.element_type());
  if (!element.ok()) return element.status();
  std::string text = "tensor<";
  for (int64_t i = 0; i < shape.rank(); ++i) {
    absl::StrAppend(&text, Dimension(shape, i), "x");
  }
  absl::StrAppend(&text, *element, Bounds(shape), ">");
  return text;
}

std::vector<Shape> LeafShapes(const Shape& shape) {
  if (!shape.IsTuple()) return {shape};
  std::vector<Shape> leaves;
  for (const Shape& element : shape.tuple_shapes()) {
    std::vector<Shape> more = LeafShapes(element);
    leaves.insert(leaves.end(), more.begin(), more.end());
  }
  return leaves;
}

std::string I64Array(absl::Span<const int64_t> values) {
  if (values.empty()) return "array<i64>";
  return absl::StrCat("array<i64: ", absl::StrJoin(values, ", "), ">");
}

std::string BoolArray(const std::vector<bool>& values) {
  if (values.empty()) return "array<i1>";
  std::vector<std::string> parts;
  for (bool value : values) parts.push_back(value ? "true" : "false");
  return absl::StrCat("array<i1: ", absl::StrJoin(parts, ", "), ">");
}

std::string I64List(absl::Span<const int64_t> values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

std::string DenseI64Matrix(const std::vector<std::vector<int64_t>>& rows,
                           int64_t fill) {
  size_t columns = 0;
  for (const auto& row : rows) columns = std::max(columns, row.size());
  if (rows.empty() || columns == 0) {
    return absl::StrCat("dense<> : tensor<", rows.size(), "x0xi64>");
  }
  std::vector<std::string> texts;
  for (std::vector<int64_t> row : rows) {
    row.resize(columns, fill);
    texts.push_back(I64List(row));
  }
  return absl::StrCat("dense<[", absl::StrJoin(texts, ", "), "]> : tensor<",
                      rows.size(), "x", columns, "xi64>");
}

std::string WindowPadding(const Window& window) {
  std::vector<std::vector<int64_t>> rows;
  for (const WindowDimension& d : window.dimensions) {
    rows.push_back({d.padding_low, d.padding_high});
  }
  if (rows.empty()) return "dense<> : tensor<0x2xi64>";
  return DenseI64Matrix(rows);
}

std::string ChannelHandle(int64_t handle, int64_t type) {
  return absl::StrCat("#stablehlo.channel_handle<handle = ", handle,
                      ", type = ", type, ">");
}

std::string ReplicaGroupsAttr(const ReplicaGroups& groups) {
  return DenseI64Matrix(groups.ExpandedGroups());
}

std::string FloatLiteral(double value) {
  return absl::StrFormat("%.9e", static_cast<float>(value));
}

std::string StringLiteral(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
      absl::StrAppendFormat(&out, "\\%02X", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace kiln::stablehlo
