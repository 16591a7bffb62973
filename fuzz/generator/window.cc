#include "fuzz/generator/window.h"

#include <algorithm>

namespace kiln::fuzzgen {

Window RandomWindow(Context& c, const std::vector<int64_t>& input,
                    bool dilations) {
  Window w;
  for (int64_t size : input) {
    const int64_t window = c.d().Range(1, 3);
    const int64_t stride = c.d().Range(1, 2);
    const int64_t base_dilation = dilations ? c.d().Range(1, 2) : 1;
    const int64_t window_dilation = dilations ? c.d().Range(1, 2) : 1;
    int64_t lo = c.d().Range(0, 1);
    int64_t hi = c.d().Range(0, 1);
    const int64_t base = size == 0 ? 0 : (size - 1) * base_dilation + 1;
    const int64_t dilated_window = (window - 1) * window_dilation + 1;
    if (base + lo + hi < dilated_window) hi = dilated_window - base - lo;
    w.dimensions.push_back(window);
    w.strides.push_back(stride);
    w.base_dilations.push_back(base_dilation);
    w.window_dilations.push_back(window_dilation);
    w.padding.push_back({lo, hi});
    w.output.push_back((base + lo + hi - dilated_window) / stride + 1);
  }
  return w;
}

}  // namespace kiln::fuzzgen
