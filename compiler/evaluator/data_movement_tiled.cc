#include "compiler/evaluator/data_movement_tiled.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/typed.h"

namespace kiln {
namespace eval {
namespace {

// An array shape in memory order, and one element's index in it.
struct PhysicalIndex {
  std::vector<int64_t> dims;
  std::vector<int64_t> index;
};

bool IsCombine(int64_t tile_size) {
  return tile_size == Tile::kCombineDimension || tile_size == -1;
}

// Applies one tile to `at` (see TiledPhysicalMap). `tile` has been checked.
PhysicalIndex ApplyTile(const PhysicalIndex& at, const Tile& tile) {
  const size_t length = tile.dimensions.size();
  const size_t prefix = at.dims.size() - length;
  PhysicalIndex out;
  out.dims.assign(at.dims.begin(), at.dims.begin() + prefix);
  out.index.assign(at.index.begin(), at.index.begin() + prefix);
  std::vector<int64_t> sizes, offsets;
  int64_t merged_dim = 1, merged_index = 0;
  for (size_t k = 0; k < length; ++k) {
    const int64_t dim = merged_dim * at.dims[prefix + k];
    const int64_t index =
        merged_index * at.dims[prefix + k] + at.index[prefix + k];
    if (IsCombine(tile.dimensions[k])) {
      merged_dim = dim;
      merged_index = index;
      continue;
    }
    merged_dim = 1;
    merged_index = 0;
    const int64_t t = tile.dimensions[k];
    out.dims.push_back((dim + t - 1) / t);
    out.index.push_back(index / t);
    sizes.push_back(t);
    offsets.push_back(index % t);
  }
  out.dims.insert(out.dims.end(), sizes.begin(), sizes.end());
  out.index.insert(out.index.end(), offsets.begin(), offsets.end());
  return out;
}

absl::Status CheckTiles(const Instruction& instruction, const Shape& shape) {
  const std::vector<Tile>& tiles = shape.layout().tiles;
  int64_t rank = shape.rank();
  for (const Tile& tile : tiles) {
    const std::vector<int64_t>& t = tile.dimensions;
    bool ok = !t.empty() && static_cast<int64_t>(t.size()) <= rank &&
              !IsCombine(t.back());
    int64_t kept = 0;
    for (int64_t size : t) {
      if (IsCombine(size)) continue;
      ok = ok && size > 0 && size <= (int64_t{1} << 31);
      ++kept;
    }
    if (!ok) {
      return KernelError(
          instruction,
          absl::StrCat("the tiled layout of ", shape.ToString(true),
                       " has a tile that is empty, longer than the shape it "
                       "tiles, ends in '*' or has a size outside [1, 2^31] "
                       "(tiled_layout.md)"));
    }
    // The tiled shape: its untouched prefix, then a count and a size per
    // kept tile dimension.
    rank = rank - static_cast<int64_t>(t.size()) + 2 * kept;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PhysicalMap> TiledPhysicalMap(const Instruction& instruction,
                                             const Shape& shape) {
  const int64_t rank = shape.rank();
  std::vector<int64_t> major_to_minor;
  std::vector<bool> seen(rank, false);
  if (shape.has_layout()) {
    const std::vector<int64_t>& m2m = shape.layout().minor_to_major();
    for (auto it = m2m.rbegin(); it != m2m.rend(); ++it) {
      if (*it < 0 || *it >= rank || seen[*it]) break;
      seen[*it] = true;
      major_to_minor.push_back(*it);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) major_to_minor.push_back(d);
  }
  if (static_cast<int64_t>(major_to_minor.size()) != rank) {
    return KernelError(instruction,
                       absl::StrCat("the layout of ", shape.ToString(true),
                                    " is not a permutation of its "
                                    "dimensions"));
  }
  if (shape.has_layout()) {
    if (absl::Status s = CheckTiles(instruction, shape); !s.ok()) return s;
  }
  PhysicalMap map;
  absl::StatusOr<int64_t> count = shape.ElementCount();
  if (!count.ok()) return KernelError(instruction, count.status().message());
  map.position.reserve(static_cast<size_t>(*count));
  bool first = true;
  bool overflow = false;
  ForEachIndex(shape.dimensions(), [&](absl::Span<const int64_t> logical) {
    PhysicalIndex at;
    for (int64_t d : major_to_minor) {
      at.dims.push_back(shape.dimension(d));
      at.index.push_back(logical[d]);
    }
    if (shape.has_layout()) {
      for (const Tile& tile : shape.layout().tiles) at = ApplyTile(at, tile);
    }
    int64_t position = 0, size = 1;
    for (size_t d = 0; d < at.dims.size(); ++d) {
      position = position * at.dims[d] + at.index[d];
      overflow = overflow || __builtin_mul_overflow(size, at.dims[d], &size);
    }
    map.position.push_back(position);
    if (first) map.size = size;
    first = false;
  });
  if (overflow) {
    return KernelError(
        instruction, absl::StrCat("the tiled layout of ", shape.ToString(true),
                                  " takes more memory than can be counted"));
  }
  return map;
}

}  // namespace eval
}  // namespace kiln
