// The block functions of rng-bit-generator's counter-based generators and
// the way XLA lays their blocks out over a result (its
// RngBitGeneratorExpander). One definition for both users: the evaluator
// (random_bits.cc) and the CPU backend's generated kernels, which paste
// this header into their source (backends/cpu/embed.sh); so it includes
// only the standard library. The block functions are the published
// Threefry-2x32 (20 rounds) and Philox-4x32 (10 rounds) of Salmon et al.,
// SC 2011.
#ifndef KILN_COMPILER_EVALUATOR_BIT_GENERATOR_BLOCKS_H_
#define KILN_COMPILER_EVALUATOR_BIT_GENERATOR_BLOCKS_H_

#include <cstdint>

namespace kiln::eval::bits {

inline uint32_t Low32(uint64_t x) { return static_cast<uint32_t>(x); }
inline uint32_t High32(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
inline uint64_t Join32(uint32_t low, uint32_t high) {
  return static_cast<uint64_t>(low) | (static_cast<uint64_t>(high) << 32);
}
inline uint32_t RotateLeft32(uint32_t x, int bits) {
  return (x << bits) | (x >> (32 - bits));
}

// One Threefry-2x32-20 block: encrypts the counter (c0, c1) under the key
// (k0, k1) into out[0..1].
inline void ThreeFryBlock(uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1,
                          uint32_t out[2]) {
  constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t schedule[3] = {k0, k1, k0 ^ k1 ^ 0x1BD11BDAu};
  uint32_t x0 = c0 + schedule[0];
  uint32_t x1 = c1 + schedule[1];
  // Five groups of four rounds, a key injection after each.
  for (int group = 0; group < 5; ++group) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = RotateLeft32(x1, kRotations[(group % 2) * 4 + r]);
      x1 ^= x0;
    }
    x0 += schedule[(group + 1) % 3];
    x1 += schedule[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  out[0] = x0;
  out[1] = x1;
}

// One Philox-4x32-10 block: encrypts counter[0..3] under (k0, k1) into
// out[0..3].
inline void PhiloxBlock(uint32_t k0, uint32_t k1, const uint32_t counter[4],
                        uint32_t out[4]) {
  constexpr uint64_t kMultiplier0 = 0xD2511F53u;
  constexpr uint64_t kMultiplier1 = 0xCD9E8D57u;
  uint32_t x0 = counter[0], x1 = counter[1], x2 = counter[2], x3 = counter[3];
  for (int round = 0; round < 10; ++round) {
    const uint64_t product0 = kMultiplier0 * x0;
    const uint64_t product1 = kMultiplier1 * x2;
    const uint32_t y0 = High32(product1) ^ x1 ^ k0;
    const uint32_t y2 = High32(product0) ^ x3 ^ k1;
    x1 = Low32(product1);
    x3 = Low32(product0);
    x0 = y0;
    x2 = y2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}

// The expansions. Each calls store(e, bits) for every element e (row
// major) of the result with its bits (zero-extended; the caller keeps the
// element type's low bits) and returns the new counter.

// 32-bit ThreeFry over a result whose first dimension of size > 1 has
// `size` elements, with `outer` elements before it and `inner` after it:
// XLA splits it into ceil(size/2) halves, and block c of that "half
// shape" fills the two neighbours 2j and 2j+1 with its two words (a
// trailing odd element is dropped). Without such a dimension (`size` 0:
// one or zero elements, `outer` of them) block 0's first word is the
// element. One block per element of the half shape. SplitForThreeFry32
// finds the three counts.
struct ThreeFry32Split {
  int64_t outer = 1, size = 0, inner = 1;
};
inline ThreeFry32Split SplitForThreeFry32(const int64_t* dims, int64_t rank) {
  int64_t split = 0;
  while (split < rank && dims[split] <= 1) ++split;
  ThreeFry32Split result;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < split || split == rank) result.outer *= dims[d];
    if (d > split && split < rank) result.inner *= dims[d];
  }
  if (split < rank) result.size = dims[split];
  return result;
}

template <typename Store>
uint64_t ThreeFry32Expand(uint32_t k0, uint32_t k1, uint64_t counter,
                          int64_t outer, int64_t size, int64_t inner,
                          Store&& store) {
  uint32_t words[2];
  if (size == 0) {
    if (outer == 1) {
      ThreeFryBlock(k0, k1, Low32(counter), High32(counter), words);
      store(0, words[0]);
    }
    return counter + static_cast<uint64_t>(outer);
  }
  const int64_t half = (size + 1) / 2;
  uint64_t c = counter;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < half; ++j) {
      for (int64_t i = 0; i < inner; ++i, ++c) {
        ThreeFryBlock(k0, k1, Low32(c), High32(c), words);
        store((o * size + 2 * j) * inner + i, words[0]);
        if (2 * j + 1 < size)
          store((o * size + 2 * j + 1) * inner + i, words[1]);
      }
    }
  }
  return counter + static_cast<uint64_t>(outer * half * inner);
}

// 64-bit ThreeFry: element e is the block of counter + e, low word first.
template <typename Store>
uint64_t ThreeFry64Expand(uint32_t k0, uint32_t k1, uint64_t counter, int64_t n,
                          Store&& store) {
  uint32_t words[2];
  for (int64_t e = 0; e < n; ++e) {
    const uint64_t c = counter + static_cast<uint64_t>(e);
    ThreeFryBlock(k0, k1, Low32(c), High32(c), words);
    store(e, Join32(words[0], words[1]));
  }
  return counter + static_cast<uint64_t>(n);
}

// Philox: block b encrypts the 128-bit counter (low, high) + b (the carry
// out of the low word goes into the high word); its four words are
// elements 4b..4b+3 (32 bits and narrower) or its two word pairs elements
// 2b, 2b+1 (`wide`: 64 bits). Returns the new low word; *high gets the new
// high word.
template <typename Store>
uint64_t PhiloxExpand(uint32_t k0, uint32_t k1, uint64_t low, uint64_t* high,
                      int64_t n, bool wide, Store&& store) {
  const int64_t per_block = wide ? 2 : 4;
  const int64_t blocks = (n + per_block - 1) / per_block;
  uint32_t counter[4];
  uint32_t words[4];
  for (int64_t b = 0; b < blocks; ++b) {
    const uint64_t c_low = low + static_cast<uint64_t>(b);
    const uint64_t c_high = *high + (c_low < low ? 1 : 0);
    counter[0] = Low32(c_low);
    counter[1] = High32(c_low);
    counter[2] = Low32(c_high);
    counter[3] = High32(c_high);
    PhiloxBlock(k0, k1, counter, words);
    for (int64_t k = 0; k < per_block && b * per_block + k < n; ++k) {
      store(b * per_block + k,
            wide ? Join32(words[2 * k], words[2 * k + 1]) : words[k]);
    }
  }
  const uint64_t new_low = low + static_cast<uint64_t>(blocks);
  *high += new_low < low ? 1 : 0;
  return new_low;
}

}  // namespace kiln::eval::bits

#endif  // KILN_COMPILER_EVALUATOR_BIT_GENERATOR_BLOCKS_H_
