// Buffer assignment: places the values a thunk sequence produces in one
// arena per execution, reusing the bytes of values whose last reader has
// run (liveness over the sequence, first fit, 64-byte aligned).
#ifndef KILN_BACKENDS_CPU_BUFFER_ASSIGNMENT_H_
#define KILN_BACKENDS_CPU_BUFFER_ASSIGNMENT_H_

#include <cstdint>
#include <vector>

namespace kiln::cpu {

// One value to place: defined by step `defined`, read last by step
// `last_use` (a value never read is freed right after it is defined), or
// live to the end of the execution (outputs).
struct BufferInterval {
  int64_t bytes = 0;
  int64_t defined = 0;
  int64_t last_use = -1;
  bool live_out = false;
};

struct BufferPlacement {
  std::vector<int64_t> offsets;  // One per interval.
  int64_t arena_bytes = 0;
  // Sum of every interval's bytes: what the arena would take without reuse.
  int64_t unshared_bytes = 0;
};

BufferPlacement AssignBuffers(const std::vector<BufferInterval>& intervals);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_BUFFER_ASSIGNMENT_H_
