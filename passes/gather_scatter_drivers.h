// The module walks shared by gather/scatter simplification and the
// gather/scatter expanders: each visits every instruction of one opcode in
// the computations that are not fused computations.
#ifndef KILN_PASSES_GATHER_SCATTER_DRIVERS_H_
#define KILN_PASSES_GATHER_SCATTER_DRIVERS_H_

#include <functional>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace gather_scatter {

// Calls `rewrite` on every `opcode` instruction present when the walk
// reaches its computation. Changed if any call changed.
absl::StatusOr<bool> RewriteEach(
    Module& module, Opcode opcode,
    const std::function<absl::StatusOr<bool>(Instruction*)>& rewrite);

// As RewriteEach, with a worklist: `simplify` may set `*canonical` to an
// instruction it made (the canonical form), which is then simplified in
// turn.
absl::StatusOr<bool> SimplifyEach(
    Module& module, Opcode opcode,
    const std::function<
        absl::StatusOr<bool>(Instruction*, Instruction** canonical)>& simplify);

}  // namespace gather_scatter
}  // namespace kiln

#endif  // KILN_PASSES_GATHER_SCATTER_DRIVERS_H_
