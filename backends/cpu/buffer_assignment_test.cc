#include "backends/cpu/buffer_assignment.h"

#include "gtest/gtest.h"

namespace kiln::cpu {
namespace {

bool Overlap(int64_t a, int64_t a_bytes, int64_t b, int64_t b_bytes) {
  return a < b + b_bytes && b < a + a_bytes;
}

TEST(BufferAssignmentTest, DeadValuesLendTheirBytes) {
  // 0 -> 1 -> 2: each value dies when the next is computed from it.
  BufferPlacement placement = AssignBuffers(
      {{1000, 0, 1, false}, {1000, 1, 2, false}, {1000, 2, -1, true}});
  EXPECT_EQ(placement.unshared_bytes, 3 * 1024);
  EXPECT_EQ(placement.arena_bytes, 2 * 1024);
  EXPECT_EQ(placement.offsets[0], placement.offsets[2]);
}

TEST(BufferAssignmentTest, LiveValuesNeverOverlap) {
  std::vector<BufferInterval> intervals;
  for (int64_t i = 0; i < 40; ++i) {
    intervals.push_back({(i * 37) % 300 + 1, i, i + (i * 7) % 9, i % 5 == 0});
  }
  BufferPlacement placement = AssignBuffers(intervals);
  for (size_t a = 0; a < intervals.size(); ++a) {
    for (size_t b = a + 1; b < intervals.size(); ++b) {
      auto end = [&](size_t i) {
        return intervals[i].live_out
                   ? 1000
                   : std::max(intervals[i].defined, intervals[i].last_use);
      };
      const bool both_live =
          intervals[a].defined <= end(b) && intervals[b].defined <= end(a);
      if (!both_live) continue;
      EXPECT_FALSE(Overlap(placement.offsets[a], intervals[a].bytes,
                           placement.offsets[b], intervals[b].bytes))
          << a << " and " << b;
      EXPECT_LE(placement.offsets[a] + intervals[a].bytes,
                placement.arena_bytes);
    }
  }
}

}  // namespace
}  // namespace kiln::cpu
