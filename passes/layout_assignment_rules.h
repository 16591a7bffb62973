// Internal to layout-assignment: how each instruction takes part (its
// rule), decided once per instruction from its opcode and shapes, plus the
// attribute readers the rules need (checked by RuleOf, so that the sweeps
// can read them without further checks).
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_RULES_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_RULES_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace layout_internal {

enum class Rule {
  kParameter,    // Takes the layout its caller (or the entry layout) gives.
  kFixed,        // Kept as it is; operands copied back to their old layouts.
  kElementwise,  // Result and same-dimension operands share one layout.
  kCopy,         // Changes layouts: takes the preference, else its operand's.
  kFollow,       // slice, pad, ...: the first same-rank operand's layout.
  kSource,       // constant, iota, broadcast, rng: free until a user asks.
  kTranspose,    // Absorbs the permutation into its layout.
  kReshape,      // Takes the layout that makes it a bitcast, if any.
  kReduce,       // Keeps the order of the operand's kept dimensions.
  kTuple,
  kGetTupleElement,
  kPassThrough,  // opt-barrier, domain, add-dependency: operand 0's layout.
  kCall,         // call (to_apply) and fusion (calls): through the callee.
  kFusion,
  kWhile,
  kConditional,
  kGeneric,  // Anything else: the preference, else the default layout.
};

// Whether an instruction's shape has plain layouts only
// (layout_util::HasOnlyPlainLayouts), memoized by the caller: a wide tuple
// read by many get-tuple-elements must not be walked once per reader.
using PlainLayouts = std::function<bool(const Instruction*)>;

// The rule of `instruction`, or an error naming an attribute the rule
// needs that is missing or out of range (an invalid module).
absl::StatusOr<Rule> RuleOf(const Instruction& instruction,
                            const PlainLayouts& plain);

// transpose's `dimensions` (valid once RuleOf said kTranspose).
const std::vector<int64_t>& TransposePermutation(
    const Instruction& instruction);
// get-tuple-element's `index` (valid once RuleOf said kGetTupleElement).
int64_t TupleIndex(const Instruction& instruction);

}  // namespace layout_internal
}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_RULES_H_
