// Internal to layout-assignment: the per-computation assigner. Its sweeps
// and rules are in layout_assignment_computation.cc; resolving deferred
// layouts, copies, calls, the root and the bitcast rewrite are in
// layout_assignment_graph.cc.
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
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

// What the sweeps know about one original instruction. Kept in a dense
// vector indexed by post-order position (see ComputationAssigner::infos_):
// at 100k instructions a pointer-keyed map of these was the pass's main
// cost (cache misses and page faults), so the struct stays small and what
// most instructions lack lives elsewhere or is built on demand.
struct Info {
  Rule rule = Rule::kGeneric;
  bool pending = false;  // A free array waiting for a user to pick.
  // layout_util::HasOnlyPlainLayouts(original), memoized for RuleOf: a wide
  // tuple read by many get-tuple-elements must be walked only once.
  bool plain = true;
  // Index of the backend's (non-empty) requirement in requirements_, or -1.
  int32_t requirement = -1;
  // The shape before the pass, missing layouts defaulted (OriginalShape()).
  // An array with a plain layout (nearly all) keeps only its
  // minor_to_major, at original_layouts_[original, original + rank): the
  // pass changes layouts only, and a Shape copy per instruction cost three
  // allocations. Anything else is kept whole at original_shapes_[original].
  bool original_is_shape = false;
  int32_t original = -1;
  // Layouts its users (or the caller) ask for; partial. Null until some
  // user asks, which means the shape without layouts: an instruction no
  // user asks anything of never pays for a Shape copy.
  std::unique_ptr<Shape> preferred;
};

class ComputationAssigner {
 public:
  ComputationAssigner(ModuleAssigner& module, Computation* computation,
                      Request request)
      : module_(module),
        computation_(computation),
        request_(std::move(request)) {}

  // A callee that must be assigned before the assigner can go on.
  struct Wait {
    Computation* callee;
    Request request;
  };

  // Runs until the computation is assigned (true) or until an instruction
  // calls a computation not assigned yet (false; TakeWait() says which).
  // The caller assigns that callee, then calls Resume again, which re-runs
  // the waiting instruction's step; that step finds the callee assigned.
  // Nesting is thus followed on the caller's explicit stack
  // (ModuleAssigner::Assign), not by recursion: a chain of thousands of
  // nested calls, whiles or conditionals cannot overflow the stack.
  absl::StatusOr<bool> Resume();
  Wait TakeWait() { return *std::exchange(wait_, std::nullopt); }
  Computation* computation() const { return computation_; }

 private:
  absl::Status Finish();
  // Stops the current instruction's step until `callee` is assigned.
  absl::Status WaitFor(Computation* callee, Request request);
  // Whether `callee` was assigned while the current instruction waited:
  // its interface is then the one this instruction asked for, and the
  // re-run step must take it as its own fresh assignment (no clone).
  bool AssignedForCurrent(const Computation* callee) const {
    return assigned_for_current_.contains(callee);
  }

  absl::Status Prepare();
  absl::Status PrepareInstruction(Instruction* instruction, Info& info);
  absl::Status CheckRequirement(const Instruction& instruction,
                                const LayoutRequirement& requirement) const;
  void CollectPreferences();
  void PushDemands(const Instruction& user, const Info& info);
  void Demand(const Instruction& user, const Info& info, int64_t k,
              Info& operand_info);

  absl::Status Process(Instruction* instruction, Info& info);
  absl::Status ProcessElementwise(Instruction* instruction, Info& info);
  absl::Status ProcessDeferrable(Instruction* instruction, Info& info);
  absl::Status ProcessTranspose(Instruction* instruction, const Info& info);
  absl::Status ProcessReshape(Instruction* instruction, const Info& info);
  absl::Status ProcessReduce(Instruction* instruction, const Info& info);
  absl::Status ProcessCall(Instruction* instruction, const Info& info,
                           absl::string_view attr);
  absl::Status ProcessWhile(Instruction* instruction);
  absl::Status ProcessConditional(Instruction* instruction, const Info& info);
  absl::Status FinishRoot();
  absl::Status ResolveRemaining();
  absl::Status RewriteBitcasts();
  void NoteChanges();

  // Records the instruction's shape as it is before the pass (Info::original).
  void RecordOriginal(const Shape& shape, Info& info);
  // The original shape (a copy), and its layout when it is an array.
  Shape OriginalShape(const Instruction& instruction, const Info& info) const;
  Layout OriginalLayout(const Instruction& instruction, const Info& info) const;
  // Whether `instruction`'s shape (layouts all set) differs from its original.
  bool ChangedFromOriginal(const Instruction& instruction,
                           const Info& info) const;
  // The backend's requirement for an instruction (empty when none).
  const LayoutRequirement& RequirementOf(const Info& info) const;
  // The layout the instruction's users (or its backend result constraint)
  // want for it, when it is an array; null when none. Points into infos_
  // or requirements_, which are not modified after CollectPreferences().
  const Layout* Wanted(const Instruction& instruction, const Info& info) const;
  // The preferred shape (partial layouts) as a value, for a callee request.
  static Shape PreferredShape(const Instruction& instruction, const Info& info);
  // The preference to write into, built on first use.
  static Shape* MutablePreferred(const Instruction& instruction, Info& info);
  bool IsPending(const Instruction* instruction) const;
  // Null for instructions the pass added (copies, tuples, bitcasts).
  Info* InfoOf(const Instruction* instruction);
  const Info* InfoOf(const Instruction* instruction) const;
  void Decide(Instruction* instruction, const Layout& layout);
  void FillFromPreference(Instruction* instruction, const Info& info);
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
  const Request request_;
  // Resume state: the next instruction (post-order position) to process,
  // the callee it waits for, and the callees assigned for it so far.
  bool prepared_ = false;
  size_t next_ = 0;
  std::optional<Wait> wait_;
  absl::flat_hash_set<const Computation*> assigned_for_current_;
  std::vector<Instruction*> post_order_;
  // infos_[i] describes post_order_[i]; index_ maps an original
  // instruction to its position (instructions the pass adds have none).
  std::vector<Info> infos_;
  absl::flat_hash_map<const Instruction*, int32_t> index_;
  // Where Info::original points.
  std::vector<int64_t> original_layouts_;
  std::vector<Shape> original_shapes_;
  // The non-empty backend requirements (few instructions have one).
  std::vector<LayoutRequirement> requirements_;
  absl::flat_hash_map<std::pair<const Instruction*, std::string>, Instruction*>
      conversions_;
};

}  // namespace layout_internal
}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_COMPUTATION_H_
