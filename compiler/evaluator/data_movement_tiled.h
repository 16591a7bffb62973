// Physical (memory) order of an array under a tiled layout
// (/work/shared/spec/tiled_layout.md), for bitcast.
#ifndef KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_TILED_H_
#define KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_TILED_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/shape.h"

namespace kiln {
namespace eval {

// Where each logical element of an array lies in memory.
struct PhysicalMap {
  // position[i]: the memory slot (in elements) of logical element i
  // (row-major over the dimensions).
  std::vector<int64_t> position;
  // Memory slots in all, padding of partial tiles included.
  int64_t size = 0;
};

// The map of `shape` (an array with a layout) through its minor_to_major
// and its tiles, applied in order: each tile splits the most minor
// dimensions of the shape so far into (tile count, tile size) pairs, the
// counts before the sizes, partial tiles padded; a '*' entry first merges
// its dimension into the next more minor one. An invalid layout or tile is
// an error naming `instruction`.
absl::StatusOr<PhysicalMap> TiledPhysicalMap(const Instruction& instruction,
                                             const Shape& shape);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_DATA_MOVEMENT_TILED_H_
