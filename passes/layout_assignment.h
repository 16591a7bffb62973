// layout-assignment: gives every array in the module a layout, honouring
// the module's entry_computation_layout and a backend's LayoutConstraints
// (layout_constraints.h), with as few copies as it can, then turns the
// reshapes and transposes that move no byte into `bitcast`.
//
// How (docs/passes_catalog.md has the rules in full):
//   1. Per computation, a backward sweep (users before operands) collects
//      each value's preferred layout from hard requirements: the entry
//      result, backend constraints, operands of instructions kept as they
//      are, passed back through elementwise ops, transposes (permuted),
//      reshapes (when a bitcast layout exists), tuples and
//      get-tuple-elements.
//   2. A forward sweep (operands before users) decides each layout:
//      elementwise ops take the layout most of their operands and their
//      preference share; transposes and reshapes absorb their operand's
//      layout so that they become bitcasts; free producers (constant,
//      iota, broadcast, rng) wait for their first user to ask. A `copy` is
//      inserted wherever a value reaches an operand that needs another
//      layout (one copy per value and layout).
//   3. Called computations get their parameter layouts from the caller's
//      operands (call, fusion, while, conditional); other callees (reduce,
//      sort, map, ... and async/custom-call bodies) keep their interface.
//
// Instructions kept exactly as they are (their operands are copied back to
// their old layouts when needed): bitcast, custom-call, infeed, outfeed,
// send/recv and their dones, async and copy-start/-done ops, the
// start/done collectives, collectives with constrain_layout=true, and any
// instruction whose shape or operands carry layout extras (tiles, E(n),
// S(n), ...), which Kiln does not reassign.
//
// Linear in module size: two sweeps per computation, O(rank) work per
// operand edge, copies cached per (value, layout).
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/module.h"
#include "compiler/pass/pass.h"
#include "passes/layout_constraints.h"

namespace kiln {

class LayoutAssignmentPass : public Pass {
 public:
  // Registered as "layout-assignment": no backend constraints, only the
  // entry layout.
  LayoutAssignmentPass() = default;
  explicit LayoutAssignmentPass(
      std::shared_ptr<const LayoutConstraints> constraints)
      : constraints_(std::move(constraints)) {}

  absl::string_view name() const override { return "layout-assignment"; }
  absl::StatusOr<bool> Run(Module& module) override;

  // Null when the pass runs without backend constraints.
  const LayoutConstraints* constraints() const { return constraints_.get(); }

 private:
  std::shared_ptr<const LayoutConstraints> constraints_;
};

// The pass with `constraints` (may be null: no backend constraints).
std::unique_ptr<Pass> MakeLayoutAssignmentPass(
    std::shared_ptr<const LayoutConstraints> constraints);
// The pass with the constraint set registered as `backend` ("cpu", "gpu");
// an error naming the registered sets when there is none.
absl::StatusOr<std::unique_ptr<Pass>> MakeLayoutAssignmentPass(
    absl::string_view backend);

}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_H_
