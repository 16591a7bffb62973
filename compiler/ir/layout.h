// Array layouts: minor-to-major order plus the extras XLA prints after ':'
// (shapes.md, tiled_layout.md). A layout is data only; checking it against a
// shape is Shape's job (ValidateLayoutForShape).
#ifndef KILN_COMPILER_IR_LAYOUT_H_
#define KILN_COMPILER_IR_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/element_type.h"

namespace kiln {

class Shape;

// One tile of a tiled layout, e.g. the (8,128) of T(8,128)(2,1).
struct Tile {
  // A dimension printed as '*': combine this dimension with the next one.
  static constexpr int64_t kCombineDimension = INT64_MIN;
  std::vector<int64_t> dimensions;
  bool operator==(const Tile& o) const { return dimensions == o.dimensions; }
  bool operator!=(const Tile& o) const { return !(*this == o); }
};

// Sparse-layout level of one dimension, printed inside D(...).
enum class DimLevelType : uint8_t {
  kDense,
  kCompressed,
  kSingleton,
  kLooseCompressed
};

// SC(dim:idx,idx...): a split of one dimension across memory.
struct SplitConfig {
  int64_t dimension = 0;
  std::vector<int64_t> split_indices;
  bool operator==(const SplitConfig& o) const {
    return dimension == o.dimension && split_indices == o.split_indices;
  }
};

class Layout {
 public:
  Layout() = default;
  explicit Layout(std::vector<int64_t> minor_to_major)
      : minor_to_major_(std::move(minor_to_major)) {}

  // The default (descending) layout for `rank` dimensions: {rank-1,...,0}.
  static Layout Default(int64_t rank);

  const std::vector<int64_t>& minor_to_major() const { return minor_to_major_; }
  std::vector<int64_t>* mutable_minor_to_major() { return &minor_to_major_; }

  // D(...): per-dimension level types; empty means all dense.
  std::vector<DimLevelType> dim_level_types;
  std::vector<Tile> tiles;                         // T(...)(...)
  int64_t tail_padding_alignment_in_elements = 1;  // L(n), printed if != 1
  ElementType index_primitive_type = ElementType::kInvalid;    // #(s32)
  ElementType pointer_primitive_type = ElementType::kInvalid;  // *(s32)
  int64_t element_size_in_bits = 0;        // E(n), printed if != 0
  int64_t memory_space = 0;                // S(n), printed if != 0
  std::vector<SplitConfig> split_configs;  // SC(...)
  // P(shape): the physical shape, for layouts that change the storage type.
  // Held by pointer because Shape contains Layout.
  std::shared_ptr<const Shape> physical_shape;
  int64_t dynamic_shape_metadata_prefix_bytes = 0;  // M(n)

  // True if nothing but minor_to_major is set.
  bool HasOnlyMinorToMajor() const;

  // Text as XLA prints it inside the braces, e.g. "1,0:T(8,128)S(1)".
  std::string ToString() const;

  bool operator==(const Layout& other) const;
  bool operator!=(const Layout& other) const { return !(*this == other); }

 private:
  std::vector<int64_t> minor_to_major_;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_LAYOUT_H_
