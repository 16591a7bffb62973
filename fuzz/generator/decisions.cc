#include "fuzz/generator/decisions.h"

#include <algorithm>
#include <numeric>

namespace kiln::fuzzgen {

uint64_t DecisionSource::Below(uint64_t n) {
  if (n <= 1) {
    Next();  // Every choice draws once, so later choices do not shift.
    return 0;
  }
  return Next() % n;
}

int64_t DecisionSource::Range(int64_t lo, int64_t hi) {
  if (hi <= lo) {
    Next();
    return lo;
  }
  return lo + static_cast<int64_t>(Below(static_cast<uint64_t>(hi - lo) + 1));
}

bool DecisionSource::Chance(int percent) {
  return static_cast<int>(Below(100)) < percent;
}

std::vector<int64_t> DecisionSource::Permutation(int64_t n) {
  std::vector<int64_t> result(n);
  std::iota(result.begin(), result.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) {
    std::swap(result[i], result[Below(i + 1)]);
  }
  return result;
}

std::vector<int64_t> DecisionSource::Subset(int64_t n, int64_t k) {
  std::vector<int64_t> order = Permutation(n);
  order.resize(std::min(n, std::max<int64_t>(k, 0)));
  std::sort(order.begin(), order.end());
  return order;
}

uint64_t SplitMix64Source::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t ByteSource::Next() {
  uint64_t value = 0;
  for (int i = 0; i < 8 && position_ < bytes_.size(); ++i, ++position_) {
    value |= static_cast<uint64_t>(bytes_[position_]) << (8 * i);
  }
  return value;
}

}  // namespace kiln::fuzzgen
