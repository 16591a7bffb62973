#include "compiler/evaluator/random_bits.h"

#include <cstddef>

#include "compiler/evaluator/bit_generator_blocks.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key,
                                     std::array<uint32_t, 2> counter) {
  std::array<uint32_t, 2> out;
  bits::ThreeFryBlock(key[0], key[1], counter[0], counter[1], out.data());
  return out;
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key,
                                   std::array<uint32_t, 4> counter) {
  std::array<uint32_t, 4> out;
  bits::PhiloxBlock(key[0], key[1], counter.data(), out.data());
  return out;
}

GeneratedBits GenerateBits(BitGenerator generator,
                           absl::Span<const uint64_t> state,
                           absl::Span<const int64_t> dims, int bit_width) {
  GeneratedBits out;
  const int64_t n = util::Product(dims);
  out.bits.assign(static_cast<size_t>(n), 0);
  out.new_state.assign(state.begin(), state.end());
  const uint32_t k0 = bits::Low32(state[0]), k1 = bits::High32(state[0]);
  const bool wide = bit_width > 32;
  auto store = [&](int64_t e, uint64_t b) { out.bits[e] = b; };
  if (generator == BitGenerator::kThreeFry) {
    if (wide) {
      out.new_state[1] = bits::ThreeFry64Expand(k0, k1, state[1], n, store);
    } else {
      const bits::ThreeFry32Split split = bits::SplitForThreeFry32(
          dims.data(), static_cast<int64_t>(dims.size()));
      out.new_state[1] = bits::ThreeFry32Expand(k0, k1, state[1], split.outer,
                                                split.size, split.inner, store);
    }
  } else {
    // XLA reads the 128-bit counter from state[1..2]; a u64[2] state has no
    // state[2], and XLA's expansion then takes the key word state[0] as
    // the counter's high half (measured: tools/gen/random_rng_golden.py).
    uint64_t high = state.size() > 2 ? state[2] : state[0];
    out.new_state[1] =
        bits::PhiloxExpand(k0, k1, state[1], &high, n, wide, store);
    if (out.new_state.size() > 2) out.new_state[2] = high;
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
