// The counter-based bit generators behind rng-bit-generator, expanded the
// way XLA expands them (its RngBitGeneratorExpander), so that Kiln's bits
// equal XLA's for the same state, shape and element type. The block
// functions are the published Threefry-2x32 (20 rounds) and Philox-4x32
// (10 rounds) of Salmon et al., SC 2011; docs/evaluator_random_collectives.md
// describes how XLA lays the blocks out over the result.
#ifndef KILN_COMPILER_EVALUATOR_RANDOM_BITS_H_
#define KILN_COMPILER_EVALUATOR_RANDOM_BITS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {
namespace eval {

// One Threefry-2x32-20 block: encrypts `counter` (two 32-bit words) under
// `key` (two words).
std::array<uint32_t, 2> ThreeFry2x32(std::array<uint32_t, 2> key,
                                     std::array<uint32_t, 2> counter);

// One Philox-4x32-10 block.
std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key,
                                   std::array<uint32_t, 4> counter);

enum class BitGenerator { kThreeFry, kPhilox };

// The generator an rng-bit-generator's `algorithm` names: rng_three_fry is
// ThreeFry; rng_philox and rng_default are Philox (as on XLA's CPU and GPU
// backends).
BitGenerator BitGeneratorNamed(absl::string_view algorithm);

// Whether an initial state of `words` u64 words fits `generator`
// (ThreeFry: 2; Philox: 2 or 3).
bool StateFits(BitGenerator generator, int64_t words);

// What one rng-bit-generator call produces: `bits[i]` is element i (row
// major) of the result, zero-extended; only its low `bit_width` bits are
// meaningful. `new_state` has the initial state's size.
struct GeneratedBits {
  std::vector<uint64_t> bits;
  std::vector<uint64_t> new_state;
};

// Runs `generator` from `state` (ThreeFry: u64[2] = key, counter; Philox:
// u64[2] = key, counter or u64[3] = key, counter low, counter high) for a
// result of dimensions `dims` whose element type is `bit_width` bits wide.
// Widths of 64 use 64-bit blocks; every narrower width takes the low bits of
// the 32-bit expansion, as XLA does for 8 and 16 bits. The caller checks the
// state's size.
GeneratedBits GenerateBits(BitGenerator generator,
                           absl::Span<const uint64_t> state,
                           absl::Span<const int64_t> dims, int bit_width);

}  // namespace eval
}  // namespace kiln

#endif  // KILN_COMPILER_EVALUATOR_RANDOM_BITS_H_
