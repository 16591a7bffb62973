// Small helpers on integer lists (dimension numbers, permutations, sizes),
// once for the whole tree instead of a copy in each file that needs one.
// In namespace kiln::util so that they never clash with a file's own
// helpers of the same name.
#ifndef KILN_COMPILER_UTIL_INT_LISTS_H_
#define KILN_COMPILER_UTIL_INT_LISTS_H_

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "absl/types/span.h"

namespace kiln {
namespace util {

// The product of `values`; 1 for none. Not overflow-checked: for sizes
// whose product is known to fit (a verified shape's dimensions).
int64_t Product(absl::Span<const int64_t> values);

// Whether `list` (any container or span) holds `value`. Linear.
template <typename List, typename T>
bool Contains(const List& list, const T& value) {
  return std::find(std::begin(list), std::end(list), value) != std::end(list);
}

// Whether `values` holds each of 0..size-1 exactly once.
bool IsPermutation(absl::Span<const int64_t> values, int64_t size);
// Same, with size = values.size().
bool IsPermutation(absl::Span<const int64_t> values);

// Whether values[i] == i for every i (true for an empty list).
bool IsIdentityPermutation(absl::Span<const int64_t> values);

// begin, begin+1, ..., end-1 (empty when end <= begin).
std::vector<int64_t> Range(int64_t begin, int64_t end);

// The dimensions 0..rank-1 named in neither `a` nor `b`, in order.
std::vector<int64_t> DimsNotIn(int64_t rank, absl::Span<const int64_t> a,
                               absl::Span<const int64_t> b = {});

}  // namespace util
}  // namespace kiln

#endif  // KILN_COMPILER_UTIL_INT_LISTS_H_
