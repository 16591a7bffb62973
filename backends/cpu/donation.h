// Donation: which of a module's input_output_alias pairs let the CPU
// backend write an output straight into a donated argument's buffer.
//
// XLA's input_output_alias (module header) says output {i} may reuse
// parameter p's buffer when the caller donates it (ExecuteOptions::
// donated). The entry program writes each output leaf in place in the
// result (BufferSlot::kResult), so sharing the buffer is safe when nothing
// reads the parameter after the output's first write:
//   - every thunk reading the parameter's slot runs before the thunk that
//     first writes the output, or is that thunk and is a flat elementwise
//     kernel (it reads each element before writing it: an optimizer's
//     `w = w - lr * g`);
//   - no output is a copy of the parameter (copies into the result happen
//     after the last thunk).
// Otherwise the donated buffer is only released and the output gets a
// buffer of its own: the values are the same, and `kiln compile
// --emit=stats` says which aliases are shared and why the others are not
// (a must-alias included: Kiln never fails a run for it).
#ifndef KILN_BACKENDS_CPU_DONATION_H_
#define KILN_BACKENDS_CPU_DONATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "backends/cpu/thunks.h"
#include "compiler/ir/module.h"

namespace kiln::cpu {

// Output leaf `output_index` may be written in parameter `parameter`'s
// (array) buffer.
struct DonationAlias {
  std::vector<int64_t> output_index;
  int64_t parameter = 0;
};

// When a slot of the entry program is first written and last read (thunk
// indices; -1: never read).
struct SlotSteps {
  int64_t defined = 0;
  int64_t last_use = -1;
};

struct Donation {
  std::vector<DonationAlias> aliases;
  std::vector<std::string> report;  // One line per input_output_alias.
};

// The aliases of `module`'s input_output_alias that `entry` can honour
// (see above). `steps` has one entry per slot of `entry`; `flat_kernels`
// holds the indices of its flat elementwise kernel thunks. An alias of a
// tuple parameter's element, or of an output that is not written in place,
// is not honoured.
Donation DonatableAliases(const Module& module, const Program& entry,
                          const std::vector<SlotSteps>& steps,
                          const absl::flat_hash_set<int64_t>& flat_kernels);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_DONATION_H_
