// Internal to layout-assignment: the module-level driver (callee interfaces,
// clones) and the per-computation assigner (layout_assignment_computation.cc).
#ifndef KILN_PASSES_LAYOUT_ASSIGNMENT_INTERNAL_H_
#define KILN_PASSES_LAYOUT_ASSIGNMENT_INTERNAL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/ir/shape.h"
#include "passes/layout_constraints.h"

namespace kiln {
namespace layout_internal {

// The layouts a computation was assigned at its boundary.
struct Interface {
  std::vector<Shape> parameters;
  Shape result;
};

// What a computation is asked for: its parameters' layouts, and either a
// root layout it must end with or one it should prefer (partial layouts:
// array leaves without a layout are free).
struct Request {
  std::vector<Shape> parameters;
  std::optional<Shape> required_root;
  std::optional<Shape> preferred_root;
};

class ModuleAssigner {
 public:
  ModuleAssigner(Module& module, const LayoutConstraints* constraints)
      : module_(module), constraints_(constraints) {}

  // Assigns every computation; returns whether anything changed.
  absl::StatusOr<bool> Run();

  // Assigns `computation` (not yet assigned) as `request` asks, and the
  // callees it reaches first; recursion through calls is an error. The
  // callees are assigned from an explicit stack (no recursion per nesting
  // level).
  absl::Status Assign(Computation* computation, const Request& request);
  // The interface of an assigned computation, or null.
  const Interface* Assigned(const Computation* computation) const;
  // A fresh copy of `computation` (and its callees) to assign differently.
  absl::StatusOr<Computation*> Clone(Computation* computation);

  const LayoutConstraints* constraints() const { return constraints_; }
  void MarkChanged() { changed_ = true; }

 private:
  absl::StatusOr<Request> EntryRequest() const;
  // Records an assigned computation's interface.
  void Record(const Computation* computation);

  Module& module_;
  const LayoutConstraints* constraints_;
  absl::flat_hash_map<const Computation*, Interface> assigned_;
  absl::flat_hash_set<const Computation*> in_progress_;
  bool changed_ = false;
};

// A computation's parameters as they are (missing layouts defaulted), and
// its root required to stay as it is: the request for computations whose
// callers do not pass layouts through (reduce, sort, map, async, ...).
Request KeepInterfaceRequest(const Computation& computation);

// "layout-assignment: <what> (<rule>)": every error the pass reports.
absl::Status PassError(const std::string& what);

}  // namespace layout_internal
}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_ASSIGNMENT_INTERNAL_H_
