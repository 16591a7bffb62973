// Internal to layout-assignment: the per-computation assigner. Its sweeps
// and rules are in layout_assignment_computation.cc; resolving deferred
// layouts, copies, calls, the root and the bitcast rewrite are in
// layout_assignment_graph.cc.
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "passes/layout_assignment_internal.h"
#include "passes/layout_assignment_rules.h"
#include "passes/layout_constraints.h"

namespace kiln {
namespace layout_internal {

// Copies the layouts of `from`'s array leaves onto `to` (same structure);
// leaves of `from` without a layout leave `to` alone.
void CopyLayouts(const Shape& from, Shape* to);
// Fills the array leaves of `to` that have no layout from `from`.
void MergeLayouts(const Shape& from, Shape* to);
// Whether `actual` has `target`'s layout at every array leaf where
// `target` has one.
bool LayoutsMatch(const Shape& actual, const Shape& target);
Shape WithLayout(Shape shape, const Layout& layout);
// Gives the array `to` `layout` if it has none yet (and the rank fits).
void MergeLayout(const Layout& layout, Shape* to);
// Same dimensions (and dynamism), element types aside.
bool SameDimensions(const Shape& a, const Shape& b);

// What the sweeps know about one original instruction.
struct Info {
  Rule rule = Rule::kGeneric;
  Shape original;   // The shape before the pass, missing layouts defaulted.
  Shape preferred;  // Layouts its users (or the caller) ask for; partial.
  LayoutRequirement requirement;  // The backend's.
  bool pending = false;           // A free array waiting for a user to pick.
};

class ComputationAssigner {
 public:
  ComputationAssigner(ModuleAssigner& module, Computation* computation,
                      const Request& request)
      : module_(module), computation_(computation), request_(request) {}

  absl::Status Run();

 private:
  absl::Status Prepare();
  absl::Status CheckRequirement(const Instruction& instruction,
                                const LayoutRequirement& requirement) const;
  void CollectPreferences();
  void PushDemands(const Instruction& user);
  void Demand(const Instruction& user, int64_t k, Shape* target);

  absl::Status Process(Instruction* instruction);
  absl::Status ProcessElementwise(Instruction* instruction);
  absl::Status ProcessDeferrable(Instruction* instruction);
  absl::Status ProcessTranspose(Instruction* instruction);
  absl::Status ProcessReshape(Instruction* instruction);
  absl::Status ProcessReduce(Instruction* instruction);
  absl::Status ProcessCall(Instruction* instruction, absl::string_view attr);
  absl::Status ProcessWhile(Instruction* instruction);
  absl::Status ProcessConditional(Instruction* instruction);
  absl::Status FinishRoot();
  absl::Status ResolveRemaining();
  absl::Status RewriteBitcasts();
  void NoteChanges();

  // The layout the instruction's users (or its backend result constraint)
  // want for it, when it is an array; null when none. Points into info_,
  // which is not modified after Prepare().
  const Layout* Wanted(const Instruction& instruction) const;
  bool IsPending(const Instruction* instruction) const;
  Info* InfoOf(const Instruction* instruction);
  void Decide(Instruction* instruction, const Layout& layout);
  void FillFromPreference(Instruction* instruction);
  // Decides a pending array with `layout` and passes it on to the pending
  // operands that must share it (a worklist, no recursion).
  absl::Status Resolve(Instruction* instruction, const Layout& layout);
  // The operand's shape with its layouts decided (pending ones defaulted).
  absl::StatusOr<const Shape*> Decided(Instruction* instruction);
  // Makes operand `k` of `user` arrive with `target`'s layouts: resolves a
  // pending operand, or inserts (or reuses) a copy.
  absl::Status Require(Instruction* user, int64_t k, const Shape& target);
  absl::Status RequireLayout(Instruction* user, int64_t k,
                             const Layout& layout);
  absl::StatusOr<Instruction*> ConvertTo(Instruction* value,
                                         const Shape& target,
                                         const Instruction* before);
  Instruction* Insert(std::unique_ptr<Instruction> instruction,
                      const Instruction* before);

  ModuleAssigner& module_;
  Computation* computation_;
  const Request& request_;
  std::vector<Instruction*> post_order_;
  absl::flat_hash_map<const Instruction*, Info> info_;
  absl::flat_hash_map<std::pair<const Instruction*, std::string>, Instruction*>
      conversions_;
};

}  // namespace layout_internal
}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_
