// XlaBuilder's Padding shorthand for windowed ops (convolution,
// reduce-window, select-and-scatter): kSame pads so that the output has
// ceil(input / stride) elements per dimension; kValid does not pad.
#ifndef KILN_COMPILER_BUILDER_PADDING_H_
#define KILN_COMPILER_BUILDER_PADDING_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace kiln {

enum class Padding { kSame, kValid };

// The (low, high) padding that `padding` gives for inputs of
// `input_dimensions` and windows of `window_dimensions` moved by
// `window_strides` (all of one length; extra entries of the longer spans
// are ignored). For kSame the odd element of padding goes to the high end.
// Dimensions with a non-positive stride, a negative size or sizes whose
// arithmetic would overflow get no padding; the op's shape rule then
// reports what is wrong with them.
std::vector<std::pair<int64_t, int64_t>> MakePadding(
    absl::Span<const int64_t> input_dimensions,
    absl::Span<const int64_t> window_dimensions,
    absl::Span<const int64_t> window_strides, Padding padding);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_PADDING_H_
