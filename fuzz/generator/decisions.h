// Where the generator's choices come from. Every choice the generator makes
// (an op, a type, a dimension, an attribute) is one draw from a
// DecisionSource, so the same generator runs from a seed (SplitMix64Source:
// the same seed gives the same module on every machine, since nothing here
// depends on a standard library's distributions) or from bytes
// (ByteSource: libFuzzer's input, so coverage guidance steers it).
#ifndef KILN_FUZZ_GENERATOR_DECISIONS_H_
#define KILN_FUZZ_GENERATOR_DECISIONS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace kiln::fuzzgen {

class DecisionSource {
 public:
  virtual ~DecisionSource() = default;
  // 64 bits of the next decision.
  virtual uint64_t Next() = 0;

  // A value in [0, n); 0 when n <= 1.
  uint64_t Below(uint64_t n);
  // A value in [lo, hi] (hi >= lo).
  int64_t Range(int64_t lo, int64_t hi);
  // True with `percent` % odds.
  bool Chance(int percent);
  template <typename T>
  const T& Pick(absl::Span<const T> items) {
    return items[Below(items.size())];
  }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }
  // A random permutation of 0..n-1 (Fisher-Yates over Below).
  std::vector<int64_t> Permutation(int64_t n);
  // A random subset of 0..n-1 of size k, in increasing order.
  std::vector<int64_t> Subset(int64_t n, int64_t k);
};

// SplitMix64 (Steele, Lea, Flood 2014): fixed arithmetic, so the stream of
// a seed is the same everywhere.
class SplitMix64Source : public DecisionSource {
 public:
  explicit SplitMix64Source(uint64_t seed) : state_(seed) {}
  uint64_t Next() override;

 private:
  uint64_t state_;
};

// Decisions read from bytes, 8 per decision (little-endian); past the end
// every decision is 0, which the generator reads as "the simplest choice",
// so short inputs give small modules.
class ByteSource : public DecisionSource {
 public:
  explicit ByteSource(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t Next() override;
  bool exhausted() const { return position_ >= bytes_.size(); }

 private:
  absl::Span<const uint8_t> bytes_;
  size_t position_ = 0;
};

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_DECISIONS_H_
