#include "compiler/builder/padding.h"

#include <algorithm>

namespace kiln {
namespace {

// The total kSame padding of one dimension, or 0 when the sizes are
// invalid or the arithmetic would overflow.
int64_t SamePadding(int64_t input, int64_t window, int64_t stride) {
  if (stride < 1 || input < 0 || window < 0) return 0;
  int64_t rounded_up;
  if (__builtin_add_overflow(input, stride - 1, &rounded_up)) return 0;
  const int64_t outputs = rounded_up / stride;
  int64_t covered;
  if (outputs == 0 || __builtin_mul_overflow(outputs - 1, stride, &covered) ||
      __builtin_add_overflow(covered, window, &covered)) {
    return 0;
  }
  return std::max<int64_t>(0, covered - input);
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> MakePadding(
    absl::Span<const int64_t> input_dimensions,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides, Padding padding) {
  const size_t count =
      std::min({input_dimensions.size(), window_dimensions.size(),
                window_strides.size()});
  std::vector<std::pair<int64_t, int64_t>> result(count, {0, 0});
  if (padding == Padding::kValid) return result;
  for (size_t i = 0; i < count; ++i) {
    const int64_t needed = SamePadding(input_dimensions[i],
                                       window_dimensions[i], window_strides[i]);
    result[i] = {needed / 2, needed - needed / 2};
  }
  return result;
}

}  // namespace kiln
