#include "compiler/util/int_lists.h"

namespace kiln {
namespace util {

int64_t Product(absl::Span<const int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

bool IsPermutation(absl::Span<const int64_t> values, int64_t size) {
  if (static_cast<int64_t>(values.size()) != size) return false;
  std::vector<bool> seen(values.size(), false);
  for (int64_t v : values) {
    if (v < 0 || v >= size || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

bool IsPermutation(absl::Span<const int64_t> values) {
  return IsPermutation(values, static_cast<int64_t>(values.size()));
}

bool IsIdentityPermutation(absl::Span<const int64_t> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

std::vector<int64_t> Range(int64_t begin, int64_t end) {
  std::vector<int64_t> result;
  if (end > begin) result.reserve(end - begin);
  for (int64_t i = begin; i < end; ++i) result.push_back(i);
  return result;
}

std::vector<int64_t> DimsNotIn(int64_t rank, absl::Span<const int64_t> a,
                               absl::Span<const int64_t> b) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(a, d) && !Contains(b, d)) dims.push_back(d);
  }
  return dims;
}

}  // namespace util
}  // namespace kiln
