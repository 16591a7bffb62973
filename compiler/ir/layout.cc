#include "compiler/ir/layout.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace {

// One letter per level type, as XLA abbreviates them inside D(...).
constexpr const char* kDimLevelTypeAbbrev[] = {"D", "C", "S", "H"};

absl::string_view DimLevelTypeAbbrev(DimLevelType type) {
  auto index = static_cast<size_t>(type);
  if (index >= sizeof(kDimLevelTypeAbbrev) / sizeof(kDimLevelTypeAbbrev[0])) {
    return "?";
  }
  return kDimLevelTypeAbbrev[index];
}

void AppendTile(const Tile& tile, std::string* out) {
  out->push_back('(');
  for (size_t i = 0; i < tile.dimensions.size(); ++i) {
    if (i != 0) out->push_back(',');
    int64_t dim = tile.dimensions[i];
    if (dim == Tile::kCombineDimension) {
      out->push_back('*');
    } else {
      absl::StrAppend(out, dim);
    }
  }
  out->push_back(')');
}

// #(type) and *(type) print "invalid" for a non-integral type, as XLA does.
std::string IntegralTypeName(ElementType type) {
  if (!IsIntegralType(type)) return "invalid";
  return std::string(ElementTypeName(type));
}

// The part after ':' in XLA's order: D T L # * E S SC P M.
std::string ExtrasToString(const Layout& layout) {
  std::string out;
  if (!layout.dim_level_types.empty()) {
    out += "D(";
    for (size_t i = 0; i < layout.dim_level_types.size(); ++i) {
      if (i != 0) out.push_back(',');
      absl::StrAppend(&out, DimLevelTypeAbbrev(layout.dim_level_types[i]));
    }
    out += ")";
  }
  if (!layout.tiles.empty()) {
    out += "T";
    for (const Tile& tile : layout.tiles) AppendTile(tile, &out);
  }
  if (layout.tail_padding_alignment_in_elements != 1) {
    absl::StrAppend(&out, "L(", layout.tail_padding_alignment_in_elements, ")");
  }
  if (layout.index_primitive_type != ElementType::kInvalid) {
    absl::StrAppend(&out, "#(", IntegralTypeName(layout.index_primitive_type),
                    ")");
  }
  if (layout.pointer_primitive_type != ElementType::kInvalid) {
    absl::StrAppend(&out, "*(", IntegralTypeName(layout.pointer_primitive_type),
                    ")");
  }
  if (layout.element_size_in_bits != 0) {
    absl::StrAppend(&out, "E(", layout.element_size_in_bits, ")");
  }
  if (layout.memory_space != 0) {
    absl::StrAppend(&out, "S(", layout.memory_space, ")");
  }
  if (!layout.split_configs.empty()) {
    out += "SC";
    for (const SplitConfig& config : layout.split_configs) {
      absl::StrAppend(&out, "(", config.dimension, ":",
                      absl::StrJoin(config.split_indices, ","), ")");
    }
  }
  if (layout.physical_shape != nullptr) {
    absl::StrAppend(&out, "P(", layout.physical_shape->ToString(), ")");
  }
  if (layout.dynamic_shape_metadata_prefix_bytes > 0) {
    absl::StrAppend(&out, "M(", layout.dynamic_shape_metadata_prefix_bytes,
                    ")");
  }
  return out;
}

}  // namespace

Layout Layout::Default(int64_t rank) {
  std::vector<int64_t> minor_to_major;
  minor_to_major.reserve(rank > 0 ? rank : 0);
  for (int64_t i = rank - 1; i >= 0; --i) minor_to_major.push_back(i);
  return Layout(std::move(minor_to_major));
}

bool Layout::HasOnlyMinorToMajor() const {
  return dim_level_types.empty() && tiles.empty() &&
         tail_padding_alignment_in_elements == 1 &&
         index_primitive_type == ElementType::kInvalid &&
         pointer_primitive_type == ElementType::kInvalid &&
         element_size_in_bits == 0 && memory_space == 0 &&
         split_configs.empty() && physical_shape == nullptr &&
         dynamic_shape_metadata_prefix_bytes == 0;
}

std::string Layout::ToString() const {
  std::string out = absl::StrJoin(minor_to_major_, ",");
  std::string extras = ExtrasToString(*this);
  if (!extras.empty()) absl::StrAppend(&out, ":", extras);
  return out;
}

bool Layout::operator==(const Layout& other) const {
  if (minor_to_major_ != other.minor_to_major_ ||
      dim_level_types != other.dim_level_types || tiles != other.tiles ||
      tail_padding_alignment_in_elements !=
          other.tail_padding_alignment_in_elements ||
      index_primitive_type != other.index_primitive_type ||
      pointer_primitive_type != other.pointer_primitive_type ||
      element_size_in_bits != other.element_size_in_bits ||
      memory_space != other.memory_space ||
      !(split_configs == other.split_configs) ||
      dynamic_shape_metadata_prefix_bytes !=
          other.dynamic_shape_metadata_prefix_bytes) {
    return false;
  }
  if ((physical_shape == nullptr) != (other.physical_shape == nullptr)) {
    return false;
  }
  return physical_shape == nullptr || *physical_shape == *other.physical_shape;
}

}  // namespace kiln
