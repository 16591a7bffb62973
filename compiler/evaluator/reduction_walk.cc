#include "compiler/evaluator/reduction_walk.h"

namespace kiln {
namespace eval {

ReduceWalk PlanReduceWalk(absl::Span<const int64_t> dims,
                          const std::vector<bool>& reduced) {
  ReduceWalk walk;
  const int64_t rank = static_cast<int64_t>(dims.size());
  // Walk from the innermost dimension out, tracking both strides.
  std::vector<int64_t> sizes, in_strides, out_strides;
  std::vector<bool> kinds;
  int64_t in_stride = 1;
  int64_t out_stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    const int64_t size = dims[d];
    if (size == 0) walk.empty = true;
    if (size == 1) continue;
    const bool is_reduced = reduced[d];
    const int64_t this_out = is_reduced ? 0 : out_stride;
    if (!sizes.empty() && kinds.back() == is_reduced) {
      // Row-major: the outer dimension's strides are the inner ones times
      // the inner size, so the two merge into one of the product size.
      sizes.back() *= size;
    } else {
      sizes.push_back(size);
      in_strides.push_back(in_stride);
      out_strides.push_back(this_out);
      kinds.push_back(is_reduced);
    }
    in_stride *= size;
    if (!is_reduced) out_stride *= size;
  }
  if (sizes.empty()) {  // A scalar or all sizes 1: one element.
    sizes.push_back(1);
    in_strides.push_back(1);
    out_strides.push_back(0);
  }
  walk.sizes.assign(sizes.rbegin(), sizes.rend());
  walk.in_strides.assign(in_strides.rbegin(), in_strides.rend());
  walk.out_strides.assign(out_strides.rbegin(), out_strides.rend());
  return walk;
}

}  // namespace eval
}  // namespace kiln
