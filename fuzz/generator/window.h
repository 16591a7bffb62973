// Random windows for reduce-window, select-and-scatter and convolution:
// sizes, strides, padding and dilations within the rules, and the output
// dimensions they give.
#ifndef KILN_FUZZ_GENERATOR_WINDOW_H_
#define KILN_FUZZ_GENERATOR_WINDOW_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "fuzz/generator/context.h"

namespace kiln::fuzzgen {

struct Window {
  std::vector<int64_t> dimensions, strides, base_dilations, window_dilations;
  std::vector<std::pair<int64_t, int64_t>> padding;
  std::vector<int64_t> output;
};

// A window over `input` dimensions; without `dilations` both dilations
// are 1. Padding is never negative and the padded, dilated base is at
// least as large as the dilated window.
Window RandomWindow(Context& c, const std::vector<int64_t>& input,
                    bool dilations);

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_WINDOW_H_
