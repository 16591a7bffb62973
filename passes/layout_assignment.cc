#include "passes/layout_assignment.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "passes/layout_assignment_computation.h"
#include "passes/layout_assignment_internal.h"

namespace kiln {
namespace layout_internal {

absl::Status PassError(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("layout-assignment: ", what));
}

Request KeepInterfaceRequest(const Computation& computation) {
  Request request;
  for (const Instruction* parameter : computation.parameters()) {
    Shape shape = parameter->shape();
    shape.SetDefaultLayoutIfMissing();
    request.parameters.push_back(std::move(shape));
  }
  if (computation.root() != nullptr) {
    Shape root = computation.root()->shape();
    root.SetDefaultLayoutIfMissing();
    request.required_root = std::move(root);
  }
  return request;
}

namespace {

// `declared` (entry layout) with minor_to_major laid over `own` (the
// instruction's shape, whose other layout fields stay), leaf by leaf.
Shape OverlayMinorToMajor(const Shape& declared, Shape own) {
  if (own.IsTuple() && declared.IsTuple() &&
      own.tuple_size() == declared.tuple_size()) {
    for (int64_t i = 0; i < own.tuple_size(); ++i) {
      (*own.mutable_tuple_shapes())[i] =
          OverlayMinorToMajor(declared.tuple_shape(i), own.tuple_shape(i));
    }
    return own;
  }
  if (!own.IsArray() || !declared.IsArray() || !declared.has_layout()) {
    return own;
  }
  if (!own.has_layout()) {
    own.set_layout(Layout(declared.layout().minor_to_major()));
  } else {
    *own.mutable_layout()->mutable_minor_to_major() =
        declared.layout().minor_to_major();
  }
  return own;
}

}  // namespace

absl::StatusOr<Request> ModuleAssigner::EntryRequest() const {
  const Computation& entry = *module_.entry();
  Request request = KeepInterfaceRequest(entry);
  const auto& declared = module_.config().entry_computation_layout;
  if (!declared.has_value()) return request;
  if (declared->parameters.size() != entry.parameters().size()) {
    return PassError(absl::StrCat(
        "entry_computation_layout has ", declared->parameters.size(),
        " parameters but the entry computation has ", entry.parameters().size(),
        " (layout.entry)"));
  }
  for (size_t i = 0; i < declared->parameters.size(); ++i) {
    const Shape& shape = declared->parameters[i];
    if (!shape.Compatible(request.parameters[i]) || !shape.Validate().ok()) {
      return PassError(
          absl::StrCat("entry_computation_layout parameter ", i, " ",
                       shape.ToString(), " does not fit entry parameter ",
                       request.parameters[i].ToString(), " (layout.entry)"));
    }
    request.parameters[i] =
        OverlayMinorToMajor(shape, std::move(request.parameters[i]));
  }
  if (request.required_root.has_value()) {
    if (!declared->result.Compatible(*request.required_root) ||
        !declared->result.Validate().ok()) {
      return PassError(absl::StrCat(
          "entry_computation_layout result ", declared->result.ToString(),
          " does not fit the entry's ROOT ", request.required_root->ToString(),
          " (layout.entry)"));
    }
    request.required_root = OverlayMinorToMajor(
        declared->result, std::move(*request.required_root));
  }
  return request;
}

absl::StatusOr<bool> ModuleAssigner::Run() {
  if (module_.entry() != nullptr) {
    absl::StatusOr<Request> entry = EntryRequest();
    if (!entry.ok()) return entry.status();
    absl::Status status = Assign(module_.entry(), *entry);
    if (!status.ok()) return status;
  }
  // Computations no assigned caller passed layouts to: reduce/sort/map
  // bodies, async and custom-call bodies, dead computations.
  for (Computation* computation : module_.computations()) {
    if (assigned_.contains(computation)) continue;
    absl::Status status =
        Assign(computation, KeepInterfaceRequest(*computation));
    if (!status.ok()) return status;
  }
  return changed_;
}

absl::Status ModuleAssigner::Assign(Computation* computation,
                                    const Request& request) {
  // One assigner per computation in the chain being assigned; the top one
  // runs until it is done or waits for a callee, which is pushed above it.
  std::vector<std::unique_ptr<ComputationAssigner>> stack;
  auto push = [&](Computation* callee, Request callee_request) {
    if (!in_progress_.insert(callee).second) {
      return PassError(absl::StrCat("computation ", callee->name(),
                                    " calls itself (structure.call_graph)"));
    }
    stack.push_back(std::make_unique<ComputationAssigner>(
        *this, callee, std::move(callee_request)));
    return absl::OkStatus();
  };
  absl::Status status = push(computation, request);
  while (status.ok() && !stack.empty()) {
    absl::StatusOr<bool> done = stack.back()->Resume();
    if (!done.ok()) {
      status = done.status();
    } else if (*done) {
      Computation* finished = stack.back()->computation();
      in_progress_.erase(finished);
      Record(finished);
      stack.pop_back();
    } else {
      ComputationAssigner::Wait wait = stack.back()->TakeWait();
      status = push(wait.callee, std::move(wait.request));
    }
  }
  for (const auto& assigner : stack) {
    in_progress_.erase(assigner->computation());
  }
  return status;
}

void ModuleAssigner::Record(const Computation* computation) {
  Interface interface;
  for (const Instruction* parameter : computation->parameters()) {
    interface.parameters.push_back(parameter->shape());
  }
  if (computation->root() != nullptr) {
    interface.result = computation->root()->shape();
  }
  assigned_[computation] = std::move(interface);
}

const Interface* ModuleAssigner::Assigned(
    const Computation* computation) const {
  auto it = assigned_.find(computation);
  return it == assigned_.end() ? nullptr : &it->second;
}

absl::StatusOr<Computation*> ModuleAssigner::Clone(Computation* computation) {
  changed_ = true;
  return module_.CloneComputation(computation, ".layout");
}

}  // namespace layout_internal

absl::StatusOr<bool> LayoutAssignmentPass::Run(Module& module) {
  layout_internal::ModuleAssigner assigner(module, constraints_.get());
  return assigner.Run();
}

std::unique_ptr<Pass> MakeLayoutAssignmentPass(
    std::shared_ptr<const LayoutConstraints> constraints) {
  return std::make_unique<LayoutAssignmentPass>(std::move(constraints));
}

absl::StatusOr<std::unique_ptr<Pass>> MakeLayoutAssignmentPass(
    absl::string_view backend) {
  std::shared_ptr<const LayoutConstraints> constraints =
      LayoutConstraintsRegistry::Global().Create(backend);
  if (constraints == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "layout-assignment: no layout constraints registered as '", backend,
        "' (registered: ",
        absl::StrJoin(LayoutConstraintsRegistry::Global().Names(), ", "), ")"));
  }
  return MakeLayoutAssignmentPass(std::move(constraints));
}

KILN_REGISTER_PASS(LayoutAssignmentPass);

}  // namespace kiln
