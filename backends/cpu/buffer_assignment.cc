#include "backends/cpu/buffer_assignment.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace kiln::cpu {
namespace {

constexpr int64_t kAlignment = 64;

int64_t RoundUp(int64_t bytes) {
  return (std::max<int64_t>(bytes, 1) + kAlignment - 1) / kAlignment *
         kAlignment;
}

// Free ranges of the arena by offset; adjacent ranges merge on release.
class FreeList {
 public:
  int64_t Allocate(int64_t size, int64_t* arena_end) {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < size) continue;
      const int64_t offset = it->first;
      const int64_t rest = it->second - size;
      free_.erase(it);
      if (rest > 0) free_[offset + size] = rest;
      return offset;
    }
    // Grow the arena; a free range at its end is reused first.
    if (!free_.empty()) {
      auto last = std::prev(free_.end());
      if (last->first + last->second == *arena_end) {
        const int64_t offset = last->first;
        free_.erase(last);
        *arena_end = offset + size;
        return offset;
      }
    }
    const int64_t offset = *arena_end;
    *arena_end += size;
    return offset;
  }

  void Release(int64_t offset, int64_t size) {
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + size == next->first) {
      size += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      auto previous = std::prev(next);
      if (previous->first + previous->second == offset) {
        previous->second += size;
        return;
      }
    }
    free_[offset] = size;
  }

 private:
  std::map<int64_t, int64_t> free_;
};

}  // namespace

BufferPlacement AssignBuffers(const std::vector<BufferInterval>& intervals) {
  BufferPlacement placement;
  placement.offsets.assign(intervals.size(), 0);
  int64_t steps = 0;
  for (const BufferInterval& interval : intervals) {
    steps = std::max({steps, interval.defined + 1, interval.last_use + 1});
    placement.unshared_bytes += RoundUp(interval.bytes);
  }
  std::vector<std::vector<size_t>> defined_at(steps), freed_after(steps);
  for (size_t i = 0; i < intervals.size(); ++i) {
    defined_at[intervals[i].defined].push_back(i);
    if (!intervals[i].live_out) {
      freed_after[std::max(intervals[i].defined, intervals[i].last_use)]
          .push_back(i);
    }
  }
  FreeList free_list;
  for (int64_t step = 0; step < steps; ++step) {
    for (size_t i : defined_at[step]) {
      placement.offsets[i] = free_list.Allocate(RoundUp(intervals[i].bytes),
                                                &placement.arena_bytes);
    }
    for (size_t i : freed_after[step]) {
      free_list.Release(placement.offsets[i], RoundUp(intervals[i].bytes));
    }
  }
  return placement;
}

}  // namespace kiln::cpu
