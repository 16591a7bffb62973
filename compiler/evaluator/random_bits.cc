#include "compiler/evaluator/random_bits.h"

#include <cstddef>

#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
namespace {

uint32_t Low32(uint64_t x) { return static_cast<uint32_t>(x); }
uint32_t High32(uint64_t x) { return static_cast<uint32_t>(x >> 32); }
uint64_t Join(uint32_t low, uint32_t high) {
  return static_cast<uint64_t>(low) | (static_cast<uint64_t>(high) << 32);
}
uint32_t RotateLeft(uint32_t x, int bits) {
  return (x << bits) | (x >> (32 - bits));
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The 32-bit ThreeFry expansion. XLA splits the first dimension of size > 1
// (size d) into ceil(d/2) halves: block c of the "half shape" (d replaced by
// ceil(d/2)) fills the two neighbours 2j and 2j+1 of that dimension with its
// two words; a trailing odd element is dropped. With no such dimension (one
// or zero elements) block 0's first word is the element. One block per
// element of the half shape; the counter advances by that many.
void ThreeFry32(std::array<uint32_t, 2> key, uint64_t counter,
                absl::Span<const int64_t> dims, GeneratedBits& out) {
  size_t split = 0;
  while (split < dims.size() && dims[split] <= 1) ++split;
  if (split == dims.size()) {
    const int64_t n = util::Product(dims);
    if (n == 1) {
      out.bits[0] = ThreeFry2x32(key, {Low32(counter), High32(counter)})[0];
    }
    out.new_state[1] = counter + static_cast<uint64_t>(n);
    return;
  }
  const int64_t size = dims[split];
  const int64_t half = CeilDiv(size, 2);
  const int64_t outer = util::Product(dims.subspan(0, split));
  const int64_t inner = util::Product(dims.subspan(split + 1));
  uint64_t c = counter;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < half; ++j) {
      for (int64_t i = 0; i < inner; ++i, ++c) {
        const std::array<uint32_t, 2> words =
            ThreeFry2x32(key, {Low32(c), High32(c)});
        for (int64_t w = 0; w < 2 && 2 * j + w < size; ++w) {
          out.bits[(o * size + 2 * j + w) * inner + i] = words[w];
        }
      }
    }
  }
  out.new_state[1] = counter + static_cast<uint64_t>(outer * half * inner);
}

// 64-bit ThreeFry: element i is the block of counter + i, low word first.
void ThreeFry64(std::array<uint32_t, 2> key, uint64_t counter, int64_t n,
                GeneratedBits& out) {
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t c = counter + static_cast<uint64_t>(i);
    const std::array<uint32_t, 2> words =
        ThreeFry2x32(key, {Low32(c), High32(c)});
    out.bits[i] = Join(words[0], words[1]);
  }
  out.new_state[1] = counter + static_cast<uint64_t>(n);
}

// Philox: block i encrypts the 128-bit counter (low, high) + i (the carry
// out of the low word goes into the high word); its four
// words are elements 4i..4i+3 (32 bits and narrower) or its two word pairs
// elements 2i, 2i+1 (64 bits). The counter advances by the blocks used.
void Philox(std::array<uint32_t, 2> key, uint64_t low, uint64_t high, int64_t n,
            bool wide, GeneratedBits& out) {
  const int64_t per_block = wide ? 2 : 4;
  const int64_t blocks = CeilDiv(n, per_block);
  for (int64_t b = 0; b < blocks; ++b) {
    const uint64_t c_low = low + static_cast<uint64_t>(b);
    const uint64_t c_high = high + (c_low < low ? 1 : 0);
    const std::array<uint32_t, 4> words = Philox4x32(
        key, {Low32(c_low), High32(c_low), Low32(c_high), High32(c_high)});
    for (int64_t k = 0; k < per_block && b * per_block + k < n; ++k) {
      out.bits[b * per_block + k] =
          wide ? Join(words[2 * k], words[2 * k + 1]) : words[k];
    }
  }
  const uint64_t new_low = low + static_cast<uint64_t>(blocks);
  out.new_state[1] = new_low;
  if (out.new_state.size() > 2) {
    out.new_state[2] = high + (new_low < low ? 1 : 0);
  }
}

}  // namespace

std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key,
                                     std::array<uint32_t, 2> counter) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t schedule[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDA};
  uint32_t x0 = counter[0] + schedule[0];
  uint32_t x1 = counter[1] + schedule[1];
  // Five groups of four rounds, a key injection after each.
  for (int group = 0; group < 5; ++group) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = RotateLeft(x1, kRotations[(group % 2) * 4 + r]);
      x1 ^= x0;
    }
    x0 += schedule[(group + 1) % 3];
    x1 += schedule[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return {x0, x1};
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key,
                                   std::array<uint32_t, 4> counter) {
  constexpr uint64_t kMultiplier0 = 0xD2511F53;
  constexpr uint64_t kMultiplier1 = 0xCD9E8D57;
  constexpr uint32_t kBump0 = 0x9E3779B9;
  constexpr uint32_t kBump1 = 0xBB67AE85;
  std::array<uint32_t, 4> x = counter;
  for (int round = 0; round < 10; ++round) {
    const uint64_t product0 = kMultiplier0 * x[0];
    const uint64_t product1 = kMultiplier1 * x[2];
    x = {High32(product1) ^ x[1] ^ key[0], Low32(product1),
         High32(product0) ^ x[3] ^ key[1], Low32(product0)};
    key[0] += kBump0;
    key[1] += kBump1;
  }
  return x;
}

GeneratedBits GenerateBits(BitGenerator generator,
                           absl::Span<const uint64_t> state,
                           absl::Span<const int64_t> dims, int bit_width) {
  GeneratedBits out;
  const int64_t n = util::Product(dims);
  out.bits.assign(static_cast<size_t>(n), 0);
  out.new_state.assign(state.begin(), state.end());
  const std::array<uint32_t, 2> key = {Low32(state[0]), High32(state[0])};
  const bool wide = bit_width > 32;
  if (generator == BitGenerator::kThreeFry) {
    if (wide) {
      ThreeFry64(key, state[1], n, out);
    } else {
      ThreeFry32(key, state[1], dims, out);
    }
  } else {
    // XLA reads the 128-bit counter from state[1..2]; a u64[2] state has no
    // state[2], and XLA's expansion then takes the key word state[0] as
    // the counter's high half (measured: tools/gen/random_rng_golden.py).
    const uint64_t high = state.size() > 2 ? state[2] : state[0];
    Philox(key, state[1], high, n, wide, out);
  }
  if (bit_width < 64) {
    const uint64_t mask = (uint64_t{1} << bit_width) - 1;
    for (uint64_t& b : out.bits) b &= mask;
  }
  return out;
}

BitGenerator BitGeneratorNamed(absl::string_view algorithm) {
  return algorithm == "rng_three_fry" ? BitGenerator::kThreeFry
                                      : BitGenerator::kPhilox;
}

bool StateFits(BitGenerator generator, int64_t words) {
  return generator == BitGenerator::kThreeFry ? words == 2
                                              : (words == 2 || words == 3);
}

}  // namespace eval
}  // namespace kiln
