#include "compiler/ops/reshape_dynamic.h"

namespace kiln {

std::vector<int64_t> ReshapePassThroughDimensions(const Shape& in,
                                                  const Shape& out) {
  std::vector<int64_t> through(out.rank(), -1);
  if (!in.IsArray() || !out.IsArray()) return through;
  // Elements before each operand dimension, at the bounds (a negative
  // size, unbounded, matches nothing).
  int64_t before_in = 1;
  int64_t i = 0;
  int64_t before_out = 1;
  for (int64_t d = 0; d < out.rank(); ++d) {
    while (i < in.rank() && before_in < before_out) {
      if (in.dimension(i) < 0) return through;
      before_in *= in.dimension(i);
      ++i;
    }
    // Static size-1 operand dimensions hold no elements before the next.
    while (i < in.rank() && before_in == before_out && in.dimension(i) == 1 &&
           !in.is_dynamic_dimension(i)) {
      ++i;
    }
    if (i < in.rank() && before_in == before_out &&
        out.is_dynamic_dimension(d) && in.is_dynamic_dimension(i) &&
        in.dimension(i) == out.dimension(d) && out.dimension(d) >= 0) {
      through[d] = i;
    }
    if (out.dimension(d) < 0) return through;
    before_out *= out.dimension(d);
    if (before_out == 0) return through;
  }
  return through;
}

bool ReshapeDynamicSizesDecided(const Shape& in, const Shape& out) {
  if (!in.IsArray() || !out.IsArray() || in.is_static()) return true;
  const std::vector<int64_t> through = ReshapePassThroughDimensions(in, out);
  int64_t undecided = 0;
  for (int64_t d = 0; d < out.rank(); ++d) {
    if (out.is_dynamic_dimension(d) && through[d] < 0) ++undecided;
  }
  return undecided <= 1;
}

}  // namespace kiln
