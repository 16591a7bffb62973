// The module fuzzer's properties on fixed inputs: empty (every decision
// 0), short, and 300 pseudo-random byte strings of up to 256 bytes.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_target.h"
#include "fuzz/generator/decisions.h"
#include "gtest/gtest.h"

namespace kiln::fuzzgen {
namespace {

TEST(ModuleFuzzerTest, FixedInputsHoldTheProperties) {
  EXPECT_EQ(LLVMFuzzerTestOneInput(nullptr, 0), 0);
  const uint8_t one[] = {7};
  EXPECT_EQ(LLVMFuzzerTestOneInput(one, sizeof(one)), 0);
  SplitMix64Source source(99);
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> bytes(source.Below(257));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(source.Next());
    EXPECT_EQ(LLVMFuzzerTestOneInput(bytes.data(), bytes.size()), 0);
  }
}

}  // namespace
}  // namespace kiln::fuzzgen
