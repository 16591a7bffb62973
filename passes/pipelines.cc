#include "passes/pipelines.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "passes/algebraic_simplifier.h"
#include "passes/broadcast_legalization.h"
#include "passes/call_inliner.h"
#include "passes/constant_folding.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/fusion.h"
#include "passes/fusion_policy.h"
#include "passes/gather_simplification.h"
#include "passes/layout_assignment.h"
#include "passes/scatter_simplification.h"
#include "passes/tuple_simplification.h"
#include "passes/zero_sized_elimination.h"

namespace kiln {
namespace {

// The local simplifications and cleanups, repeated until nothing changes:
// each can expose work for the others (a folded constant makes an
// algebraic identity match, which leaves dead code, ...).
std::unique_ptr<Pass> SimplifyToFixedPoint(std::string name) {
  auto body = std::make_unique<PassPipeline>(std::move(name));
  body->AddPass(std::make_unique<AlgebraicSimplifierPass>());
  body->AddPass(std::make_unique<TupleSimplificationPass>());
  body->AddPass(std::make_unique<ConstantFoldingPass>());
  body->AddPass(std::make_unique<CsePass>());
  body->AddPass(std::make_unique<ZeroSizedEliminationPass>());
  body->AddPass(std::make_unique<DcePass>());
  return std::make_unique<FixedPoint>(std::move(body));
}

}  // namespace

std::unique_ptr<PassPipeline> MakeDefaultPipeline() {
  auto pipeline = std::make_unique<PassPipeline>("default");
  pipeline->AddPass(std::make_unique<BroadcastLegalizationPass>());
  pipeline->AddPass(SimplifyToFixedPoint("simplify"));
  // The cleanups are the fixed point the module is already at, unless
  // gather/scatter canonicalization changed something.
  auto canonicalize = std::make_unique<PassPipeline>("canonicalize");
  canonicalize->AddPass(std::make_unique<GatherSimplificationPass>());
  canonicalize->AddPass(std::make_unique<ScatterSimplificationPass>());
  pipeline->AddPass(std::make_unique<IfChanged>(
      std::move(canonicalize), SimplifyToFixedPoint("cleanups")));
  return pipeline;
}

absl::StatusOr<std::unique_ptr<PassPipeline>> MakeBackendPipeline(
    absl::string_view backend) {
  absl::StatusOr<std::unique_ptr<Pass>> layout =
      MakeLayoutAssignmentPass(backend);
  if (!layout.ok()) return layout.status();
  absl::StatusOr<std::unique_ptr<Pass>> fusion =
      MakeFusionPassForBackend(backend);
  if (!fusion.ok()) return fusion.status();
  auto pipeline = std::make_unique<PassPipeline>(std::string(backend));
  // Calls first: the cleanups and fusion then see through them.
  pipeline->AddPass(std::make_unique<CallInlinerPass>());
  pipeline->AddPass(MakeDefaultPipeline());
  pipeline->AddPass(*std::move(layout));
  pipeline->AddPass(*std::move(fusion));
  pipeline->AddPass(std::make_unique<DcePass>());
  return pipeline;
}

namespace {

// Registered factories cannot return errors; `cpu` and `gpu` register their
// constraints and policies in this library, so a failure here is a build
// mistake, reported when the pipeline runs.
class BrokenPipelinePass : public Pass {
 public:
  BrokenPipelinePass(std::string name, absl::Status error)
      : name_(std::move(name)), error_(std::move(error)) {}
  absl::string_view name() const override { return name_; }
  absl::StatusOr<bool> Run(Module&) override { return error_; }

 private:
  std::string name_;
  absl::Status error_;
};

std::unique_ptr<PassPipeline> BackendPipelineOrFailingPass(
    absl::string_view backend) {
  absl::StatusOr<std::unique_ptr<PassPipeline>> pipeline =
      MakeBackendPipeline(backend);
  if (pipeline.ok()) return *std::move(pipeline);
  auto broken = std::make_unique<PassPipeline>(std::string(backend));
  broken->AddPass(std::make_unique<BrokenPipelinePass>(
      absl::StrCat(backend, "-pipeline"), pipeline.status()));
  return broken;
}

}  // namespace

KILN_REGISTER_PIPELINE(default_pipeline, "default", MakeDefaultPipeline);
KILN_REGISTER_PIPELINE(cpu_pipeline, "cpu",
                       [] { return BackendPipelineOrFailingPass("cpu"); });
KILN_REGISTER_PIPELINE(gpu_pipeline, "gpu",
                       [] { return BackendPipelineOrFailingPass("gpu"); });

}  // namespace kiln
